/**
 * An approximate result (tanh.approx, ex2.approx) in words: the spec bounds the error, it does not
 * fix the result, so a sentence names the set of values hardware may return and says whose value
 * d is — measured on a GPU, or the model's (correctly rounded).
 */
import type { ApproxEmptyReason, ApproxStep, EvalResult } from '../engine/steps.ts';
import { valueText, viewOf } from './values.ts';

/** The approx step of each element of an evaluation (undefined where the spec fixes it). */
export function approxSteps(result: EvalResult): (ApproxStep | undefined)[] {
  return result.elements.map((element) => {
    const step = element.steps.find((s) => s.kind === 'approx');
    return step?.kind === 'approx' ? step : undefined;
  });
}

/** "hardware may return any of 2 values from 0.76123046875 to 0.76171875". */
export function allowedText(step: ApproxStep): string {
  const { count, lowest, highest } = step.allowed;
  const v = (bits: string) => valueText(viewOf(bits, step.result.format));
  if (count === 0) return 'no value meets the error bound here';
  if (count === 1) return `hardware may return only ${v(lowest)}`;
  return `hardware may return any of ${count} values from ${v(lowest)} to ${v(highest)}`;
}

/** Whose value d is: measured (with the model's beside it), or the model's. */
export function approxSourceText(step: ApproxStep): string {
  return step.model === 'measured'
    ? `measured on ${step.measuredOn ?? 'hardware'}: ${valueText(step.result)} (the model gives ${valueText(step.modelResult ?? step.result)})`
    : `this model gives the correctly rounded ${valueText(step.result)}`;
}

const EMPTY_BECAUSE: Record<ApproxEmptyReason, string> = {
  'subnormal-spacing': 'the subnormals here are spaced wider than the bound allows',
  'below-smallest-subnormal': 'every value, zero included, is further off than the bound',
  'ftz-removes-subnormals': '.ftz writes no subnormal result',
};

/** The set and whose value d is, in one clause (the summary's). */
export function approxSentence(step: ApproxStep): string {
  const empty = step.allowed.emptyBecause;
  if (step.allowed.count === 0)
    return `no value meets the bound here${empty ? ` (${EMPTY_BECAUSE[empty]})` : ''}; ${approxSourceText(step)}`;
  return `${allowedText(step)}; ${approxSourceText(step)}`;
}
