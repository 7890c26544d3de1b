/**
 * Floating-point formats as data: the arithmetic's f16 (1-5-10), bf16 (1-8-7) and f32 (1-8-23),
 * and the formats cvt converts between (PTX ISA 5.2.3): tf32 (1-8-10), the 8-bit e4m3 and e5m2,
 * the 6-bit e2m3 and e3m2, the 4-bit e2m1 and the unsigned 8-bit ue8m0. Bit patterns are
 * unsigned JavaScript numbers (every format here is at most 32 bits wide; .f64, 64 bits wide,
 * is handled with BigInt in element-format.ts).
 *
 * Not every format follows IEEE 754's encoding: e4m3 has no infinity and one NaN per sign (its
 * all-ones pattern), e2m3, e3m2 and e2m1 have neither infinity nor NaN, and ue8m0 has no sign,
 * no zero and no subnormals (pattern e is 2^(e-127); 0xFF is NaN). The fields below say which;
 * every function in this file honours them, and for f16/bf16/f32 they describe IEEE 754.
 */
import type { FormatName } from '../catalog/types.ts';
import type { AltFormatName, FloatFormatName } from '../catalog/cvt-types.ts';
import type { FloatClass } from './value.ts';

export interface FloatFormat<N extends string = FormatName> {
  readonly name: N;
  /**
   * Width of the value in bits (a register slot may be wider: e2m3 sits in 8 bits): 16 or 32
   * for the arithmetic's formats.
   */
  readonly width: N extends FormatName ? 16 | 32 : number;
  readonly expBits: number;
  readonly manBits: number;
  readonly bias: number;
  /** Exponent of the smallest normal: 1 - bias (ue8m0: -bias, its exponent field 0 is normal). */
  readonly emin: number;
  /** Exponent of the largest finite value: bias for IEEE formats, bias + 1 for e4m3 and e2m*. */
  readonly emax: number;
  /** The sign bit; for an unsigned format (ue8m0) 2^width, a bit no pattern sets. */
  readonly signMask: number;
  readonly expMask: number;
  readonly manMask: number;
  /**
   * Encoding of +infinity. A format without infinity has here the pattern that would follow its
   * largest finite value (e4m3 0x7F and ue8m0 0xFF, their NaN; e2m1 0x8, past every magnitude):
   * where rounding lands on overflow, before the format's own overflow rule applies.
   */
  readonly infBits: number;
  /** Encoding of the largest finite value (MAX_NORM). */
  readonly maxBits: number;
  /** Quiet bit: the top mantissa bit (IEEE NaN encoding only). */
  readonly quietBit: number;
  /**
   * The NaN every NaN result is (decision 'canonical-nan'): NVIDIA's canonical NaN, all ones but
   * the sign — 0x7FFF for f16 and bf16 (CUDART_NAN_FP16/BF16), 0x7FFFFFFF for f32, 0x7F for e4m3
   * and e5m2, 0xFF for ue8m0. A format without NaN (e2m3, e3m2, e2m1) turns a NaN into +MAX_NORM
   * (cvt's .satfinite), so that is its entry here.
   */
  readonly canonicalNaN: number;
  /** False for ue8m0 only. */
  readonly signed: boolean;
  readonly hasInfinity: boolean;
  /**
   * Which patterns are NaN: 'exponent-all-ones' (IEEE: exponent all ones, mantissa nonzero),
   * 'all-ones' (exponent and mantissa all ones: e4m3 0x7F/0xFF, ue8m0 0xFF) or 'none'.
   */
  readonly nan: 'exponent-all-ones' | 'all-ones' | 'none';
  /** False for ue8m0: its exponent field 0 is the normal value 2^-127, and it has no zero. */
  readonly hasSubnormals: boolean;
}

/** A format of any name: what the functions here and the rounding take. */
export type AnyFloatFormat = FloatFormat<string>;

function makeFormat<N extends string>(name: N, expBits: number, manBits: number): FloatFormat<N> {
  const width = 1 + expBits + manBits;
  const bias = 2 ** (expBits - 1) - 1;
  const manMask = 2 ** manBits - 1;
  const expMask = (2 ** expBits - 1) * 2 ** manBits;
  return {
    name,
    width: width as FloatFormat<N>['width'],
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
    signed: true,
    hasInfinity: true,
    nan: 'exponent-all-ones',
    hasSubnormals: true,
  };
}

