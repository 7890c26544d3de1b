/**
 * neg and abs (9.7.4.5, 9.7.4.6):  d = -a;  d = |a|;
 * .ftz flushes a subnormal input first; a NaN input yields an unspecified NaN (canonical here).
 */
import { laneFormat } from '../../catalog/forms.ts';
import { FORMATS, isNaNBits, magnitudeOf, signOf } from '../formats.ts';
import { has, rule, type LaneContext, type LaneInput, type LaneOutput } from '../lane.ts';
import { canonicalNaN, flushInput } from '../specialize.ts';
import type { Step } from '../trace.ts';
import { inputsStep, resultStep } from './common.ts';

export function negAbsLane(ctx: LaneContext, input: LaneInput): LaneOutput {
  const { form } = ctx;
  const f = FORMATS[laneFormat(form.type)];
  const steps: Step[] = [inputsStep(form, input, () => f)];
  let a = input.a;
  if (has(form, 'ftz'))
    a = flushInput(
      'a',
      a,
      f,
      rule(form, '.ftz flushes subnormal inputs and results to sign-preserving zero'),
      steps,
    );
  let d: number;
  if (isNaNBits(a, f)) {
    d = canonicalNaN(f);
    steps.push({
      kind: 'special',
      case: 'nan-operand',
      format: f.name,
      result: d,
      rule: rule(form, 'NaN inputs yield an unspecified NaN.'),
      decision: 'neg-abs-nan',
    });
  } else if (form.opcode === 'neg') {
    d = signOf(a, f) ? a - f.signMask : a + f.signMask;
    steps.push({
      kind: 'negate',
      format: f.name,
      before: a,
      after: d,
      rule: rule(form, 'Negate the sign of a and store the result in d.'),
    });
  } else {
    d = magnitudeOf(a, f);
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
