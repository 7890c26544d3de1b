import type { OperandFormat } from './edges.ts';

/** Field widths of the storage formats, for building values with a chosen exponent. */
export interface BitLayout {
  readonly bits: 16 | 32;
  readonly mantissaBits: number;
  readonly exponentBits: number;
  readonly bias: number;
}

export const BIT_LAYOUTS: Record<OperandFormat, BitLayout> = {
  f16: { bits: 16, mantissaBits: 10, exponentBits: 5, bias: 15 },
  bf16: { bits: 16, mantissaBits: 7, exponentBits: 8, bias: 127 },
  f32: { bits: 32, mantissaBits: 23, exponentBits: 8, bias: 127 },
};

export function widthMask(layout: BitLayout): number {
  return layout.bits === 32 ? 0xffffffff : 0xffff;
}

/** Unbiased exponent of the bits, with subnormals and zero counted at the minimum exponent. */
export function unbiasedExponent(bits: number, layout: BitLayout): number {
  const field = (bits >>> layout.mantissaBits) & ((1 << layout.exponentBits) - 1);
  return Math.max(field, 1) - layout.bias;
}

/** The bits with their exponent field replaced by `field`. */
export function withExponentField(bits: number, field: number, layout: BitLayout): number {
  const expMask = ((1 << layout.exponentBits) - 1) << layout.mantissaBits;
  return ((bits & ~expMask) | (field << layout.mantissaBits)) >>> 0;
}
