/**
 * minMaxWord (the fast path's min/max on numbers) against minMaxRule (semantics/minmax.ts, the
 * pipeline's), for f16 and bf16 under every combination of min/max, .NaN and .xorsign.abs:
 *
 * - every pair of a set that holds each class of the format with both signs (zeros, the
 *   smallest and largest subnormals, normals around 1, MAX_NORM, infinities, quiet, signalling
 *   and all-ones NaNs) and a seeded sample, so every branch of the pseudo-code, every order
 *   between classes, equal values and the two zeros meet;
 * - every pattern a against b = +0, -0, 1.0 and a NaN, and the same with a and b swapped.
 */
import { describe, expect, it } from 'vitest';
import { minMaxRule } from '../semantics/minmax.ts';
import { minMaxWord, type MinMaxWordFlags } from './minmax.ts';
import { NUMERIC_FORMATS, valueTable, type NumericFormat } from './numeric-format.ts';

const FLAG_SETS: MinMaxWordFlags[] = [0, 1].flatMap((min) =>
  [0, 1].flatMap((nan) => [0, 1].map((xorsign) => ({ min, nan, xorsign }) as MinMaxWordFlags)),
);

function representatives(f: NumericFormat): number[] {
  const one = f.bias * (f.manMask + 1);
  const positive = [
    0,
    1,
    2,
    f.manMask,
    f.manMask + 1,
    one - 1,
    one,
    one + 1,
    f.maxBits,
    f.infBits,
    f.infBits + 1,
    f.infBits + (f.manMask + 1) / 2,
    f.signMask - 1,
  ];
  const out = [...positive, ...positive.map((p) => p + f.signMask)];
  let x = 0x2545f491;
  for (let i = 0; i < 24; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.push((x >>> 0) & 0xffff);
  }
  return out;
}

describe('minMaxWord agrees with minMaxRule', () => {
  for (const name of ['f16', 'bf16'] as const) {
    const f = NUMERIC_FORMATS[name];
    const values = valueTable(f);
    const rule = (flags: MinMaxWordFlags, a: number, b: number) =>
      Number(
        minMaxRule(
          { min: flags.min === 1, nan: flags.nan === 1, xorsign: flags.xorsign === 1 },
          BigInt(a),
          BigInt(b),
          f.format,
        ).result,
      );

    it(`${name}: every pair of the classes' representatives, every flag set`, () => {
      const reps = representatives(f);
      const wrong: string[] = [];
      for (const flags of FLAG_SETS)
        for (const a of reps)
          for (const b of reps) {
            const got = minMaxWord(flags, a, b, f, values);
            const want = rule(flags, a, b);
            if (got !== want && wrong.length < 10)
              wrong.push(`${JSON.stringify(flags)} a=0x${a.toString(16)} b=0x${b.toString(16)}`);
          }
      expect(wrong).toEqual([]);
    });

    it(`${name}: every a against ±0, 1.0 and a NaN, both orders, every flag set`, () => {
      const one = f.bias * (f.manMask + 1);
      const bs = [0, f.signMask, one, f.canonicalNaN!];
      let wrong = 0;
      for (const flags of FLAG_SETS)
        for (let a = 0; a < 65536; a++)
          for (const b of bs) {
            if (minMaxWord(flags, a, b, f, values) !== rule(flags, a, b)) wrong++;
            if (minMaxWord(flags, b, a, f, values) !== rule(flags, b, a)) wrong++;
          }
      expect(wrong).toBe(0);
    });
  }
});
