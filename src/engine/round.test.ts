import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dyadicMagnitude, roundToFormat } from './round.ts';
import { FORMATS, toDouble } from './formats.ts';
import type { Dyadic } from './exact.ts';

const f16 = FORMATS.f16;
const d = (mant: bigint, exp: number, negative = false): Dyadic => ({ negative, mant, exp });
const round = (x: Dyadic, mode: 'rn' | 'rz' | 'rm' | 'rp' = 'rn') =>
  roundToFormat(dyadicMagnitude(x), f16, mode);

describe('roundToFormat', () => {
  it('keeps exact values and reports no guard/round/sticky', () => {
    const r = round(d(1n, 0));
    expect(r.bits).toBe(0x3c00);
    expect(r.step).toMatchObject({
      cut: { guard: 0, round: 0, sticky: 0 },
      inexact: false,
      direction: 'exact',
      magnitude: 'exact',
    });
  });

  it('marks guard, round and sticky bits below the ulp', () => {
    // 1 + 2^-11 + 2^-13: guard (2^-11) = 1, round (2^-12) = 0, sticky (2^-13) = 1 → above half
    const r = round(d((1n << 13n) + 4n + 1n, -13));
    expect(r.step).toMatchObject({
      cut: { guard: 1, round: 0, sticky: 1 },
      reason: 'above-half',
      direction: 'up',
      magnitude: 'larger',
    });
    expect(r.bits).toBe(0x3c01);
  });

  it('breaks ties to even', () => {
    expect(round(d((1n << 11n) + 1n, -11)).bits).toBe(0x3c00); // 1 + 2^-11: tie, 0x3c00 is even
    const odd = round(d((1n << 11n) + 3n, -11)); // 1 + 3·2^-11: tie between 0x3c01 and 0x3c02
    expect(odd.bits).toBe(0x3c02);
    expect(odd.step.reason).toBe('tie-to-even');
  });

  it('rounds per mode, by sign', () => {
    const x = d((1n << 11n) + 1n, -11); // 1 + 2^-11
    expect(round(x, 'rz').bits).toBe(0x3c00);
    expect(round(x, 'rp').bits).toBe(0x3c01);
    expect(round(x, 'rm').bits).toBe(0x3c00);
    const neg = { ...x, negative: true };
    expect(round(neg, 'rm').bits).toBe(0xbc01);
    expect(round(neg, 'rp').bits).toBe(0xbc00);
    expect(round(neg, 'rz').bits).toBe(0xbc00);
  });

  it('overflows to infinity or the largest finite value by mode', () => {
    const big = d(65520n, 0); // halfway between 65504 and 65536: rn rounds to inf
    expect(round(big, 'rn')).toMatchObject({ bits: 0x7c00, overflow: true });
    expect(round(d(65519n, 0), 'rn').bits).toBe(0x7bff);
    expect(round(big, 'rz').bits).toBe(0x7bff);
    expect(round(big, 'rp').bits).toBe(0x7c00);
    expect(round(big, 'rm').bits).toBe(0x7bff);
    expect(round({ ...big, negative: true }, 'rm').bits).toBe(0xfc00);
    expect(round({ ...big, negative: true }, 'rp').bits).toBe(0xfbff);
  });

  it('judges an exact value past the largest finite value against the format itself', () => {
    // 65536 = 2^16: f16 has no exponent 16. Not a value of f16, so inexact whatever the mode;
    // its neighbours are the largest finite value and the infinity.
    for (const [mode, bits, direction] of [
      ['rn', 0x7c00, 'up'],
      ['rp', 0x7c00, 'up'],
      ['rz', 0x7bff, 'down'],
      ['rm', 0x7bff, 'down'],
    ] as const) {
      const r = round(d(1n, 16), mode);
      expect(r, mode).toMatchObject({ bits, overflow: true, inexact: true });
      expect(r.step, mode).toMatchObject({ direction, lower: 0x7bff, upper: 0x7c00 });
      expect(r.step.cut, mode).toBeUndefined();
    }
    expect(round(d(1n, 16)).step.reason).toBe('overflow-threshold');
    const negative = round(d(69138n, 0, true)); // sub.rn.f16 0xfbff 0x6b19
    expect(negative.step).toMatchObject({
      direction: 'down',
      magnitude: 'larger',
      lower: 0xfc00,
      upper: 0xfbff,
      result: 0xfc00,
    });
    // In the top binade the bits are kept; the neighbour above the largest finite value is ∞.
    const top = round(d(65519n, 0), 'rz');
    expect(top.step).toMatchObject({ lower: 0x7bff, upper: 0x7c00, result: 0x7bff });
    expect(top.step.cut?.kept).toBe('11111111111');
    expect(top.overflow).toBe(false);
  });

  it('underflows gradually into subnormals', () => {
    const r = round(d(3n, -26)); // 0.75 × 2^-24: rounds to the smallest subnormal
    expect(r.bits).toBe(0x0001);
    expect(r.step.subnormal).toBe(true);
    expect(r.tininess).toEqual({ before: true, after: true });
    expect(round(d(1n, -26)).bits).toBe(0x0000); // 0.25 × 2^-24 → +0
  });

  it('returns one of the two neighbours, the nearer one under rn (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: (1n << 40n) - 1n }),
        fc.integer({ min: -60, max: 0 }),
        fc.boolean(),
        (mant, exp, negative) => {
          const x = d(mant, exp, negative);
          const r = round(x);
          const value = Number(mant) * 2 ** exp * (negative ? -1 : 1);
          const { lower, upper } = r.step;
          expect([lower, upper]).toContain(r.bits);
          expect(toDouble(lower, f16)).toBeLessThanOrEqual(value);
          expect(toDouble(upper, f16)).toBeGreaterThanOrEqual(value);
          if (!r.overflow) {
            const dl = Math.abs(value - toDouble(lower, f16));
            const du = Math.abs(toDouble(upper, f16) - value);
            if (dl < du) expect(r.bits).toBe(lower);
            if (du < dl) expect(r.bits).toBe(upper);
            expect(toDouble(lower, f16)).toBeLessThanOrEqual(value);
            expect(toDouble(upper, f16)).toBeGreaterThanOrEqual(value);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});
