/**
 * One fused operation of a chain: product + addend exactly, by IEEE 754's rules (sumOutcome:
 * a NaN operand, 0 × ∞, ∞ − ∞, an infinity, the sign of an exact zero), then rounded once in
 * format f (rounding.ts roundToFormat) and past the largest finite value what the mode gives
 * (nvidia-rules.ts overflowResult). The f64 tensor core's fma links, the sequences of f32
 * additions an sm_90 GPU was measured to compute, and the what-if's CUDA-core chains
 * (what-if/matrix-chains.ts) are each a series of these.
 *
 *   outcome = sumOutcome(product, addend)          // specials, exact zero, or the exact value x
 *   exact:  r = round(x) in f, mode; overflow → overflowResult(f, sign, r.awayFromZero)
 */
import type { IeeeRounding } from '../../catalog/modifiers.ts';
import { exactValueOfDyadic, ZERO } from '../exact.ts';
import { bitsView, encodeFinite, type Format } from '../format.ts';
import { overflowResult } from '../nvidia-rules.ts';
import { dyadicMagnitude, roundToFormat, type ExactMagnitude } from '../rounding.ts';
import type { Step } from '../steps.ts';
import type { Dyadic, ExactValue, RuleRef, Value } from '../value.ts';
import { sumOutcome, sumOutcomeRule } from './arithmetic.ts';
import { overflowRule } from './context.ts';

/** What a rounding step describes an exact value as when no step is kept: nothing. */
const UNSHOWN: ExactValue = {
  kind: 'finite',
  negative: false,
  decimal: '',
  binary: '',
  rational: '',
};

/**
 * x for the one rounding; untraced, its texts (every decimal digit: long for a tiny value) are
 * not written, as the step that would show them is dropped.
 */
export function magnitudeOf(x: Dyadic, traced: boolean): ExactMagnitude {
  const m = dyadicMagnitude(x);
  return traced ? m : { ...m, describe: () => UNSHOWN };
}

/** The words a chain cites for its exact value and for its rounding. */
export interface SumRules {
  readonly exact: RuleRef;
  readonly round: RuleRef;
}

/**
 * product + addend in f, rounded once in `mode`: the bits, and (traced) the steps — the special
 * case, or the exact value (`expression`) and its rounding (and overflow), or the exact value 0
 * and the sign of the zero. `operands` are the inputs behind the two terms, for the NaN rule.
 */
export function roundedSum(
  f: Format,
  mode: IeeeRounding,
  product: Value,
  addend: Value,
  operands: readonly Value[],
  expression: string,
  rules: SumRules,
  traced: boolean,
): { bits: bigint; steps: Step[] } {
  const steps: Step[] = [];
  const outcome = sumOutcome(f, mode, product, addend, operands);
  switch (outcome.case) {
    case 'nan-operand':
    case 'invalid-0×∞':
    case 'invalid-∞−∞':
    case 'infinity': {
      if (!traced) return { bits: outcome.bits, steps };
      const invalid = outcome.case === 'invalid-0×∞' || outcome.case === 'invalid-∞−∞';
      steps.push({
        kind: 'special',
        case: invalid ? 'invalid' : outcome.case,
        ...(invalid ? { detail: outcome.case === 'invalid-0×∞' ? '0 × ∞' : '∞ − ∞' } : {}),
        result: bitsView(outcome.bits, f),
        rule: sumOutcomeRule(outcome),
        ...(outcome.case === 'infinity' ? {} : { decision: 'canonical-nan' as const }),
      });
      return { bits: outcome.bits, steps };
    }
    case 'exact-zero':
      if (!traced) return { bits: outcome.bits, steps };
      steps.push(
        {
          kind: 'exact',
          expression,
          value: exactValueOfDyadic(ZERO),
          representable: true,
          rule: rules.exact,
        },
        {
          kind: 'special',
          case: 'exact-zero',
          result: bitsView(outcome.bits, f),
          rule: sumOutcomeRule(outcome),
        },
      );
      return { bits: outcome.bits, steps };
    case 'exact': {
      const x = outcome.x;
      const r = roundToFormat(magnitudeOf(x, traced), f, mode);
      const o = r.overflow ? overflowResult(f, x.negative, r.awayFromZero) : null;
      const bits = o ? o.bits : r.bits!;
      if (!traced) return { bits, steps };
      steps.push(
        {
          kind: 'exact',
          expression,
          value: exactValueOfDyadic(x),
          representable: encodeFinite(x, f) !== null,
          rule: rules.exact,
        },
        { ...r.step, rule: rules.round },
      );
      if (o)
        steps.push({
          kind: 'overflow',
          mode,
          to: o.to,
          result: bitsView(bits, f),
          rule: overflowRule,
        });
      return { bits, steps };
    }
  }
}
