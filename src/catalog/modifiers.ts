/**
 * One vocabulary of modifiers for every instruction, as LLVM's NVPTX keeps one `PTXCvtMode` for
 * every rounding and flag: each modifier as written (without its leading dot) and what kind it
 * is. Syntax lines, the parser, pickers and the engine all speak it.
 */

/** Rounding to the destination format's precision (Floating Point Notes of cvt; 9.7.4). */
export const FLOAT_ROUNDINGS = ['rn', 'rz', 'rm', 'rp', 'rna', 'rs'] as const;
/** Rounding to an integral value, stored in the same format (cvt's Integer Notes). */
export const INTEGER_ROUNDINGS = ['rni', 'rzi', 'rmi', 'rpi'] as const;
export const ROUNDINGS = [...FLOAT_ROUNDINGS, ...INTEGER_ROUNDINGS] as const;
export type Rounding = (typeof ROUNDINGS)[number];
export type IntegerRounding = (typeof INTEGER_ROUNDINGS)[number];

/** The four IEEE 754 directions every arithmetic rounding slot offers. */
export const IEEE_ROUNDINGS = ['rn', 'rz', 'rm', 'rp'] as const;
export type IeeeRounding = (typeof IEEE_ROUNDINGS)[number];

export const isRounding = (m: string): m is Rounding =>
  (ROUNDINGS as readonly string[]).includes(m);
export const isIntegerRounding = (m: string): m is IntegerRounding =>
  (INTEGER_ROUNDINGS as readonly string[]).includes(m);

/**
 * The shapes `.mMnNkK` of the matrix instructions: mma's six floating-point shapes (m16n8k64
 * the block-scaled FP4 kinds', 9.7.14.5.14) and wgmma's dense floating-point `.m64nNk{8,16,32}`, N = 8, 16, …, 256 (9.7.15.2).
 */
export type MatrixShape = `m${number}n${number}k${number}`;
export const MMA_SHAPES: readonly MatrixShape[] = [
  'm8n8k4',
  'm16n8k4',
  'm16n8k8',
  'm16n8k16',
  'm16n8k32',
  'm16n8k64',
];
/** wgmma's N, 8 to 256 in steps of 8, for every K. */
export const WGMMA_N: readonly number[] = Array.from({ length: 32 }, (_, i) => 8 * (i + 1));
export const WGMMA_SHAPES: readonly MatrixShape[] = [8, 16, 32].flatMap((k) =>
  WGMMA_N.map((n): MatrixShape => `m64n${n}k${k}`),
);

/**
 * The modifiers of the matrix instructions besides their shapes (`.kind::f8f6f4` is one token),
 * with block scaling's kinds, `.block_scale` and `.scale_vec_size` (9.7.14.3).
 */
const MATRIX_MODIFIERS = [
  'sync',
  'aligned',
  'kind::f8f6f4',
  'kind::mxf8f6f4',
  'kind::mxf4',
  'kind::mxf4nvf4',
  'block_scale',
  'scale_vec::1X',
  'scale_vec::2X',
  'scale_vec::4X',
] as const;

const SCALAR_MODIFIERS = [
  ...ROUNDINGS,
  'approx',
  'ftz',
  'sat',
  'relu',
  'satfinite',
  'oob',
  'NaN',
  'xorsign.abs',
  ...MATRIX_MODIFIERS,
] as const;

export type AnyModifier = (typeof SCALAR_MODIFIERS)[number] | MatrixShape;

/**
 * Every modifier, roundings first, in the order the syntax lines write them, the matrix shapes
 * last. `xorsign.abs` is one modifier of two tokens.
 */
export const ALL_MODIFIERS: readonly AnyModifier[] = [
  ...SCALAR_MODIFIERS,
  ...MMA_SHAPES,
  ...WGMMA_SHAPES,
];

export const isMatrixShape = (m: string): m is MatrixShape => /^m\d+n\d+k\d+$/.test(m);

/** The M, N and K of a shape: `m16n8k16` → 16, 8, 16. */
export function shapeOf(shape: MatrixShape): { m: number; n: number; k: number } {
  const [, m, n, k] = /^m(\d+)n(\d+)k(\d+)$/.exec(shape)!;
  return { m: Number(m), n: Number(n), k: Number(k) };
}

/** Modifiers in the catalog's order (for listing them). */
export function sortModifiers<M extends string>(ms: Iterable<M>): M[] {
  const order = ALL_MODIFIERS as readonly string[];
  return [...ms].sort((x, y) => order.indexOf(x) - order.indexOf(y));
}
