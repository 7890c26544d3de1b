/**
 * Every documented decision of an instruction (src/engine/decisions.ts) is pinned here by a
 * concrete vector through the pipeline (src/engine/pipeline.ts), and every engine decision is
 * visible: some trace step names it. The pipeline names one id per rule for the arithmetic and
 * cvt alike (canonical-nan, sat-negative-zero, relu-negative-zero, ftz-after-rounding,
 * ptxas-only-forms), so those are pinned with cvt vectors too. The what-if's and block
 * scaling's decisions, in the same list, are pinned by tests/what-if-comparison.test.ts and
 * tests/block-scale.test.ts.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseInstruction } from '../src/catalog/parse-instruction.ts';
import { findForm } from '../src/catalog/all-forms.ts';
import { matrixRegisters } from '../src/engine/matrix-registers.ts';
import {
  BLOCK_SCALE_DECISION_IDS,
  DECISIONS,
  decision,
  WHAT_IF_DECISION_IDS,
  type InstructionDecisionId as DecisionId,
} from '../src/engine/decisions.ts';
import { measuredRulesFor, tensorCoreModel } from '../src/catalog/tensor-core-models.ts';
import { compileFast } from '../src/engine/fast/index.ts';
import type { EngineOptions } from '../src/engine/options.ts';
import { evaluate, type Registers } from '../src/engine/pipeline.ts';
import type { EvalResult } from '../src/engine/steps.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const named = (r: EvalResult, id: DecisionId) =>
  r.elements.some((e) => e.steps.some((s) => s.decision === id));
const d = (form: string, registers: Registers, options?: Partial<EngineOptions>) =>
  evaluate(form, registers, options).d;

/** A cvt through the pipeline, its d checked equal to the fast path's. */
function cvt(form: string, registers: Registers): EvalResult {
  const traced = evaluate(form, registers);
  expect(
    `0x${compileFast(form)
      .evaluate(registers)
      .toString(16)
      .padStart(traced.d.length - 2, '0')}`,
  ).toBe(traced.d);
  return traced;
}
/** The .f32 pattern of a number. */
const f32 = (x: number): bigint => {
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, x);
  return BigInt(view.getUint32(0));
};

/**
 * cvt's NaN results as an H200 gave them (decision cvt-nan, hw/captures/sm_90/h200): the sign
 * and payload kept, quieted or dropped by source, destination and modifiers. Each names cvt-nan.
 */
function cvtNaNs(): EvalResult[] {
  const vectors: [string, Registers, string][] = [
    ['cvt.rn.f16.f32', { a: 0xffc00123n }, '0x7fff'],
    ['cvt.f32.bf16', { a: 0x7f81n }, '0x7f810000'], // copied, still signaling
    ['cvt.rn.f32.bf16', { a: 0xffc1n }, '0xffc10000'],
    ['cvt.ftz.f32.bf16', { a: 0x7f81n }, '0x7fffffff'],
    ['cvt.f32.f16', { a: 0x7c01n }, '0x7fffffff'],
    ['cvt.f64.f16', { a: 0xfc01n }, '0xfff8040000000000'],
    ['cvt.f64.f32', { a: 0x7f800001n }, '0x7ff8000020000000'],
    ['cvt.ftz.f64.f32', { a: 0x7f800001n }, '0x7fffffffe0000000'],
    ['cvt.rn.f16.f64', { a: 0x7ff65d0282937f6bn }, '0x7f97'],
    ['cvt.rz.bf16.f64', { a: 0x7ff65d0282937f6bn }, '0x7ff2'],
    ['cvt.rn.ftz.f32.f64', { a: 0x7ff65d0282937f6bn }, '0x7ff2e814'],
    ['cvt.f64.f64', { a: 0x7ff0000000000001n }, '0x7ff0000000000001'],
    ['cvt.rni.f64.f64', { a: 0x7ff0000000000001n }, '0x7ff8000000000001'],
    ['cvt.f32.f32', { a: 0x7f800001n }, '0x7f800001'],
    ['cvt.rni.f32.f32', { a: 0x7f800001n }, '0x7fffffff'],
    ['cvt.rna.tf32.f32', { a: 0x7f800001n }, '0x7f800000'], // payload cut to zero: +inf
    ['cvt.rna.satfinite.tf32.f32', { a: 0x7f800001n }, '0x7f7fe000'],
    ['cvt.rna.satfinite.tf32.f32', { a: 0x7f802000n }, '0x7f800000'],
    ['cvt.rna.satfinite.tf32.f32', { a: 0xffc00000n }, '0xffbfe000'],
    ['cvt.rn.tf32.f32', { a: 0x7fc00000n }, '0x7fffe000'],
    ['cvt.rn.satfinite.e4m3x2.f32', { a: 0xffc00000n, b: 0x7fc00001n }, '0x7f7f'],
    ['cvt.rn.satfinite.e5m2x2.f16x2', { a: 0xfe007c01n }, '0x7f7f'],
    ['cvt.rz.ue8m0x2.bf16x2', { a: 0xffc17fc0n }, '0xffff'],
    ['cvt.rn.f16x2.e4m3x2', { a: 0xff7fn }, '0x7fff7fff'],
    // e2m1 has no NaN: .satfinite gives +MAX_NORM (6.0 = 0x7).
    ['cvt.rn.satfinite.e2m1x2.f32', { a: 0xffc00000n, b: 0x3f800000n }, '0x72'],
  ];
  const results = vectors.map(([form, registers]) => cvt(form, registers));
  expect(results.map((r) => r.d)).toEqual(vectors.map(([, , want]) => want));
  return results;
}

