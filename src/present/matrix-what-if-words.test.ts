import { describe, expect, it } from 'vitest';
import { findForm } from '../catalog/all-forms.ts';
import { matrixRegisters, placesOf } from '../engine/matrix-registers.ts';
import { matrixChains } from '../engine/what-if/matrix-chains.ts';
import { matrixOnTargets, type MatrixTargetOutcome } from '../engine/what-if/matrix-targets.ts';
import {
  blockScaledTargetsLine,
  chainSentence,
  exactLine,
  modelLine,
  sourceLines,
  whySentence,
} from './matrix-what-if-words.ts';

function outcomes(form: string, a: bigint[], b: bigint[], c: bigint, reference: string) {
  const f = findForm(form)!;
  const r = matrixRegisters(f, { a, b, c });
  if (!r.ok) throw new Error(r.error.message);
  return Object.fromEntries(
    matrixOnTargets(f, r.registers, reference).map((x) => {
      if (!x.ok) throw new Error(x.error);
      return [x.target, x as MatrixTargetOutcome];
    }),
  );
}

const F16 = 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32';
const NVF4 =
  'mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3';
const ROW = [0x3c00n, ...Array<bigint>(8).fill(0x0c00n), ...Array<bigint>(7).fill(0n)];

describe('the tensor-core what-if in words', () => {
  it('names the model and its sources', () => {
    const o = outcomes(F16, ROW, ROW, 0n, 'sm_80');
    expect(modelLine(o.sm_80!.model)).toBe(
      'Ampere model (sm_80): each term lined up with the largest exponent and cut to 24 fractional bits, k split in two halves, each one fused sum, rounded once to f32 toward zero',
    );
    expect(sourceLines(o.sm_80!.model)[0]).toContain(
      'Fasi, Higham, Mikaitis, Pranesh, “Numerical behavior of NVIDIA tensor cores”',
    );
  });

  it('says why another target gives other bits: bits kept, halves', () => {
    const o = outcomes(F16, ROW, ROW, 0n, 'sm_80');
    expect(whySentence(o.sm_80!, o.sm_90!)).toBe(
      'On sm_90 (Hopper) the element gives 0x3f800004, 1 ulp above: its terms keep 25 fractional bits (sm_80: 24); it adds all k products in one fused sum (sm_80 splits k in two halves).',
    );
    const back = outcomes(F16, ROW, ROW, 0n, 'sm_90');
    expect(whySentence(back.sm_90!, back.sm_80!)).toBe(
      'On sm_80 (Ampere) the element gives 0x3f800003, 1 ulp below: its terms keep 24 fractional bits (sm_90: 25); it splits k in two halves and rounds the first half’s sum before adding the second.',
    );
    expect(whySentence(back.sm_90!, back.sm_90!)).toContain('this is the page’s target');
  });

  it('counts the products cut to zero (FP8 on Ada keeps 13 bits)', () => {
    // e4m3: 1·1 and three products of 2^-14 (2^-7 × 2^-7, the e4m3 subnormal 0x04): at 13 bits they are lost.
    const a = [0x38n, 0x04n, 0x04n, 0x04n, ...Array<bigint>(28).fill(0n)];
    const o = outcomes('mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32', a, a, 0n, 'sm_100');
    const sentence = whySentence(o.sm_100!, o.sm_89!);
    expect(sentence).toContain('On sm_89 (Ada)');
    expect(sentence).toContain('three products are cut to zero there (a_1·b_1, a_2·b_2, a_3·b_3)');
  });
});

function chainsOf(form: string, a: bigint[], b: bigint[], c: bigint, target: string) {
  const f = findForm(form)!;
  const r = matrixRegisters(f, { a, b, c });
  if (!r.ok) throw new Error(r.error.message);
  return matrixChains(f, r.registers, target);
}

