/**
 * NVIDIA-specific behaviour in one place (SoftFloat's specialize.h): the canonical NaN, flushing
 * subnormals to zero, saturation, relu and OOB-NaN. Each helper returns the new bits and records
 * a trace step when it changes something (or when the rule is worth showing).
 */
import type { FloatFormat } from './formats.ts';
import { isNaNBits, isSubnormalBits, magnitudeOf, signOf, specialValues } from './formats.ts';
import type { DecisionId } from './decisions.ts';
import type { RuleRef, Step } from './trace.ts';

/** 0x7FFF for f16 and bf16, 0x7FFFFFFF for f32 (decision 'canonical-nan'). */
export function canonicalNaN(f: FloatFormat): number {
  return f.width === 16 ? 0x7fff : 0x7fffffff;
}

/** .ftz on an input: a subnormal becomes a zero of the same sign. */
export function flushInput(
  name: string,
  bits: number,
  f: FloatFormat,
  rule: RuleRef,
  steps: Step[],
): number {
  if (!isSubnormalBits(bits, f)) return bits;
  const after = signOf(bits, f) ? f.signMask : 0;
  steps.push({ kind: 'flush-input', operand: name, format: f.name, before: bits, after, rule });
  return after;
}

/** .ftz on a result: a subnormal result (judged per `tininess`) becomes a same-sign zero. */
export function flushResult(
  bits: number,
  f: FloatFormat,
  tinyBeforeRounding: boolean,
  tininess: 'after-rounding' | 'before-rounding',
  rule: RuleRef,
  steps: Step[],
  decision: DecisionId = 'ftz-after-rounding',
): number {
  const tiny =
    tininess === 'after-rounding'
      ? isSubnormalBits(bits, f)
      : tinyBeforeRounding && !isNaNBits(bits, f);
  if (!tiny || magnitudeOf(bits, f) === 0) return bits;
  const after = signOf(bits, f) ? f.signMask : 0;
  steps.push({
    kind: 'flush-result',
    format: f.name,
    before: bits,
    after,
    rule,
    decision,
    ...(decision === 'ftz-after-rounding' ? { tininess } : {}),
  });
  return after;
}

/** .sat: clamp to [+0.0, 1.0]; NaN → +0.0; -0.0 → +0.0 (decision 'sat-negative-zero'). */
export function saturate(bits: number, f: FloatFormat, rule: RuleRef, steps: Step[]): number {
  const one = specialValues(f).one;
  let after: number;
  if (isNaNBits(bits, f) || signOf(bits, f) === 1) after = 0;
  else if (bits > one) after = one;
  else after = bits;
  const negZero = bits === f.signMask;
  steps.push({
    kind: 'saturate',
    format: f.name,
    before: bits,
    after,
    rule,
    ...(negZero ? { decision: 'sat-negative-zero' as const } : {}),
  });
  return after;
}

/** .relu: negative (and -0.0) → +0.0; NaN → canonical NaN (decision 'relu-negative-zero'). */
export function relu(bits: number, f: FloatFormat, rule: RuleRef, steps: Step[]): number {
  let after: number;
  if (isNaNBits(bits, f)) after = canonicalNaN(f);
  else if (signOf(bits, f) === 1) after = 0;
  else after = bits;
  const negZero = bits === f.signMask;
  steps.push({
    kind: 'relu',
    format: f.name,
    before: bits,
    after,
    rule,
    ...(negZero ? { decision: 'relu-negative-zero' as const } : {}),
  });
  return after;
}