/** cvt's -0.0 under .relu and .sat becomes +0.0; without them a negative tiny value keeps -0. */
function cvtNegativeZeros(): { relu: EvalResult; sat: EvalResult } {
  const relu = cvt('cvt.rn.relu.f16.f32', { a: 0x80000000n });
  expect(relu.d).toBe('0x0000');
  const sat = cvt('cvt.rn.sat.f16.f32', { a: 0x80000000n });
  expect(sat.d).toBe('0x0000');
  expect(cvt('cvt.rn.f16.f32', { a: f32(-(2 ** -30)) }).d).toBe('0x8000');
  expect(cvt('cvt.rn.satfinite.e4m3x2.f32', { a: f32(-(2 ** -12)), b: 0n }).d).toBe('0x8000');
  return { relu, sat };
}

/** cvt's .ftz judges an .f32 result tiny after rounding (the engine option tries the other). */
function cvtFtzTininess(): EvalResult[] {
  // f64 (1 - 2^-25)·2^-126: rounds up to 2^-126 at 24 bits, so it is not tiny after rounding.
  const a = 0x380fffffff000000n; // 2^-127 × (2 - 2^-24)
  const kept = cvt('cvt.rn.ftz.f32.f64', { a });
  expect(kept.d).toBe('0x00800000');
  const before = evaluate('cvt.rn.ftz.f32.f64', { a }, { ftzTininess: 'before-rounding' });
  expect(before.d).toBe('0x00000000');
  // A subnormal bf16 widens to a subnormal f32: flushed; a subnormal f16 result is not .f32.
  const widened = cvt('cvt.ftz.f32.bf16', { a: 0x8001n });
  expect(widened.d).toBe('0x80000000');
  expect(cvt('cvt.rn.ftz.f16.f32', { a: f32(2 ** -20) }).d).toBe('0x0010');
  return [kept, before, widened];
}

/** A cvt form only ptxas lists: 500 → e2m1 MAX_NORM 6 (0x7), -1.5 → 0xb, a's upper half on top. */
function cvtPtxasOnly(): EvalResult {
  const r = cvt('cvt.rn.satfinite.e2m1x2.f16x2', { a: 0x5fd0be00n });
  expect(r.d).toBe('0x7b');
  expect(cvt('cvt.rn.satfinite.e2m1x2.f32', { a: f32(500), b: f32(-1.5) }).decisions).not.toContain(
    'ptxas-only-forms',
  );
  return r;
}

/** The pipeline names the unified id on every vector, and never the retired cvt-only one. */
/** One mma / wgmma element of a form on a target (a, b: k elements; the rest of the row 0). */
function mma(
  form: string,
  target: string | undefined,
  a: bigint[],
  b: bigint[],
  c: bigint,
): EvalResult {
  const f = findForm(form)!;
  const pad = (xs: bigint[]) => [...xs, ...Array(f.matrix!.shape.k - xs.length).fill(0n)];
  const r = matrixRegisters(f, { a: pad(a), b: pad(b), c });
  if (!r.ok) throw new Error(r.error.message);
  return evaluate(f, r.registers, target === undefined ? {} : { target });
}
/** d without the zeros a hex of its width starts with. */
const mmaHex = (r: EvalResult) => `0x${BigInt(r.d).toString(16)}`;
/** e4m3 2^-7 (a subnormal): its square, 2^-14, is a term FP8's 13 bits cut after c = 1. */
const E4M3_2M7 = 0x04n;