describe('the CUDA-core loops in words', () => {
  it('the f32 loop rounds eight ties to even; f64 and Hopper keep every product', () => {
    const x = chainsOf(F16, ROW, ROW, 0n, 'sm_90');
    expect(exactLine(x)).toBe('Exact c + Σ a_i·b_i = 1.0000004768371582…; d is exact');
    expect(chainSentence(x, 'f32')).toBe(
      'A loop of fma.rn.f32 from acc = c gives 1 (f32 0x3f800000), 4 ulps below the tensor core: 8 of its 16 fmas rounded to nearest even (-4 ulps from the exact value in all); the tensor core cuts each term to 25 fractional bits below the largest and rounds the sum once toward zero (exact here).',
    );
    expect(chainSentence(x, 'f64')).toContain(
      'the same value as the tensor core: none of its 16 fmas rounded, so it holds the exact value',
    );
    // On Ampere the halves truncate: d is an ulp below the exact value, the f64 loop above d.
    const ampere = chainsOf(F16, ROW, ROW, 0n, 'sm_80');
    expect(exactLine(ampere)).toBe(
      'Exact c + Σ a_i·b_i = 1.0000004768371582…; d is -1 ulp from it (ulps of d)',
    );
    expect(chainSentence(ampere, 'f64')).toContain('1 ulp above the tensor core');
  });

  it('an f64 form has no f32 loop; a NaN decides both', () => {
    const f64 = 'mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64';
    const zeros = [0n, 0n, 0n, 0n];
    expect(chainSentence(chainsOf(f64, zeros, zeros, 0n, 'sm_90'), 'f32')).toContain(
      'none here, as the elements are f64 values',
    );
    const nan = chainsOf(F16, [0x7e00n, ...ROW.slice(1)], ROW, 0n, 'sm_90');
    expect(chainSentence(nan, 'f32')).toContain('a NaN or an infinity decides both');
  });

  it('a block-scaled form’s exact value names the scales it multiplies by', () => {
    const form = findForm(NVF4)!;
    const ones = Array<bigint>(64).fill(0x2n); // e2m1 1.0
    const r = matrixRegisters(form, { a: ones, b: ones, c: 0n });
    if (!r.ok) throw new Error(r.error.message);
    // ue4m3 scales 1, 2, 0.5, 1 along A's row and 1 along B's column: 16 × 4.5 = 72.
    const scales = (operand: 'scale_a' | 'scale_b', bytes: bigint[]) =>
      placesOf(form, operand).reduce((reg, p, i) => reg | (bytes[i]! << BigInt(p.slot.lo)), 0n);
    const registers = {
      ...r.registers,
      scale_a: scales('scale_a', [0x38n, 0x40n, 0x30n, 0x38n]),
      scale_b: scales('scale_b', [0x38n, 0x38n, 0x38n, 0x38n]),
    };
    expect(exactLine(matrixChains(form, registers, 'sm_120a'))).toBe(
      'Exact c + Σ (a_i·SF_A)·(b_i·SF_B) = 72; d is exact',
    );
  });
});

describe('m8n8k4 on sm_90: the measured sequence in words', () => {
  const M884 = 'mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32';
  it('names it as measured, with the capture as its source, and says why Blackwell differs', () => {
    const o = outcomes(M884, [0x0001n, 0n, 0n, 0n], [0x3c00n, 0n, 0n, 0n], 0xc0000000n, 'sm_90');
    expect(modelLine(o.sm_90!.model)).toBe(
      'Hopper, as measured on this form (sm_90): the products added one after another in f32 from +0, each addition rounded to nearest even, then c: d = ((((+0 + p0) + p1) + p2) + p3) + c',
    );
    expect(sourceLines(o.sm_90!.model)).toEqual([
      'measured on an NVIDIA H200 (sm_90), driver 580.159.04, CUDA 13.0: the capture hw/captures/sm_90/h200/mma, reproduced element by element (decision mma-sm90-differing-forms)',
    ]);
    expect(whySentence(o.sm_90!, o.sm_100!)).toBe(
      'On sm_100 (Blackwell) the element gives 0xbfffffff, 0.5 ulps above: it adds every product in one fused sum, each term cut to 25 fractional bits, rounded once toward zero (sm_90 adds in f32, rounding after each addition).',
    );
    expect(whySentence(o.sm_100!, o.sm_90!)).toContain(
      'it adds in f32, rounding to nearest even after each addition, as measured on this form',
    );
  });
});

describe('a block-scaled form beside other targets', () => {
  it('says where its kind exists instead of comparing targets that lack it', () => {
    const form = findForm(NVF4)!;
    expect(blockScaledTargetsLine(form)).toContain(
      '.kind::mxf4nvf4 exists (from sm_120a at PTX ISA 8.7',
    );
  });
});
