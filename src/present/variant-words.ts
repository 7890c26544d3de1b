import type { MatrixMismatch } from '../engine/what-if/matrix-fit.ts';
import type { VariantTextError } from '../engine/what-if/variant.ts';

/**
 * Why a text names no B for compare mode, in words: for the compare picker, and for a link's
 * `vs=` that is ignored. Apart from the comparison's words (compare-text.ts), which load with
 * compare mode.
 */

/** A variant's text that names no instruction. */
export function variantErrorText(error: VariantTextError): string {
  return `${error.text}: ${error.message}`;
}

/** Why B cannot take A's operands, a tensor-core form on either side (matrix-fit.ts). */
export function matrixMismatchText(mismatch: MatrixMismatch, b: string): string {
  if (mismatch.kind === 'k')
    return `${b} takes a row of A and a column of B of ${mismatch.b} elements each, A's have ${mismatch.a}: pick a tensor-core form with k = ${mismatch.a}`;
  return mismatch.matrix === 'a'
    ? `${b} is not a tensor-core form: beside an mma or wgmma element (a row of A, a column of B and c), B is a tensor-core form of the same k`
    : `${b} is a tensor-core form: it takes a row of A, a column of B and c, which this instruction does not have; compare it beside a tensor-core form of the same k`;
}
