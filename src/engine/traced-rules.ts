/**
 * The traced view of the rules in specialize.ts: each function calls the rule and records what
 * it did as a trace step. No rule is decided here; only the steps are.
 */
import type { FloatFormat } from './formats.ts';
import type { DecisionId } from './decisions.ts';
import {
  flushSubnormal,
  flushTinyResult,
  oobForcesZero,
  isOobNaN,
  isTiny,
  relu,
  saturate,
  type Tininess,
  type TininessReading,
} from './specialize.ts';
import type { RuleRef, Step } from './trace.ts';

/** .ftz on an input; a step when the input was subnormal. */
export function tracedFlushInput(
  name: string,
  bits: number,
  f: FloatFormat,
  rule: RuleRef,
  steps: Step[],
): number {
  const after = flushSubnormal(bits, f);
  if (after !== bits)
    steps.push({ kind: 'flush-input', operand: name, format: f.name, before: bits, after, rule });
  return after;
}

/**
 * .ftz on a result. A step whenever the exact value is tiny before rounding (the only values
 * either reading can call tiny, since rounding is monotonic), so the trace shows which reading
 * decided and what the other would have done, also when the rounded result is already a zero.
 */
export function tracedFlushResult(
  bits: number,
  f: FloatFormat,
  tininess: Tininess,
  reading: TininessReading,
  rule: RuleRef,
  steps: Step[],
  decision: DecisionId = 'ftz-after-rounding',
): number {
  const after = flushTinyResult(bits, f, isTiny(tininess, reading));
  if (tininess.before) {
    steps.push({
      kind: 'flush-result',
      format: f.name,
      before: bits,
      after,
      tininess: reading,
      tinyBeforeRounding: tininess.before,
      tinyAfterRounding: tininess.after,
      rule,
      decision,
    });
  }
  return after;
}

/** .ftz on a subnormal result that is not the rounding of an exact value (an approximation). */
export function tracedFlushSubnormalResult(
  bits: number,
  f: FloatFormat,
  rule: RuleRef,
  steps: Step[],
  decision: DecisionId,
): number {
  const after = flushSubnormal(bits, f);
  if (after !== bits)
    steps.push({ kind: 'flush-result', format: f.name, before: bits, after, rule, decision });
  return after;
}

/**
 * A clamp (.sat or .relu), always recorded: the clamp is worth showing even when it changes
 * nothing. A -0.0 input carries the decision that made it +0.0.
 */
function tracedClamp(
  kind: 'saturate' | 'relu',
  clamp: (bits: number, f: FloatFormat) => number,
  negativeZero: 'sat-negative-zero' | 'relu-negative-zero',
  bits: number,
  f: FloatFormat,
  rule: RuleRef,
  steps: Step[],
): number {
  const after = clamp(bits, f);
  steps.push({
    kind,
    format: f.name,
    before: bits,
    after,
    rule,
    ...(bits === f.signMask ? { decision: negativeZero } : {}),
  });
  return after;
}

/** .sat, always recorded. */
export function tracedSaturate(bits: number, f: FloatFormat, rule: RuleRef, steps: Step[]): number {
  return tracedClamp('saturate', saturate, 'sat-negative-zero', bits, f, rule, steps);
}

/** .relu, always recorded. */
export function tracedRelu(bits: number, f: FloatFormat, rule: RuleRef, steps: Step[]): number {
  return tracedClamp('relu', relu, 'relu-negative-zero', bits, f, rule, steps);
}

/**
 * .oob: records which operands of this lane hold the OOB-NaN pattern and whether that forces the
 * lane's result to +0.0 (only a and b are tested). Returns whether it does.
 */
export function tracedOobCheck(
  operands: { readonly a: number; readonly b: number; readonly c: number },
  f: FloatFormat,
  pattern: number,
  rule: RuleRef,
  steps: Step[],
): boolean {
  const holding = (['a', 'b', 'c'] as const).filter((n) => isOobNaN(operands[n], f, pattern));
  const forcesZero = oobForcesZero(operands.a, operands.b, f, pattern);
  steps.push({
    kind: 'oob-check',
    oobOperands: holding,
    forcesZero,
    pattern,
    rule,
    decision: 'oob-nan-pattern',
  });
  return forcesZero;
}
