/**
 * m8n8k4 on sm_90 as an H200 computes it (src/engine/semantics/measured-sequence.ts, decision
 * mma-sm90-differing-forms): every one of the 12 forms against two references written without
 * the engine — the trace checker's tensor-core reference (tests/reference/tensor-core-ref.ts,
 * exact rationals) and the fit's (hw/mma/lib/fit-reference.ts, by the sequences' parameters in
 * tests/support/m8n8k4-sequence.ts, as the capture test) — over random rows and columns, and the
 * steps of hand-computed cases. tests/hw/mma-capture-h200.test.ts checks every captured element.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MATRIX_FORMS, findForm } from '../src/catalog/all-forms.ts';
import type { Form } from '../src/catalog/instruction.ts';
import { matrixRegisters } from '../src/engine/matrix-registers.ts';
import { evaluate, evaluateBits } from '../src/engine/pipeline.ts';
import type { Step } from '../src/engine/steps.ts';
import { vectorArb, type MatrixVector } from './reference/matrix-vectors.ts';
import { m8n8k4SequenceElement } from './support/m8n8k4-sequence.ts';
import { refDotProduct, type RefAccumulator } from './reference/tensor-core-ref.ts';

const M8N8K4 = MATRIX_FORMS.filter(
  (f) => f.matrix!.shape.k === 4 && f.matrix!.types.a === 'f16' && f.matrix!.instruction === 'mma',
);

function registersOf(form: Form, v: MatrixVector) {
  const r = matrixRegisters(form, v);
  if (!r.ok) throw new Error(r.error.message);
  return r.registers;
}

describe('m8n8k4 on sm_90: the measured sequence against two references', () => {
  it('has 12 forms: .f16 and .f32 results, four layouts each', () => {
    expect(M8N8K4).toHaveLength(12);
  });

  it.each(M8N8K4.map((f) => [f.text, f] as const))('%s', (_, form) => {
    const { c, d } = form.matrix!.types;
    const setup = {
      architecture: 'hopper',
      instruction: 'mma',
      atype: 'f16',
      btype: 'f16',
      ctype: c as RefAccumulator,
      dtype: d as RefAccumulator,
    } as const;
    fc.assert(
      fc.property(vectorArb(form), (v) => {
        const got = BigInt(evaluateBits(form, registersOf(form, v), { target: 'sm_90' }));
        expect(got).toBe(refDotProduct(setup, v.a, v.b, v.c).d);
        const fit = m8n8k4SequenceElement(form, v.a.map(Number), v.b.map(Number), Number(v.c));
        expect(got).toBe(BigInt(fit));
      }),
      { numRuns: 300, seed: form.text.length },
    );
  });
});

type StepOf<K extends Step['kind']> = Extract<Step, { readonly kind: K }>;

function trace(text: string, v: MatrixVector) {
  const form = findForm(text)!;
  return evaluate(form, registersOf(form, v), { target: 'sm_90' });
}

const adds = (r: ReturnType<typeof trace>) =>
  r.elements[0]!.steps.filter((s): s is StepOf<'sequence-add'> => s.kind === 'sequence-add');

describe('the steps of the sequence', () => {
  const F32 = 'mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32';
  const F16 = 'mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16';

  it('.f32: five additions from +0, c last; each names its terms and rounds to f32', () => {
    const r = trace(F32, { a: [0x0001n, 0n, 0n, 0n], b: [0x3c00n, 0n, 0n, 0n], c: 0xc0000000n });
    const steps = adds(r);
    expect(steps.map((s) => s.terms.map((t) => t.source))).toEqual([
      ['zero', 'product'],
      ['sum', 'product'],
      ['sum', 'product'],
      ['sum', 'product'],
      ['sum', 'c'],
    ]);
    // −2 + 2^-24: a tie in f32, to the even −2.
    const last = steps[4]!;
    expect(last.steps.map((s) => s.kind)).toEqual(['exact', 'round']);
    const round = last.steps[1] as StepOf<'round'>;
    expect(round).toMatchObject({ inexact: true, direction: 'down' });
    expect(r.d).toBe('0xc0000000');
    const model = r.elements[0]!.steps.find(
      (s) => s.kind === 'tensor-model',
    ) as StepOf<'tensor-model'>;
    expect(model.sequence).toMatchObject({ kind: 'products-then-c', result: 'f32' });
    expect(model.fused).toBeNull();
  });

  it('.f16: pairs first, each pair sum rounded to f32, then the f16 rounding', () => {
    const r = trace(F16, {
      a: [0x6800n, 0x3c00n, 0x0800n, 0n],
      b: [0x3c00n, 0x3c00n, 0x3c00n, 0n],
      c: 0n,
    });
    const steps = adds(r);
    expect(
      steps.map((s) => s.terms.map((t) => (t.source === 'sum' ? `s${t.index}` : t.source))),
    ).toEqual([
      ['product', 'product'],
      ['product', 'product'],
      ['c', 's0'],
      ['s2', 's1'],
    ]);
    const after = r.elements[0]!.steps.slice(r.elements[0]!.steps.indexOf(steps[3]!) + 1);
    expect(after.map((s) => s.kind)).toEqual(['round', 'result']);
    expect(r.d).toBe('0x6800');
  });

  it('specials as IEEE additions: ∞ × 0 is invalid, ∞ − ∞ too, −0 + −0 keeps −0 (.f16)', () => {
    const inf = trace(F32, { a: [0x7c00n, 0n, 0n, 0n], b: [0n, 0n, 0n, 0n], c: 0n });
    expect(inf.d).toBe('0x7fffffff');
    expect(adds(inf)[0]!.steps[0]).toMatchObject({
      kind: 'special',
      case: 'invalid',
      detail: '0 × ∞',
    });
    const opposite = trace(F32, {
      a: [0x7c00n, 0xfc00n, 0n, 0n],
      b: [0x3c00n, 0x3c00n, 0n, 0n],
      c: 0n,
    });
    expect(opposite.d).toBe('0x7fffffff');
    expect(adds(opposite)[1]!.steps[0]).toMatchObject({ case: 'invalid', detail: '∞ − ∞' });
    const negZero = trace(F16, {
      a: [0x8000n, 0x8000n, 0x8000n, 0x8000n],
      b: [0x3c00n, 0x3c00n, 0x3c00n, 0x3c00n],
      c: 0x8000n,
    });
    expect(negZero.d).toBe('0x8000');
    // .f32 starts from +0: the same terms give +0.
    const f32Zero = trace(F32, {
      a: [0x8000n, 0x8000n, 0x8000n, 0x8000n],
      b: [0x3c00n, 0x3c00n, 0x3c00n, 0x3c00n],
      c: 0x80000000n,
    });
    expect(f32Zero.d).toBe('0x00000000');
  });

  it('the largest finite f32 c plus 65504²: below half an ulp there, round to nearest keeps it', () => {
    // Four f16 products stay below 2^34, so no f32 addition of the sequence can overflow.
    const max = 0x7bffn;
    const r = trace(F32, { a: [max, 0n, 0n, 0n], b: [max, 0n, 0n, 0n], c: 0x7f7fffffn });
    expect(r.d).toBe('0x7f7fffff');
    expect(adds(r)[4]!.steps.map((s) => s.kind)).toEqual(['exact', 'round']);
  });
});
