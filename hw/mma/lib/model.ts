/**
 * The engine's answer for one captured element: the one place hw/mma calls the engine's
 * tensor-core model (sm_90: Hopper, src/catalog/tensor-core-models.ts), so that moving the
 * model to another module changes this import only.
 */
import type { MmaForm } from '../../../src/catalog/mma-forms-data.ts';
import { dotProductBitsOfForm } from '../../../src/engine/ops/dot-product.ts';
import { CAPTURE_TARGET } from './forms.ts';

/**
 * d = c + Σ a_i·b_i under the target's model: A's row and B's column as k element patterns
 * (tf32: the whole .b32 register), C's element; d's pattern in the form's result format.
 */
export function modelElement(
  form: MmaForm,
  a: readonly number[],
  b: readonly number[],
  c: number,
  target = CAPTURE_TARGET,
): number {
  return Number(
    dotProductBitsOfForm(form, target, {
      a: a.map((x) => BigInt(x)),
      b: b.map((x) => BigInt(x)),
      c: BigInt(c),
    }),
  );
}
