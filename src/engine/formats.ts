/**
 * The three storage formats: f16 (1-5-10), bf16 (1-8-7) and f32 (1-8-23). Bit patterns are
 * unsigned JavaScript numbers (f32 patterns fit below 2^32 exactly).
 */
import type { FormatName } from '../catalog/types.ts';
import type { FloatClass } from './trace.ts';

export interface FloatFormat {
  readonly name: FormatName;
  readonly width: 16 | 32;
  readonly expBits: number;
  readonly manBits: number;
  readonly bias: number;
  /** Exponent of the smallest normal: 1 - bias. */
  readonly emin: number;
  /** Exponent of the largest finite value: bias. */
  readonly emax: number;
  readonly signMask: number;
  readonly expMask: number;
  readonly manMask: number;
  /** Encoding of +infinity. */
  readonly infBits: number;
  /** Encoding of the largest finite value. */
  readonly maxBits: number;
  /** Quiet bit: the top mantissa bit. */
  readonly quietBit: number;
  /**
   * The NaN every NaN result is (decision 'canonical-nan'): NVIDIA's canonical NaN, all ones but
   * the sign — 0x7FFF for f16 and bf16 (CUDART_NAN_FP16/BF16), 0x7FFFFFFF for f32.
   */
  readonly canonicalNaN: number;
}

function makeFormat(name: FormatName, expBits: number, manBits: number): FloatFormat {
  const width = (1 + expBits + manBits) as 16 | 32;
  const bias = 2 ** (expBits - 1) - 1;
  const manMask = 2 ** manBits - 1;
  const expMask = (2 ** expBits - 1) * 2 ** manBits;
  return {
    name,
    width,
    expBits,
    manBits,
    bias,
    emin: 1 - bias,
    emax: bias,
    signMask: 2 ** (width - 1),
    expMask,
    manMask,
    infBits: expMask,
    maxBits: expMask - 1,
    quietBit: 2 ** (manBits - 1),
    canonicalNaN: 2 ** (width - 1) - 1,
  };
}

export const FORMATS: Readonly<Record<FormatName, FloatFormat>> = {
  f16: makeFormat('f16', 5, 10),
  bf16: makeFormat('bf16', 8, 7),
  f32: makeFormat('f32', 8, 23),
};

export interface Decoded {
  readonly negative: boolean;
  /** Biased exponent field. */
  readonly exponent: number;
  /** Mantissa (trailing significand) field. */
  readonly mantissa: number;
  readonly class: FloatClass;
}

/** Bits from the three fields (the inverse of decode); fields out of range are an error. */
export function encode(
  fields: { negative: boolean; exponent: number; mantissa: number },
  f: FloatFormat,
): number {
  const { negative, exponent, mantissa } = fields;
  if (!Number.isInteger(exponent) || exponent < 0 || exponent >= 2 ** f.expBits) {
    throw new RangeError(`exponent field must be 0…${2 ** f.expBits - 1}`);
  }
  if (!Number.isInteger(mantissa) || mantissa < 0 || mantissa > f.manMask) {
    throw new RangeError(`mantissa field must be 0…${f.manMask}`);
  }
  return (negative ? f.signMask : 0) + exponent * 2 ** f.manBits + mantissa;
}

export function signOf(bits: number, f: FloatFormat): 0 | 1 {
  return bits >= f.signMask ? 1 : 0;
}

export function magnitudeOf(bits: number, f: FloatFormat): number {
  return bits >= f.signMask ? bits - f.signMask : bits;
}

export function withSign(magnitude: number, negative: boolean, f: FloatFormat): number {
  return negative ? magnitude + f.signMask : magnitude;
}

export function decode(bits: number, f: FloatFormat): Decoded {
  const negative = bits >= f.signMask;
  const mag = negative ? bits - f.signMask : bits;
  const exponent = Math.floor(mag / 2 ** f.manBits);
  const mantissa = mag % 2 ** f.manBits;
  return { negative, exponent, mantissa, class: classifyMagnitude(mag, f) };
}

