/**
 * How the trace, the CLI and the playground name a value's class and write a power of two, so
 * that the three say the same words.
 */
import type { FloatClass } from './value.ts';

/** A value's class in words: "quiet NaN", "subnormal", … */
export const CLASS_WORDS: Readonly<Record<FloatClass, string>> = {
  zero: 'zero',
  subnormal: 'subnormal',
  normal: 'normal',
  infinity: 'infinity',
  qnan: 'quiet NaN',
  snan: 'signaling NaN',
};

const SUPERSCRIPT: Readonly<Record<string, string>> = {
  '-': '⁻',
  '0': '⁰',
  '1': '¹',
  '2': '²',
  '3': '³',
  '4': '⁴',
  '5': '⁵',
  '6': '⁶',
  '7': '⁷',
  '8': '⁸',
  '9': '⁹',
};

/** 2 to an integer power, as a reader writes it where there is no <sup>: 2⁻¹⁴. */
export function powerOfTwoText(exponent: number): string {
  return `2${[...String(exponent)].map((c) => SUPERSCRIPT[c] ?? c).join('')}`;
}
