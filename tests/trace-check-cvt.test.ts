/**
 * The trace checker on cvt (tests/reference/trace-model-cvt.ts): every field of every step of
 * the pipeline's trace of every cvt form against the independent model, on registers drawn
 * from each destination's boundary classes in the source format, the source's specials,
 * halves for the integer roundings, random patterns, padding beside 6-bit values and .rs random
 * bits of every kind (tests/reference/cvt-trace-vectors.ts). The situations those traces show
 * must all be reached: each rounding mode's reasons, .rs with and without a carry and below the
 * normal range, overflow to infinity, MAX_NORM and ue8m0's NaN, every .satfinite case, ue8m0's
 * missing sign and zero, padding, .ftz under both tininess readings, and every decision a cvt
 * trace can name.
 *
 * A larger run: node bin/run-ts.mjs tests/reference/run-trace-check.ts [per-group] [seed]
 */
import { afterAll, describe, expect, it } from 'vitest';
import { FORMS } from '../src/catalog/all-forms.ts';
import { cvtTraceVectors } from './reference/cvt-trace-vectors.ts';
import { seeded } from './reference/cvt-vectors.ts';
import { TraceTally } from './reference/trace-check.ts';

const PER_FORM = 24;
const forms = FORMS.filter((f) => f.family === 'convert');
const tally = new TraceTally();

afterAll(() => {
  console.log(
    `trace checker (cvt): ${tally.vectors} vectors over ${forms.length} forms, ${tally.disagreeing} with a disagreement`,
  );
});

describe('the trace checker finds no field of any cvt step that disagrees with exact arithmetic', () => {
  it('covers every cvt form', () => expect(forms).toHaveLength(223));

  for (const form of forms) {
    it(form.text, () => {
      const random = seeded(form.text.length * 7919 + form.text.charCodeAt(5));
      expect(tally.check(cvtTraceVectors(form, PER_FORM, random))).toEqual([]);
    });
  }

  it('reached every situation of a conversion', () => {
    const required = [
      ...['rn', 'rz', 'rm', 'rp', 'rs'].flatMap((m) => [
        `round ${m} halfway`,
        `round ${m} sticky only`,
        `round ${m} beyond the exponent range`,
        `round ${m} exact`,
        `round ${m} to a subnormal`,
      ]),
      'round rn tie-to-even',
      'round rn overflow-threshold',
      'round rna tie-away',
      'round rna above-half',
      'round rna below-half',
      'round rz toward-zero',
      'round rm toward-minus-inf',
      'round rp toward-plus-inf',
      'round rs random-carry',
      'round rs random-no-carry',
      'round rs with more bits discarded than random bits',
      'round rni tie-to-even',
      'round rni above-half',
      'round rni below-half',
      'round rzi toward-zero',
      'round rmi toward-minus-inf',
      'round rpi toward-plus-inf',
      'overflow by a little',
      'overflow by a lot',
      'overflow rn to infinity',
      'overflow rz to max-norm',
      'overflow rp to nan',
      'overflow rs to infinity',
      'tiny (after rounding: not tiny, inexact) to the smallest normal',
      'tiny (after rounding: tiny, inexact) to the smallest normal',
      'tiny (after rounding: tiny, inexact)',
      'tiny (after rounding: tiny, exact)',
      'flush-input',
      'flush result after-rounding flushed',
      'flush result after-rounding kept',
      'flush result before-rounding flushed',
      'special nan-operand',
      'special nan-operand the format lacks',
      'special infinity',
      'special infinity the format lacks',
      'special zero',
      'unsigned drop-sign',
      'unsigned least-value',
      'satfinite nan',
      'satfinite beyond-max-norm',
      'satfinite in-range',
      'saturate',
      'relu',
      'padding zero',
      'padding nonzero',
      'elements took different steps',
      ...[
        'canonical-nan',
        'cvt-default-rounding',
        'cvt-input-padding',
        'cvt-rs-rbits',
        'cvt-rs-subnormal',
        'cvt-satfinite-infinity',
        'cvt-tf32-layout',
        'cvt-ue8m0',
        'ftz-after-rounding',
        'ptxas-only-forms',
        'relu-negative-zero',
        'sat-negative-zero',
      ].map((d) => `decision ${d}`),
    ];
    const missing = required.filter((s) => !tally.seen.has(s));
    expect(missing).toEqual([]);
    expect(tally.vectors).toBeGreaterThan(5_000);
  });
});
