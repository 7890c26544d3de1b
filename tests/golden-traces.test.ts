/**
 * Golden traces: the pipeline's full EvalResult of key cases, stored in tests/golden/traces.json
 * — the arithmetic's and one of each cvt family. A change to any step, bit or rule text shows up
 * as a diff here. The file is only ever written on request: a missing file, a missing entry or
 * an entry for a case no longer listed fails. Regenerate deliberately, then review the diff
 * before committing it:
 *
 *   PTXF_UPDATE_GOLDEN=1 npx vitest run tests/golden-traces.test.ts
 *
 * (tests/golden/map-old-traces.ts showed, case by case, what the move from the old evaluator's
 * format to this one changed.)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { EngineOptions } from '../src/engine/options.ts';
import { evaluate, type Registers } from '../src/engine/pipeline.ts';

const FILE = fileURLToPath(new URL('./golden/traces.json', import.meta.url));
const UPDATE = process.env.PTXF_UPDATE_GOLDEN === '1';
const HOW_TO_UPDATE =
  'run `PTXF_UPDATE_GOLDEN=1 npx vitest run tests/golden-traces.test.ts` and review the diff';

interface Case {
  readonly name: string;
  readonly instr: string;
  readonly registers: Registers;
  readonly options?: Partial<EngineOptions>;
}

const CASES: readonly Case[] = [
  { name: '1 + 1', instr: 'add.f16', registers: { a: 0x3c00n, b: 0x3c00n } },
  {
    name: 'round up: 1 + (2^-11 + 2^-21)',
    instr: 'add.f16',
    registers: { a: 0x3c00n, b: 0x1001n },
  },
  { name: 'tie to even', instr: 'add.rn.f16', registers: { a: 0x3c00n, b: 0x1000n } },
  { name: 'overflow to inf', instr: 'add.f16', registers: { a: 0x7bffn, b: 0x7bffn } },
  { name: 'gradual underflow', instr: 'mul.f16', registers: { a: 0x0200n, b: 0x3800n } },
  {
    name: 'tiny, rounds to the smallest normal',
    instr: 'mul.f16',
    registers: { a: 0x0fffn, b: 0x3000n },
  },
  {
    name: 'overflow past the exponent range, .rz',
    instr: 'add.rz.f32.bf16',
    registers: { a: 0x7f00n, c: 0x7f000000n },
  },
  {
    name: 'ftz: a normal rounding of a tiny value is flushed',
    instr: 'mul.ftz.f16',
    registers: { a: 0x3bffn, b: 0x0400n },
  },
  { name: 'ex2 beyond the format', instr: 'ex2.approx.f16', registers: { a: 0x7bffn } },
  {
    name: 'ftz flushes inputs and result',
    instr: 'mul.ftz.f16',
    registers: { a: 0x0200n, b: 0x3c00n },
  },
  { name: 'exact zero sum is +0', instr: 'sub.f16', registers: { a: 0x3c00n, b: 0x3c00n } },
  {
    name: 'sat clamps 2 to 1',
    instr: 'add.sat.f16x2',
    registers: { a: 0x3c00bc00n, b: 0x3c003c00n },
  },
  {
    name: 'fma rounds once',
    instr: 'fma.rn.f16',
    registers: { a: 0x3c01n, b: 0x3c01n, c: 0xbc02n },
  },
  {
    name: 'fma relu bf16x2',
    instr: 'fma.rn.relu.bf16x2',
    registers: { a: 0x3f80bf80n, b: 0x3f803f80n, c: 0x3f003f00n },
  },
  {
    // Lane 1 of a holds the OOB-NaN pattern.
    name: 'fma oob lane 1',
    instr: 'fma.rn.oob.relu.bf16x2',
    registers: { a: 0x7ff73f80n, b: 0x3f803f80n, c: 0n },
  },
  { name: 'NaN operand', instr: 'fma.rn.bf16', registers: { a: 0x7fc1n, b: 0x3f80n, c: 0n } },
  { name: '0 × inf', instr: 'mul.bf16', registers: { a: 0x0000n, b: 0xff80n } },
  { name: 'min -0 < +0', instr: 'min.f16', registers: { a: 0x0000n, b: 0x8000n } },
  { name: 'max.NaN', instr: 'max.NaN.bf16', registers: { a: 0x7fc0n, b: 0x3f80n } },
  {
    name: 'min.xorsign.abs',
    instr: 'min.xorsign.abs.f16',
    registers: { a: 0xc000n, b: 0x3c00n },
  },
  { name: 'neg NaN', instr: 'neg.bf16', registers: { a: 0xffc1n } },
  { name: 'abs.ftz subnormal', instr: 'abs.ftz.f16', registers: { a: 0x8001n } },
  { name: 'tanh(1)', instr: 'tanh.approx.f16', registers: { a: 0x3c00n } },
  { name: 'tanh(-inf) table', instr: 'tanh.approx.bf16', registers: { a: 0xff80n } },
  { name: 'ex2 subnormal input bf16', instr: 'ex2.approx.ftz.bf16', registers: { a: 0x8001n } },
  { name: 'ex2(-16) f16', instr: 'ex2.approx.f16x2', registers: { a: 0xcc003c00n } },
  {
    name: 'mixed add rm exact zero',
    instr: 'add.rm.f32.f16',
    registers: { a: 0x3c00n, c: 0xbf800000n },
  },
  {
    name: 'mixed fma rz',
    instr: 'fma.rz.f32.bf16',
    registers: { a: 0x3f81n, b: 0x3f81n, c: 0x33800000n },
  },
  {
    name: 'mixed sub sat',
    instr: 'sub.rp.sat.f32.bf16',
    registers: { a: 0x4000n, c: 0x3f800001n },
  },
  // cvt: one of each family.
  {
    name: 'cvt FP8 x2: 500 saturates to 448, 4.25 ties to 4',
    instr: 'cvt.rn.satfinite.e4m3x2.f32',
    registers: { a: 0x43fa0000n, b: 0x40880000n },
  },
  {
    name: 'cvt FP8 x4 .rs: each element its own random byte',
    instr: 'cvt.rs.satfinite.e5m2x4.f32',
    registers: {
      a: 0x3f880000n,
      b: 0x43960000n,
      e: 0xbe99999an,
      f: 0x3a83126fn,
      rbits: 0x80ff7f01n,
    },
  },
  {
    name: 'cvt FP6 x2: -0.3 and 7.5 into e3m2',
    instr: 'cvt.rn.satfinite.e3m2x2.f32',
    registers: { a: 0xbe99999an, b: 0x40f00000n },
  },
  {
    name: 'cvt FP6 x4 .rs into e2m3',
    instr: 'cvt.rs.satfinite.e2m3x4.f32',
    registers: {
      a: 0x3f882000n,
      b: 0x40533333n,
      e: 0xbd800000n,
      f: 0x3e19999an,
      rbits: 0x12f08040n,
    },
  },
  {
    name: 'cvt FP4 x2: 5 ties to 4, -2.75 to -3',
    instr: 'cvt.rn.satfinite.e2m1x2.f32',
    registers: { a: 0x40a00000n, b: 0xc0300000n },
  },
  {
    name: 'cvt FP4 x4 .rs: the carry decides',
    instr: 'cvt.rs.satfinite.e2m1x4.f32',
    registers: {
      a: 0x40880000n,
      b: 0xbf000000n,
      e: 0x3e800000n,
      f: 0x40c00000n,
      rbits: 0x80ff7f01n,
    },
  },
  {
    name: 'cvt ue8m0 .rp: |-3| goes up to 4, 0 is 2^-127',
    instr: 'cvt.rp.ue8m0x2.f32',
    registers: { a: 0xc0400000n, b: 0n },
  },
  {
    name: 'cvt tf32 .rna: a tie goes away from zero',
    instr: 'cvt.rna.tf32.f32',
    registers: { a: 0x3f801000n },
  },
  {
    name: 'cvt f64 to f32 .ftz: tiny before rounding, kept after',
    instr: 'cvt.rn.ftz.f32.f64',
    registers: { a: 0x380fffffff000000n },
  },
  {
    name: 'cvt f64 to f32 .ftz: 2^-130 is flushed',
    instr: 'cvt.rn.ftz.f32.f64',
    registers: { a: 0x37d0000000000000n },
  },
  {
    name: 'cvt .rni: 2.5 rounds to the even integer 2',
    instr: 'cvt.rni.f16.f16',
    registers: { a: 0x4100n },
  },
  {
    name: 'cvt NaN and -inf into e2m1, which has neither',
    instr: 'cvt.rn.satfinite.e2m1x2.f32',
    registers: { a: 0x7fc00000n, b: 0xff800000n },
  },
  {
    name: 'cvt +inf into ue8m0 without .satfinite is NaN; -0 is 2^-127',
    instr: 'cvt.rz.ue8m0x2.f32',
    registers: { a: 0x7f800000n, b: 0x80000000n },
  },
  {
    name: 'cvt -inf into f16 with .satfinite is -MAX_NORM',
    instr: 'cvt.rn.satfinite.f16.f32',
    registers: { a: 0xff800000n },
  },
  {
    name: 'cvt padding bits beside a 6-bit input are ignored',
    instr: 'cvt.rn.f16x2.e2m3x2',
    registers: { a: 0xc101n },
  },
];

const hex = (registers: Registers) =>
  Object.fromEntries(Object.entries(registers).map(([k, v]) => [k, `0x${v!.toString(16)}`]));

describe('golden traces', () => {
  const actual = Object.fromEntries(
    CASES.map((c) => [
      c.name,
      {
        instr: c.instr,
        registers: hex(c.registers),
        ...(c.options ? { options: c.options } : {}),
        result: evaluate(c.instr, c.registers, c.options),
      },
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
  it('has a case of every cvt family', () => {
    const instrs = CASES.map((c) => c.instr);
    for (const pattern of [
      /e4m3x2|e5m2x2/,
      /\.rs\..*(e4m3x4|e5m2x4)/,
      /e2m3x2|e3m2x2/,
      /\.rs\..*(e2m3x4|e3m2x4)/,
      /e2m1x2/,
      /\.rs\..*e2m1x4/,
      /\.rp\..*ue8m0/,
      /\.rna\.tf32/,
      /\.ftz\.f32\.f64/,
      /\.rni\./,
    ])
      expect(
        instrs.some((t) => pattern.test(t)),
        String(pattern),
      ).toBe(true);
  });
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (name) => {
    const want = golden?.[name];
    if (want === undefined)
      throw new Error(`${FILE} has no entry for "${name}": to add it, ${HOW_TO_UPDATE}`);
    expect(JSON.parse(JSON.stringify(actual[name]))).toEqual(want);
  });
});
