/**
 * A tensor core's corner cases in words (engine/analysis/matrix-cases.ts): what each vector of
 * d = c + Σ a_i·b_i teaches, as the corner-case table names its row.
 */
import type { MatrixCaseId } from '../engine/analysis/matrix-cases.ts';

export const MATRIX_CASE_WORDS: Readonly<Record<MatrixCaseId, string>> = {
  'nan-operand': 'a NaN element',
  'infinity-times-zero': '∞ × 0',
  'infinity-minus-infinity': '∞ − ∞ (a term against c)',
  'infinite-term': 'an infinite term beside the largest finite product',
  'negative-zeros': 'only −0 terms and c = −0',
  'zeros-of-both-signs': 'zeros of both signs',
  'total-cancellation': 'total cancellation',
  'subnormal-inputs': 'subnormal elements',
  'term-far-below': 'a term far below E',
  ones: 'every element 1',
  'largest-products': 'every product the largest',
  'sum-overflows': 'a sum that overflows',
};
