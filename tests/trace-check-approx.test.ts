/**
 * The trace checker on tanh.approx: every field of every step (the function value to 17 digits,
 * the model's result, the bound, the exact set of values the bound allows) against the
 * independent model, for all 65,536 inputs of each one-lane form; the x2 forms, which run the
 * same lane function on each half of the register, on every 64th input with lane 1 taking a
 * permutation of lane 0's values. ex2.approx: trace-check-approx-ex2.test.ts (two files, so the
 * suite runs them side by side); tests/reference/run-trace-check.ts runs every x2 input too.
 */
import { describe, expect, it } from 'vitest';
import { everyInput, TraceTally } from './reference/trace-check.ts';

const tally = new TraceTally();

describe('the trace of every input of tanh.approx agrees with exact arithmetic', () => {
  for (const text of ['tanh.approx.f16', 'tanh.approx.bf16'])
    it(`${text}: all 65,536 inputs`, () => expect(tally.check(everyInput(text, 1))).toEqual([]));
  for (const text of ['tanh.approx.f16x2', 'tanh.approx.bf16x2'])
    it(`${text}: every 64th input, both lanes`, () =>
      expect(tally.check(everyInput(text, 64))).toEqual([]));

  it('met the corner-case table and allowed sets', () => {
    expect(
      ['approx tanh values allowed', 'special corner-case'].filter((s) => !tally.seen.has(s)),
    ).toEqual([]);
  });
});