function classifyMagnitude(mag: number, f: FloatFormat): FloatClass {
  if (mag === 0) return 'zero';
  if (mag < 2 ** f.manBits) return 'subnormal';
  if (mag < f.infBits) return 'normal';
  if (mag === f.infBits) return 'infinity';
  return mag % 2 ** f.manBits >= f.quietBit ? 'qnan' : 'snan';
}

export function classify(bits: number, f: FloatFormat): FloatClass {
  return classifyMagnitude(magnitudeOf(bits, f), f);
}

export const isNaNBits = (bits: number, f: FloatFormat): boolean =>
  magnitudeOf(bits, f) > f.infBits;
export const isInfBits = (bits: number, f: FloatFormat): boolean =>
  magnitudeOf(bits, f) === f.infBits;
export const isZeroBits = (bits: number, f: FloatFormat): boolean => magnitudeOf(bits, f) === 0;
export const isSubnormalBits = (bits: number, f: FloatFormat): boolean => {
  const m = magnitudeOf(bits, f);
  return m > 0 && m < 2 ** f.manBits;
};

/** The value as a JavaScript double (exact: every f16/bf16/f32 value is a double). */
export function toDouble(bits: number, f: FloatFormat): number {
  const { negative, exponent, mantissa } = decode(bits, f);
  let v: number;
  if (exponent === 2 ** f.expBits - 1) v = mantissa === 0 ? Infinity : NaN;
  else if (exponent === 0) v = mantissa * 2 ** (f.emin - f.manBits);
  else v = (2 ** f.manBits + mantissa) * 2 ** (exponent - f.bias - f.manBits);
  return negative ? -v : v;
}

const valueTables = new Map<string, Float64Array>();
/**
 * The values of all 65,536 patterns of a 16-bit format, as doubles (a cache of toDouble, built
 * on first use): what the fast path and the comparisons read instead of decoding bits.
 */
export function valueTable(f: FloatFormat): Float64Array {
  if (f.width !== 16) throw new Error(`valueTable: ${f.name} is not a 16-bit format`);
  let t = valueTables.get(f.name);
  if (!t) {
    t = new Float64Array(65536);
    for (let i = 0; i < 65536; i++) t[i] = toDouble(i, f);
    valueTables.set(f.name, t);
  }
  return t;
}

/** Next representable value toward +infinity (NaN stays, +inf stays, -0 → smallest subnormal). */
export function nextUp(bits: number, f: FloatFormat): number {
  if (isNaNBits(bits, f) || bits === f.infBits) return bits;
  if (bits === f.signMask) return 1; // -0 → +min subnormal
  return bits < f.signMask ? bits + 1 : bits === f.signMask + 1 ? 0 : bits - 1;
}

/** Next representable value toward -infinity. */
export function nextDown(bits: number, f: FloatFormat): number {
  if (isNaNBits(bits, f) || bits === f.signMask + f.infBits) return bits;
  if (bits === 0) return f.signMask + 1; // +0 → -min subnormal
  return bits >= f.signMask ? bits + 1 : bits - 1;
}

/** Named special values, as the quick picks and corner-case tables use them. */
export function specialValues(f: FloatFormat) {
  const one = f.bias * 2 ** f.manBits;
  return {
    plusZero: 0,
    minusZero: f.signMask,
    minSubnormal: 1,
    maxSubnormal: 2 ** f.manBits - 1,
    minNormal: 2 ** f.manBits,
    one,
    minusOne: one + f.signMask,
    maxFinite: f.maxBits,
    plusInf: f.infBits,
    minusInf: f.infBits + f.signMask,
    canonicalNaN: f.canonicalNaN,
    signalingNaN: f.infBits + 1,
  };
}

export function formatHex(bits: number, width: number): string {
  return `0x${bits
    .toString(16)
    .toUpperCase()
    .padStart(width / 4, '0')}`;
}
