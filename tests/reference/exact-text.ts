/**
 * The trace's texts of an exact value, as docs/trace.md defines them, written from that
 * definition for the trace checker: every digit of the decimal expansion, the binary scientific
 * form and the reduced dyadic rational. Values are exact rationals (rational.ts) whose
 * denominators are powers of two.
 */
import { compare, pow2, type Rational } from './rational.ts';
import { classOf, decode, isNegative, type RefFormat } from './ref-formats.ts';

export interface ValueText {
  readonly kind: 'finite' | 'inf' | 'nan';
  readonly negative: boolean;
  readonly decimal: string;
  readonly binary: string;
  readonly rational: string;
}

function twoAdicExponent(den: bigint): number {
  let k = 0;
  while (den > 1n) {
    if (den % 2n !== 0n) throw new Error('not a dyadic rational');
    den /= 2n;
    k++;
  }
  return k;
}

/** floor(log2 |q|), q ≠ 0, by comparison with powers of two. */
export function floorLog2(q: Rational): number {
  const magnitude = q.num < 0n ? { num: -q.num, den: q.den } : q;
  let e = magnitude.num.toString(2).length - magnitude.den.toString(2).length;
  while (compare(pow2(e), magnitude) > 0) e--;
  while (compare(pow2(e + 1), magnitude) <= 0) e++;
  return e;
}

/** Every digit: q = n / 2^k = n·5^k / 10^k. */
export function decimalOf(q: Rational, negativeZero = false): string {
  const negative = q.num < 0n || (q.num === 0n && negativeZero);
  const n = q.num < 0n ? -q.num : q.num;
  const k = twoAdicExponent(q.den);
  const digits = (n * 5n ** BigInt(k)).toString().padStart(k + 1, '0');
  const int = digits.slice(0, digits.length - k);
  const frac = digits.slice(digits.length - k).replace(/0+$/, '');
  return `${negative ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

/** "1.0011b × 2^-3"; "0" / "-0" for zeros. */
export function binaryOf(q: Rational, negativeZero = false): string {
  if (q.num === 0n) return negativeZero ? '-0' : '0';
  const e = floorLog2(q);
  // |q| = n / 2^k: the binary digits of n, from the leading one (worth 2^e) down.
  const n = q.num < 0n ? -q.num : q.num;
  const fraction = n.toString(2).slice(1).replace(/0+$/, '');
  return `${q.num < 0n ? '-' : ''}1${fraction ? `.${fraction}` : ''}b × 2^${e}`;
}

/** "m × 2^e" with m odd; "0" / "-0" for zeros. */
export function rationalOf(q: Rational, negativeZero = false): string {
  if (q.num === 0n) return negativeZero ? '-0' : '0';
  let m = q.num < 0n ? -q.num : q.num;
  let e = -twoAdicExponent(q.den);
  while (m % 2n === 0n) {
    m /= 2n;
    e++;
  }
  return `${q.num < 0n ? '-' : ''}${m} × 2^${e}`;
}

export function finiteText(q: Rational, negativeZero = false): ValueText {
  return {
    kind: 'finite',
    negative: q.num < 0n || (q.num === 0n && negativeZero),
    decimal: decimalOf(q, negativeZero),
    binary: binaryOf(q, negativeZero),
    rational: rationalOf(q, negativeZero),
  };
}

const textCache = new Map<string, ValueText>();

/** The texts of a bit pattern's value (remembered: patterns recur in every trace). */
export function bitsText(bits: number, fmt: RefFormat): ValueText {
  const key = `${fmt.name}:${bits}`;
  let text = textCache.get(key);
  if (!text) textCache.set(key, (text = bitsTextUncached(bits, fmt)));
  return text;
}

function bitsTextUncached(bits: number, fmt: RefFormat): ValueText {
  const cls = classOf(bits, fmt);
  const negative = isNegative(bits, fmt);
  if (cls === 'qnan' || cls === 'snan')
    return { kind: 'nan', negative, decimal: 'NaN', binary: 'NaN', rational: 'NaN' };
  if (cls === 'inf') {
    const s = negative ? '-inf' : '+inf';
    return { kind: 'inf', negative, decimal: s, binary: s, rational: s };
  }
  return finiteText(decode(bits, fmt), negative);
}

/** The trace's class words. */
export function classWord(bits: number, fmt: RefFormat): string {
  const cls = classOf(bits, fmt);
  return cls === 'inf' ? 'infinity' : cls;
}
