/**
 * Golden traces: the full EvalResult of key cases, stored in tests/golden/traces.json.
 * A change to any step, bit or rule text shows up as a diff here. The file is only ever written
 * on request: a missing file, a missing entry or an entry for a case no longer listed fails.
 * Regenerate deliberately, then review the diff before committing it:
 *
 *   PTXF_UPDATE_GOLDEN=1 npx vitest run tests/golden-traces.test.ts
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { evaluate, type EvalInput } from '../src/engine/index.ts';

const FILE = fileURLToPath(new URL('./golden/traces.json', import.meta.url));
const UPDATE = process.env.PTXF_UPDATE_GOLDEN === '1';
const HOW_TO_UPDATE =
  'run `PTXF_UPDATE_GOLDEN=1 npx vitest run tests/golden-traces.test.ts` and review the diff';

const CASES: { name: string; instr: string; input: EvalInput }[] = [
  { name: '1 + 1', instr: 'add.f16', input: { a: 0x3c00, b: 0x3c00 } },
  { name: 'round up: 1 + (2^-11 + 2^-21)', instr: 'add.f16', input: { a: 0x3c00, b: 0x1001 } },
  { name: 'tie to even', instr: 'add.rn.f16', input: { a: 0x3c00, b: 0x1000 } },
  { name: 'overflow to inf', instr: 'add.f16', input: { a: 0x7bff, b: 0x7bff } },
  { name: 'gradual underflow', instr: 'mul.f16', input: { a: 0x0200, b: 0x3800 } },
  {
    name: 'tiny, rounds to the smallest normal',
    instr: 'mul.f16',
    input: { a: 0x0fff, b: 0x3000 },
  },
  {
    name: 'overflow past the exponent range, .rz',
    instr: 'add.rz.f32.bf16',
    input: { a: 0x7f00, c: 0x7f000000 },
  },
  {
    name: 'ftz: a normal rounding of a tiny value is flushed',
    instr: 'mul.ftz.f16',
    input: { a: 0x3bff, b: 0x0400 },
  },
  { name: 'ex2 beyond the format', instr: 'ex2.approx.f16', input: { a: 0x7bff } },
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
  if (UPDATE) {
    writeFileSync(FILE, `${JSON.stringify(actual, null, 1)}\n`);
    console.warn(`golden traces: PTXF_UPDATE_GOLDEN=1 wrote ${FILE}; review the diff`);
  }
  const golden = existsSync(FILE)
    ? (JSON.parse(readFileSync(FILE, 'utf8')) as Partial<typeof actual>)
    : null;

  it('the golden file exists', () => {
    expect(golden, `${FILE} is missing: to create it, ${HOW_TO_UPDATE}`).not.toBeNull();
  });
  it('the golden file holds no case that is no longer listed', () => {
    const stale = Object.keys(golden ?? {}).filter((name) => !(name in actual));
    expect(stale, `entries without a case (to drop them, ${HOW_TO_UPDATE})`).toEqual([]);
  });
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (name) => {
    const want = golden?.[name];
    if (want === undefined)
      throw new Error(`${FILE} has no entry for "${name}": to add it, ${HOW_TO_UPDATE}`);
    expect(JSON.parse(JSON.stringify(actual[name]))).toEqual(want);
  });
});
