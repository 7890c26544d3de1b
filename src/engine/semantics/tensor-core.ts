/**
 * A matrix form's one output element: a block-scaled form (`.block_scale`, 9.7.14.3) by
 * block-scaled-dot.ts, every other mma and wgmma form by dot-product.ts. The pipeline's
 * `dot-product` operation and its untraced evaluation both come here, so a form is computed by
 * one file whichever path asks. `tensorCoreFamily` is the tensor cores' group of semantics
 * (family.ts).
 */
import type { Form } from '../../catalog/instruction.ts';
import { blockScaledDotBits, blockScaledDotSemantics } from './block-scaled-dot.ts';
import type { Input, Semantics } from './context.ts';
import { dotProduct, dotProductBits, targetProblem } from './dot-product.ts';
import type { TensorCoreSemantics } from './family.ts';

export const tensorCore: Semantics = (ctx, inputs) =>
  ctx.form.matrix?.blockScale ? blockScaledDotSemantics(ctx, inputs) : dotProduct(ctx, inputs);

export function tensorCoreBits(form: Form, inputs: readonly Input[], target?: string): bigint {
  return form.matrix?.blockScale
    ? blockScaledDotBits(form, inputs)
    : dotProductBits(form, inputs, target);
}

export const tensorCoreFamily: TensorCoreSemantics = {
  family: 'tensor-core',
  operations: { 'dot-product': tensorCore },
  bits: tensorCoreBits,
  targetProblem,
};
