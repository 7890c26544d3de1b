/**
 * The trace checker on ex2.approx (see trace-check-approx.test.ts): all 65,536 inputs of each
 * one-lane form, every 64th of the x2 forms, and every kind of allowed set reached — values
 * allowed, the infinity with them, and empty for each of its reasons.
 */
import { describe, expect, it } from 'vitest';
import { everyInput, TraceTally } from './reference/trace-check.ts';

const tally = new TraceTally();

describe('the trace of every input of ex2.approx agrees with exact arithmetic', () => {
  for (const text of ['ex2.approx.f16', 'ex2.approx.ftz.bf16'])
    it(`${text}: all 65,536 inputs`, () => expect(tally.check(everyInput(text, 1))).toEqual([]));
  for (const text of ['ex2.approx.f16x2', 'ex2.approx.ftz.bf16x2'])
    it(`${text}: every 64th input, both lanes`, () =>
      expect(tally.check(everyInput(text, 64))).toEqual([]));

  it('met every kind of allowed set', () => {
    expect(
      [
        'approx ex2 values allowed',
        'approx ex2 with the infinity',
        'approx ex2 empty: subnormal-spacing',
        'approx ex2 empty: below-smallest-subnormal',
        'approx ex2 empty: ftz-removes-subnormals',
        'special corner-case',
        'flush result approx flushed',
      ].filter((s) => !tally.seen.has(s)),
    ).toEqual([]);
  });
});
