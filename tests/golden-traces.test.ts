/**
 * Golden traces: the full EvalResult of key cases, stored in tests/golden/traces.json.
 * A change to any step, bit or rule text shows up as a diff here. Regenerate deliberately with
 * `UPDATE_GOLDEN=1 npx vitest run tests/golden-traces.test.ts` and review the diff.
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { evaluate, type EvalInput } from '../src/engine/index.ts';

const FILE = fileURLToPath(new URL('./golden/traces.json', import.meta.url));

const CASES: { name: string; instr: string; input: EvalInput }[] = [
  { name: '1 + 1', instr: 'add.f16', input: { a: 0x3c00, b: 0x3c00 } },
  { name: 'round up: 1 + (2^-11 + 2^-21)', instr: 'add.f16', input: { a: 0x3c00, b: 0x1001 } },
  { name: 'tie to even', instr: 'add.rn.f16', input: { a: 0x3c00, b: 0x1000 } },
  { name: 'overflow to inf', instr: 'add.f16', input: { a: 0x7bff, b: 0x7bff } },
  { name: 'gradual underflow', instr: 'mul.f16', input: { a: 0x0200, b: 0x3800 } },
  { name: 'ftz flushes inputs and result', instr: 'mul.ftz.f16', input: { a: 0x0200, b: 0x3c00 } },
  { name: 'exact zero sum is +0', instr: 'sub.f16', input: { a: 0x3c00, b: 0x3c00 } },
  { name: 'sat clamps 2 to 1', instr: 'add.sat.f16x2', input: { a: 0x3c00bc00, b: 0x3c003c00 } },
  { name: 'fma rounds once', instr: 'fma.rn.f16', input: { a: 0x3c01, b: 0x3c01, c: 0xbc02 } },
  {
    name: 'fma relu bf16x2',
    instr: 'fma.rn.relu.bf16x2',
    input: { a: 0x3f80bf80, b: 0x3f803f80, c: 0x3f003f00 },
  },
  {
    name: 'fma oob lane 1',
    instr: 'fma.rn.oob.relu.bf16x2',
    input: { a: 0x3f803f80, b: 0x3f803f80, c: 0, oob: { a: [false, true] } },
  },
  { name: 'NaN operand', instr: 'fma.rn.bf16', input: { a: 0x7fc1, b: 0x3f80, c: 0 } },
  { name: '0 × inf', instr: 'mul.bf16', input: { a: 0x0000, b: 0xff80 } },
  { name: 'min -0 < +0', instr: 'min.f16', input: { a: 0x0000, b: 0x8000 } },
  { name: 'max.NaN', instr: 'max.NaN.bf16', input: { a: 0x7fc0, b: 0x3f80 } },
  { name: 'min.xorsign.abs', instr: 'min.xorsign.abs.f16', input: { a: 0xc000, b: 0x3c00 } },
  { name: 'neg NaN', instr: 'neg.bf16', input: { a: 0xffc1 } },
  { name: 'abs.ftz subnormal', instr: 'abs.ftz.f16', input: { a: 0x8001 } },
  { name: 'tanh(1)', instr: 'tanh.approx.f16', input: { a: 0x3c00 } },
  { name: 'tanh(-inf) table', instr: 'tanh.approx.bf16', input: { a: 0xff80 } },
  { name: 'ex2 subnormal input bf16', instr: 'ex2.approx.ftz.bf16', input: { a: 0x8001 } },
  { name: 'ex2(-16) f16', instr: 'ex2.approx.f16x2', input: { a: 0xcc003c00 } },
  { name: 'mixed add rm exact zero', instr: 'add.rm.f32.f16', input: { a: 0x3c00, c: 0xbf800000 } },
  {
    name: 'mixed fma rz',
    instr: 'fma.rz.f32.bf16',
    input: { a: 0x3f81, b: 0x3f81, c: 0x33800000 },
  },
  { name: 'mixed sub sat', instr: 'sub.rp.sat.f32.bf16', input: { a: 0x4000, c: 0x3f800001 } },
];

describe('golden traces', () => {
  const actual = Object.fromEntries(
    CASES.map((c) => [
      c.name,
      { instr: c.instr, input: c.input, result: evaluate(c.instr, c.input) },
    ]),
  );
  if (process.env.UPDATE_GOLDEN || !existsSync(FILE))
    writeFileSync(FILE, `${JSON.stringify(actual, null, 1)}\n`);
  const golden = JSON.parse(readFileSync(FILE, 'utf8')) as typeof actual;

  it('the golden file has exactly these cases', () => {
    expect(Object.keys(golden).sort()).toEqual(Object.keys(actual).sort());
  });
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (name) => {
    expect(JSON.parse(JSON.stringify(actual[name]))).toEqual(golden[name]);
  });
});
