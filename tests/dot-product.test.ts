/**
 * One mma / wgmma output element through the one pipeline (src/engine/pipeline.ts, the dot
 * product of src/engine/semantics/dot-product.ts) against the independent reference
 * (tests/reference/tensor-core-ref.ts): d and every field of every step, as the trace checker's
 * model of them says (tests/reference/trace-model-matrix.ts, on the reference), on every
 * architecture's model and every combination of input and result formats the forms have
 * (property tests); d without the steps (evaluateBits) equal to d with them; the special
 * values and corner cases; e2m1 exhaustively; and hand-computed vectors that tell the models
 * apart.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MATRIX_FORMS, findForm } from '../src/catalog/all-forms.ts';
import type { Form } from '../src/catalog/instruction.ts';
import { TENSOR_CORE_MODELS } from '../src/catalog/tensor-core-models.ts';
import { matrixRegisters } from '../src/engine/matrix-registers.ts';
import { EngineError, evaluate, evaluateBits } from '../src/engine/pipeline.ts';
import type { EvalResult, Step } from '../src/engine/steps.ts';
import { vectorArb, type MatrixVector as Vector } from './reference/matrix-vectors.ts';
import { refArchitectureOf, refDotProduct } from './reference/tensor-core-ref.ts';
import { checkTraceVector, describeChecked } from './reference/trace-check.ts';

// --- Helpers --------------------------------------------------------------------------------

/**
 * The combination of formats a form computes with: one form for each (instruction, types, k,
 * rounding); wgmma's N and mma's layouts do not matter to one element.
 */
const COMBINATIONS: readonly Form[] = [
  ...new Map(
    // The block-scaled forms follow their own model (tests/block-scaled-mma.test.ts).
    MATRIX_FORMS.filter((f) => !f.matrix!.blockScale).map((f) => [
      JSON.stringify([f.matrix!.instruction, f.type, f.matrix!.shape.k, f.rounding]),
      f,
    ]),
  ).values(),
];

/** One target of each architecture: its model's first. */
const TARGET_OF = new Map(TENSOR_CORE_MODELS.map((m) => [m.architecture, m.targets[0]!]));

/**
 * Engine and reference on one vector: every field of the trace against the checker's model
 * (which is the reference's), and evaluateBits against the traced d. Throws with the inputs on
 * a difference.
 */
function check(target: string, form: Form, v: Vector): EvalResult {
  const r = matrixRegisters(form, v);
  if (!r.ok) throw new Error(r.error.message);
  const vector = {
    form: form.text,
    group: 'dot product',
    registers: r.registers,
    options: { target },
  };
  const checked = checkTraceVector(vector);
  const engine = evaluate(form, r.registers, { target });
  const bits = evaluateBits(form, r.registers, { target });
  const why =
    bits !== engine.d
      ? `d without the steps ${bits}, with them ${engine.d}`
      : checked.disagreements.length > 0
        ? describeChecked(vector, checked)
        : null;
  if (why)
    throw new Error(
      `${target} ${form.text}: ${why}\n a = [${v.a.map((x) => `0x${x.toString(16)}`)}]\n b = [${v.b.map((x) => `0x${x.toString(16)}`)}]\n c = 0x${v.c.toString(16)}`,
    );
  return engine;
}

/** The steps a result holds, the fused steps' and fma links' own included. */
function allSteps(r: EvalResult): Step[] {
  const out: Step[] = [];
  const visit = (steps: readonly Step[]) => {
    for (const s of steps) {
      out.push(s);
      if (s.kind === 'fused' || s.kind === 'fma') visit(s.steps);
    }
  };
  visit(r.elements[0]!.steps);
  return out;
}

const stepsOf = <K extends Step['kind']>(r: EvalResult, kind: K) =>
  allSteps(r).filter((s): s is Extract<Step, { kind: K }> => s.kind === kind);