const cases: Record<DecisionId, () => void> = {
  'mma-fp8-f16-hopper': () => {
    // c = 1, sixteen products of 2^-14: n = 13 cuts each away, so d = 1.0 (n = 25 would give
    // 1 + 2^-10 = 0x3C01).
    const tiny = Array(16).fill(E4M3_2M7);
    const r = mma(
      'wgmma.mma_async.sync.aligned.m64n8k32.f16.e4m3.e4m3',
      'sm_90a',
      tiny,
      tiny,
      0x3c00n,
    );
    expect(mmaHex(r)).toBe('0x3c00');
    expect(r.decisions).toContain('mma-fp8-f16-hopper');
    // Settled by the H100's wgmma capture: listed as measured, no longer unsettled.
    const hopper = tensorCoreModel('hopper');
    expect(hopper.unsettled).toEqual([]);
    expect(measuredRulesFor(hopper, 'wgmma')!.settles).toEqual([
      { inputs: ['e4m3', 'e5m2'], instructions: ['wgmma'], results: ['f16'] },
    ]);
    expect(decision('mma-fp8-f16-hopper').measured?.evidence).toMatch(
      /^hw\/captures\/sm_90\/h100\/wgmma:/,
    );
    // The f32 result is settled: no decision named.
    const f32 = mma(
      'wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3',
      'sm_90a',
      tiny,
      tiny,
      0x3f800000n,
    );
    expect(mmaHex(f32)).toBe('0x3f800000');
    expect(f32.decisions).not.toContain('mma-fp8-f16-hopper');
  },
  'mma-fp8-blackwell': () => {
    // c = 1024, three products 2^-7 × 2^-8 (0.75 of an ulp of 1024): n = 25 keeps them and the
    // truncation drops them, 0x44800000; round to nearest would give 0x44800001.
    const form = 'mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32';
    const r = mma(form, 'sm_100', Array(3).fill(E4M3_2M7), Array(3).fill(0x02n), 0x44800000n);
    expect(mmaHex(r)).toBe('0x44800000');
    expect(r.decisions).toContain('mma-fp8-blackwell');
    // Sixteen of them after c = 1 are kept (n = 25, not Ada's 13).
    const tiny = Array(16).fill(E4M3_2M7);
    expect(mmaHex(mma(form, 'sm_100', tiny, tiny, 0x3f800000n))).toBe('0x3f802000');
  },
  'mma-zero-sign': () => {
    const form = 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32';
    const negZeros = mma(
      form,
      'sm_80',
      Array(16).fill(0x8000n),
      Array(16).fill(0x3c00n),
      0x80000000n,
    );
    expect(mmaHex(negZeros)).toBe('0x80000000');
    expect(negZeros.decisions).toContain('mma-zero-sign');
    // 1·1 + 1·(−1) + (−0): the terms cancel, +0.
    expect(mmaHex(mma(form, 'sm_80', [0x3c00n, 0x3c00n], [0x3c00n, 0xbc00n], 0x80000000n))).toBe(
      '0x0',
    );
  },
  'mma-f32-overflow': () => {
    // Two bf16 max² products, about 2^129: truncation keeps the largest finite f32.
    const max = [0x7f7fn, 0x7f7fn];
    const r = mma('mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32', 'sm_80', max, max, 0n);
    expect(mmaHex(r)).toBe('0x7f7fffff');
    expect(r.decisions).toContain('mma-f32-overflow');
  },
  'mma-default-target': () => {
    // Ampere's halves round 1 + 2^-24 twice away; Hopper keeps it in one sum: 1 + 2^-23 after
    // 1 + 2^-24 + 2^-24. With no target named the element is sm_90's, and says so.
    const form = 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32';
    const a = [0x3c00n, 0x0c00n, 0n, 0n, 0n, 0n, 0n, 0n, 0x0c00n];
    const none = mma(form, undefined, a, a, 0n);
    expect(none.d).toBe(mma(form, 'sm_90', a, a, 0n).d);
    expect(mmaHex(none)).toBe('0x3f800001');
    expect(mmaHex(mma(form, 'sm_80', a, a, 0n))).toBe('0x3f800000');
    expect(none.decisions).toContain('mma-default-target');
    expect(mma(form, 'sm_90', a, a, 0n).decisions).not.toContain('mma-default-target');
    const model = none.elements[0]!.steps.find((s) => s.kind === 'tensor-model');
    expect(model?.kind === 'tensor-model' && [model.target, model.name]).toEqual([
      'sm_90',
      'Hopper',
    ]);
  },
  'cvt-nan': () => {
    for (const r of cvtNaNs()) expect(named(r, 'cvt-nan'), r.form).toBe(true);
  },
  'cvt-ftz-f16-source': () => {
    // .ftz leaves a subnormal .f32 input into .f16 as it is, and flushes it into .bf16.
    const kept = cvt('cvt.rp.ftz.f16.f32', { a: 0x00000001n });
    expect(kept.d).toBe('0x0001');
    expect(named(kept, 'cvt-ftz-f16-source')).toBe(true);
    expect(cvt('cvt.rm.ftz.sat.f16.f32', { a: 0x80000001n }).d).toBe('0x0000');
    expect(cvt('cvt.rm.ftz.f16.f32', { a: 0x80000001n }).d).toBe('0x8001');
    const flushed = cvt('cvt.rp.ftz.bf16.f32', { a: 0x00000001n });
    expect(flushed.d).toBe('0x0000');
    expect(named(flushed, 'cvt-ftz-f16-source')).toBe(false);
  },
  'mma-zero-sign-sm90': () => {
    // Measured on an H200 (hw/captures/sm_90/h200/mma, all-neg-zero-terms): +0, where other
    // targets give −0.
    const form = 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32';
    const negZeros = [Array(16).fill(0x8000n), Array(16).fill(0x3c00n)] as const;
    const h = mma(form, 'sm_90', negZeros[0], negZeros[1], 0x80000000n);
    expect(mmaHex(h)).toBe('0x0');
    expect(h.decisions).toContain('mma-zero-sign-sm90');
    expect(mmaHex(mma(form, 'sm_80', negZeros[0], negZeros[1], 0x80000000n))).toBe('0x80000000');
    // wgmma, measured on an H100 (hw/captures/sm_90/h100/wgmma, all-neg-zero-terms): +0 too.
    const wgmma = 'wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16';
    const w = mma(wgmma, 'sm_90a', negZeros[0], negZeros[1], 0x80000000n);
    expect(mmaHex(w)).toBe('0x0');
    expect(w.decisions).toContain('mma-zero-sign-sm90');
  },
  'mma-f32-overflow-sm90': () => {
    // Two bf16 max² products, about 2^129: +∞ on sm_90 (measured), the largest finite on sm_80.
    const max = [0x7f7fn, 0x7f7fn];
    const form = 'mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32';
    const r = mma(form, 'sm_90', max, max, 0n);
    expect(mmaHex(r)).toBe('0x7f800000');
    expect(r.decisions).toContain('mma-f32-overflow-sm90');
    expect(mmaHex(mma(form, 'sm_80', max, max, 0n))).toBe('0x7f7fffff');
    // wgmma, measured on an H100 (max-times-max): +∞ too.
    const w = mma('wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16', 'sm_90a', max, max, 0n);
    expect(mmaHex(w)).toBe('0x7f800000');
    expect(w.decisions).toContain('mma-f32-overflow-sm90');
  },
  'mma-sm90-differing-forms': () => {
    // m8n8k4 .f32 on sm_90: the model truncates c = −2 plus 2^-24 to 0xBFFFFFFF; the H200 gives
    // 0xC0000000 (hw/captures/sm_90/h200/mma): the sequence's last addition, −2 + 2^-24, is a
    // tie in f32 and rounds to the even −2. The engine follows the sequence and names the decision.
    const m884 = mma(
      'mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32',
      'sm_90',
      [0x0001n],
      [0x3c00n],
      0xc0000000n,
    );
    expect(mmaHex(m884)).toBe('0xc0000000');
    expect(m884.decisions).toContain('mma-sm90-differing-forms');
    // The fused model (Blackwell's, the same n = 25) truncates.
    expect(
      mmaHex(
        mma(
          'mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32',
          'sm_100',
          [0x0001n],
          [0x3c00n],
          0xc0000000n,
        ),
      ),
    ).toBe('0xbfffffff');
    // .f16 result, 2048 + 1 + 2^-13: the f32 additions round 2049 + 2^-13 (a tie) to 2049, which
    // is a tie in f16 and goes to the even 2048; one fused sum keeps 2^-13 and rounds up to 2050.
    const row = [0x6800n, 0x3c00n, 0x0800n, 0n];
    const column = [0x3c00n, 0x3c00n, 0x3c00n, 0n];
    const half = 'mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16';
    const m884h = mma(half, 'sm_90', row, column, 0n);
    expect(mmaHex(m884h)).toBe('0x6800');
    expect(m884h.decisions).toContain('mma-sm90-differing-forms');
    expect(mmaHex(mma(half, 'sm_100', row, column, 0n))).toBe('0x6801');
    const fp8 = mma('mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32', 'sm_90', [], [], 0n);
    expect(fp8.decisions).toContain('mma-sm90-differing-forms');
    // The f16 m16n8k16 form follows the model and the measurement: no such decision.
    const f16 = mma('mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32', 'sm_90', [], [], 0n);
    expect(f16.decisions).not.toContain('mma-sm90-differing-forms');
  },
  'cvt-default-rounding': () => {
    // bf16 0x3F81 = 1 + 2^-7 is exact in f16; 0x3F80 + a half ulp of f16 is not: f16 → bf16.
    const r = cvt('cvt.bf16.f16', { a: 0x3c03n }); // 1 + 3·2^-10: between bf16 1 and 1+2^-7
    expect(r.d).toBe('0x3f80');
    expect(r.decisions).toContain('cvt-default-rounding');
    expect(cvt('cvt.bf16.f16', { a: 0x3c0cn }).d).toBe(cvt('cvt.rn.bf16.f16', { a: 0x3c0cn }).d);
    expect(cvt('cvt.rn.bf16.f16', { a: 0x3c03n }).decisions).not.toContain('cvt-default-rounding');
  },
  'cvt-tf32-layout': () => {
    const r = cvt('cvt.rna.tf32.f32', { a: f32(1 + 2 ** -11) }); // a tie: away from zero
    expect(r.d).toBe('0x3f802000');
    expect(named(r, 'cvt-tf32-layout')).toBe(true);
    expect(cvt('cvt.rz.tf32.f32', { a: 0x3f801fffn }).d).toBe('0x3f800000');
  },
  'cvt-rs-rbits': () => {
    // 1 + 2^-11 + 2^-13 to f16: discarded bits 1010000000000; adding 0x1000 carries, 0x0fff not.
    const a = f32(1 + 2 ** -11 + 2 ** -13);
    const up = cvt('cvt.rs.f16x2.f32', { a, b: a, rbits: 0x1000n << 16n });
    expect(up.d).toBe('0x3c013c00');
    expect(named(up, 'cvt-rs-rbits')).toBe(true);
    // Only the 13 low bits of each half are used: bits 15:13 of a half change nothing.
    expect(cvt('cvt.rs.f16x2.f32', { a, b: a, rbits: 0xe000e000n }).d).toBe('0x3c003c00');
    // e4m3x4: one byte each, a the top one; 1.0625 keeps 1.0 unless its byte carries.
    const x = f32(1.0625);
    expect(
      cvt('cvt.rs.satfinite.e4m3x4.f32', { a: x, b: x, e: x, f: x, rbits: 0x80000000n }).d,
    ).toBe('0x39383838');
    expect(
      cvt('cvt.rs.satfinite.e4m3x4.f32', { a: x, b: x, e: x, f: x, rbits: 0x00000080n }).d,
    ).toBe('0x38383839');
    // e2m1x4: a the upper byte of the upper half, b the upper byte of the lower half.
    const y = f32(1.25);
    expect(
      cvt('cvt.rs.satfinite.e2m1x4.f32', { a: y, b: y, e: y, f: y, rbits: 0x00008000n }).d,
    ).toBe('0x2322');
    // Past MAX_NORM: toward zero is MAX_NORM, away is infinity (carry as with an unbounded exponent).
    expect(cvt('cvt.rs.f16x2.f32', { a: f32(65520), b: f32(65520), rbits: 0x10000000n }).d).toBe(
      '0x7c007bff',
    );
  },
  'cvt-rs-subnormal': () => {
    // 3·2^-26 to f16: below the smallest subnormal 2^-24; the random bits meet its top
    // discarded bits (0.75 of an ulp: 1100000000000): 0x0800 carries, 0x0300 does not.
    const a = f32(3 * 2 ** -26);
    const r = cvt('cvt.rs.f16x2.f32', { a, b: a, rbits: (0x0800n << 16n) | 0x0300n });
    expect(r.d).toBe('0x00010000');
    expect(named(r, 'cvt-rs-subnormal')).toBe(true);
  },
  'cvt-satfinite-infinity': () => {
    const r = cvt('cvt.rn.satfinite.e4m3x2.f32', { a: 0x7f800000n, b: 0xff800000n });
    expect(r.d).toBe('0x7efe');
    expect(named(r, 'cvt-satfinite-infinity')).toBe(true);
    // A destination with an infinity too: -inf is beyond MAX_NORM.
    const f16 = cvt('cvt.rn.satfinite.f16.f32', { a: 0xff800000n });
    expect(f16.d).toBe('0xfbff');
    expect(named(f16, 'cvt-satfinite-infinity')).toBe(true);
    expect(cvt('cvt.rz.satfinite.ue8m0x2.f32', { a: 0xff800000n, b: 0x7f800000n }).d).toBe(
      '0xfefe',
    );
    // Without .satfinite an infinity stays one.
    expect(cvt('cvt.rn.f16.f32', { a: 0xff800000n }).d).toBe('0xfc00');
    // A finite value that rounds past MAX_NORM is not an infinity.
    expect(named(cvt('cvt.rn.satfinite.f16.f32', { a: f32(1e6) }), 'cvt-satfinite-infinity')).toBe(
      false,
    );
  },
  'cvt-ue8m0': () => {
    const r = cvt('cvt.rp.ue8m0x2.f32', { a: f32(-3), b: 0n });
    expect(r.d).toBe('0x8100'); // |-3| → 4; 0 → 2^-127
    expect(named(r, 'cvt-ue8m0')).toBe(true);
    expect(cvt('cvt.rz.ue8m0x2.f32', { a: f32(3), b: f32(2 ** -140) }).d).toBe('0x8000');
    expect(cvt('cvt.rp.ue8m0x2.f32', { a: 0x7f7fffffn, b: 0x7f800000n }).d).toBe('0xffff');
    expect(cvt('cvt.rp.satfinite.ue8m0x2.f32', { a: 0x7f7fffffn, b: 0x7f800000n }).d).toBe(
      '0xfefe',
    );
    expect(cvt('cvt.rn.bf16x2.ue8m0x2', { a: 0x00ffn }).d).toBe('0x00407fff');
  },
  'cvt-input-padding': () => {
    // 0xC1: padding 11, value 000001 (0.125 in e2m3): the padding is ignored.
    const r = cvt('cvt.rn.f16x2.e2m3x2', { a: 0xc101n });
    expect(r.d).toBe(cvt('cvt.rn.f16x2.e2m3x2', { a: 0x0101n }).d);
    expect(named(r, 'cvt-input-padding')).toBe(true);
  },
  'cvt-modifier-order': () => {
    // -500 to e4m3 with .relu: .satfinite gives -448, .relu then +0 (either order: +0).
    expect(cvt('cvt.rn.satfinite.relu.e4m3x2.f32', { a: f32(-500), b: f32(500) }).d).toBe('0x007e');
    const steps = cvt('cvt.rn.satfinite.relu.e4m3x2.f32', {
      a: f32(-500),
      b: 0n,
    }).elements[0]!.steps.map((s) => s.kind);
    expect(steps.indexOf('satfinite')).toBeLessThan(steps.indexOf('relu'));
  },
  'canonical-nan': () => {
    const r = evaluate('add.f16', { a: 0x7e01n, b: 0x3c00n }); // a NaN with a payload
    expect(r.d).toBe('0x7fff');
    expect(named(r, 'canonical-nan')).toBe(true);
    expect(d('add.rn.f32.bf16', { a: 0x3f80n, c: 0xffc00001n })).toBe('0x7fffffff');
    expect(d('mul.bf16', { a: 0x0000n, b: 0x7f80n })).toBe('0x7fff'); // 0 × inf
    // cvt's .relu names it: "NaN results are converted to canonical NaN".
    const relu = cvt('cvt.rn.relu.f16.f32', { a: 0xffc00123n });
    expect(relu.d).toBe('0x7fff');
    expect(named(relu, 'canonical-nan')).toBe(true);
  },
  'ftz-after-rounding': () => {
    // (1 - 2^-11) × 2^-14 = 2^-14 - 2^-25 has 11 significant bits: rounded with an unbounded
    // exponent it stays below 2^-14 (tiny after rounding), though gradual underflow rounds it
    // (tie to even) up to the normal 0x0400. An H100 returns 0x0000.
    const tie = evaluate('mul.ftz.f16', { a: 0x3bffn, b: 0x0400n });
    expect(tie.d).toBe('0x0000');
    expect(d('mul.f16', { a: 0x3bffn, b: 0x0400n })).toBe('0x0400');
    expect(named(tie, 'ftz-after-rounding')).toBe(true);
    // 2^-14 - 2^-28 rounds up to 2^-14 at 11 bits: kept after rounding (an H100 returns 0x0400),
    // flushed by the before-rounding reading.
    const input = { a: 0x0400n, b: 0x8400n, c: 0x0400n };
    expect(d('fma.rn.ftz.f16', input)).toBe('0x0400');
    const before = evaluate('fma.rn.ftz.f16', input, { ftzTininess: 'before-rounding' });
    expect(before.d).toBe('0x0000');
    expect(named(before, 'ftz-after-rounding')).toBe(true);
    const sub = evaluate('mul.ftz.f16', { a: 0x3800n, b: 0x0400n }); // 2^-15: subnormal after rounding
    expect(sub.d).toBe('0x0000');
    expect(named(sub, 'ftz-after-rounding')).toBe(true);
    // The fast path follows the same rule.
    expect(compileFast('mul.ftz.f16').words!(0x3bff, 0x0400, 0)).toBe(0);
    expect(compileFast('fma.rn.ftz.f16').words!(0x0400, 0x8400, 0x0400)).toBe(0x0400);
    // cvt's .ftz on an .f32 result follows it too.
    for (const r of cvtFtzTininess()) expect(named(r, 'ftz-after-rounding'), r.d).toBe(true);
  },
  'sat-negative-zero': () => {
    const r = evaluate('add.sat.f16', { a: 0x8000n, b: 0x8000n }); // -0 + -0 = -0 → +0
    expect(r.d).toBe('0x0000');
    expect(named(r, 'sat-negative-zero')).toBe(true);
    expect(d('add.sat.f16', { a: 0x7fffn, b: 0x3c00n })).toBe('0x0000'); // NaN → +0
    expect(d('add.sat.f16', { a: 0x3c00n, b: 0x3c00n })).toBe('0x3c00'); // 2 → 1
    expect(named(cvtNegativeZeros().sat, 'sat-negative-zero')).toBe(true);
  },
  'relu-negative-zero': () => {
    const r = evaluate('fma.rn.relu.bf16', { a: 0x8000n, b: 0x3f80n, c: 0x8000n }); // -0×1 + -0 = -0 → +0
    expect(r.d).toBe('0x0000');
    expect(named(r, 'relu-negative-zero')).toBe(true);
    expect(d('fma.rn.relu.bf16', { a: 0x7fc1n, b: 0x3f80n, c: 0n })).toBe('0x7fff');
    expect(named(cvtNegativeZeros().relu, 'relu-negative-zero')).toBe(true);
  },
  'oob-nan-pattern': () => {
    // Lane 1 of b holds the OOB-NaN pattern.
    const marked = evaluate('fma.rn.oob.f16x2', { a: 0x3c003c00n, b: 0x7ff73c00n, c: 0n });
    expect(marked.d).toBe('0x00003c00'); // lane 1 forced to +0, lane 0 = 1·1 + 0
    expect(named(marked, 'oob-nan-pattern')).toBe(true);
    // The pattern in the register is what counts (measured on an H100): 0x7FF7 or 0xFFF7 in a
    // or b zeroes the lane whatever c holds; in c it is an ordinary NaN; another NaN is a NaN.
    expect(d('fma.rn.oob.bf16', { a: 0xfff7n, b: 0x3f80n, c: 0x7fc0n })).toBe('0x0000');
    expect(d('fma.rn.oob.relu.f16', { a: 0x3c00n, b: 0x7ff7n, c: 0xbc00n })).toBe('0x0000');
    expect(d('fma.rn.oob.f16', { a: 0x3c00n, b: 0x3c00n, c: 0x7ff7n })).toBe('0x7fff');
    expect(d('fma.rn.oob.f16', { a: 0x7ff6n, b: 0x3c00n, c: 0n })).toBe('0x7fff');
    expect(compileFast('fma.rn.oob.f16x2').words!(0x3c007ff7, 0x3c003c00, 0x7fff3c00)).toBe(
      0x7fff0000,
    );
    // Without .oob the pattern is simply a NaN; another GPU's pattern is an option.
    expect(d('fma.rn.f16', { a: 0x3c00n, b: 0x7ff7n, c: 0n })).toBe('0x7fff');
    const other = { oobNanBits: 0x7e00 };
    expect(d('fma.rn.oob.f16', { a: 0x7e00n, b: 0x3c00n, c: 0n }, other)).toBe('0x0000');
    expect(d('fma.rn.oob.f16', { a: 0x7ff7n, b: 0x3c00n, c: 0n }, other)).toBe('0x7fff');
  },
  'max-x2-xorsign-typo': () => {
    // Lane 1: a is NaN, b = -2 → d = b = -2 (not NaN), so xorsign applies: sign = 0 ^ 1 = 1 → -2.
    const r = evaluate('max.xorsign.abs.f16x2', {
      a: 0x7e00n + 0x3c00n * 65536n,
      b: 0xc000n + 0xc000n * 65536n,
    });
    expect(r.elements[1]!.result).toBe('0xc000');
    expect(named(r, 'max-x2-xorsign-typo')).toBe(true);
  },
  'minmax-both-nan': () => {
    const r = evaluate('min.f16', { a: 0x7e01n, b: 0xfe02n });
    expect(r.d).toBe('0x7fff');
    expect(named(r, 'minmax-both-nan')).toBe(true);
    expect(d('min.f16', { a: 0x7e01n, b: 0x3c00n })).toBe('0x3c00');
    expect(d('min.NaN.f16', { a: 0x7e01n, b: 0x3c00n })).toBe('0x7fff');
  },
  'neg-abs-nan': () => {
    const r = evaluate('neg.f16', { a: 0x7e01n });
    expect(r.d).toBe('0x7fff');
    expect(named(r, 'neg-abs-nan')).toBe(true);
    expect(d('abs.bf16', { a: 0xffc1n })).toBe('0x7fff');
  },
  'approx-model': () => {
    const r = evaluate('tanh.approx.f16', { a: 0x3c00n }); // tanh(1) = 0.76159…
    expect(r.d).toBe('0x3a18');
    expect(named(r, 'approx-model')).toBe(true);
  },
  'approx-ftz-result': () => {
    const r = evaluate('ex2.approx.ftz.bf16', { a: 0xc302n }); // 2^-130: subnormal in bf16 → +0
    expect(r.d).toBe('0x0000');
    expect(named(r, 'approx-ftz-result')).toBe(true);
    expect(d('ex2.approx.f16', { a: 0xcc00n })).toBe('0x0100'); // f16 keeps 2^-16
  },
  'mixed-sat-syntax': () => {
    // The examples' spellings, read as the syntax line's forms (ptxas 13.0 assembles both).
    const after = parseInstruction('add.rz.f32.bf16.sat');
    expect(after.ok && after.form.text).toBe('add.rz.sat.f32.bf16');
    expect(after.ok && after.spelling?.message).toBe(
      'ptxas accepts this order; the spec writes add.rz.sat.f32.bf16',
    );
    const twice = parseInstruction('fma.rz.sat.f32.f16.sat');
    expect(twice.ok && twice.form.text).toBe('fma.rz.sat.f32.f16');
    expect(twice.ok && twice.spelling?.repeated).toEqual([{ modifier: 'sat', times: 2 }]);
  },
  'ptxas-only-forms': () => {
    // (1 + 2^-7)^2 - 1 = 2^-6 + 2^-14 needs 8 mantissa bits. One rounding of the exact value:
    // .rp gives 2^-6 + 2^-13 (0x3c81); rounding the product first would give 2^-6 + 2^-7.
    const exactThenRound = { a: 0x3f81n, b: 0x3f81n, c: 0xbf80n };
    const rp = evaluate('fma.rp.bf16', exactThenRound);
    expect(rp.d).toBe('0x3c81');
    expect(rp.decisions).toContain('ptxas-only-forms');
    expect(compileFast('fma.rp.bf16').words!(0x3f81, 0x3f81, 0xbf80)).toBe(0x3c81);
    expect(d('fma.rz.bf16', exactThenRound)).toBe('0x3c80');
    // -(1 + 2^-6 + 2^-14): .rm rounds away from zero, .rz and .rp toward it.
    const negative = { a: 0xbf81n, b: 0x3f81n, c: 0n };
    expect(d('fma.rm.bf16', negative)).toBe('0xbf83');
    expect(d('fma.rz.relu.bf16x2', { a: 0xbf813f81n, b: 0x3f813f81n, c: 0n })).toBe('0x00003f82');
    // .oob and .sat commute: an OOB-NaN lane is +0.0 either way; the other lane saturates.
    const oobSat = evaluate('fma.rn.oob.sat.f16x2', { a: 0x40004000n, b: 0x7ff73c00n, c: 0n });
    expect(oobSat.d).toBe('0x00003c00');
    expect(oobSat.decisions).toContain('ptxas-only-forms');
    // The spec's own forms do not carry it.
    expect(evaluate('fma.rn.bf16', exactThenRound).decisions).not.toContain('ptxas-only-forms');
    // Nor do they in cvt: the one cvt form only ptxas lists carries it.
    expect(cvtPtxasOnly().decisions).toContain('ptxas-only-forms');
    // mma's .kind::f8f6f4 at m16n8k16: as the FP8 form without .kind.
    const a = [0x38n, 0x39n, 0xb8n]; // e4m3 1, 1.125, -1
    const b = [0x40n, 0x3an, 0x30n]; // e4m3 2, 1.25, 0.5
    const plain = mma(
      'mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32',
      'sm_120a',
      a,
      b,
      0x3f800000n,
    );
    const kind = mma(
      'mma.sync.aligned.m16n8k16.row.col.kind::f8f6f4.f32.e4m3.e4m3.f32',
      'sm_120a',
      a,
      b,
      0x3f800000n,
    );
    expect(kind.d).toBe(plain.d);
    // 1 + 1·2 + 1.125·1.25 + (−1)·0.5 = 3.90625
    expect(kind.d).toBe('0x407a0000');
    expect(kind.decisions).toContain('ptxas-only-forms');
    expect(plain.decisions).not.toContain('ptxas-only-forms');
  },
};

