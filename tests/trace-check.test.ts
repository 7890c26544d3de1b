/**
 * The trace checker (tests/reference/trace-model.ts, trace-compare.ts): every field of every
 * step of the pipeline's trace against an independent exact model, over generated corner groups
 * on every half- and mixed-precision form but the approximate ones
 * (tests/trace-check-approx.test.ts has those; tests/trace-check-cvt.test.ts has cvt): ties in
 * every mode, overflow by a little and by a lot, tiny results rounding to the smallest normal,
 * into the subnormals and to zero, exact zeros in every mode, sticky-only sums, flushes under
 * both tininess readings, special values, OOB-NaN, random registers, and x2 lanes drawn from
 * different groups. The groups must be reached, not only generated: the situations the model's
 * traces show are counted and required.
 *
 * A larger run: node bin/run-ts.mjs tests/reference/run-trace-check.ts [per-group] [seed]
 */
import { afterAll, describe, expect, it } from 'vitest';
import { FORMS } from '../src/catalog/all-forms.ts';
import { vectorsFor } from './reference/corner-groups.ts';
import { TraceTally } from './reference/trace-check.ts';
import { seededPick } from './reference/vectors.ts';

const PER_GROUP = 8;
const SEED = 13;
const forms = FORMS.filter(
  (f) =>
    (f.family === 'half' || f.family === 'mixed') &&
    f.operation !== 'tanh' &&
    f.operation !== 'ex2',
);
const tally = new TraceTally();

afterAll(() => {
  console.log(
    `trace checker: ${tally.vectors} vectors over ${forms.length} forms, ${tally.disagreeing} with a disagreement`,
  );
});

describe('the trace checker finds no field of any step that disagrees with exact arithmetic', () => {
  const pick = seededPick(SEED);
  for (const form of forms) {
    it(form.text, () => {
      expect(tally.check(vectorsFor(form, PER_GROUP, pick))).toEqual([]);
    });
  }

  it('reached every corner group', () => {
    const required = [
      ...['rn', 'rz', 'rm', 'rp'].flatMap((m) => [
        `round ${m} halfway`,
        `round ${m} sticky only`,
        `round ${m} beyond the exponent range`,
        `round ${m} exact`,
      ]),
      'round rn tie-to-even',
      'round rn overflow-threshold',
      'overflow by a little',
      'overflow by a lot',
      'overflow rn to infinity',
      'overflow rz to max-norm',
      'overflow rm to infinity',
      'overflow rm to max-norm',
      'overflow rp to infinity',
      'overflow rp to max-norm',
      'tiny (after rounding: not tiny, inexact) to the smallest normal',
      'tiny (after rounding: tiny, inexact) to the smallest normal',
      'tiny (after rounding: tiny, inexact)',
      'tiny (after rounding: tiny, exact)',
      ...['rn', 'rz', 'rm', 'rp'].map((m) => `special exact-zero ${m} +0`),
      'special exact-zero rm -0',
      'special exact-zero rn -0',
      'flush result after-rounding flushed',
      'flush result after-rounding kept',
      'flush result before-rounding flushed',
      'flush result before-rounding kept',
      'flush-input',
      'elements took different steps',
      'oob zero',
      'oob c only',
      'oob none',
      'minmax compare less signed zeros',
      'minmax compare greater signed zeros',
      'minmax compare equal',
      'minmax a-nan',
      'minmax b-nan',
      'minmax both-nan',
      'minmax nan-modifier',
      'special invalid',
      'special infinity',
      'special nan-operand',
      'convert',
      'saturate',
      'relu',
      'xorsign',
      'abs-inputs',
      ...[
        'canonical-nan',
        'ftz-after-rounding',
        'oob-nan-pattern',
        'sat-negative-zero',
        'relu-negative-zero',
        'minmax-both-nan',
        'max-x2-xorsign-typo',
        'neg-abs-nan',
        'ptxas-only-forms',
      ].map((d) => `decision ${d}`),
    ];
    const missing = required.filter((s) => !tally.seen.has(s));
    expect(missing).toEqual([]);
    expect(tally.vectors).toBeGreaterThan(10_000);
  });
});