/** The situations a result shows, so that the random vectors can be required to reach each. */
function situations(r: EvalResult): string[] {
  const out: string[] = [];
  if (stepsOf(r, 'fma').length > 0) out.push('chain');
  const fused = stepsOf(r, 'fused');
  if (fused.some((f) => f.parts === 2)) out.push('halves');
  for (const s of stepsOf(r, 'special'))
    if (s.case !== 'exact-zero') out.push(`special-${s.case === 'infinity' ? 'infinity' : 'nan'}`);
  for (const al of stepsOf(r, 'align')) {
    if (al.terms.some((t) => t.cutBits.bits !== '')) out.push('bits-cut');
    if (al.terms.some((t) => t.kept.rational === '0' && t.cut.rational !== '0'))
      out.push('term-cut-away');
  }
  for (const sum of stepsOf(r, 'sum')) {
    if ((sum.normalisation?.shift ?? 0) > 0) out.push('carry');
    if ((sum.normalisation?.shift ?? 0) < 0) out.push('cancellation');
    if (sum.normalisation === null) out.push('zero-sum');
  }
  if (stepsOf(r, 'round').some((s) => s.inexact)) out.push('inexact');
  return out;
}

/** Random vectors per (architecture, combination); PTXF_MMA_VECTORS overrides. */
const RUNS = Number(process.env.PTXF_MMA_VECTORS ?? 8);

// --- The tests ------------------------------------------------------------------------------

describe('engine against the reference, every model and format combination', () => {
  it('covers every input and result format the issue names', () => {
    const inputs = new Set(COMBINATIONS.flatMap((f) => [f.matrix!.types.a, f.matrix!.types.b]));
    expect([...inputs].sort()).toEqual(
      ['bf16', 'e2m1', 'e2m3', 'e3m2', 'e4m3', 'e5m2', 'f16', 'f64', 'tf32'].sort(),
    );
    expect(new Set(COMBINATIONS.map((f) => f.matrix!.types.d))).toEqual(
      new Set(['f16', 'f32', 'f64']),
    );
  });
  for (const [m, model] of TENSOR_CORE_MODELS.entries()) {
    it(`${model.name}: ${COMBINATIONS.length} combinations × ${RUNS} vectors`, () => {
      const target = TARGET_OF.get(model.architecture)!;
      const seen = new Set<string>();
      for (const [i, form] of COMBINATIONS.entries()) {
        fc.assert(
          fc.property(vectorArb(form), (v) => {
            for (const s of situations(check(target, form, v))) seen.add(s);
          }),
          // Seeded: the situations required below are reached on every run, not on most.
          { numRuns: RUNS, seed: 20261125 + 1000 * m + i },
        );
      }
      const wanted = [
        'chain',
        'special-nan',
        'special-infinity',
        'bits-cut',
        'term-cut-away',
        'carry',
        'cancellation',
        'zero-sum',
        'inexact',
        ...(model.split.length > 0 ? ['halves'] : []),
      ];
      expect(wanted.filter((w) => !seen.has(w))).toEqual([]);
    });
  }
});

const F32 = (x: number): bigint => {
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, x);
  return BigInt(view.getUint32(0));
};
const F16_ONE = 0x3c00n;

const form = (text: string) => findForm(text)!;
const M16N8K16_F32_F16 = form('mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32');
const M16N8K16_F16_F16 = form('mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16');
const M16N8K16_BF16 = form('mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32');
const M16N8K8_F16 = form('mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32');
const M16N8K8_TF32 = form('mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32');
const M16N8K32_E4M3 = form('mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32');
const WGMMA_E4M3_F16 = form('wgmma.mma_async.sync.aligned.m64n8k32.f16.e4m3.e4m3');
const WGMMA_F32_F16 = form('wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16');
const WGMMA_F32_BF16 = form('wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16');
const WGMMA_E4M3_F32 = form('wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3');
const KIND_E2M1 = form('mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e2m1.f32');
const M8N8K4_F64 = form('mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64');
const M8N8K4_F64_RP = form('mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64.rp');

/** One target of each architecture. */
const ON = {
  volta: 'sm_70',
  turing: 'sm_75',
  ampere: 'sm_80',
  ada: 'sm_89',
  hopper: 'sm_90',
  blackwell: 'sm_100',
  'rtx-blackwell': 'sm_120',
} as const;

/** An element checked against the reference on a target, with its d as a bigint. */
function run(on: keyof typeof ON, f: Form, a: bigint[], b: bigint[], c: bigint) {
  const r = check(ON[on], f, { a, b, c });
  return Object.assign(r, { value: BigInt(r.d) });
}

/** k copies of `fill`, with the given elements first. */
const row = (k: number, fill: bigint, ...first: bigint[]) => [
  ...first,
  ...Array<bigint>(k - first.length).fill(fill),
];
const pad = (xs: bigint[], k: number) => row(k, 0n, ...xs);

