/**
 * What happened in one cvt conversion, read off its trace: the same marks the arithmetic's
 * corner-case rows carry (outcomes.ts), each a step kind or a field of one that the
 * conversion recorded. cvt adds no mark of its own: its MAX_NORM clamp (.satfinite) is a clamp,
 * its ties under .rna are ties, and a NaN input is a NaN input.
 */
import type { Step } from '../trace.ts';
import { CASE_OUTCOMES, type CaseOutcome } from './outcomes.ts';

function outcomesOf(step: Step): CaseOutcome[] {
  switch (step.kind) {
    case 'cvt-special':
      return step.case === 'nan' ? ['nan-input'] : [];
    case 'cvt-round': {
      const marks: CaseOutcome[] = [];
      if (step.reason === 'tie-to-even' || step.reason === 'tie-away') marks.push('tie');
      // The rounded value lies past MAX_NORM (the next step says what it becomes).
      if (step.result === null) marks.push('overflow');
      if (step.subnormal) marks.push('subnormal');
      // A subnormal result that is inexact was tiny and inexact: underflow, however tininess
      // is judged (a tiny value rounding up to the least normal is not marked).
      if (step.subnormal && step.inexact) marks.push('underflow');
      return marks;
    }
    case 'cvt-overflow':
      return ['overflow'];
    case 'cvt-flush-input':
      return ['flush'];
    case 'cvt-flush-result':
      return step.before.bits !== step.after.bits ? ['flush'] : [];
    case 'cvt-satfinite':
      // Past MAX_NORM to ±MAX_NORM, or a NaN the destination cannot hold to +MAX_NORM.
      return step.case === 'beyond-max-norm' || (step.case === 'nan' && step.before === null)
        ? ['clamp']
        : [];
    case 'cvt-sat':
    case 'cvt-relu':
      return step.before.bits !== step.after.bits ? ['clamp'] : [];
    default:
      return [];
  }
}

/** The marks of one element's conversion, in CASE_OUTCOMES order, each once. */
export function cvtCaseOutcomes(steps: readonly Step[]): CaseOutcome[] {
  const seen = new Set<CaseOutcome>(steps.flatMap(outcomesOf));
  return CASE_OUTCOMES.filter((o) => seen.has(o));
}