/**
 * A format whose top exponent holds finite values (e4m3, e2m3, e3m2, e2m1: PTX ISA 5.2.3 "does
 * not support infinity"). e4m3 keeps its all-ones pattern as NaN; the others have no NaN.
 */
function finiteFormat<N extends string>(
  name: N,
  expBits: number,
  manBits: number,
  nan: 'all-ones' | 'none',
): FloatFormat<N> {
  const f = makeFormat(name, expBits, manBits);
  const allOnes = f.expMask + f.manMask;
  const maxBits = nan === 'all-ones' ? allOnes - 1 : allOnes;
  return {
    ...f,
    emax: f.bias + 1,
    infBits: maxBits + 1,
    maxBits,
    canonicalNaN: nan === 'all-ones' ? allOnes : maxBits,
    hasInfinity: false,
    nan,
  };
}

export const FORMATS: Readonly<Record<FormatName, FloatFormat>> = {
  f16: makeFormat('f16', 5, 10),
  bf16: makeFormat('bf16', 8, 7),
  f32: makeFormat('f32', 8, 23),
};

/**
 * The formats of PTX ISA 5.2.3 that cvt converts to and from. tf32 is the value format
 * (1-8-10); in a .b32 register it sits in the upper 19 bits (see cvt's element layout).
 */
export const ALT_FORMATS: { readonly [N in AltFormatName]: FloatFormat<N> } = {
  tf32: makeFormat('tf32', 8, 10),
  e4m3: finiteFormat('e4m3', 4, 3, 'all-ones'),
  e5m2: makeFormat('e5m2', 5, 2),
  e2m3: finiteFormat('e2m3', 2, 3, 'none'),
  e3m2: finiteFormat('e3m2', 3, 2, 'none'),
  e2m1: finiteFormat('e2m1', 2, 1, 'none'),
  ue8m0: {
    name: 'ue8m0',
    width: 8,
    expBits: 8,
    manBits: 0,
    bias: 127,
    emin: -127,
    emax: 127,
    signMask: 0x100,
    expMask: 0xff,
    manMask: 0,
    infBits: 0xff,
    maxBits: 0xfe,
    quietBit: 0,
    canonicalNaN: 0xff,
    signed: false,
    hasInfinity: false,
    nan: 'all-ones',
    hasSubnormals: false,
  },
};

