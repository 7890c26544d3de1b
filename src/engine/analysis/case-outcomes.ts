/**
 * What happened in an evaluation, read off its trace: the marks a corner-case row carries so a
 * person can find the interesting cases (an invalid operation, an overflow, a tie) among
 * hundreds. Nothing is worked out again here: each mark is a step kind, or a field of one, that
 * the evaluation itself recorded.
 */
import type { LaneTrace, Step } from '../trace.ts';

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

/** The mark one step gives, or null. */
function outcomeOf(step: Step): CaseOutcome | null {
  switch (step.kind) {
    case 'special':
      // An invalid operation (∞ − ∞, 0 × ∞) makes a NaN; so does a NaN operand.
      return step.case === 'invalid' ? 'invalid' : step.case === 'nan-operand' ? 'nan-input' : null;
    case 'overflow':
      return 'overflow';
    case 'tininess':
      // IEEE 754 §7.5: underflow is a tiny result that is also inexact.
      return step.inexact ? 'underflow' : null;
    case 'round':
      return step.reason === 'tie-to-even' ? 'tie' : null;
    case 'flush-input':
      return 'flush';
    case 'flush-result':
      // The step also stands where a tiny value was kept (the other reading would flush it).
      return step.before !== step.after ? 'flush' : null;
    case 'saturate':
    case 'relu':
      return step.before !== step.after ? 'clamp' : null;
    case 'oob-check':
      return step.forcesZero ? 'oob' : null;
    default:
      return null;
  }
}

/** The marks of an evaluation, over all its lanes, in CASE_OUTCOMES order, each once. */
export function caseOutcomes(lanes: readonly LaneTrace[]): CaseOutcome[] {
  const seen = new Set<CaseOutcome>();
  for (const lane of lanes)
    for (const step of lane.steps) {
      const o = outcomeOf(step);
      if (o) seen.add(o);
      // A rounding that lands in the subnormal range (a tie there is both).
      if (step.kind === 'round' && step.subnormal) seen.add('subnormal');
    }
  return CASE_OUTCOMES.filter((o) => seen.has(o));
}
