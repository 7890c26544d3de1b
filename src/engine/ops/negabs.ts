/**
 * neg and abs (9.7.4.5, 9.7.4.6):  d = -a;  d = |a|;
 * .ftz flushes a subnormal input first; a NaN input yields an unspecified NaN (canonical here,
 * decision 'neg-abs-nan').
 *
 * negAbsRule is the rule as a pure function (the fast path calls it); negAbsLane records it.
 */
import { laneFormat } from '../../catalog/forms.ts';
import { FORMATS, isNaNBits, magnitudeOf, signOf, type FloatFormat } from '../formats.ts';
import { has, rule, type LaneContext, type LaneInput, type LaneOutput } from '../lane.ts';
import { flushSubnormal } from '../specialize.ts';
import { tracedFlushInput } from '../traced-rules.ts';
import type { Step } from '../trace.ts';
import { inputsStep, resultStep } from './common.ts';

export function negAbsRule(op: 'neg' | 'abs', ftz: boolean, a: number, f: FloatFormat): number {
  const x = ftz ? flushSubnormal(a, f) : a;
  if (isNaNBits(x, f)) return f.canonicalNaN;
  if (op === 'abs') return magnitudeOf(x, f);
  return signOf(x, f) ? x - f.signMask : x + f.signMask;
}

export function negAbsLane(ctx: LaneContext, input: LaneInput): LaneOutput {
  const { form } = ctx;
  const f = FORMATS[laneFormat(form.type)];
  const op = form.opcode as 'neg' | 'abs';
  const ftz = has(form, 'ftz');
  const d = negAbsRule(op, ftz, input.a, f);
  const steps: Step[] = [inputsStep(form, input, () => f)];
  const a = ftz
    ? tracedFlushInput(
        'a',
        input.a,
        f,
        rule(form, '.ftz flushes subnormal inputs and results to sign-preserving zero'),
        steps,
      )
    : input.a;
  if (isNaNBits(a, f)) {
    steps.push({
      kind: 'special',
      case: 'nan-operand',
      format: f.name,
      result: d,
      rule: rule(form, 'NaN inputs yield an unspecified NaN.'),
      decision: 'neg-abs-nan',
    });
  } else if (op === 'neg') {
    steps.push({
      kind: 'negate',
      format: f.name,
      before: a,
      after: d,
      rule: rule(form, 'Negate the sign of a and store the result in d.'),
    });
  } else {
    steps.push({
      kind: 'absolute',
      format: f.name,
      before: a,
      after: d,
      rule: rule(form, 'Take absolute value of a and store the result in d.'),
    });
  }
  steps.push(resultStep(form, d, f));
  return { result: d, steps };
}
