import { describe, expect, it } from 'vitest';
import { FORMS } from '../../catalog/all-forms.ts';
import { evaluate } from '../pipeline.ts';
import { cornerTable } from './corner-cases.ts';
import { registersOfHex } from './form-registers.ts';
import { caseOutcomes, stepOutcomes } from './outcomes.ts';

const marks = (form: string, a: number, b?: number, c?: number) =>
  caseOutcomes(
    evaluate(form, {
      a: BigInt(a),
      ...(b === undefined ? {} : { b: BigInt(b) }),
      ...(c === undefined ? {} : { c: BigInt(c) }),
    }),
  );

describe('what happened in an evaluation, read off its steps', () => {
  it('names invalid operations, NaN inputs, overflow, underflow and ties', () => {
    expect(marks('add.f16', 0x7c00, 0xfc00)).toEqual(['invalid']); // +inf + -inf
    expect(marks('mul.f16', 0x0000, 0x7c00)).toEqual(['invalid']); // 0 × inf
    expect(marks('add.f16', 0x7e00, 0x3c00)).toEqual(['nan-input']);
    expect(marks('add.f16', 0x7bff, 0x7bff)).toEqual(['overflow']); // max + max
    // Half the least subnormal: tiny, inexact, and exactly between 0 and it, so even: 0.
    expect(marks('mul.f16', 0x0001, 0x3800)).toEqual(['underflow', 'tie']);
    expect(marks('add.f16', 0x3c00, 0x1000)).toEqual(['tie']); // 1 + 2^-11: half an ulp
    expect(marks('add.f16', 0x3c00, 0x3c00)).toEqual([]); // 1 + 1: nothing of note
  });

  it('names subnormal results, flushes, clamps and OOB-NaN zeros', () => {
    expect(marks('mul.f16', 0x0400, 0x3800)).toEqual(['subnormal']); // min normal / 2
    expect(marks('add.ftz.f16', 0x0001, 0x3c00)).toEqual(['flush']); // a subnormal input
    expect(marks('add.sat.f16', 0x4000, 0x3c00)).toEqual(['clamp']); // 3 → 1
    expect(marks('add.sat.f16', 0x3800, 0x0000)).toEqual([]); // 0.5 is inside [0, 1]
    expect(marks('fma.rn.relu.bf16', 0xbf80, 0x3f80, 0x0000)).toEqual(['clamp']); // -1 → 0
    // The OOB-NaN pattern in b: .oob makes the lane +0.
    expect(marks('fma.rn.oob.f16', 0x3c00, 0x7ff7, 0x3c00)).toEqual(['oob']);
  });

  it('speaks of conversions in the same words', () => {
    // .satfinite: an infinity e4m3 lacks is clamped; past the .rn threshold it overflows first.
    expect(marks('cvt.rn.satfinite.e4m3x2.f32', 0x7f800000, 0)).toEqual(['clamp']);
    expect(marks('cvt.rn.satfinite.e4m3x2.f32', 0x43e80001, 0)).toEqual(['overflow', 'clamp']);
    expect(marks('cvt.rn.f16.f32', 0x477ff000)).toEqual(['overflow', 'tie']); // 65520 → +inf
    // A NaN the destination has none of: NaN in, .satfinite gives +MAX_NORM.
    expect(marks('cvt.rn.satfinite.e2m1x2.f32', 0x7fffffff, 0)).toEqual(['nan-input', 'clamp']);
    expect(marks('cvt.rna.satfinite.tf32.f32', 0x3f801000)).toEqual(['tie']); // tie, away
    expect(marks('cvt.rn.relu.f16.f32', 0xbf800000)).toEqual(['clamp']); // -1 → +0
    expect(marks('cvt.rn.ftz.bf16.f32', 0x00000001)).toEqual(['flush']); // .f32 subnormal input
    // ue8m0 has no zero: 0 gives its least value, a rule and not an overflow or an underflow.
    expect(marks('cvt.rz.satfinite.ue8m0x2.f32', 0, 0)).toEqual([]);
  });

  it('tags each element by its own steps, and an evaluation by all of them', () => {
    // Lane 0 overflows (max + max), lane 1 is a tie (1 + 2^-11).
    const r = evaluate('add.f16x2', { a: 0x3c007bffn, b: 0x10007bffn });
    expect(stepOutcomes(r.elements[0]!.steps)).toEqual(['overflow']);
    expect(stepOutcomes(r.elements[1]!.steps)).toEqual(['tie']);
    expect(caseOutcomes(r)).toEqual(['overflow', 'tie']);
  });

  it('every corner-case row carries the tags of its own evaluation', () => {
    for (const form of FORMS.filter((_, i) => i % 11 === 0)) {
      for (const row of cornerTable(form).rows.filter((_, i) => i % 17 === 0)) {
        const traced = evaluate(form, registersOfHex(row.registers));
        expect(row.d).toBe(traced.d);
        expect(row.outcomes).toEqual(caseOutcomes(traced));
      }
    }
    // fma's table has each kind of case a person looks for.
    const kinds = new Set(cornerTable('fma.rn.f16').rows.flatMap((r) => r.outcomes));
    expect([...kinds].sort()).toEqual(
      ['invalid', 'nan-input', 'overflow', 'subnormal', 'tie', 'underflow'].sort(),
    );
  });
});
