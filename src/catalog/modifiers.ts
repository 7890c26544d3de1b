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
 * Every modifier, roundings first, in the order the syntax lines write them. `xorsign.abs` is one
 * modifier of two tokens.
 */
export const ALL_MODIFIERS = [
  ...ROUNDINGS,
  'approx',
  'ftz',
  'sat',
  'relu',
  'satfinite',
  'oob',
  'NaN',
  'xorsign.abs',
] as const;
export type AnyModifier = (typeof ALL_MODIFIERS)[number];

/** Modifiers in the catalog's order (for listing them). */
export function sortModifiers<M extends string>(ms: Iterable<M>): M[] {
  const order = ALL_MODIFIERS as readonly string[];
  return [...ms].sort((x, y) => order.indexOf(x) - order.indexOf(y));
}