describe('special values', () => {
  const k = 16;
  const ones = row(k, F16_ONE);
  const f32 = (on: keyof typeof ON, a: bigint[], b: bigint[], c: bigint) =>
    run(on, M16N8K16_F32_F16, a, b, c);
  it('a NaN operand anywhere gives the canonical NaN', () => {
    for (const on of ['volta', 'ampere', 'hopper'] as const) {
      expect(f32(on, row(k, F16_ONE, 0x7e01n), ones, 0n).d).toBe('0x7fffffff');
      expect(f32(on, ones, ones, 0xffc00001n).d).toBe('0x7fffffff');
      expect(run(on, M16N8K16_F16_F16, ones, row(k, F16_ONE, 0x3c00n, 0xfe00n), 0n).d).toBe(
        '0x7fff',
      );
    }
    const r = f32('hopper', ones, ones, 0x7fc00000n);
    const special = stepsOf(r, 'special')[0]!;
    expect([special.case, special.elements]).toEqual(['nan-operand', [{ operand: 'c', index: 0 }]]);
    expect(r.decisions).toContain('canonical-nan');
  });
  it('∞ × 0 and ∞ − ∞ give the canonical NaN; an infinite term gives its infinity', () => {
    const inf = 0x7c00n;
    const r = f32('hopper', row(k, F16_ONE, inf), row(k, F16_ONE, 0x8000n), 0n);
    expect(r.d).toBe('0x7fffffff');
    expect(stepsOf(r, 'special').map((s) => [s.case, s.detail])).toEqual([['invalid', '0 × ∞']]);
    // +∞ from a product, −∞ from c.
    const opposite = f32('hopper', row(k, F16_ONE, inf), ones, 0xff800000n);
    expect(opposite.d).toBe('0x7fffffff');
    expect(stepsOf(opposite, 'special').map((s) => s.detail)).toEqual(['∞ − ∞']);
    // −∞ × 1 plus finite terms: −∞.
    expect(f32('hopper', row(k, F16_ONE, inf | 0x8000n), ones, F32(1)).d).toBe('0xff800000');
    // On Ampere the halves meet: +∞ in the first half, −∞ in the second.
    const halves = f32(
      'ampere',
      [...row(8, F16_ONE, inf), ...row(8, F16_ONE, inf | 0x8000n)],
      ones,
      0n,
    );
    expect(halves.d).toBe('0x7fffffff');
    expect(stepsOf(halves, 'special').map((s) => [s.case, s.detail ?? null])).toEqual([
      ['infinity', null],
      ['invalid', '∞ − ∞'],
    ]);
  });
  it('tf32 reads the register with its low 13 bits ignored: an f32 NaN with a low payload is ∞', () => {
    const r = run('ampere', M16N8K8_TF32, row(8, F32(1), 0x7f800001n), row(8, F32(1)), 0n);
    expect(r.d).toBe('0x7f800000');
    const read = stepsOf(r, 'inputs')[0]!.operands[0]!;
    expect([read.bits, read.padding, read.slot, read.valueBits]).toEqual([
      '0x3fc00',
      '0x0001',
      { hi: 31, lo: 0 },
      { hi: 31, lo: 13 },
    ]);
    expect(r.decisions).toContain('cvt-tf32-layout');
  });
});

