import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decimalDigits,
  dy,
  dyCompare,
  dySub,
  exp2Enclosure,
  roundDecimal,
  tanhEnclosure,
  type Enclosure,
} from './enclosure.ts';

/** The enclosure holds the value given to 40 digits (Python's decimal module) ± 1e-39. */
function holds(e: Enclosure, digits: string): boolean {
  const [int, frac = ''] = digits.split('.');
  const scaled = BigInt(int! + frac);
  const den = 10n ** BigInt(frac.length);
  // lo <= value + 1e-39 and hi >= value - 1e-39, compared as integers over den × 2^k.
  const slack = den / 10n ** 39n || 1n;
  const asRational = (x: { m: bigint; e: number }) =>
    x.e >= 0 ? [x.m << BigInt(x.e), 1n] : [x.m, 1n << BigInt(-x.e)];
  const [lm, ld] = asRational(e.lo);
  const [hm, hd] = asRational(e.hi);
  return lm! * den <= (scaled + slack) * ld! && hm! * den >= (scaled - slack) * hd!;
}

const width = (e: Enclosure) => dySub(e.hi, e.lo);

describe('enclosures', () => {
  it('hold tanh, 2^x and the bound constants, and tighten with the bits asked for', () => {
    // tanh(1), 2^0.5, 2^-10.987, tanh(2^-133)
    const tanh1 = tanhEnclosure(false, 1n, 0, 64);
    expect(holds(tanh1, '0.7615941559557648881194582826047935904127')).toBe(true);
    expect(holds(exp2Enclosure(1n, 2n, 64), '1.414213562373095048801688724209698078569')).toBe(
      true,
    );
    expect(
      holds(exp2Enclosure(-10987n, 1000n, 64), '0.0004927009930882232955256052473966599621'),
    ).toBe(true);
    const tiny = tanhEnclosure(false, 1n, -133, 64);
    // tanh x < x for x > 0: the enclosure's lower end is below x.
    expect(dyCompare(tiny.lo, dy(1n, -133))).toBeLessThan(0);
    // Relative precision kept for tiny x: the width is far below x × 2^-60.
    expect(dyCompare(width(tiny), dy(1n, -133 - 60))).toBeLessThan(0);
    expect(dyCompare(width(tanhEnclosure(false, 1n, 0, 256)), dy(1n, -240))).toBeLessThan(0);
    // An integer power is exact.
    const exact = exp2Enclosure(-1075n, 1n, 64);
    expect(exact.lo).toEqual(exact.hi);
  });

  it('tanh is odd, below 1, and increasing (property, over f16-like inputs)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2047 }), fc.integer({ min: -30, max: 10 }), (m, e) => {
        const pos = tanhEnclosure(false, BigInt(m), e, 64);
        const neg = tanhEnclosure(true, BigInt(m), e, 64);
        expect(neg.lo).toEqual(dy(-pos.hi.m, pos.hi.e));
        expect(dyCompare(pos.lo, pos.hi)).toBeLessThanOrEqual(0);
        expect(dyCompare(pos.hi, dy(1n))).toBeLessThanOrEqual(0);
        const next = tanhEnclosure(false, BigInt(m + 1), e, 64);
        expect(dyCompare(pos.lo, next.hi)).toBeLessThan(0);
      }),
      { numRuns: 300 },
    );
  });
});

describe('decimal digits', () => {
  it('rounds to 17 significant digits in the notation of toPrecision', () => {
    expect(roundDecimal(dy(1n, -1), 17)).toBe((0.5).toPrecision(17));
    expect(roundDecimal(dy(1n, -20), 17)).toBe((2 ** -20).toPrecision(17));
    expect(roundDecimal(dy(1n, 70), 17)).toBe((2 ** 70).toPrecision(17));
    expect(roundDecimal(dy(-3n, 0), 17)).toBe('-3.0000000000000000');
    // Ties to even in the 17th digit: 1 + 5e-17 is not a double, so use an exact dyadic tie.
    expect(roundDecimal(dy(5n, -1), 1)).toBe('2'); // 2.5 → 2
    expect(roundDecimal(dy(7n, -1), 1)).toBe('4'); // 3.5 → 4
    // The true digits of tanh(1): 0.76159415595576488|81…
    expect(decimalDigits(tanhEnclosure(false, 1n, 0, 64), 17)).toBe('0.76159415595576489');
  });

  it('gives up (null) when the enclosure straddles a rounding point', () => {
    expect(decimalDigits({ lo: dy(24n, -4), hi: dy(26n, -4) }, 2)).toBeNull(); // 1.5 … 1.625
  });
});
