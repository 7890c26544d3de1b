/**
 * What happened in an evaluation, read off its steps (steps.ts): the tags a corner-case row
 * carries so a person can find the interesting cases (an invalid operation, an overflow, a tie)
 * among hundreds, in one vocabulary for every instruction. Nothing is worked out again here:
 * each tag is a step kind, or a field of one, that the pipeline recorded.
 *
 *   invalid    an invalid operation made a NaN (∞ − ∞, 0 × ∞)
 *   nan-input  a NaN operand made the result (arithmetic's NaN rule, cvt's NaN input)
 *   overflow   the rounded value lies past MAX_NORM (IEEE 754 §7.4), whatever settled it after
 *              (±inf, ±MAX_NORM, .satfinite, ue8m0's NaN), and ue8m0's NaN for an infinity
 *   underflow  tiny and inexact (IEEE 754 §7.5): the rounding's tininess step says both, for
 *              every instruction alike — also where the result rounds to zero (half the least
 *              subnormal is a tie and an underflow) or up to the least normal
 *   subnormal  the rounding landed on a nonzero subnormal
 *   tie        the exact value lay half way between two neighbours (to even, or away under .rna)
 *   flush      .ftz turned a subnormal input, or a tiny result, into a zero
 *   clamp      .sat, .relu or .satfinite changed the value (a NaN .satfinite cannot keep too)
 *   oob        .oob found the OOB-NaN pattern in a or b and made the element +0
 */
import { innerSteps, type EvalResult, type Step } from '../steps.ts';

export const CASE_OUTCOMES = [
  'invalid',
  'nan-input',
  'overflow',
  'underflow',
  'subnormal',
  'tie',
  'flush',
  'clamp',
  'oob',
] as const;

export type CaseOutcome = (typeof CASE_OUTCOMES)[number];

/** The tags of one step. `roundedPastMax`: whether an earlier step of the element rounded past MAX_NORM. */
function tagsOf(step: Step, roundedPastMax: boolean): CaseOutcome[] {
  switch (step.kind) {
    case 'special':
      return step.case === 'invalid'
        ? ['invalid']
        : step.case === 'nan-operand'
          ? ['nan-input']
          : [];
    case 'round': {
      const tags: CaseOutcome[] = [];
      if (step.reason === 'tie-to-even' || step.reason === 'tie-away') tags.push('tie');
      if (step.subnormal) tags.push('subnormal');
      return tags;
    }
    case 'overflow':
      return ['overflow'];
    case 'tininess':
      return step.inexact ? ['underflow'] : [];
    case 'flush-input':
      return ['flush'];
    case 'flush-result':
      // The step also stands where a tiny value was kept (the other reading would flush it).
      return step.before.bits !== step.after.bits ? ['flush'] : [];
    case 'satfinite':
      // Past MAX_NORM to ±MAX_NORM (a rounding's overflow is one too), or a NaN the destination
      // has none of to +MAX_NORM.
      if (step.case === 'beyond-max-norm')
        return roundedPastMax ? ['overflow', 'clamp'] : ['clamp'];
      return step.case === 'nan' && step.before === null ? ['clamp'] : [];
    case 'saturate':
    case 'relu':
      return step.before.bits !== step.after.bits ? ['clamp'] : [];
    case 'oob-check':
      return step.forcesZero ? ['oob'] : [];
    default:
      return [];
  }
}

/** The tags of one element's steps, in CASE_OUTCOMES order, each once. */
export function stepOutcomes(steps: readonly Step[]): CaseOutcome[] {
  const seen = new Set<CaseOutcome>();
  // A rounding past MAX_NORM leaves no result (`result: null`, and no ue8m0 least-value step):
  // the overflow step or .satfinite settles it.
  let roundedPastMax = false;
  for (const step of steps) {
    if (step.kind === 'round') roundedPastMax = step.result === null;
    if (step.kind === 'unsigned' && step.what === 'least-value') roundedPastMax = false;
    for (const tag of tagsOf(step, roundedPastMax)) seen.add(tag);
    // A tensor core's fused steps and fma links: what happened inside them.
    for (const tag of stepOutcomes(innerSteps(step))) seen.add(tag);
  }
  return CASE_OUTCOMES.filter((o) => seen.has(o));
}

/** The tags of an evaluation, over all its elements, in CASE_OUTCOMES order, each once. */
export function caseOutcomes(result: EvalResult): CaseOutcome[] {
  const seen = new Set(result.elements.flatMap((e) => stepOutcomes(e.steps)));
  return CASE_OUTCOMES.filter((o) => seen.has(o));
}
