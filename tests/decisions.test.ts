/**
 * Every documented decision (src/engine/decisions.ts) is pinned here by a concrete vector, and
 * every engine decision is visible: some trace step names it.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseInstruction } from '../src/catalog/index.ts';
import {
  compileFast,
  DECISIONS,
  evaluate,
  evaluateCvt,
  type CvtEvalResult,
  type CvtInput,
  type DecisionId,
  type EvalResult,
} from '../src/engine/index.ts';
import { compileCvtFast } from '../src/engine/cvt-fast.ts';
import { findMatrixForm } from '../src/catalog/mma-forms-data.ts';
import { dotProductOfForm, type DotProductResult } from '../src/engine/ops/dot-product.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const hex = (r: EvalResult) => `0x${r.d.toString(16)}`;
const named = (r: EvalResult, id: DecisionId) =>
  r.lanes.some((l) => l.steps.some((s) => s.decision === id));

/** A cvt's d by the traced path, checked equal to the fast path's. */
function cvt(form: string, input: CvtInput): CvtEvalResult {
  const traced = evaluateCvt(form, input);
  expect(
    `0x${compileCvtFast(form)(input)
      .toString(16)
      .toUpperCase()
      .padStart(traced.d.length - 2, '0')}`,
  ).toBe(traced.d);
  return traced;
}
const cvtNamed = (r: CvtEvalResult, id: DecisionId) =>
  r.elements.some((e) => e.steps.some((s) => s.decision === id));
/** The .f32 pattern of a number. */
const f32 = (x: number): bigint => {
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, x);
  return BigInt(view.getUint32(0));
};