describe('corner cases', () => {
  it('signed zeros: every term a −0 gives −0, anything else +0 (decision mma-zero-sign)', () => {
    const k = 16;
    const negZeros = run('ampere', M16N8K16_F32_F16, row(k, 0x8000n), row(k, F16_ONE), 0x80000000n);
    expect(negZeros.d).toBe('0x80000000');
    expect(negZeros.decisions).toContain('mma-zero-sign');
    // One +0 product among the −0 terms.
    expect(
      run('ampere', M16N8K16_F32_F16, row(k, 0x8000n, 0n), row(k, F16_ONE), 0x80000000n).value,
    ).toBe(0n);
    // −0 × −1 is +0.
    expect(
      run('ampere', M16N8K16_F32_F16, row(k, 0x8000n), row(k, 0xbc00n), 0x80000000n).value,
    ).toBe(0n);
  });
  it('sm_90 (measured on an H200 and an H100): a zero sum is +0 even when every term is −0 (decision mma-zero-sign-sm90)', () => {
    // hw/captures/sm_90/h200/mma, corner case all-neg-zero-terms: −0·1 × 16 + (−0) → 0x00000000.
    const r = run('hopper', M16N8K16_F32_F16, row(16, 0x8000n), row(16, F16_ONE), 0x80000000n);
    expect(r.d).toBe('0x00000000');
    expect(r.decisions).toContain('mma-zero-sign-sm90');
    expect(r.decisions).not.toContain('mma-zero-sign');
    // wgmma, hw/captures/sm_90/h100/wgmma: the same +0, FP8 with an .f16 result included.
    const w = run('hopper', WGMMA_F32_F16, row(16, 0x8000n), row(16, F16_ONE), 0x80000000n);
    expect([w.d, w.decisions.includes('mma-zero-sign-sm90')]).toEqual(['0x00000000', true]);
    const fp8 = run('hopper', WGMMA_E4M3_F16, row(32, 0x80n), row(32, 0x38n), 0x8000n);
    expect([fp8.d, fp8.decisions.includes('mma-zero-sign-sm90')]).toEqual(['0x0000', true]);
    // Other targets keep −0 for wgmma's sums of −0 terms too (no measurement there).
    expect(
      run('blackwell', M16N8K16_F32_F16, row(16, 0x8000n), row(16, F16_ONE), 0x80000000n).d,
    ).toBe('0x80000000');
  });
  it('total cancellation gives +0 and loses nothing', () => {
    // 1·1 + 1·(−1) + c with c = 0: the exact sum and the cut sum are both 0.
    const r = run(
      'ampere',
      M16N8K16_F32_F16,
      row(16, 0n, F16_ONE, F16_ONE),
      row(16, 0n, F16_ONE, 0xbc00n),
      0n,
    );
    expect(r.value).toBe(0n);
    expect(stepsOf(r, 'sum').map((s) => [s.kept.rational, s.exact.rational])).toEqual([
      ['0', '0'],
      ['0', '0'],
    ]);
  });
  it('subnormal inputs keep s < 1 at their least exponent', () => {
    // f16 0x0001 = 2^-24 (s = 2^-10 at exponent -14); times 1: exponent -14, significand 2^-10.
    const r = run('hopper', M16N8K16_F32_F16, row(16, 0n, 0x0001n), row(16, 0n, F16_ONE), 0n);
    expect(r.value).toBe(F32(2 ** -24));
    const term = stepsOf(r, 'terms')[0]!.terms[1]!;
    expect([term.exponent, term.significand.rational, term.significandBits]).toEqual([
      -14,
      '1 × 2^-10',
      '0.0000000001',
    ]);
  });
  it('a term far below E is cut away entirely: its bits all shown, in ulps of the result', () => {
    // c = 1; a0·b0 = 2^-28 (f16 2^-14 × 2^-14): 28 places below E, n = 25 keeps none of it.
    const r = run('hopper', M16N8K16_F32_F16, row(16, 0n, 0x0400n), row(16, 0n, 0x0400n), F32(1));
    expect(r.value).toBe(F32(1));
    const term = stepsOf(r, 'align')[0]!.terms[1]!;
    expect(term.kept.rational).toBe('0');
    expect(term.cutBits).toEqual({ bits: '001', top: -26 });
    expect(term.cutUlps.rational).toBe('1 × 2^-5');
  });
  it('a sum past the f32 range truncates to the largest finite value (decision mma-f32-overflow)', () => {
    const big = 0x7f7fn; // bf16 max, about 2^128
    const r = run('ampere', M16N8K16_BF16, row(16, 0n, big, big), row(16, 0n, big, big), 0n);
    expect(r.d).toBe('0x7f7fffff');
    expect(r.decisions).toContain('mma-f32-overflow');
    expect(stepsOf(r, 'overflow').map((s) => s.to)).toEqual(['max-norm']);
    // sm_90 (measured on an H200, decision mma-f32-overflow-sm90): ±∞ instead.
    const h = run('hopper', M16N8K16_BF16, row(16, 0n, big, big), row(16, 0n, big, big), 0n);
    expect(h.d).toBe('0x7f800000');
    expect(h.decisions).toContain('mma-f32-overflow-sm90');
    // wgmma on sm_90 (measured on an H100): ±∞ as well.
    const w = run(
      'hopper',
      WGMMA_F32_BF16,
      row(16, 0n, big | 0x8000n, big | 0x8000n),
      row(16, 0n, big, big),
      0n,
    );
    expect([w.d, w.decisions.includes('mma-f32-overflow-sm90')]).toEqual(['0xff800000', true]);
    const neg = run('ampere', M16N8K16_BF16, row(16, 0n, big | 0x8000n), row(16, 0n, big), 0n);
    expect(neg.d).toBe('0xff7fffff');
    // An f16 result overflows to infinity (round to nearest).
    expect(
      run(
        'hopper',
        M16N8K16_F16_F16,
        row(16, 0n, 0x7bffn, 0x7bffn),
        row(16, 0n, F16_ONE, F16_ONE),
        0n,
      ).d,
    ).toBe('0x7c00');
    // With 13 fraction bits (FP8 on Ada), the largest finite value is 0x7F7FFC00.
    const e4m3Max = 0x7en; // 448
    const ada = run('ada', M16N8K32_E4M3, row(32, e4m3Max), row(32, e4m3Max), 0x7f7fffffn);
    expect(ada.d).toBe('0x7f7ffc00');
  });
  it('FP8 saturating values: 448 × 448 products sum exactly when n keeps them', () => {
    const e4m3Max = 0x7en;
    expect(run('hopper', M16N8K32_E4M3, row(32, e4m3Max), row(32, e4m3Max), 0n).value).toBe(
      F32(32 * 448 * 448),
    );
    // e5m2's largest, 57344, squared is 2^31.6…: still far inside f32.
    const e5m2 = form('mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32');
    expect(run('blackwell', e5m2, row(32, 0x7bn), row(32, 0x7bn), 0n).value).toBe(
      F32(32 * 57344 * 57344),
    );
  });
});

