/** Exact decomposition of a JavaScript double into a dyadic rational. */
import type { Dyadic } from './exact.ts';

export function dyadicOfDouble(x: number): Dyadic {
  if (!Number.isFinite(x)) throw new RangeError('dyadicOfDouble needs a finite number');
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const negative = hi >>> 31 === 1;
  const biased = (hi >>> 20) & 0x7ff;
  const fraction = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (biased === 0) return { negative, mant: fraction, exp: -1074 };
  return { negative, mant: fraction | (1n << 52n), exp: biased - 1075 };
}

/**
 * x as a double: its significand rounded to a double (BigInt → Number rounds to nearest even),
 * times 2^exp. Exact where the significand fits 53 bits and the value lies in the double range.
 */
export function doubleOfDyadic(x: Dyadic): number {
  const v = Number(x.mant) * 2 ** x.exp;
  return x.negative ? -v : v;
}
