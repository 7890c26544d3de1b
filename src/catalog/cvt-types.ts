/**
 * Vocabulary of `cvt` (PTX ISA 9.7.9.21) between floating-point formats: its types, modifiers and
 * the formats of the values it reads and writes (PTX ISA 5.2.3, alternate floating-point data
 * formats). Kept apart from types.ts, whose names the arithmetic's pickers, URLs and the GPU
 * harness enumerate.
 */
import { ROUNDING_MODIFIERS, type FormatName } from './types.ts';

/** The value formats of 5.2.3 beside f16/bf16/f32: each fits in 32 bits. */
export const ALT_FORMAT_NAMES = ['tf32', 'e4m3', 'e5m2', 'e2m3', 'e3m2', 'e2m1', 'ue8m0'] as const;
export type AltFormatName = (typeof ALT_FORMAT_NAMES)[number];

/** Every format whose bit patterns fit a JavaScript number (32 bits or fewer). */
export type FloatFormatName = FormatName | AltFormatName;

/** The general syntax lines' `.dtype`/`.atype`, restricted to the floating-point types. */
export const CVT_SCALAR_TYPES = ['f16', 'bf16', 'f32', 'f64'] as const;

/** Every format a cvt element can have; `.f64` patterns need 64-bit (BigInt) handling. */
export const ELEMENT_FORMAT_NAMES = [...CVT_SCALAR_TYPES, ...ALT_FORMAT_NAMES] as const;
export type ElementFormatName = (typeof ELEMENT_FORMAT_NAMES)[number];

/** Every floating-point type a cvt syntax line names, as written after the modifiers. */
export const CVT_TYPES = [
  ...CVT_SCALAR_TYPES,
  'f16x2',
  'bf16x2',
  'tf32',
  'e4m3x2',
  'e5m2x2',
  'e2m3x2',
  'e3m2x2',
  'e2m1x2',
  'ue8m0x2',
  'e4m3x4',
  'e5m2x4',
  'e2m3x4',
  'e3m2x4',
  'e2m1x4',
] as const;
export type CvtType = (typeof CVT_TYPES)[number];

/** Floating-point rounding (Floating Point Notes): to the destination format's precision. */
export const CVT_FLOAT_ROUNDINGS = [...ROUNDING_MODIFIERS, 'rna', 'rs'] as const;
/** Integer rounding (Integer Notes): to an integral value, stored in the same format. */
export const CVT_INTEGER_ROUNDINGS = ['rni', 'rzi', 'rmi', 'rpi'] as const;

/** Modifiers of cvt as written, without the leading dot, in the order the syntax lines use. */
export const CVT_MODIFIERS = [
  ...CVT_FLOAT_ROUNDINGS,
  ...CVT_INTEGER_ROUNDINGS,
  'ftz',
  'sat',
  'relu',
  'satfinite',
] as const;
export type CvtModifier = (typeof CVT_MODIFIERS)[number];
export type CvtRounding =
  (typeof CVT_FLOAT_ROUNDINGS)[number] | (typeof CVT_INTEGER_ROUNDINGS)[number];

export const isCvtRounding = (m: string): m is CvtRounding =>
  (CVT_FLOAT_ROUNDINGS as readonly string[]).includes(m) ||
  (CVT_INTEGER_ROUNDINGS as readonly string[]).includes(m);

/** The format of each value a type holds, and how many it packs. */
export function elementsOf(type: CvtType): {
  readonly format: ElementFormatName;
  readonly count: 1 | 2 | 4;
} {
  const m = /^(.*?)x([24])$/.exec(type);
  if (!m) return { format: type as ElementFormatName, count: 1 };
  return { format: m[1] as ElementFormatName, count: Number(m[2]) as 2 | 4 };
}

/**
 * Bits of one element's slot in a packed register: 4 for e2m1, 8 for the 8-bit formats and the
 * 6-bit ones (their two most significant bits are zero padding), the full type otherwise.
 */
export function slotBits(format: ElementFormatName): 4 | 8 | 16 | 32 | 64 {
  switch (format) {
    case 'e2m1':
      return 4;
    case 'e4m3':
    case 'e5m2':
    case 'e2m3':
    case 'e3m2':
    case 'ue8m0':
      return 8;
    case 'f16':
    case 'bf16':
      return 16;
    case 'f32':
    case 'tf32':
      return 32;
    case 'f64':
      return 64;
  }
}

/** Width in bits of the value itself (a slot may hold padding beside it). */
export function valueBits(format: ElementFormatName): number {
  switch (format) {
    case 'e2m3':
    case 'e3m2':
      return 6;
    case 'tf32':
      return 19;
    default:
      return slotBits(format);
  }
}

/**
 * Width of a register holding `type` (Description): `.b8` for e2m1x2, `.b16` for the 8-bit x2
 * types and e2m1x4, `.b32` for f16x2/bf16x2/tf32 and the 8-bit x4 types.
 */
export function registerBits(type: CvtType): 8 | 16 | 32 | 64 {
  const { format, count } = elementsOf(type);
  return (slotBits(format) * count) as 8 | 16 | 32 | 64;
}
