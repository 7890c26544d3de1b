/**
 * Whether B can take A's operands when either is a tensor-core form: a tensor core's element
 * reads a row of A and a column of B, k elements each, and C's element; B is given A's values
 * element by element (carry-values.ts), so B must be a tensor-core form of the same k. Its
 * element formats may differ (f16 beside bf16, the other accumulator): the values are carried
 * over as for any other instruction. Data only: src/present says it in words.
 */
import type { Form } from '../../catalog/instruction.ts';

export type MatrixMismatch =
  /** One side is a tensor-core form, the other is not. */
  | { readonly kind: 'one-matrix'; readonly matrix: 'a' | 'b' }
  /** Both are, with rows and columns of different lengths. */
  | { readonly kind: 'k'; readonly a: number; readonly b: number };

/** Why B cannot take A's operands, or null where it can (or neither is a tensor-core form). */
export function matrixMismatch(a: Form, b: Form): MatrixMismatch | null {
  if (!a.matrix && !b.matrix) return null;
  if (!a.matrix || !b.matrix) return { kind: 'one-matrix', matrix: a.matrix ? 'a' : 'b' };
  const ka = a.matrix.shape.k;
  const kb = b.matrix.shape.k;
  return ka === kb ? null : { kind: 'k', a: ka, b: kb };
}
