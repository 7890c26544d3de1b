/**
 * The set of results the spec's error bound allows tanh.approx / ex2.approx (the trace's
 * `allowed`, which the UI and CLI present as "hardware may return any of these"), computed
 * exactly: the cases where a computation in doubles went wrong, and the reasons an empty set
 * gives. tests/trace-check-approx.test.ts checks every input against an independent model.
 */
import { describe, expect, it } from 'vitest';
import { findForm } from '../src/catalog/all-forms.ts';
import { FORMATS } from '../src/engine/format.ts';
import { allowedResults } from '../src/engine/semantics/approx-allowed.ts';
import { evaluate } from '../src/engine/pipeline.ts';
import type { ApproxStep } from '../src/engine/steps.ts';

function approxStep(form: string, a: number): ApproxStep {
  const step = evaluate(form, { a: BigInt(a) }).elements[0]!.steps.find((s) => s.kind === 'approx');
  if (step?.kind !== 'approx') throw new Error(`${form} ${a}: no approx step`);
  return step;
}

/** Allowed results by input bits, as the trace writes them (hex of the format). */
const asHex = (allowed: ReturnType<typeof allowedResults>) => ({
  ...allowed,
  lowest: `0x${allowed.lowest.toString(16).padStart(4, '0')}`,
  highest: `0x${allowed.highest.toString(16).padStart(4, '0')}`,
});

describe('allowed results of tanh.approx / ex2.approx, decided exactly', () => {
  it('tanh.approx.bf16 0x0001: -2^-8 is just outside the bound (30,465 values, not 30,466)', () => {
    // tanh(2^-133) - 2^-8 is a hair above -2^-8: 0xbb80 (-2^-8) is 2^-8 + tanh(2^-133) away.
    expect(approxStep('tanh.approx.bf16', 0x0001).allowed).toEqual({
      lowest: '0xbb7f',
      highest: '0x3b80',
      count: 30465,
      overflows: false,
    });
  });

  it('ex2.approx.ftz.bf16 0x0080: 2^(2^-126) (1 - 2^-7) is above 1 - 2^-7, so 0x3f7e is out', () => {
    expect(approxStep('ex2.approx.ftz.bf16', 0x0080).allowed).toMatchObject({
      lowest: '0x3f7f',
      highest: '0x3f81',
      count: 3,
    });
  });

  it('ex2.approx.f16 0xe433: 2^-1075 is positive and below every subnormal: no value, not ±0', () => {
    const step = approxStep('ex2.approx.f16', 0xe433);
    expect(step.mathValue).toBe('2^-1075');
    expect(step.allowed).toMatchObject({ count: 0, emptyBecause: 'below-smallest-subnormal' });
  });

  it('ex2.approx.f16 0x7bff: 2^65504 is finite; it overflows the format and rounds to +inf', () => {
    const step = approxStep('ex2.approx.f16', 0x7bff);
    expect(step.mathValue).toBe('2^65504');
    expect(step.allowed).toEqual({
      lowest: '0x7c00',
      highest: '0x7c00',
      count: 1,
      overflows: true,
    });
  });

  it('ex2.approx.ftz.bf16 0xc302: it is .ftz that leaves no value (2^-130 is a subnormal)', () => {
    expect(approxStep('ex2.approx.ftz.bf16', 0xc302).allowed).toMatchObject({
      count: 0,
      emptyBecause: 'ftz-removes-subnormals',
    });
    // 2^-22.5 = 2.83 × 2^-24, without .ftz: the subnormals there are spaced wider than the bound.
    expect(approxStep('ex2.approx.f16', 0xcda0).allowed).toMatchObject({
      count: 0,
      emptyBecause: 'subnormal-spacing',
    });
  });

  it('an exact value past the largest finite value plus half an ulp allows the infinity', () => {
    // 2^16 = 65536 rounds to +inf; 65472 and 65504 are within 2^-9.9 of it too.
    expect(approxStep('ex2.approx.f16', 0x4c00).allowed).toEqual({
      lowest: '0x7bfe',
      highest: '0x7c00',
      count: 3,
      overflows: true,
    });
    // 2^15.99… is below 65520: finite values only.
    expect(approxStep('ex2.approx.f16', 0x4bff).allowed.overflows).toBe(false);
  });

  it('allowedResults gives the same set by input bits, for judging measured results', () => {
    const form = findForm('tanh.approx.bf16')!;
    expect(asHex(allowedResults('tanh', 0x0001n, FORMATS.bf16, form.errorBound!, false))).toEqual(
      approxStep('tanh.approx.bf16', 0x0001).allowed,
    );
  });

  it('the function value is correctly rounded to 17 digits, not a double printed', () => {
    expect(approxStep('tanh.approx.f16', 0x3c00).mathValue).toBe('0.76159415595576489');
    expect(approxStep('ex2.approx.f16', 0x3800).mathValue).toBe('1.4142135623730950');
    // 2^-1000 is within 2^±1000: digits; only beyond that does ex2 write the power itself.
    expect(approxStep('ex2.approx.f16', 0xe3d0).mathValue).toBe('9.3326361850321888e-302');
  });
});