describe('vectors that tell the models apart (hand-computed)', () => {
  it('n = 23, 24, 25: three products of 2^-24, or four of 2^-25, after c = 1', () => {
    const m8n8k4 = form('mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32');
    // 2^-12 × 2^-12 = 2^-24: Volta (n = 23) cuts each away; Turing (24) keeps each.
    const a = [0x0c00n, 0x0c00n, 0x0c00n, 0n];
    expect(run('volta', m8n8k4, a, a, F32(1)).value).toBe(F32(1));
    expect(run('turing', M16N8K8_F16, pad(a, 8), pad(a, 8), F32(1)).value).toBe(F32(1 + 2 ** -23));
    // 2^-13 × 2^-12 = 2^-25: Turing (n = 24) cuts each away, Hopper (25) keeps four of them.
    const a25 = [0x0800n, 0x0800n, 0x0800n, 0x0800n];
    const b25 = [0x0c00n, 0x0c00n, 0x0c00n, 0x0c00n];
    expect(run('turing', M16N8K8_F16, pad(a25, 8), pad(b25, 8), F32(1)).value).toBe(F32(1));
    expect(run('hopper', M16N8K8_F16, pad(a25, 8), pad(b25, 8), F32(1)).value).toBe(
      F32(1 + 2 ** -23),
    );
  });
  it("Ampere's halves round twice: 1 + 2^-24 + 2^-24 is 1 on sm_80, 1 + 2^-23 on sm_90", () => {
    const a = row(16, 0n, F16_ONE, 0x0c00n).map((x, i) => (i === 8 ? 0x0c00n : x));
    const ampere = run('ampere', M16N8K16_F32_F16, a, a, 0n);
    expect(ampere.value).toBe(F32(1));
    const fused = stepsOf(ampere, 'fused');
    expect(fused.map((f) => [f.part, f.parts, f.products, f.cFrom])).toEqual([
      [0, 2, { from: 0, to: 7 }, 'operand'],
      [1, 2, { from: 8, to: 15 }, 'first-half'],
    ]);
    expect(fused[1]!.c).toEqual(fused[0]!.result);
    expect(run('hopper', M16N8K16_F32_F16, a, a, 0n).value).toBe(F32(1 + 2 ** -23));
  });
  it('FP8 on Ada keeps 13 bits: sixteen products of 2^-14 after c = 1 vanish on sm_89, not on sm_90', () => {
    const tiny = 0x04n; // e4m3 2^-7 (subnormal)
    const a = row(32, 0n, ...Array<bigint>(16).fill(tiny));
    expect(run('ada', M16N8K32_E4M3, a, a, F32(1)).value).toBe(F32(1));
    expect(run('hopper', M16N8K32_E4M3, a, a, F32(1)).value).toBe(F32(1 + 2 ** -10));
    // Hopper's wgmma keeps 13 bits for FP8, as Ada's mma does.
    expect(run('hopper', WGMMA_E4M3_F32, a, a, F32(1)).value).toBe(F32(1));
  });
  it('an e8m13 result: Ada truncates an f32 result to 13 fraction bits, and the round step says so', () => {
    // c = 1 + 2^-12 + 2^-20 stands at E = 0: n = 13 keeps 1 + 2^-12 of it.
    const r = run('ada', M16N8K32_E4M3, row(32, 0n), row(32, 0n), F32(1 + 2 ** -12 + 2 ** -20));
    expect(r.value).toBe(F32(1 + 2 ** -12));
    const round = stepsOf(r, 'round')[0]!;
    expect([round.format, round.fractionBits, round.result, round.cut?.ulpExponent]).toEqual([
      'f32',
      13,
      '0x3f800800',
      -13,
    ]);
    const model = stepsOf(r, 'tensor-model')[0]!;
    expect(model.fused?.result).toEqual({ format: 'f32', fractionBits: 13, mode: 'rz' });
  });
  it('the unsettled FP8 cases, and the FP8 .f16 wgmma an H100 settled on Hopper, name their decision', () => {
    const a = row(32, 0x38n); // e4m3 1.0
    expect(run('hopper', WGMMA_E4M3_F16, a, a, 0n).decisions).toContain('mma-fp8-f16-hopper');
    expect(run('hopper', WGMMA_E4M3_F32, a, a, 0n).decisions).not.toContain('mma-fp8-f16-hopper');
    expect(run('blackwell', M16N8K32_E4M3, a, a, 0n).decisions).toContain('mma-fp8-blackwell');
    expect(run('rtx-blackwell', M16N8K32_E4M3, a, a, 0n).decisions).toEqual([]);
  });
  it('f64 is a chain of fused multiply-adds, each rounded', () => {
    const one = 0x3ff0000000000000n;
    const ulp = 0x3ca0000000000000n; // 2^-53
    // 1 + 2^-53 (a tie, to even: 1) four times stays 1 under .rn; one fused sum would not.
    const r = run('hopper', M8N8K4_F64, [ulp, ulp, ulp, ulp], [one, one, one, one], one);
    expect(r.value).toBe(one);
    expect(stepsOf(r, 'fma').map((l) => l.index)).toEqual([0, 1, 2, 3]);
    expect(
      run('hopper', M8N8K4_F64_RP, [ulp, ulp, ulp, ulp], [one, one, one, one], one).value,
    ).toBe(one + 4n);
  });
  it('the target decides: the same element on every architecture', () => {
    const a = row(16, 0n, F16_ONE, 0x0c00n).map((x, i) => (i === 8 ? 0x0c00n : x));
    const d = (target: string) => {
      const regs = matrixRegisters(M16N8K16_F32_F16, { a, b: a, c: 0n });
      if (!regs.ok) throw new Error(regs.error.message);
      return evaluate(M16N8K16_F32_F16, regs.registers, { target }).d;
    };
    expect(['sm_80', 'sm_86', 'sm_89', 'sm_90', 'sm_90a', 'sm_100', 'sm_120'].map(d)).toEqual([
      '0x3f800000',
      '0x3f800000',
      '0x3f800000',
      '0x3f800001',
      '0x3f800001',
      '0x3f800001',
      '0x3f800001',
    ]);
  });
});

