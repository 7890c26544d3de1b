/**
 * A typed value stored in a format, for checking the engine's reading of operand text
 * (src/engine/stored-value.ts) with no engine code: the text's exact rational from its digits,
 * then round to nearest by neighbour search over the format's values (cvt-formats.ts), ties to
 * the neighbour whose pattern is even. The product rule where a format cannot hold the value:
 * past MAX_NORM (after rounding) it is the infinity where the format has one, else refused;
 * ue8m0 has no zero, so a value that rounds below 2^-127 is refused; an unsigned format refuses
 * a negative value.
 */
import { decodeCvt, floorIndex, pastMax, valueAt, type RefCvtFormat } from './cvt-formats.ts';
import { abs, add, compare, mul, pow2, rational, sub, type Rational } from './rational.ts';

/**
 * The exact value of a decimal (`-12.5e-3`) or hex float (`0x1.8p-3`) text, by its definition:
 * digits × 10^exponent or hex digits × 2^exponent. Only these two spellings; null otherwise.
 */
export function refValueOfText(text: string): { negative: boolean; q: Rational } | null {
  const dec = /^([+-]?)(\d+)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text);
  if (dec) {
    const fraction = dec[3] ?? '';
    const digits = BigInt(dec[2]! + fraction);
    const e = Number(dec[4] ?? '0') - fraction.length;
    const q = e >= 0 ? rational(digits * 10n ** BigInt(e)) : rational(digits, 10n ** BigInt(-e));
    return { negative: dec[1] === '-', q };
  }
  const hex = /^([+-]?)0x([0-9a-f]+)(?:\.([0-9a-f]*))?p([+-]?\d+)$/i.exec(text);
  if (hex) {
    const fraction = hex[3] ?? '';
    const digits = BigInt(`0x${hex[2]}${fraction}`);
    const q = mul(rational(digits), pow2(Number(hex[4]) - 4 * fraction.length));
    return { negative: hex[1] === '-', q };
  }
  return null;
}

export type RefStored =
  | { readonly bits: bigint }
  | { readonly refused: 'beyond-range' | 'below-least' | 'unsigned' | 'no-zero' };

const signBit = (fmt: RefCvtFormat) => (fmt.signed ? 1n << BigInt(fmt.totalBits - 1) : 0n);

/** |q| with the sign given (q ≥ 0) stored in fmt by the rule above. */
export function refStore(negative: boolean, q: Rational, fmt: RefCvtFormat): RefStored {
  if (negative && !fmt.signed) return { refused: 'unsigned' };
  const sign = negative ? signBit(fmt) : 0n;
  const hasZero = fmt.specials !== 'ue8m0';
  const m = abs(q);
  if (m.num === 0n) return hasZero ? { bits: sign } : { refused: 'no-zero' };
  const max = valueAt(fmt.maxPattern, fmt);
  const least = fmt.specials === 'ue8m0' ? valueAt(0n, fmt) : null;
  // The two neighbours of |q| by index in the order of non-negative values: index i is pattern i
  // (the index past MAX_NORM stands for "beyond"; index -1 for the zero ue8m0 lacks).
  let lower: bigint;
  if (compare(m, max) > 0) lower = fmt.maxPattern;
  else if (least && compare(m, least) < 0) lower = -1n;
  else lower = floorIndex(m, fmt);
  const valueOf = (i: bigint): Rational =>
    i < 0n ? rational(0n) : i > fmt.maxPattern ? pastMax(fmt) : valueAt(i, fmt);
  let chosen: bigint;
  if (compare(valueOf(lower), m) === 0) chosen = lower;
  else {
    const upper = lower + 1n;
    const twiceBelow = mul(sub(m, valueOf(lower)), rational(2n));
    const gap = sub(valueOf(upper), valueOf(lower));
    const c = compare(twiceBelow, gap);
    // A tie goes to the even pattern; index -1 (no pattern) counts as odd.
    const lowerEven = lower >= 0n && lower % 2n === 0n;
    chosen = c < 0 || (c === 0 && lowerEven) ? lower : upper;
  }
  if (chosen > fmt.maxPattern) {
    if (fmt.specials !== 'ieee') return { refused: 'beyond-range' };
    const infinity = ((1n << BigInt(fmt.exponentBits)) - 1n) << BigInt(fmt.fractionBits);
    return { bits: sign | infinity };
  }
  if (chosen < 0n) return { refused: 'below-least' };
  return { bits: sign | chosen };
}

/** The value of a finite pattern, unsigned magnitude and sign. */
export function refFinite(bits: bigint, fmt: RefCvtFormat): { negative: boolean; q: Rational } {
  const v = decodeCvt(bits, fmt);
  if (v.kind !== 'finite') throw new Error(`${bits} is not finite in ${fmt.name}`);
  return { negative: v.negative, q: abs(v.q) };
}

/** The midpoint of two values, exactly. */
export function refMidpoint(x: Rational, y: Rational): Rational {
  return mul(add(x, y), rational(1n, 2n));
}