describe('documented decisions', () => {
  const elsewhere: readonly string[] = [...WHAT_IF_DECISION_IDS, ...BLOCK_SCALE_DECISION_IDS];
  const instructions = DECISIONS.filter((d) => !elsewhere.includes(d.id));
  it('every decision in the list has a pinning test here, or is the what-if’s or block scaling’s', () => {
    expect(instructions.map((d) => d.id).sort()).toEqual(Object.keys(cases).sort());
    expect(DECISIONS.length).toBe(instructions.length + elsewhere.length);
  });
  it.each(instructions.map((d) => [d.id as DecisionId] as const))('%s', (id) => cases[id]());
  it('a measured decision names its GPU and a capture in the repository', () => {
    for (const d of DECISIONS.filter((x) => x.measured)) {
      expect(d.measured!.on).toMatch(/sm_\d+/);
      const dir = /^(hw\/captures\/[\w/.-]+?):/.exec(d.measured!.evidence)?.[1];
      expect(dir, d.id).toBeDefined();
      // Every capture the evidence names is in the repository, with the GPU it was taken on.
      for (const [capture] of d.measured!.evidence.matchAll(/hw\/captures\/[\w/.-]*[\w]/g))
        expect(existsSync(join(ROOT, capture, 'device.txt')), `${d.id}: ${capture}`).toBe(true);
    }
  });
});

describe('operand checks', () => {
  it('the pipeline refuses registers that do not fit the form, with a structured error', () => {
    expect(() => evaluate('add.rn.f32.f16', { a: 0x3c00n })).toThrow(/needs operand c/);
    expect(() => evaluate('add.f16', { a: 0x1_0000n, b: 0n })).toThrow(/16-bit pattern/);
    expect(() => evaluate('cvt.rn.f16.f32', { a: -1n })).toThrow(/32-bit pattern/);
    expect(() => evaluate('add.f17', { a: 0n })).toThrow(/not a catalog form/);
  });
  it('the fast path reads registers at their width', () => {
    expect(compileFast('neg.bf16').words!(0xffff3c00, 0, 0)).toBe(0xbc00);
    expect(compileFast('add.f16').words!(0x12343c00, 0xabcd3c00, 0)).toBe(0x4000);
  });
});
