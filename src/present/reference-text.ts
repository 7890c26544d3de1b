/**
 * Reference values beside a result (engine/what-if/reference-values.ts) in words: the exact
 * value, what f32 and f64 arithmetic give for it, and the result's own error in ulps of its
 * format at itself.
 *
 *   "exact 1.0000000596046447…; f32 math gives 1 (0x3f800000); f64 math gives 1.0000000596046447… (0x3ff0000010000000)"
 */
import type { ElementReference, MeasuredError } from '../engine/what-if/reference-values.ts';
import { exactText, signedText, ulpsText } from './numbers.ts';
import { valueText } from './values.ts';

/** A result's own error: "-0.00048828125 = -0.5 ulp", "exact", or why there is none. */
export function ownErrorText(error: MeasuredError | null): string {
  if (!error) return 'none to measure (a NaN or an infinity)';
  if (error.ulps === 0) return 'exact';
  return `${signedText(error.value)} = ${ulpsText(error.ulps)}`;
}

/**
 * One element's reference values in a line. A function value (tanh, ex2) is known to 17 digits,
 * not exactly: the line then gives only what f32 and f64 math compute from it.
 */
export function referenceLine(r: ElementReference): string {
  const exact = r.approximate ? '' : `exact ${exactText(r.exact)}; `;
  return `${exact}f32 math gives ${valueText(r.f32)} (${r.f32.bits}); f64 math gives ${valueText(r.f64)} (${r.f64.bits})`;
}
