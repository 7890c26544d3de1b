/**
 * Every floating-point format a PTX instruction reads or writes, as data: the fundamental types
 * `.f64 .f32 .f16` (IEEE 754 binary64, binary32, binary16) and the alternate formats of PTX ISA
 * 5.2.3 (`bf16`, `tf32`, `e4m3`, `e5m2`, `e3m2`, `e2m3`, `e2m1`, `ue8m0`, `ue4m3`). The engine's
 * format type (src/engine/format.ts) derives masks, ranges and encodings from these facts alone.
 *
 * Where 5.2.3 departs from IEEE 754's encoding it says so, and so does the entry:
 *  - e4m3 "does not support infinity and NaN values are limited to 0x7f and 0xff";
 *  - e2m1, e2m3, e3m2 "do not support infinity and NaN";
 *  - ue8m0 is "unsigned … 8 bits for exponent and 0 bits for mantissa", "does not support
 *    infinity. NaN value is limited to 0xff" (no zero, no subnormals: pattern e is 2^(e-127));
 *  - ue4m3 is "a 7-bit unsigned … 4 bits for exponent and 3 bits for mantissa", "does not support
 *    infinity. NaN value is limited to 0x7f", stored in a .b8 with its MSB padded with zero.
 *  - tf32 has "the same range as .f32 and reduced precision (>=10 bits)"; its layout in a .b32 is
 *    implementation defined (decision cvt-tf32-layout places its 19 bits in the upper bits).
 */

export const FORMAT_NAMES = [
  'f64',
  'f32',
  'tf32',
  'f16',
  'bf16',
  'e4m3',
  'e5m2',
  'e3m2',
  'e2m3',
  'e2m1',
  'ue8m0',
  'ue4m3',
] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

export const isFormatName = (name: string): name is FormatName =>
  (FORMAT_NAMES as readonly string[]).includes(name);

export interface FormatSpec {
  readonly name: FormatName;
  readonly expBits: number;
  /** Trailing significand (mantissa) bits. */
  readonly manBits: number;
  /** False for ue8m0 and ue4m3: no sign bit, every value positive. */
  readonly signed: boolean;
  /**
   * Which patterns are not finite values: 'ieee' (exponent all ones: infinity with a zero
   * mantissa, NaN otherwise), 'nan-all-ones' (exponent and mantissa all ones is NaN, nothing is
   * infinite: e4m3, ue8m0, ue4m3) or 'finite' (every pattern is a number: e2m1, e2m3, e3m2).
   */
  readonly specials: 'ieee' | 'nan-all-ones' | 'finite';
  /** False for ue8m0: its exponent field 0 is the normal value 2^-127, and it has no zero. */
  readonly subnormals: boolean;
  /**
   * Bits one element takes in a register: the value's own width, or more where the spec pads it
   * (e2m3/e3m2 in 8 bits, ue4m3 in 8 bits, tf32's 19 bits in a .b32).
   */
  readonly slotBits: 4 | 8 | 16 | 32 | 64;
  /** What the format is called where people read about it. */
  readonly title: string;
}

export const FORMAT_SPECS: { readonly [N in FormatName]: FormatSpec & { readonly name: N } } = {
  f64: spec('f64', 11, 52, 'ieee', 64, 'IEEE 754 binary64 (.f64)'),
  f32: spec('f32', 8, 23, 'ieee', 32, 'IEEE 754 binary32 (.f32)'),
  tf32: spec('tf32', 8, 10, 'ieee', 32, 'TensorFloat-32 (tf32)'),
  f16: spec('f16', 5, 10, 'ieee', 16, 'IEEE 754 binary16 (.f16)'),
  bf16: spec('bf16', 8, 7, 'ieee', 16, 'bfloat16 (bf16)'),
  e4m3: spec('e4m3', 4, 3, 'nan-all-ones', 8, 'FP8 E4M3 (e4m3)'),
  e5m2: spec('e5m2', 5, 2, 'ieee', 8, 'FP8 E5M2 (e5m2)'),
  e3m2: spec('e3m2', 3, 2, 'finite', 8, 'FP6 E3M2 (e3m2)'),
  e2m3: spec('e2m3', 2, 3, 'finite', 8, 'FP6 E2M3 (e2m3)'),
  e2m1: spec('e2m1', 2, 1, 'finite', 4, 'FP4 E2M1 (e2m1)'),
  ue8m0: {
    ...spec('ue8m0', 8, 0, 'nan-all-ones', 8, 'UE8M0 scale (ue8m0)'),
    signed: false,
    subnormals: false,
  },
  ue4m3: { ...spec('ue4m3', 4, 3, 'nan-all-ones', 8, 'UE4M3 scale (ue4m3)'), signed: false },
};

function spec<N extends FormatName>(
  name: N,
  expBits: number,
  manBits: number,
  specials: FormatSpec['specials'],
  slotBits: FormatSpec['slotBits'],
  title: string,
): FormatSpec & { readonly name: N } {
  return { name, expBits, manBits, signed: true, specials, subnormals: true, slotBits, title };
}
