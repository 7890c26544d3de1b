import { describe, expect, it } from 'vitest';
import { findForm } from '../../catalog/all-forms.ts';
import { matrixRegisters } from '../matrix-registers.ts';
import { matrixOnTargets } from './matrix-targets.ts';

const FORM = findForm('mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32')!;
/** 1, then eight products of 2^-24 (2^-12 = f16 0x0c00 squared), then zeros. */
const ROW = [0x3c00n, ...Array<bigint>(8).fill(0x0c00n), ...Array<bigint>(7).fill(0n)];

function registersOf(a: readonly bigint[], b: readonly bigint[], c: bigint) {
  const r = matrixRegisters(FORM, { a, b, c });
  if (!r.ok) throw new Error(r.error.message);
  return r.registers;
}

describe('matrixOnTargets: the same element on other targets', () => {
  it("Ampere's halves each truncate half an ulp; Hopper keeps all eight 2^-24 in one sum", () => {
    const answers = matrixOnTargets(FORM, registersOf(ROW, ROW, 0n), 'sm_80');
    const by = Object.fromEntries(answers.map((a) => [a.target, a]));
    expect(answers.map((a) => a.target)).toEqual(['sm_80', 'sm_89', 'sm_90', 'sm_100']);
    for (const a of answers) expect(a.ok).toBe(true);
    const ok = (t: string) => {
      const a = by[t]!;
      if (!a.ok) throw new Error(a.error);
      return a;
    };
    expect(ok('sm_80')).toMatchObject({ d: '0x3f800003', sameBits: true, ulpsFromReference: 0 });
    expect(ok('sm_90')).toMatchObject({ d: '0x3f800004', sameBits: false, ulpsFromReference: 1 });
    expect(ok('sm_90').model.name).toBe('Hopper');
    expect(ok('sm_90').alignmentBits).toBe(25);
    expect(ok('sm_80').model.fused!.halves).toBe(true);
    // Nothing is cut at 24 or 25 bits: the products are 2^-24 at E = 0.
    expect(ok('sm_90').cut).toEqual([]);
  });

  it('names the products the cut takes to zero', () => {
    // E = 1 (a_0·b_0 = 2): at 24 fractional bits a 2^-24 product is below the last kept bit.
    const a = [0x4000n, ...ROW.slice(1)];
    const answers = matrixOnTargets(FORM, registersOf(a, ROW, 0n), 'sm_90');
    const ampere = answers.find((x) => x.target === 'sm_80')!;
    if (!ampere.ok) throw new Error(ampere.error);
    expect(ampere.cutToZero).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const hopper = answers.find((x) => x.target === 'sm_90')!;
    if (!hopper.ok) throw new Error(hopper.error);
    expect(hopper.cutToZero).toEqual([]);
    expect(hopper.cut).toEqual([]);
  });

  it('a target no model covers answers with the reason, not a throw', () => {
    const answers = matrixOnTargets(FORM, registersOf(ROW, ROW, 0n), 'sm_90', ['sm_60', 'sm_90']);
    expect(answers[0]).toMatchObject({ ok: false, target: 'sm_60' });
    expect(answers[1]).toMatchObject({ ok: true, target: 'sm_90', sameBits: true });
  });

  it('NaN and infinite results have no ulp distance', () => {
    const inf = [0x7c00n, ...Array<bigint>(15).fill(0n)];
    const answers = matrixOnTargets(FORM, registersOf(inf, ROW, 0n), 'sm_80');
    for (const a of answers) {
      if (!a.ok) throw new Error(a.error);
      expect(a.d).toBe('0x7f800000');
      expect(a.ulpsFromReference).toBeNull();
      expect(a.sameBits).toBe(true);
    }
  });
});
