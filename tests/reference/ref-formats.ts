/**
 * Binary interchange formats for the reference model, decoded by the textbook formula:
 *   exponent field E, trailing significand field T (p-1 bits), bias = 2^(w-1) - 1
 *   E = 0:          (-1)^s × 2^(1-bias) × (0 + T / 2^(p-1))     (zero and subnormals)
 *   0 < E < max:    (-1)^s × 2^(E-bias) × (1 + T / 2^(p-1))     (normals)
 *   E = max:        T = 0 → ±infinity, T ≠ 0 → NaN (quiet when the top bit of T is set)
 * Written independently of src/engine/format.ts.
 */
import { pow2, mul, rational, type Rational } from './rational.ts';

export type RefFormatName = 'f16' | 'bf16' | 'f32';

export interface RefFormat {
  readonly name: RefFormatName | 'f16-wide' | 'bf16-wide' | 'f32-wide';
  /** Exponent field width. */
  readonly exponentBits: number;
  /** Trailing significand field width (precision minus one). */
  readonly fractionBits: number;
  readonly totalBits: number;
  readonly bias: number;
  readonly signMask: number;
  /** Largest bit pattern of a positive finite value (0 11..10 11..1). */
  readonly maxFiniteBits: number;
  readonly infBits: number;
  /** NVIDIA's canonical NaN: 0x7FFF or 0x7FFFFFFF. */
  readonly canonicalNaN: number;
}

function makeFormat(
  name: RefFormat['name'],
  exponentBits: number,
  fractionBits: number,
): RefFormat {
  const totalBits = 1 + exponentBits + fractionBits;
  const signMask = 2 ** (totalBits - 1);
  const infBits = (2 ** exponentBits - 1) * 2 ** fractionBits;
  return {
    name,
    exponentBits,
    fractionBits,
    totalBits,
    bias: 2 ** (exponentBits - 1) - 1,
    signMask,
    maxFiniteBits: infBits - 1,
    infBits,
    canonicalNaN: signMask - 1,
  };
}

export const REF_FORMATS: Record<RefFormatName, RefFormat> = {
  f16: makeFormat('f16', 5, 10),
  bf16: makeFormat('bf16', 8, 7),
  f32: makeFormat('f32', 8, 23),
};

/**
 * The same precision with an 11-bit exponent field: what "rounded as though the exponent range
 * were unbounded" (IEEE 754 §7.5, tininess after rounding) means for every value these
 * instructions produce.
 */
export const WIDE_FORMATS: Record<RefFormatName, RefFormat> = {
  f16: makeFormat('f16-wide', 11, 10),
  bf16: makeFormat('bf16-wide', 11, 7),
  f32: makeFormat('f32-wide', 11, 23),
};

export type RefClass = 'zero' | 'subnormal' | 'normal' | 'inf' | 'qnan' | 'snan';

export interface Fields {
  readonly sign: 0 | 1;
  readonly exponent: number;
  readonly fraction: number;
}

/** Split a bit pattern into its fields with plain arithmetic (works for 32-bit patterns too). */
export function fieldsOf(bits: number, fmt: RefFormat): Fields {
  const fractionScale = 2 ** fmt.fractionBits;
  const fraction = bits % fractionScale;
  const rest = Math.floor(bits / fractionScale);
  const exponentScale = 2 ** fmt.exponentBits;
  return {
    sign: Math.floor(rest / exponentScale) % 2 === 1 ? 1 : 0,
    exponent: rest % exponentScale,
    fraction,
  };
}

export function classOf(bits: number, fmt: RefFormat): RefClass {
  const { exponent, fraction } = fieldsOf(bits, fmt);
  const maxExponent = 2 ** fmt.exponentBits - 1;
  if (exponent === maxExponent) {
    if (fraction === 0) return 'inf';
    return fraction >= 2 ** (fmt.fractionBits - 1) ? 'qnan' : 'snan';
  }
  if (exponent === 0) return fraction === 0 ? 'zero' : 'subnormal';
  return 'normal';
}

export function isNaNBits(bits: number, fmt: RefFormat): boolean {
  const c = classOf(bits, fmt);
  return c === 'qnan' || c === 'snan';
}

export function isNegative(bits: number, fmt: RefFormat): boolean {
  return fieldsOf(bits, fmt).sign === 1;
}

/** The exact value of a finite pattern, by the textbook formula. Throws for inf/NaN. */
function decodeUncached(bits: number, fmt: RefFormat): Rational {
  const { sign, exponent, fraction } = fieldsOf(bits, fmt);
  if (exponent === 2 ** fmt.exponentBits - 1) throw new Error(`not finite: ${bits.toString(16)}`);
  // significand × 2^(e - (p-1)), with significand = 0.T (subnormal) or 1.T (normal) scaled by 2^(p-1)
  const significand = exponent === 0 ? fraction : 2 ** fmt.fractionBits + fraction;
  const scale = (exponent === 0 ? 1 : exponent) - fmt.bias - fmt.fractionBits;
  const magnitude = mul(rational(BigInt(significand)), pow2(scale));
  return sign === 1 ? rational(-magnitude.num, magnitude.den) : magnitude;
}

const cache16: Record<string, (Rational | undefined)[]> = { f16: [], bf16: [] };

export function decode(bits: number, fmt: RefFormat): Rational {
  const table = cache16[fmt.name];
  if (!table) return decodeUncached(bits, fmt);
  return (table[bits] ??= decodeUncached(bits, fmt));
}

export function isSubnormalBits(bits: number, fmt: RefFormat): boolean {
  return classOf(bits, fmt) === 'subnormal';
}

export function isZeroBits(bits: number, fmt: RefFormat): boolean {
  return classOf(bits, fmt) === 'zero';
}

export function zeroBits(negative: boolean, fmt: RefFormat): number {
  return negative ? fmt.signMask : 0;
}

export function infBits(negative: boolean, fmt: RefFormat): number {
  return negative ? fmt.signMask + fmt.infBits : fmt.infBits;
}

/** Same magnitude, sign bit cleared. */
export function absBits(bits: number, fmt: RefFormat): number {
  return isNegative(bits, fmt) ? bits - fmt.signMask : bits;
}

/** Same magnitude, sign bit set to `negative`. */
export function withSign(bits: number, negative: boolean, fmt: RefFormat): number {
  const magnitude = absBits(bits, fmt);
  return negative ? magnitude + fmt.signMask : magnitude;
}

/** The smallest positive normal value, 2^(1-bias). */
export function minNormal(fmt: RefFormat): Rational {
  return pow2(1 - fmt.bias);
}