describe('exhaustive', () => {
  const cs = [0n, 0x80000000n, F32(1), F32(-6), F32(0.75), F32(2 ** -30), F32(72), F32(-(2 ** 20))];
  /** e2m1 patterns (4 bits) at the given places of a row of 32, zeros elsewhere. */
  const at = (...xs: bigint[]) => row(32, 0n, ...xs);
  it('every pair of e2m1 elements, each c, for n = 23, 24 and 25, with the whole trace', () => {
    let count = 0;
    for (const on of ['volta', 'turing', 'rtx-blackwell'] as const)
      for (let a = 0n; a < 16n; a++)
        for (let b = 0n; b < 16n; b++)
          for (const c of cs) {
            run(on, KIND_E2M1, at(a), at(b), c);
            count++;
          }
    expect(count).toBe(3 * 256 * cs.length);
  });
  it('every two pairs of e2m1 elements (65,536 rows and columns), c in turn from eight values', () => {
    // d only (evaluateBits) against the reference; every 97th vector also the whole trace.
    const target = 'sm_120';
    const architecture = refArchitectureOf(target)!;
    const setup = {
      architecture,
      instruction: 'mma',
      atype: 'e2m1',
      btype: 'e2m1',
      ctype: 'f32',
      dtype: 'f32',
    } as const;
    let count = 0;
    const differ: string[] = [];
    for (let a0 = 0n; a0 < 16n; a0++)
      for (let b0 = 0n; b0 < 16n; b0++)
        for (let a1 = 0n; a1 < 16n; a1++)
          for (let b1 = 0n; b1 < 16n; b1++) {
            const c = cs[count % cs.length]!;
            const v = { a: at(a0, a1), b: at(b0, b1), c };
            const regs = matrixRegisters(KIND_E2M1, v);
            if (!regs.ok) throw new Error(regs.error.message);
            const d = BigInt(evaluateBits(KIND_E2M1, regs.registers, { target }));
            const ref = refDotProduct(setup, v.a, v.b, c).d;
            if (d !== ref)
              differ.push(
                `a ${a0},${a1} b ${b0},${b1} c 0x${c.toString(16)}: 0x${d.toString(16)} vs 0x${ref.toString(16)}`,
              );
            if (count % 97 === 0) check(target, KIND_E2M1, v);
            count++;
          }
    expect(differ.slice(0, 10)).toEqual([]);
    expect(count).toBe(65_536);
  });
});

