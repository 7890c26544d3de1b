import { describe, expect, it } from 'vitest';
import { evaluate } from '../evaluate.ts';
import { caseOutcomes } from './case-outcomes.ts';

const marks = (form: string, a: number, b?: number, c?: number) =>
  caseOutcomes(evaluate(form, { a, b, c }).lanes);

describe('what happened in an evaluation, read off its trace', () => {
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
});
