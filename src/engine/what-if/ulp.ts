/**
 * The one ulp measure of the what-if (decision compare-ulp): a difference is counted in units in
 * the last place of one format at one value, 2^(max(floor(log2 |x|), emin) − manBits) — the
 * spacing of the format's values in x's binade, the least subnormal step at zero and below the
 * normal range (ue8m0, which has no subnormals, steps by 2^-127 there: its own least value).
 * A comparison counts every difference and every error of an element in the ulp of A's format at
 * A's result; a result on its own counts its error in the ulp of its format at itself.
 */
import { add, bitLength, ilog2, isZero, negate } from '../exact.ts';
import type { Format } from '../format.ts';
import type { Dyadic } from '../value.ts';

/** Exponent of one ulp of format f at the finite value x. */
export function ulpExponentAt(x: Dyadic, f: Format): number {
  const e = isZero(x) ? f.emin : Math.max(ilog2(x), f.emin);
  return e - f.manBits;
}

/**
 * m × 2^e as a double: the significand cut to 64 bits first, the power applied in two halves so
 * that a large significand beside a very small power (or the reverse) stays in range.
 */
function dyadicNumber(negative: boolean, mant: bigint, exp: number): number {
  if (mant === 0n) return 0;
  const extra = Math.max(0, bitLength(mant) - 64);
  const m = Number(mant >> BigInt(extra));
  const e = exp + extra;
  const half = Math.trunc(e / 2);
  const magnitude = m * 2 ** half * 2 ** (e - half);
  return negative ? -magnitude : magnitude;
}

/**
 * d in units of 2^exponent, as a double (exact where the quotient fits one; ±Infinity past a
 * double's range, which only .f64 values far apart at a tiny unit reach).
 */
export function inUlps(d: Dyadic, exponent: number): number {
  return dyadicNumber(d.negative, d.mant, d.exp - exponent);
}

/** y − x, exactly. */
export function difference(y: Dyadic, x: Dyadic): Dyadic {
  return add(y, negate(x));
}
