/**
 * Bit patterns of the capture's element formats, built from their fields: the corner cases and
 * the random inputs are written with these (hw/mma/mma-capture.cu mirrors `randomElement`).
 * A .tf32 element is its .b32 register (f32 layout); the instruction reads its upper 19 bits.
 */
import type { FormatName } from '../../../src/catalog/formats.ts';

export type CaptureFormat = Extract<FormatName, 'f16' | 'bf16' | 'tf32' | 'f32' | 'e4m3' | 'e5m2'>;

export interface PatternFormat {
  readonly name: CaptureFormat;
  /** Bits of the element's slot (tf32: the whole register). */
  readonly width: 8 | 16 | 32;
  /** Fraction bits of the pattern's layout (tf32: 23, of which the upper 10 are read). */
  readonly fractionBits: number;
  /** The lowest fraction bit the instruction reads (13 for tf32, else 0). */
  readonly lowestBit: number;
  readonly bias: number;
  /** Largest exponent field of a finite value. */
  readonly maxField: number;
  /** Largest fraction at maxField (e4m3: 6, since 0x7F is NaN). */
  readonly maxFraction: number;
  readonly inf: number | null;
  readonly nan: number;
}

function ieee(
  name: CaptureFormat,
  width: 16 | 32,
  expBits: number,
  fractionBits: number,
  nan: number,
  lowestBit = 0,
): PatternFormat {
  const maxField = (1 << expBits) - 2;
  return {
    name,
    width,
    fractionBits,
    lowestBit,
    bias: (1 << (expBits - 1)) - 1,
    maxField,
    maxFraction: 2 ** fractionBits - 2 ** lowestBit,
    inf: ((maxField + 1) * 2 ** fractionBits) >>> 0,
    nan,
  };
}

export const PATTERN_FORMATS: { readonly [F in CaptureFormat]: PatternFormat } = {
  f16: ieee('f16', 16, 5, 10, 0x7e00),
  bf16: ieee('bf16', 16, 8, 7, 0x7fc0),
  tf32: ieee('tf32', 32, 8, 23, 0x7fc00000, 13),
  f32: ieee('f32', 32, 8, 23, 0x7fc00000),
  e4m3: {
    name: 'e4m3',
    width: 8,
    fractionBits: 3,
    lowestBit: 0,
    bias: 7,
    maxField: 15,
    maxFraction: 6,
    inf: null,
    nan: 0x7f,
  },
  e5m2: {
    name: 'e5m2',
    width: 8,
    fractionBits: 2,
    lowestBit: 0,
    bias: 15,
    maxField: 30,
    maxFraction: 3,
    inf: 0x7c,
    nan: 0x7e,
  },
};

export function signBit(f: PatternFormat): number {
  return 2 ** (f.width - 1);
}

export function negate(f: PatternFormat, p: number): number {
  return (p ^ signBit(f)) >>> 0;
}

/** sign, exponent field and fraction as a pattern. */
export function compose(f: PatternFormat, sign: number, field: number, fraction: number): number {
  return (sign * signBit(f) + field * 2 ** f.fractionBits + fraction) >>> 0;
}

export function maxFinite(f: PatternFormat): number {
  return compose(f, 0, f.maxField, f.maxFraction);
}

export function minSubnormal(f: PatternFormat): number {
  return 2 ** f.lowestBit;
}

/** (1 + frac/2) · 2^e with frac ∈ {0, 1} (1 or 1.5), or null when the format cannot hold it. */
export function powerOfTwo(f: PatternFormat, e: number, half: 0 | 1 = 0): number | null {
  const field = f.bias + e;
  const halfBit = half ? 2 ** (f.fractionBits - 1) : 0;
  if (field >= 1 && field <= f.maxField) {
    const p = compose(f, 0, field, halfBit);
    return field === f.maxField && halfBit > f.maxFraction ? null : p;
  }
  if (field > f.maxField) return null;
  // Subnormal: the leading one sits `shift` places below the fraction's top.
  const shift = 1 - field;
  const lead = f.fractionBits - shift;
  const low = half ? lead - 1 : lead;
  if (low < f.lowestBit) return null;
  return (2 ** lead + (half ? 2 ** (lead - 1) : 0)) >>> 0;
}

/** The pattern of a small integer (|v| ≤ 4), exact in every capture format. */
export function smallInteger(f: PatternFormat, v: number): number {
  if (v === 0) return 0;
  const m = Math.abs(v);
  const e = Math.floor(Math.log2(m));
  const p = powerOfTwo(f, e, m === 3 ? 1 : 0)!;
  return v < 0 ? negate(f, p) : p;
}

/**
 * A finite element from two random words: sign from w1's top bit, unbiased exponent in [lo, hi]
 * from w1's bits 8..23, the fraction from w2; the field clamped to [0, maxField] (0: a
 * subnormal or zero), and e4m3's NaN fraction at maxField cut to the largest finite.
 */
export function randomElement(
  f: PatternFormat,
  w1: number,
  w2: number,
  lo: number,
  hi: number,
): number {
  const sign = w1 >>> 31;
  const e = lo + (((w1 >>> 8) & 0xffff) % (hi - lo + 1));
  const field = Math.min(Math.max(f.bias + e, 0), f.maxField);
  let fraction = w2 % 2 ** f.fractionBits;
  if (field === f.maxField && fraction > f.maxFraction) fraction = f.maxFraction;
  return compose(f, sign, field, fraction);
}

/** Least and greatest unbiased exponent of a finite nonzero value's field (field 0 counts as emin − 1). */
export function exponentRange(f: PatternFormat): { lo: number; hi: number } {
  return { lo: -f.bias, hi: f.maxField - f.bias };
}
