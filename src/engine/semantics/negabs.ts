/**
 * neg and abs (9.7.4.5, 9.7.4.6):  d = -a;  d = |a|;
 * (.ftz has flushed a subnormal input in the pipeline.) A NaN input yields an unspecified NaN:
 * the canonical NaN here (decision neg-abs-nan).
 *
 * negAbsRule is the rule as a pure function (the fast path calls it); negabs records it.
 */
import { bitsView, isNaNBits, isNegative, magnitudeOf, withSign, type Format } from '../format.ts';
import { canonicalNaN } from '../nvidia-rules.ts';
import type { ElementContext, Input, Outcome } from './context.ts';

export function negAbsRule(op: 'neg' | 'abs', a: bigint, f: Format): bigint {
  if (isNaNBits(a, f)) return canonicalNaN(f);
  if (op === 'abs') return magnitudeOf(a, f);
  return withSign(magnitudeOf(a, f), !isNegative(a, f), f);
}

export function negabs(ctx: ElementContext, inputs: readonly Input[]): Outcome {
  const { bits: a, format: f } = inputs[0]!;
  const op = ctx.form.operation as 'neg' | 'abs';
  const d = negAbsRule(op, a, f);
  if (isNaNBits(a, f)) {
    ctx.record(
      { kind: 'special', case: 'nan-operand', result: bitsView(d, f) },
      'NaN inputs yield an unspecified NaN.',
      'neg-abs-nan',
    );
  } else {
    ctx.record(
      { kind: op === 'neg' ? 'negate' : 'absolute', before: bitsView(a, f), after: bitsView(d, f) },
      op === 'neg'
        ? 'Negate the sign of a and store the result in d.'
        : 'Take absolute value of a and store the result in d.',
    );
  }
  return { kind: 'value', value: { bits: d } };
}
