/**
 * The trace checker on the approximate forms: every field of every step of tanh.approx and
 * ex2.approx (the function value to 17 digits, the model's result, the bound, the exact set of
 * values the bound allows and why a set is empty) against the independent model, for all 65,536
 * inputs of each one-lane form. The x2 forms run the same lane function on each half of the
 * register: here every 64th input, lane 1 taking a permutation of lane 0's values
 * (tests/reference/run-trace-check.ts runs all of them).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { findForm } from '../src/catalog/forms.ts';
import { checkTraceVector, describeChecked } from './reference/trace-check.ts';
import { situationsOf } from './reference/trace-coverage.ts';

const ONE_LANE = ['tanh.approx.f16', 'tanh.approx.bf16', 'ex2.approx.f16', 'ex2.approx.ftz.bf16'];
const X2_STRIDE = 64;
/** A bijection of 16-bit patterns (odd multiplier), so lane 1 also meets every value. */
const permuted = (v: number): number => (v * 40503 + 12345) % 0x10000;

let checked = 0;
const seen = new Set<string>();
afterAll(() =>
  console.log(`trace checker (approx): ${checked} evaluations, 0 disagreements required`),
);

function run(text: string, stride: number) {
  const form = findForm(text)!;
  const packed = form.operands[1]!.lanes === 2;
  const problems: string[] = [];
  for (let v = 0; v < 0x10000; v += stride) {
    const a = packed ? v + permuted(v) * 0x10000 : v;
    const vector = { form, group: 'every input', registers: { a, b: 0, c: 0 } };
    const result = checkTraceVector(vector);
    checked++;
    for (const situation of situationsOf(result.expected)) seen.add(situation);
    if (result.disagreements.length > 0 && problems.length < 4)
      problems.push(describeChecked(vector, result));
  }
  return problems;
}

describe('the trace of every input of the approximate forms agrees with exact arithmetic', () => {
  for (const text of ONE_LANE)
    it(`${text}: all 65,536 inputs`, () => expect(run(text, 1)).toEqual([]));
  for (const text of ONE_LANE.map((t) => `${t}x2`))
    it(`${text}: every ${X2_STRIDE}th input, both lanes`, () =>
      expect(run(text, X2_STRIDE)).toEqual([]));

  it('met every kind of allowed set', () => {
    expect(
      [
        'approx tanh values allowed',
        'approx ex2 values allowed',
        'approx ex2 with the infinity',
        'approx ex2 empty: subnormal-spacing',
        'approx ex2 empty: below-smallest-subnormal',
        'approx ex2 empty: ftz-removes-subnormals',
        'special corner-case',
        'flush result approx flushed',
      ].filter((s) => !seen.has(s)),
    ).toEqual([]);
  });
});