/** Every format of at most 32 bits, by name. */
export const FLOAT_FORMATS: { readonly [N in FloatFormatName]: FloatFormat<N> } = {
  ...(FORMATS as { readonly [N in FormatName]: FloatFormat<N> }),
  ...ALT_FORMATS,
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
  f: AnyFloatFormat,
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

export function signOf(bits: number, f: AnyFloatFormat): 0 | 1 {
  return bits >= f.signMask ? 1 : 0;
}

export function magnitudeOf(bits: number, f: AnyFloatFormat): number {
  return bits >= f.signMask ? bits - f.signMask : bits;
}

export function withSign(magnitude: number, negative: boolean, f: AnyFloatFormat): number {
  return negative ? magnitude + f.signMask : magnitude;
}

export function decode(bits: number, f: AnyFloatFormat): Decoded {
  const negative = bits >= f.signMask;
  const mag = negative ? bits - f.signMask : bits;
  const exponent = Math.floor(mag / 2 ** f.manBits);
  const mantissa = mag % 2 ** f.manBits;
  return { negative, exponent, mantissa, class: classifyMagnitude(mag, f) };
}

function classifyMagnitude(mag: number, f: AnyFloatFormat): FloatClass {
  if (isNaNMagnitude(mag, f)) {
    // Only the IEEE encoding has a quiet bit; the one NaN of e4m3 and ue8m0 counts as quiet.
    return f.nan !== 'exponent-all-ones' || mag % 2 ** f.manBits >= f.quietBit ? 'qnan' : 'snan';
  }
  if (f.hasInfinity && mag === f.infBits) return 'infinity';
  if (!f.hasSubnormals) return 'normal';
  if (mag === 0) return 'zero';
  if (mag < 2 ** f.manBits) return 'subnormal';
  return 'normal';
}

function isNaNMagnitude(mag: number, f: AnyFloatFormat): boolean {
  switch (f.nan) {
    case 'exponent-all-ones':
      return mag > f.infBits;
    case 'all-ones':
      return mag === f.expMask + f.manMask;
    case 'none':
      return false;
  }
}

export function classify(bits: number, f: AnyFloatFormat): FloatClass {
  return classifyMagnitude(magnitudeOf(bits, f), f);
}

export const isNaNBits = (bits: number, f: AnyFloatFormat): boolean =>
  isNaNMagnitude(magnitudeOf(bits, f), f);
export const isInfBits = (bits: number, f: AnyFloatFormat): boolean =>
  f.hasInfinity && magnitudeOf(bits, f) === f.infBits;
export const isZeroBits = (bits: number, f: AnyFloatFormat): boolean =>
  f.hasSubnormals && magnitudeOf(bits, f) === 0;
export const isSubnormalBits = (bits: number, f: AnyFloatFormat): boolean => {
  const m = magnitudeOf(bits, f);
  return f.hasSubnormals && m > 0 && m < 2 ** f.manBits;
};

/** The value as a JavaScript double (exact: every value of these formats is a double). */
export function toDouble(bits: number, f: AnyFloatFormat): number {
  const { negative, exponent, mantissa, class: cls } = decode(bits, f);
  let v: number;
  if (cls === 'qnan' || cls === 'snan') v = NaN;
  else if (cls === 'infinity') v = Infinity;
  else if (exponent === 0 && f.hasSubnormals) v = mantissa * 2 ** (f.emin - f.manBits);
  else v = (2 ** f.manBits + mantissa) * 2 ** (exponent - f.bias - f.manBits);
  return negative ? -v : v;
}

const valueTables = new Map<string, Float64Array>();
/**
 * The values of every pattern of a format of at most 16 bits (all 65,536 of f16 and bf16), as
 * doubles (a cache of toDouble, built on first use): what the fast path and the comparisons
 * read instead of decoding bits.
 *
 * Built one exponent field (binade) at a time: its patterns' values are evenly spaced, so a
 * binade whose first and last values are finite is its first value plus multiples of the step
 * between them, both from toDouble (exact: every value of the binade is a double). A binade
 * holding a NaN or an infinity is read pattern by pattern. The fast path builds these tables
 * when the CLI starts, where a call of toDouble per pattern cost 20 ms a table.
 */
export function valueTable(f: AnyFloatFormat): Float64Array {
  if (f.width > 16) throw new Error(`valueTable: ${f.name} is wider than 16 bits`);
  let t = valueTables.get(f.name);
  if (!t) {
    const count = 2 ** f.width;
    const binade = 2 ** f.manBits;
    t = new Float64Array(count);
    for (let first = 0; first < count; first += binade) {
      const last = first + binade - 1;
      const v0 = toDouble(first, f);
      const v1 = toDouble(last, f);
      if (Number.isFinite(v0) && Number.isFinite(v1)) {
        const step = binade > 1 ? (v1 - v0) / (binade - 1) : 0;
        for (let m = 0; m < binade; m++) t[first + m] = v0 + m * step;
      } else {
        for (let i = first; i <= last; i++) t[i] = toDouble(i, f);
      }
    }
    valueTables.set(f.name, t);
  }
  return t;
}

/** The largest magnitude the order of values reaches: infinity, or MAX_NORM without one. */
function topMagnitude(f: AnyFloatFormat): number {
  return f.hasInfinity ? f.infBits : f.maxBits;
}

/**
 * Next representable value toward +infinity (NaN stays, the top stays, -0 → smallest
 * subnormal). Encodings grow with the magnitude, so within a sign the next value is ±1.
 */
export function nextUp(bits: number, f: AnyFloatFormat): number {
  if (isNaNBits(bits, f) || bits === topMagnitude(f)) return bits;
  if (!f.signed) return bits + 1;
  if (bits === f.signMask) return 1; // -0 → +min subnormal
  return bits < f.signMask ? bits + 1 : bits === f.signMask + 1 ? 0 : bits - 1;
}

/** Next representable value toward -infinity. */
export function nextDown(bits: number, f: AnyFloatFormat): number {
  if (isNaNBits(bits, f)) return bits;
  if (!f.signed) return bits === 0 ? 0 : bits - 1;
  if (bits === f.signMask + topMagnitude(f)) return bits;
  if (bits === 0) return f.signMask + 1; // +0 → -min subnormal
  return bits >= f.signMask ? bits + 1 : bits - 1;
}

/**
 * Named special values, as the quick picks and corner-case tables use them (of the
 * IEEE-encoded formats: where a format lacks infinity or NaN, those entries are meaningless).
 */
export function specialValues(f: AnyFloatFormat) {
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
