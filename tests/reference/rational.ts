/**
 * Exact rational numbers for the reference model. Deliberately naive: every value is a reduced
 * fraction num/den with den > 0, every operation is exact, and comparison is cross-multiplication.
 * Speed is not a goal; being obviously right is.
 */

export interface Rational {
  readonly num: bigint;
  /** Always > 0. */
  readonly den: bigint;
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

function isPowerOfTwo(n: bigint): boolean {
  return (n & (n - 1n)) === 0n;
}

/** gcd(num, 2^k) is the lowest set bit of num, capped at 2^k (most values here are dyadic). */
function gcdWithPowerOfTwo(num: bigint, powerOfTwo: bigint): bigint {
  if (num === 0n) return powerOfTwo;
  const lowestBit = num & -num;
  return lowestBit < powerOfTwo ? lowestBit : powerOfTwo;
}

export function rational(num: bigint, den: bigint = 1n): Rational {
  if (den === 0n) throw new Error('rational with zero denominator');
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  const g = isPowerOfTwo(den) ? gcdWithPowerOfTwo(num, den) : gcd(num, den);
  return g === 1n || g === 0n ? { num, den } : { num: num / g, den: den / g };
}

export const ZERO: Rational = { num: 0n, den: 1n };
export const ONE: Rational = { num: 1n, den: 1n };

/** 2^e for any integer e. */
export function pow2(e: number): Rational {
  return e >= 0 ? { num: 1n << BigInt(e), den: 1n } : { num: 1n, den: 1n << BigInt(-e) };
}

export function add(x: Rational, y: Rational): Rational {
  return rational(x.num * y.den + y.num * x.den, x.den * y.den);
}

export function neg(x: Rational): Rational {
  return { num: -x.num, den: x.den };
}

export function sub(x: Rational, y: Rational): Rational {
  return add(x, neg(y));
}

export function mul(x: Rational, y: Rational): Rational {
  return rational(x.num * y.num, x.den * y.den);
}

export function div(x: Rational, y: Rational): Rational {
  if (y.num === 0n) throw new Error('rational division by zero');
  return rational(x.num * y.den, x.den * y.num);
}

/** -1, 0 or 1 as x <, =, > y. */
export function compare(x: Rational, y: Rational): -1 | 0 | 1 {
  const d = x.num * y.den - y.num * x.den;
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

export function sign(x: Rational): -1 | 0 | 1 {
  return x.num < 0n ? -1 : x.num > 0n ? 1 : 0;
}

export function abs(x: Rational): Rational {
  return x.num < 0n ? neg(x) : x;
}

export function isZero(x: Rational): boolean {
  return x.num === 0n;
}

/** Largest integer <= x. */
export function floor(x: Rational): bigint {
  const q = x.num / x.den; // truncates toward zero
  return x.num < 0n && q * x.den !== x.num ? q - 1n : q;
}

export function toString(x: Rational): string {
  return x.den === 1n ? `${x.num}` : `${x.num}/${x.den}`;
}
