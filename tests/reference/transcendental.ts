/**
 * Correctly rounded (round-to-nearest-even) tanh(x) and 2^x for the reference model.
 *
 * Method: compute an exact rational enclosure [lo, hi] of the mathematical value with BigInt
 * fixed-point series whose truncations are directed (floor for lower bounds, ceil for upper
 * bounds, plus a bound on the series tail), round both ends to the format, and accept the result
 * only if both ends round to the same pattern. Otherwise the precision is raised; if that never
 * settles, it throws rather than guessing. No floating-point Math function is involved.
 *
 * Exact cases: 2^x for integer x is an exact power of two (ties, e.g. 2^-25 in f16, round to
 * even by the ordinary rule). For any other dyadic x, 2^x and tanh(x) are irrational (x ≠ 0), so
 * they are never a tie and the enclosure eventually separates them from every midpoint.
 */
import { roundRational } from './neighbour-round.ts';
import { compare, floor, mul, pow2, rational, sub, add, type Rational } from './rational.ts';
import type { RefFormat } from './ref-formats.ts';

export type Enclosure = readonly [lo: Rational, hi: Rational];

const PRECISIONS = [96, 256, 1024] as const;

function ceilDiv(n: bigint, d: bigint): bigint {
  return n % d === 0n ? n / d : n / d + 1n; // n, d > 0
}

/** ln 2 = Σ_{k≥1} 1/(k·2^k), as fixed-point [lo, hi] / 2^p. */
const ln2Cache = new Map<number, [bigint, bigint]>();

function ln2Bounds(p: number): [bigint, bigint] {
  const cached = ln2Cache.get(p);
  if (cached) return cached;
  const one = 1n << BigInt(p);
  let lo = 0n;
  let hi = 0n;
  const terms = p + 2;
  for (let k = 1; k <= terms; k++) {
    const den = BigInt(k) << BigInt(k);
    lo += one / den;
    hi += ceilDiv(one, den);
  }
  // Tail Σ_{k>K} 1/(k 2^k) < 2^-K = 2^-(p+2) < one unit.
  const bounds: [bigint, bigint] = [lo, hi + 1n];
  ln2Cache.set(p, bounds);
  return bounds;
}

/**
 * e^y for y in [yLo, yHi] / 2^p, 0 <= yLo <= yHi: fixed-point [lo, hi] / 2^p.
 * Lower: the series with floored terms, truncated (all terms are positive).
 * Upper: ceiled terms until term n has n >= 2y and is below one unit; the tail after it is at
 * most the last term times (1/2 + 1/4 + …) <= the last term, and we add two of it.
 */
export function expBounds(yLo: bigint, yHi: bigint, p: number): [bigint, bigint] {
  const one = 1n << BigInt(p);
  let lo = 0n;
  for (let n = 1n, term = one; term > 0n; n++) {
    lo += term;
    term = (term * yLo) / (n * one);
  }
  let hi = 0n;
  const twiceY = (2n * yHi) / one + 1n;
  for (let n = 1n, term = one; ; n++) {
    hi += term;
    if (n > twiceY && term <= 1n) {
      hi += 2n * term + 1n;
      break;
    }
    term = ceilDiv(term * yHi, n * one);
    if (term === 0n) break;
  }
  return [lo, hi];
}

function fixedToRational(v: bigint, p: number): Rational {
  return rational(v, 1n << BigInt(p));
}

/** Enclosure of 2^x for a finite dyadic x (a single point when x is an integer). */
export function exp2Enclosure(x: Rational, p: number): Enclosure {
  const n = floor(x);
  const f = sub(x, rational(n)); // in [0, 1)
  const scale = pow2(Number(n));
  if (f.num === 0n) return [scale, scale];
  const one = 1n << BigInt(p);
  const fLo = (f.num * one) / f.den;
  const fHi = ceilDiv(f.num * one, f.den);
  const [ln2Lo, ln2Hi] = ln2Bounds(p);
  const [eLo, eHi] = expBounds((fLo * ln2Lo) / one, ceilDiv(fHi * ln2Hi, one), p);
  return [mul(fixedToRational(eLo, p), scale), mul(fixedToRational(eHi, p), scale)];
}

/** Enclosure of tanh(x) for a finite x > 0. */
export function tanhEnclosure(x: Rational, p: number): Enclosure {
  if (compare(x, pow2(-20)) < 0) {
    // tanh x = x - x^3/3 + 2x^5/15 - 17x^7/315 + …, alternating and decreasing for tiny x.
    const x3 = mul(mul(x, x), x);
    const lo = sub(x, mul(x3, rational(1n, 3n)));
    return [lo, add(lo, mul(mul(mul(x3, x), x), rational(2n, 15n)))];
  }
  if (compare(x, rational(5n)) >= 0) {
    // 1 - tanh x = 2/(e^{2x}+1) < 2e^{-10} < 2^-13, far less than half an ulp below 1.
    return [sub(rational(1n), pow2(-13)), rational(1n)];
  }
  // tanh x = (E - 1)/(E + 1) with E = e^{2x}, increasing in E; the quotients are floored and
  // ceiled to fixed point so that the bounds stay dyadic (cheap to compare).
  const one = 1n << BigInt(p);
  const twoX = mul(x, rational(2n));
  const [eLo, eHi] = expBounds((twoX.num * one) / twoX.den, ceilDiv(twoX.num * one, twoX.den), p);
  const lo = ((eLo - one) * one) / (eLo + one);
  const hi = ceilDiv((eHi - one) * one, eHi + one);
  return [fixedToRational(lo, p), fixedToRational(hi, p)];
}

/** Round f(x) to nearest-even in fmt from ever tighter enclosures; throws if they never agree. */
export function correctlyRounded(
  enclose: (p: number) => Enclosure,
  fmt: RefFormat,
): { bits: number; enclosure: Enclosure } {
  for (const p of PRECISIONS) {
    const enclosure = enclose(p);
    const bits = roundRational(enclosure[0], 'rn', fmt);
    if (bits === roundRational(enclosure[1], 'rn', fmt)) return { bits, enclosure };
  }
  throw new Error('correctlyRounded: enclosure never separated from a rounding boundary');
}
