/**
 * Rounding an exact rational to a format by neighbour search, with no bit manipulation of the
 * value: the finite patterns of a format, ordered by value, are indexed -M..M (M = the pattern of
 * +maxFinite; index i < 0 is the pattern of -value(|i|), index 0 is +0). A binary search over the
 * indices finds the largest representable value <= x; the next index is the smallest >= x. The
 * rounding mode then picks one of the two, as IEEE 754-2019 §4.3 describes it.
 */
import type { IeeeRounding } from '../../src/catalog/modifiers.ts';
import { decode, zeroBits, infBits, type RefFormat } from './ref-formats.ts';
import { add, compare, isZero, mul, rational, sign, sub, type Rational } from './rational.ts';

function patternAt(index: number, fmt: RefFormat): number {
  return index >= 0 ? index : fmt.signMask + -index;
}

function valueAt(index: number, fmt: RefFormat): Rational {
  return decode(patternAt(index, fmt), fmt);
}

/** Largest index whose value is <= x; x must lie in [-maxFinite, +maxFinite]. */
function floorIndex(x: Rational, fmt: RefFormat): number {
  let lo = -fmt.maxFiniteBits;
  let hi = fmt.maxFiniteBits;
  while (lo < hi) {
    const mid = lo + Math.ceil((hi - lo) / 2);
    if (compare(valueAt(mid, fmt), x) <= 0) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The significand of a pattern is even when its last trailing-significand bit is 0. */
function hasEvenSignificand(index: number, fmt: RefFormat): boolean {
  return patternAt(index, fmt) % 2 === 0;
}

/** Result for |x| > maxFinite (IEEE 754 §7.4 overflow). */
function roundOverflow(x: Rational, mode: IeeeRounding, fmt: RefFormat): number {
  const negative = sign(x) < 0;
  const maxFinite = patternAt(negative ? -fmt.maxFiniteBits : fmt.maxFiniteBits, fmt);
  const infinity = infBits(negative, fmt);
  switch (mode) {
    case 'rz':
      return maxFinite;
    case 'rp':
      return negative ? maxFinite : infinity;
    case 'rm':
      return negative ? infinity : maxFinite;
    case 'rn': {
      // Rounding as if the exponent range were unbounded: the value halfway between maxFinite
      // and the next power of two is a tie, and maxFinite's significand is odd, so it goes up.
      const top = valueAt(fmt.maxFiniteBits, fmt);
      const ulp = sub(top, valueAt(fmt.maxFiniteBits - 1, fmt));
      const threshold = add(top, mul(ulp, rational(1n, 2n)));
      const magnitude = negative ? rational(-x.num, x.den) : x;
      return compare(magnitude, threshold) >= 0 ? infinity : maxFinite;
    }
  }
}

/**
 * Round the exact value x to fmt with `mode`. An exact zero becomes -0 when
 * `exactZeroNegative`, else +0; a nonzero value that rounds to zero keeps its own sign.
 */
export function roundRational(
  x: Rational,
  mode: IeeeRounding,
  fmt: RefFormat,
  exactZeroNegative = false,
): number {
  if (isZero(x)) return zeroBits(exactZeroNegative, fmt);
  const maxValue = valueAt(fmt.maxFiniteBits, fmt);
  if (compare(x, maxValue) > 0 || compare(x, valueAt(-fmt.maxFiniteBits, fmt)) < 0) {
    return roundOverflow(x, mode, fmt);
  }
  const negative = sign(x) < 0;
  const lower = floorIndex(x, fmt);
  if (compare(valueAt(lower, fmt), x) === 0) return patternAt(lower, fmt);
  const upper = lower + 1;
  let chosen: number;
  switch (mode) {
    case 'rm':
      chosen = lower;
      break;
    case 'rp':
      chosen = upper;
      break;
    case 'rz':
      chosen = negative ? upper : lower;
      break;
    case 'rn': {
      const below = sub(x, valueAt(lower, fmt));
      const above = sub(valueAt(upper, fmt), x);
      const c = compare(below, above);
      chosen = c < 0 ? lower : c > 0 ? upper : hasEvenSignificand(lower, fmt) ? lower : upper;
      break;
    }
  }
  // A nonzero value that rounds to zero keeps its sign (index 0 is +0).
  return chosen === 0 ? zeroBits(negative, fmt) : patternAt(chosen, fmt);
}
