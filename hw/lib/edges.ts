import type { FormatName } from '../../src/catalog/formats.ts';

/** The formats of the arithmetic's operands. */
export type OperandFormat = Extract<FormatName, 'f16' | 'bf16' | 'f32'>;

/**
 * Edge values per operand format, crossed with each other for the fma and mixed-precision
 * forms (full results are kept for the cross product). Chosen for the spec's open questions:
 * signed zeros (sat/relu of -0.0), subnormal boundaries and 1±ulp factors whose products land
 * just below the smallest normal (FTZ tininess before/after rounding), max-finite and infinities
 * (overflow), and quiet, signalling and all-ones NaNs (which NaN comes back).
 */
export const EDGE_VALUES: Record<OperandFormat, readonly number[]> = {
  f16: [
    0x0000,
    0x8000, // ±0
    0x0001,
    0x8001, // ±smallest subnormal 2^-24
    0x03ff,
    0x83ff, // ±largest subnormal
    0x0400,
    0x8400, // ±smallest normal 2^-14
    0x0200, // 2^-15, half the smallest normal
    0x3c00,
    0xbc00, // ±1
    0x3c01,
    0xbc01, // ±(1 + 2^-10)
    0x3bff, // 1 - 2^-11
    0x3800,
    0xb800, // ±0.5
    0x4000, // 2
    0x7bff,
    0xfbff, // ±max finite 65504
    0x7c00,
    0xfc00, // ±inf
    0x7e00, // canonical-looking quiet NaN
    0x7c01, // signalling NaN
    0xffff, // all-ones NaN
  ],
  bf16: [
    0x0000,
    0x8000,
    0x0001,
    0x8001, // ±smallest subnormal 2^-133
    0x007f,
    0x807f, // ±largest subnormal
    0x0080,
    0x8080, // ±smallest normal 2^-126
    0x0040, // 2^-127
    0x3f80,
    0xbf80, // ±1
    0x3f81,
    0xbf81, // ±(1 + 2^-7)
    0x3f7f, // 1 - 2^-8
    0x3f00,
    0xbf00, // ±0.5
    0x4000, // 2
    0x7f7f,
    0xff7f, // ±max finite
    0x7f80,
    0xff80, // ±inf
    0x7fc0, // quiet NaN
    0x7f81, // signalling NaN
    0xffff, // all-ones NaN
  ],
  f32: [
    0x00000000,
    0x80000000,
    0x00000001,
    0x80000001, // ±2^-149
    0x007fffff, // largest subnormal
    0x00800000,
    0x80800000, // ±smallest normal 2^-126
    0x3f800000,
    0xbf800000, // ±1
    0x3f800001, // 1 + 2^-23
    0x33800000,
    0xb3800000, // ±2^-24 (a half ulp of 1.0)
    0x4b800000,
    0xcb800000, // ±2^24
    0x477fe000, // 65504, f16 max finite
    0x7f7fffff,
    0xff7fffff, // ±max finite
    0x7f800000,
    0xff800000, // ±inf
    0x7fc00000, // quiet NaN
    0x7f800001, // signalling NaN
    0xffffffff, // all-ones NaN
    0x3eaaaaab, // 1/3
  ],
};