/** One mma / wgmma element of a form on a target (a, b: k elements; the rest of the row 0). */
function mma(form: string, target: string, a: bigint[], b: bigint[], c: bigint): DotProductResult {
  const f = findMatrixForm(form)!;
  const pad = (xs: bigint[]) => [...xs, ...Array(f.shape.k - xs.length).fill(0n)];
  return dotProductOfForm(f, target, { a: pad(a), b: pad(b), c });
}
const mmaHex = (r: DotProductResult) => `0x${r.d.toString(16)}`;
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
    expect(r.account.decisions).toContain('mma-fp8-f16-hopper');
    // The f32 result is settled: no decision named.
    const f32 = mma(
      'wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3',
      'sm_90a',
      tiny,
      tiny,
      0x3f800000n,
    );
    expect(mmaHex(f32)).toBe('0x3f800000');
    expect(f32.account.decisions).not.toContain('mma-fp8-f16-hopper');
  },
  'mma-fp8-blackwell': () => {
    // c = 1024, three products 2^-7 × 2^-8 (0.75 of an ulp of 1024): n = 25 keeps them and the
    // truncation drops them, 0x44800000; round to nearest would give 0x44800001.
    const form = 'mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32';
    const r = mma(form, 'sm_100', Array(3).fill(E4M3_2M7), Array(3).fill(0x02n), 0x44800000n);
    expect(mmaHex(r)).toBe('0x44800000');
    expect(r.account.decisions).toContain('mma-fp8-blackwell');
    // Sixteen of them after c = 1 are kept (n = 25, not Ada's 13).
    const tiny = Array(16).fill(E4M3_2M7);
    expect(mmaHex(mma(form, 'sm_100', tiny, tiny, 0x3f800000n))).toBe('0x3f802000');
  },
  'mma-zero-sign': () => {
    const form = 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32';
    const negZeros = mma(
      form,
      'sm_90',
      Array(16).fill(0x8000n),
      Array(16).fill(0x3c00n),
      0x80000000n,
    );
    expect(mmaHex(negZeros)).toBe('0x80000000');
    expect(negZeros.account.decisions).toContain('mma-zero-sign');
    // 1·1 + 1·(−1) + (−0): the terms cancel, +0.
    expect(mmaHex(mma(form, 'sm_90', [0x3c00n, 0x3c00n], [0x3c00n, 0xbc00n], 0x80000000n))).toBe(
      '0x0',
    );
  },
  'mma-f32-overflow': () => {
    // Two bf16 max² products, about 2^129: truncation keeps the largest finite f32.
    const max = [0x7f7fn, 0x7f7fn];
    const r = mma('mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32', 'sm_90', max, max, 0n);
    expect(mmaHex(r)).toBe('0x7f7fffff');
    expect(r.account.decisions).toContain('mma-f32-overflow');
  },
  'mma-ptxas-only-forms': () => {
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
    expect(mmaHex(kind)).toBe(mmaHex(plain));
    // 1 + 1·2 + 1.125·1.25 + (−1)·0.5 = 3.90625
    expect(mmaHex(kind)).toBe('0x407a0000');
    expect(kind.account.decisions).toContain('mma-ptxas-only-forms');
    expect(plain.account.decisions).not.toContain('mma-ptxas-only-forms');
  },
  'cvt-nan': () => {
    // A payload and a sign do not survive: the destination's canonical NaN.
    expect(cvt('cvt.rn.f16.f32', { a: 0xffc00123n }).d).toBe('0x7FFF');
    expect(cvt('cvt.f32.bf16', { a: 0xffc1n }).d).toBe('0x7FFFFFFF');
    expect(cvt('cvt.f64.f32', { a: 0x7f800001n }).d).toBe('0x7FFFFFFFFFFFFFFF');
    expect(cvt('cvt.rna.tf32.f32', { a: 0x7fc00000n }).d).toBe('0x7FFFE000');
    const f8 = cvt('cvt.rn.satfinite.e4m3x2.f32', { a: 0xffc00000n, b: 0x7fc00001n });
    expect(f8.d).toBe('0x7F7F');
    expect(cvtNamed(f8, 'cvt-nan')).toBe(true);
    expect(cvt('cvt.rn.satfinite.e5m2x2.f16x2', { a: 0xfe007c01n }).d).toBe('0x7F7F');
    expect(cvt('cvt.rz.ue8m0x2.bf16x2', { a: 0xffc17fc0n }).d).toBe('0xFFFF');
    expect(cvt('cvt.rn.f16x2.e4m3x2', { a: 0xff7fn }).d).toBe('0x7FFF7FFF');
    // e2m1 has no NaN: .satfinite gives +MAX_NORM (6.0 = 0x7).
    expect(cvt('cvt.rn.satfinite.e2m1x2.f32', { a: 0xffc00000n, b: 0x3f800000n }).d).toBe('0x72');
  },
  'cvt-default-rounding': () => {
    // bf16 0x3F81 = 1 + 2^-7 is exact in f16; 0x3F80 + a half ulp of f16 is not: f16 → bf16.
    const r = cvt('cvt.bf16.f16', { a: 0x3c03n }); // 1 + 3·2^-10: between bf16 1 and 1+2^-7
    expect(r.d).toBe('0x3F80');
    expect(r.decisions).toContain('cvt-default-rounding');
    expect(cvt('cvt.bf16.f16', { a: 0x3c0cn }).d).toBe(cvt('cvt.rn.bf16.f16', { a: 0x3c0cn }).d);
    expect(cvt('cvt.rn.bf16.f16', { a: 0x3c03n }).decisions).not.toContain('cvt-default-rounding');
  },
  'cvt-tf32-layout': () => {
    const r = cvt('cvt.rna.tf32.f32', { a: f32(1 + 2 ** -11) }); // a tie: away from zero
    expect(r.d).toBe('0x3F802000');
    expect(cvtNamed(r, 'cvt-tf32-layout')).toBe(true);
    expect(cvt('cvt.rz.tf32.f32', { a: 0x3f801fffn }).d).toBe('0x3F800000');
  },
  'cvt-rs-rbits': () => {
    // 1 + 2^-11 + 2^-13 to f16: discarded bits 1010000000000; adding 0x1000 carries, 0x0fff not.
    const a = f32(1 + 2 ** -11 + 2 ** -13);
    const up = cvt('cvt.rs.f16x2.f32', { a, b: a, rbits: 0x1000n << 16n });
    expect(up.d).toBe('0x3C013C00');
    expect(cvtNamed(up, 'cvt-rs-rbits')).toBe(true);
    // Only the 13 low bits of each half are used: bits 15:13 of a half change nothing.
    expect(cvt('cvt.rs.f16x2.f32', { a, b: a, rbits: 0xe000e000n }).d).toBe('0x3C003C00');
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
      '0x7C007BFF',
    );
  },
  'cvt-rs-subnormal': () => {
    // 3·2^-26 to f16: below the smallest subnormal 2^-24; the random bits meet its top
    // discarded bits (0.75 of an ulp: 1100000000000): 0x0800 carries, 0x0300 does not.
    const a = f32(3 * 2 ** -26);
    const r = cvt('cvt.rs.f16x2.f32', { a, b: a, rbits: (0x0800n << 16n) | 0x0300n });
    expect(r.d).toBe('0x00010000');
    expect(cvtNamed(r, 'cvt-rs-subnormal')).toBe(true);
  },
  'cvt-satfinite-infinity': () => {
    const r = cvt('cvt.rn.satfinite.e4m3x2.f32', { a: 0x7f800000n, b: 0xff800000n });
    expect(r.d).toBe('0x7EFE');
    expect(cvtNamed(r, 'cvt-satfinite-infinity')).toBe(true);
    expect(cvt('cvt.rn.satfinite.f16.f32', { a: 0xff800000n }).d).toBe('0xFBFF');
    expect(cvt('cvt.rz.satfinite.ue8m0x2.f32', { a: 0xff800000n, b: 0x7f800000n }).d).toBe(
      '0xFEFE',
    );
    // Without .satfinite an infinity stays one.
    expect(cvt('cvt.rn.f16.f32', { a: 0xff800000n }).d).toBe('0xFC00');
  },
  'cvt-negative-zero': () => {
    const relu = cvt('cvt.rn.relu.f16.f32', { a: 0x80000000n });
    expect(relu.d).toBe('0x0000');
    expect(cvtNamed(relu, 'cvt-negative-zero')).toBe(true);
    expect(cvt('cvt.rn.sat.f16.f32', { a: 0x80000000n }).d).toBe('0x0000');
    // A tiny negative value rounds to -0 without them.
    expect(cvt('cvt.rn.f16.f32', { a: f32(-(2 ** -30)) }).d).toBe('0x8000');
    expect(cvt('cvt.rn.satfinite.e4m3x2.f32', { a: f32(-(2 ** -12)), b: 0n }).d).toBe('0x8000');
  },
  'cvt-ue8m0': () => {
    const r = cvt('cvt.rp.ue8m0x2.f32', { a: f32(-3), b: 0n });
    expect(r.d).toBe('0x8100'); // |-3| → 4; 0 → 2^-127
    expect(cvtNamed(r, 'cvt-ue8m0')).toBe(true);
    expect(cvt('cvt.rz.ue8m0x2.f32', { a: f32(3), b: f32(2 ** -140) }).d).toBe('0x8000');
    expect(cvt('cvt.rp.ue8m0x2.f32', { a: 0x7f7fffffn, b: 0x7f800000n }).d).toBe('0xFFFF');
    expect(cvt('cvt.rp.satfinite.ue8m0x2.f32', { a: 0x7f7fffffn, b: 0x7f800000n }).d).toBe(
      '0xFEFE',
    );
    expect(cvt('cvt.rn.bf16x2.ue8m0x2', { a: 0x00ffn }).d).toBe('0x00407FFF');
  },
  'cvt-input-padding': () => {
    // 0xC1: padding 11, value 000001 (0.125 in e2m3): the padding is ignored.
    const r = cvt('cvt.rn.f16x2.e2m3x2', { a: 0xc101n });
    expect(r.d).toBe(cvt('cvt.rn.f16x2.e2m3x2', { a: 0x0101n }).d);
    expect(cvtNamed(r, 'cvt-input-padding')).toBe(true);
  },
  'cvt-ftz-tininess': () => {
    // f64 (1 - 2^-25)·2^-126: rounds up to 2^-126 at 24 bits, so it is not tiny after rounding.
    const a = 0x380fffffff000000n; // 2^-127 × (2 - 2^-24)
    const r = cvt('cvt.rn.ftz.f32.f64', { a });
    expect(r.d).toBe('0x00800000');
    expect(cvtNamed(r, 'cvt-ftz-tininess')).toBe(true);
    expect(evaluateCvt('cvt.rn.ftz.f32.f64', { a }, { ftzTininess: 'before-rounding' }).d).toBe(
      '0x00000000',
    );
    // A subnormal bf16 widens to a subnormal f32: flushed; a subnormal f16 result is not .f32.
    expect(cvt('cvt.ftz.f32.bf16', { a: 0x8001n }).d).toBe('0x80000000');
    expect(cvt('cvt.rn.ftz.f16.f32', { a: f32(2 ** -20) }).d).toBe('0x0010');
  },
  'cvt-ptxas-only-forms': () => {
    // 500 → e2m1 MAX_NORM 6 (0x7), -1.5 → 0xB: the upper half of a into the upper 4 bits.
    const r = cvt('cvt.rn.satfinite.e2m1x2.f16x2', { a: 0x5fd0be00n });
    expect(r.d).toBe('0x7B');
    expect(r.decisions).toContain('cvt-ptxas-only-forms');
    expect(
      cvt('cvt.rn.satfinite.e2m1x2.f32', { a: f32(500), b: f32(-1.5) }).decisions,
    ).not.toContain('cvt-ptxas-only-forms');
  },
  'cvt-modifier-order': () => {
    // -500 to e4m3 with .relu: .satfinite gives -448, .relu then +0 (either order: +0).
    expect(cvt('cvt.rn.satfinite.relu.e4m3x2.f32', { a: f32(-500), b: f32(500) }).d).toBe('0x007E');
    const steps = cvt('cvt.rn.satfinite.relu.e4m3x2.f32', {
      a: f32(-500),
      b: 0n,
    }).elements[0]!.steps.map((s) => s.kind);
    expect(steps.indexOf('cvt-satfinite')).toBeLessThan(steps.indexOf('cvt-relu'));
  },
  'canonical-nan': () => {
    const r = evaluate('add.f16', { a: 0x7e01, b: 0x3c00 }); // a NaN with a payload
    expect(hex(r)).toBe('0x7fff');
    expect(named(r, 'canonical-nan')).toBe(true);
    expect(hex(evaluate('add.rn.f32.bf16', { a: 0x3f80, c: 0xffc00001 }))).toBe('0x7fffffff');
    expect(hex(evaluate('mul.bf16', { a: 0x0000, b: 0x7f80 }))).toBe('0x7fff'); // 0 × inf
  },
  'ftz-after-rounding': () => {
    // (1 - 2^-11) × 2^-14 = 2^-14 - 2^-25 has 11 significant bits: rounded with an unbounded
    // exponent it stays below 2^-14 (tiny after rounding), though gradual underflow rounds it
    // (tie to even) up to the normal 0x0400. An H100 returns 0x0000.
    const tie = evaluate('mul.ftz.f16', { a: 0x3bff, b: 0x0400 });
    expect(hex(tie)).toBe('0x0');
    expect(hex(evaluate('mul.f16', { a: 0x3bff, b: 0x0400 }))).toBe('0x400');
    expect(named(tie, 'ftz-after-rounding')).toBe(true);
    // 2^-14 - 2^-28 rounds up to 2^-14 at 11 bits: kept after rounding (an H100 returns 0x0400),
    // flushed by the before-rounding reading.
    const input = { a: 0x0400, b: 0x8400, c: 0x0400 };
    expect(hex(evaluate('fma.rn.ftz.f16', input))).toBe('0x400');
    const before = evaluate('fma.rn.ftz.f16', input, { ftzTininess: 'before-rounding' });
    expect(hex(before)).toBe('0x0');
    expect(named(before, 'ftz-after-rounding')).toBe(true);
    const sub = evaluate('mul.ftz.f16', { a: 0x3800, b: 0x0400 }); // 2^-15: subnormal after rounding
    expect(hex(sub)).toBe('0x0');
    expect(named(sub, 'ftz-after-rounding')).toBe(true);
    // The fast path follows the same rule.
    expect(compileFast('mul.ftz.f16')(0x3bff, 0x0400, 0)).toBe(0);
    expect(compileFast('fma.rn.ftz.f16')(0x0400, 0x8400, 0x0400)).toBe(0x0400);
  },
  'sat-negative-zero': () => {
    const r = evaluate('add.sat.f16', { a: 0x8000, b: 0x8000 }); // -0 + -0 = -0 → +0
    expect(hex(r)).toBe('0x0');
    expect(named(r, 'sat-negative-zero')).toBe(true);
    expect(hex(evaluate('add.sat.f16', { a: 0x7fff, b: 0x3c00 }))).toBe('0x0'); // NaN → +0
    expect(hex(evaluate('add.sat.f16', { a: 0x3c00, b: 0x3c00 }))).toBe('0x3c00'); // 2 → 1
  },
  'relu-negative-zero': () => {
    const r = evaluate('fma.rn.relu.bf16', { a: 0x8000, b: 0x3f80, c: 0x8000 }); // -0×1 + -0 = -0 → +0
    expect(hex(r)).toBe('0x0');
    expect(named(r, 'relu-negative-zero')).toBe(true);
    expect(hex(evaluate('fma.rn.relu.bf16', { a: 0x7fc1, b: 0x3f80, c: 0 }))).toBe('0x7fff');
  },
  'oob-nan-pattern': () => {
    const marked = evaluate('fma.rn.oob.f16x2', {
      a: 0x3c003c00,
      b: 0x3c003c00,
      c: 0,
      oob: { b: [false, true] },
    });
    expect(hex(marked)).toBe('0x3c00'); // lane 1 forced to +0, lane 0 = 1·1 + 0
    expect(named(marked, 'oob-nan-pattern')).toBe(true);
    // The pattern in the register is what counts (measured on an H100): 0x7FF7 or 0xFFF7 in a
    // or b zeroes the lane whatever c holds; in c it is an ordinary NaN; another NaN is a NaN.
    expect(hex(evaluate('fma.rn.oob.bf16', { a: 0xfff7, b: 0x3f80, c: 0x7fc0 }))).toBe('0x0');
    expect(hex(evaluate('fma.rn.oob.relu.f16', { a: 0x3c00, b: 0x7ff7, c: 0xbc00 }))).toBe('0x0');
    expect(hex(evaluate('fma.rn.oob.f16', { a: 0x3c00, b: 0x3c00, c: 0x7ff7 }))).toBe('0x7fff');
    expect(hex(evaluate('fma.rn.oob.f16', { a: 0x7ff6, b: 0x3c00, c: 0 }))).toBe('0x7fff');
    expect(compileFast('fma.rn.oob.f16x2')(0x3c007ff7, 0x3c003c00, 0x7fff3c00)).toBe(0x7fff0000);
    // Without .oob the pattern is simply a NaN; another GPU's pattern is an option.
    expect(hex(evaluate('fma.rn.f16', { a: 0x3c00, b: 0x7ff7, c: 0 }))).toBe('0x7fff');
    const other = { oobNanBits: 0x7e00 };
    expect(hex(evaluate('fma.rn.oob.f16', { a: 0x7e00, b: 0x3c00, c: 0 }, other))).toBe('0x0');
    expect(hex(evaluate('fma.rn.oob.f16', { a: 0x7ff7, b: 0x3c00, c: 0 }, other))).toBe('0x7fff');
  },
  'max-x2-xorsign-typo': () => {
    // Lane 1: a is NaN, b = -2 → d = b = -2 (not NaN), so xorsign applies: sign = 0 ^ 1 = 1 → -2.
    const r = evaluate('max.xorsign.abs.f16x2', {
      a: 0x7e00 + 0x3c00 * 65536,
      b: 0xc000 + 0xc000 * 65536,
    });
    expect(r.lanes[1]!.result).toBe(0xc000);
    expect(named(r, 'max-x2-xorsign-typo')).toBe(true);
  },
  'minmax-both-nan': () => {
    const r = evaluate('min.f16', { a: 0x7e01, b: 0xfe02 });
    expect(hex(r)).toBe('0x7fff');
    expect(named(r, 'minmax-both-nan')).toBe(true);
    expect(hex(evaluate('min.f16', { a: 0x7e01, b: 0x3c00 }))).toBe('0x3c00');
    expect(hex(evaluate('min.NaN.f16', { a: 0x7e01, b: 0x3c00 }))).toBe('0x7fff');
  },
  'neg-abs-nan': () => {
    const r = evaluate('neg.f16', { a: 0x7e01 });
    expect(hex(r)).toBe('0x7fff');
    expect(named(r, 'neg-abs-nan')).toBe(true);
    expect(hex(evaluate('abs.bf16', { a: 0xffc1 }))).toBe('0x7fff');
  },
  'approx-model': () => {
    const r = evaluate('tanh.approx.f16', { a: 0x3c00 }); // tanh(1) = 0.76159…
    expect(hex(r)).toBe('0x3a18');
    expect(named(r, 'approx-model')).toBe(true);
  },
  'approx-ftz-result': () => {
    const r = evaluate('ex2.approx.ftz.bf16', { a: 0xc302 }); // 2^-130: subnormal in bf16 → +0
    expect(hex(r)).toBe('0x0');
    expect(named(r, 'approx-ftz-result')).toBe(true);
    expect(hex(evaluate('ex2.approx.f16', { a: 0xcc00 }))).toBe('0x100'); // f16 keeps 2^-16
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
    const exactThenRound = { a: 0x3f81, b: 0x3f81, c: 0xbf80 };
    const rp = evaluate('fma.rp.bf16', exactThenRound);
    expect(hex(rp)).toBe('0x3c81');
    expect(rp.decisions).toContain('ptxas-only-forms');
    expect(compileFast('fma.rp.bf16')(0x3f81, 0x3f81, 0xbf80)).toBe(0x3c81);
    expect(hex(evaluate('fma.rz.bf16', exactThenRound))).toBe('0x3c80');
    // -(1 + 2^-6 + 2^-14): .rm rounds away from zero, .rz and .rp toward it.
    const negative = { a: 0xbf81, b: 0x3f81, c: 0 };
    expect(hex(evaluate('fma.rm.bf16', negative))).toBe('0xbf83');
    expect(hex(evaluate('fma.rz.relu.bf16x2', { a: 0xbf813f81, b: 0x3f813f81, c: 0 }))).toBe(
      '0x3f82',
    );
    // .oob and .sat commute: an OOB-NaN lane is +0.0 either way; the other lane saturates.
    const oobSat = evaluate('fma.rn.oob.sat.f16x2', {
      a: 0x40004000,
      b: 0x3c003c00,
      c: 0,
      oob: { b: [false, true] },
    });
    expect(hex(oobSat)).toBe('0x3c00');
    expect(oobSat.decisions).toContain('ptxas-only-forms');
    // The spec's own forms do not carry it.
    expect(evaluate('fma.rn.bf16', exactThenRound).decisions).not.toContain('ptxas-only-forms');
  },
};

