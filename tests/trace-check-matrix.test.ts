/**
 * The trace checker on the matrix forms (tests/reference/trace-model-matrix.ts, on the
 * tensor-core reference): every field of every step of the pipeline's trace of an mma or wgmma
 * element — the inputs in their containers, the model, each fused step's specials, terms,
 * alignment, sum and rounding, each fma link of the f64 chain, the result — against exact
 * arithmetic. The vectors: the corner cases of the form (src/engine/analysis/matrix-cases.ts),
 * random rows and columns (matrix-vectors.ts) and, for FP6 and FP4 elements, one with every
 * padding bit of their containers set; each form on two targets, in turn every architecture's
 * and none (the default). Every mma form is checked; of wgmma, whose N does not change one
 * element, every form with N = 8 and one other N per type. The situations the traces show must
 * all be reached. (tests/dot-product.test.ts checks every architecture on every combination of
 * formats with the same checker.)
 *
 * A larger run: node bin/run-ts.mjs tests/reference/run-trace-check.ts [per-group] [seed]
 */
import { afterAll, describe, expect, it } from 'vitest';
import { MATRIX_FORMS } from '../src/catalog/all-forms.ts';
import type { Form } from '../src/catalog/instruction.ts';
import { TENSOR_CORE_MODELS } from '../src/catalog/tensor-core-models.ts';
import { TraceTally } from './reference/trace-check.ts';
import { matrixTraceVectors } from './support/matrix-trace-vectors.ts';

/** One target per architecture, and no target (the default, sm_90): two of them per form. */
const TARGETS: readonly (string | undefined)[] = [
  ...TENSOR_CORE_MODELS.map((m) => m.targets[0]!),
  undefined,
];

// The block-scaled forms follow their own model (tests/block-scaled-mma.test.ts).
const matrix = MATRIX_FORMS.filter((f) => !f.matrix!.blockScale);
const wgmmaSample = (f: Form) =>
  f.matrix!.shape.n === 8 || f.matrix!.shape.n === 8 * ((f.type.length % 31) + 2);
const forms = matrix.filter((f) => f.matrix!.instruction === 'mma' || wgmmaSample(f));

const tally = new TraceTally();

afterAll(() => {
  console.log(
    `trace checker (matrix): ${tally.vectors} vectors over ${forms.length} forms, ${tally.disagreeing} with a disagreement`,
  );
});

describe('the trace checker finds no field of any mma or wgmma step that disagrees with exact arithmetic', () => {
  it('covers every mma form and wgmma of every type', () => {
    expect(forms.filter((f) => f.matrix!.instruction === 'mma')).toHaveLength(114);
    expect(
      new Set(forms.filter((f) => f.matrix!.instruction === 'wgmma').map((f) => f.type)).size,
    ).toBe(12);
  });

  for (const [i, form] of forms.entries()) {
    it(form.text, () => {
      const targets = [TARGETS[i % TARGETS.length], TARGETS[(i + 4) % TARGETS.length]];
      // m8n8k4 with f16 inputs also on sm_90, where it is the measured sequence of f32 additions.
      if (
        form.matrix!.shape.k === 4 &&
        form.matrix!.types.a === 'f16' &&
        !targets.includes('sm_90')
      )
        targets.push('sm_90');
      expect(tally.check(matrixTraceVectors(form, targets, 2, i))).toEqual([]);
    });
  }

  it('reached every situation of a tensor core', () => {
    const required = [
      ...TENSOR_CORE_MODELS.map((m) => `model ${m.architecture}`),
      'fused in one step',
      'fused in two halves',
      'fma link',
      'sequence addition',
      'terms with a zero',
      'terms with a significand below 1',
      'align bits cut',
      'align a term cut away',
      'sum at E',
      'sum carries',
      'sum cancels',
      'sum zero',
      'sum lost bits',
      'round rz toward-zero',
      'round rz exact',
      'round rz to a subnormal',
      'round rz to 13 fraction bits',
      'round rn below-half',
      'round rn above-half',
      'round rn tie-to-even',
      'round rn overflow-threshold',
      'round rp toward-plus-inf',
      'round rm toward-minus-inf',
      'overflow rz to max-norm',
      'overflow rn to infinity',
      'special nan-operand',
      'special invalid',
      'special infinity',
      'padding zero',
      'padding nonzero',
      ...[
        'canonical-nan',
        'cvt-input-padding',
        'cvt-tf32-layout',
        'mma-default-target',
        'mma-f32-overflow',
        'mma-fp8-blackwell',
        'mma-fp8-f16-hopper',
        'mma-sm90-differing-forms',
        'mma-zero-sign',
        'ptxas-only-forms',
      ].map((d) => `decision ${d}`),
    ];
    const missing = required.filter((s) => !tally.seen.has(s));
    expect(missing).toEqual([]);
    expect(tally.vectors).toBeGreaterThan(3_000);
  });
});