describe('the trace', () => {
  it('is plain JSON: it survives a round trip unchanged (no bigint, no undefined)', () => {
    const tf32 = run('ampere', M16N8K8_TF32, row(8, F32(1.5) | 0x1fffn), row(8, F32(-3)), F32(0.1));
    const halves = run('ampere', M16N8K16_F32_F16, row(16, 0x3555n), row(16, 0xb800n), F32(7));
    const chain = run(
      'hopper',
      M8N8K4_F64,
      row(4, 0x3ff8000000000000n),
      row(4, 0xbfe0000000000000n),
      0n,
    );
    const special = run('hopper', M16N8K16_F32_F16, row(16, 0x7c00n), row(16, F16_ONE), 0n);
    for (const r of [tf32, halves, chain, special]) {
      const { value: _, ...result } = r;
      expect(JSON.parse(JSON.stringify(result))).toStrictEqual(result);
    }
  });
});

describe('input errors', () => {
  const ones = row(16, F16_ONE);
  it('a wrong count, a pattern too wide, a target without a model: structured errors', () => {
    const count = matrixRegisters(M16N8K16_F32_F16, { a: ones.slice(1), b: ones, c: 0n });
    expect(
      count.ok === false && [count.error.code, count.error.operand, count.error.index],
    ).toEqual(['operand', 'a', null]);
    const wide = matrixRegisters(M16N8K16_F32_F16, {
      a: row(16, F16_ONE, 0x10000n),
      b: ones,
      c: 0n,
    });
    expect(wide.ok === false && [wide.error.operand, wide.error.index]).toEqual(['a', 0]);
    const negative = matrixRegisters(M16N8K16_F32_F16, { a: ones, b: ones, c: -1n });
    expect(negative.ok === false && negative.error.operand).toBe('c');
    const regs = matrixRegisters(M16N8K16_F32_F16, { a: ones, b: ones, c: 0n });
    if (!regs.ok) throw new Error(regs.error.message);
    const target = (t: string) => {
      try {
        evaluate(M16N8K16_F32_F16, regs.registers, { target: t });
      } catch (e) {
        return e instanceof EngineError ? e.code : 'not an EngineError';
      }
      return 'evaluated';
    };
    expect(['sm_88', 'sm_62', 'sm_999'].map(target)).toEqual(['target', 'target', 'target']);
    expect(() => evaluateBits(M16N8K16_F32_F16, regs.registers, { target: 'sm_88' })).toThrow(
      EngineError,
    );
    expect(() =>
      evaluate(M16N8K16_F32_F16, { ...regs.registers, a: 1n << 256n }, { target: 'sm_90' }),
    ).toThrow(EngineError);
  });
});