describe('documented decisions', () => {
  it('every decision in the list has a pinning test here', () => {
    expect(DECISIONS.map((d) => d.id).sort()).toEqual(Object.keys(cases).sort());
  });
  it.each(DECISIONS.map((d) => [d.id, d] as const))('%s', (id) => cases[id]());
  it('a measured decision names its GPU and a capture in the repository', () => {
    for (const d of DECISIONS.filter((x) => x.measured)) {
      expect(d.measured!.on).toMatch(/sm_\d+/);
      const dir = /^(hw\/captures\/[\w/.-]+?):/.exec(d.measured!.evidence)?.[1];
      expect(dir, d.id).toBeDefined();
      expect(existsSync(join(ROOT, dir!, 'summary.json')), `${d.id}: ${dir}`).toBe(true);
    }
  });
});

describe('operand checks', () => {
  it('rejects an OOB-NaN mark on a .f32 operand', () => {
    expect(() =>
      evaluate('add.rn.f32.f16', { a: 0x3c00, c: 0x3f800000, oob: { c: true } }),
    ).toThrow(/only 16-bit/);
    expect(evaluate('add.rn.f32.f16', { a: 0x3c00, c: 0x3f800000, oob: { a: true } }).d).toBe(
      0x7fffffff,
    );
  });
  it('a .f32 operand whose per-lane marks are all clear is not marked', () => {
    // The UI keeps "no mark" as [false, false]; that is not an OOB-NaN mark on c.
    const clear = { a: [false, false], c: [false, false] } as const;
    expect(evaluate('add.rn.f32.f16', { a: 0x3c00, c: 0x3f800000, oob: clear }).d).toBe(0x40000000);
    expect(() =>
      evaluate('add.rn.f32.f16', { a: 0x3c00, c: 0x3f800000, oob: { c: [false, true] } }),
    ).toThrow(/only 16-bit/);
  });
  it('the fast path reads registers at their width', () => {
    expect(compileFast('neg.bf16')(0xffff3c00, 0, 0)).toBe(0xbc00);
    expect(compileFast('add.f16')(0x12343c00, 0xabcd3c00, 0)).toBe(0x4000);
  });
});
