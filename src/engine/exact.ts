/**
 * Exact arithmetic on binary floating-point values. Every finite float, and every sum, product
 * and fused multiply-add of them, is a dyadic rational (-1)^negative × mant × 2^exp, so the
 * engine computes results exactly with BigInt and rounds once (rounding.ts).
 */
import type { Dyadic, ExactValue } from './value.ts';

export type { Dyadic } from './value.ts';

export const ZERO: Dyadic = { negative: false, mant: 0n, exp: 0 };

export function isZero(x: Dyadic): boolean {
  return x.mant === 0n;
}

export function negate(x: Dyadic): Dyadic {
  return { ...x, negative: !x.negative };
}

export function multiply(x: Dyadic, y: Dyadic): Dyadic {
  return { negative: x.negative !== y.negative, mant: x.mant * y.mant, exp: x.exp + y.exp };
}

/** Exact sum. The sign of an exact zero sum is decided by the caller (it depends on the mode). */
export function add(x: Dyadic, y: Dyadic): Dyadic {
  const exp = Math.min(x.exp, y.exp);
  const xm = x.mant << BigInt(x.exp - exp);
  const ym = y.mant << BigInt(y.exp - exp);
  const xs = x.negative ? -xm : xm;
  const ys = y.negative ? -ym : ym;
  const s = xs + ys;
  return { negative: s < 0n, mant: s < 0n ? -s : s, exp };
}

/**
 * The text without its trailing '0's. A loop, not `/0+$/`: a regular expression anchored at the
 * end retries from every zero of a long run (quadratic on f64's extreme values).
 */
function withoutTrailingZeros(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 48) end--;
  return text.slice(0, end);
}

export function bitLength(n: bigint): number {
  return n === 0n ? 0 : n.toString(2).length;
}

/** Exponent of the leading bit: floor(log2 |x|), for x ≠ 0. */
export function ilog2(x: Dyadic): number {
  return x.exp + bitLength(x.mant) - 1;
}

/** Every digit of the exact decimal expansion (binary fractions always terminate). */
export function exactDecimal(x: Dyadic): string {
  const sign = x.negative ? '-' : '';
  if (x.exp >= 0) return sign + (x.mant << BigInt(x.exp)).toString();
  const places = -x.exp;
  // m × 2^-k = m × 5^k / 10^k
  const digits = (x.mant * 5n ** BigInt(places)).toString().padStart(places + 1, '0');
  const intPart = digits.slice(0, digits.length - places);
  const frac = withoutTrailingZeros(digits.slice(digits.length - places));
  return sign + intPart + (frac ? `.${frac}` : '');
}

/** Binary scientific notation: "1.0011b × 2^-3". */
export function binaryScientific(x: Dyadic): string {
  if (x.mant === 0n) return x.negative ? '-0' : '0';
  const bin = x.mant.toString(2);
  const rest = withoutTrailingZeros(bin.slice(1));
  return `${x.negative ? '-' : ''}1${rest ? `.${rest}` : ''}b × 2^${ilog2(x)}`;
}

/** "m × 2^e" with m odd (or "0"): the exact rational, reduced. */
export function dyadicRational(x: Dyadic): string {
  if (x.mant === 0n) return x.negative ? '-0' : '0';
  let m = x.mant;
  let e = x.exp;
  while ((m & 1n) === 0n) {
    m >>= 1n;
    e++;
  }
  return `${x.negative ? '-' : ''}${m} × 2^${e}`;
}

/** dyadicRational's text ("-3 × 2^-26", "0", "-0") back to the dyadic it names; null otherwise. */
export function dyadicOfRational(text: string): Dyadic | null {
  const m = /^(-?)(\d+) × 2\^(-?\d+)$/.exec(text);
  if (m) return { negative: m[1] === '-', mant: BigInt(m[2]!), exp: Number(m[3]) };
  if (text === '0' || text === '-0') return { negative: text === '-0', mant: 0n, exp: 0 };
  return null;
}

export function exactValueOfDyadic(x: Dyadic): ExactValue {
  return {
    kind: 'finite',
    negative: x.negative,
    decimal: exactDecimal(x),
    binary: binaryScientific(x),
    rational: dyadicRational(x),
  };
}
