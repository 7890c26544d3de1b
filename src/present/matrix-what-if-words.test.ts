import { describe, expect, it } from 'vitest';
import { findForm } from '../catalog/all-forms.ts';
import { matrixRegisters } from '../engine/matrix-registers.ts';
import { matrixOnTargets, type MatrixTargetOutcome } from '../engine/what-if/matrix-targets.ts';
import { modelLine, sourceLines, whySentence } from './matrix-what-if-words.ts';

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
