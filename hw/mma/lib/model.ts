/**
 * The engine's answer for one captured element: the one place hw/mma calls the engine's
 * tensor-core model (sm_90: Hopper, src/catalog/tensor-core-models.ts), through the pipeline's
 * untraced dot product (src/engine/pipeline.ts evaluateBits, semantics/dot-product.ts).
 */
// Every family's semantics, provided before anything evaluates (engine/family-semantics.ts).
import '../../../src/engine/all-families.ts';
import { matrixRegisters } from '../../../src/engine/matrix-registers.ts';
import { evaluateBits } from '../../../src/engine/pipeline.ts';
import { CAPTURE_TARGET, type MmaForm } from './forms.ts';

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
  const registers = matrixRegisters(form, {
    a: a.map((x) => BigInt(x)),
    b: b.map((x) => BigInt(x)),
    c: BigInt(c),
  });
  if (!registers.ok) throw new Error(registers.error.message);
  return Number(BigInt(evaluateBits(form, registers.registers, { target })));
}
