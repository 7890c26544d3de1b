/**
 * A tensor core's element where its GPU was measured to compute a sequence of f32 additions
 * instead of the published fused step (catalog/tensor-core-models.ts `sequences`; decision
 * mma-sm90-differing-forms; hw/captures/sm_90/h200/mma, found by hw/mma/fit.ts):
 *
 *   p_i = a_i·b_i exactly (NaN for a NaN factor or ∞ × 0, ±∞ for an infinite factor)
 *   add(x, y) = x + y exactly, rounded once to f32 to nearest even; specials and an exact
 *               zero's sign by IEEE 754 (rounded-sum.ts: sumOutcome, roundToFormat)
 *
 *   products-then-c:  acc = +0; for i in 0 … k−1: acc = add(acc, p_i); d = add(acc, c)
 *   pairs-then-c:     s01 = add(p0, p1); s23 = add(p2, p3); u = add(add(c, s01), s23)
 *                     d = u rounded to f16 to nearest even (NaN: the canonical NaN; ±∞ and
 *                     ±0 kept; past the largest finite value ±∞)
 *
 * c (f16 or f32) is exact in f32. The steps: one `sequence-add` per addition, then for an f16
 * result the rounding of u (or the special that decided it).
 */
import {
  TENSOR_CORE_RULES,
  type SequenceKind,
  type TensorCoreModel,
} from '../../catalog/tensor-core-models.ts';
import { isZero } from '../exact.ts';
import {
  bitsView,
  exactValueOfValue,
  FORMATS,
  valueOfBits,
  withSign,
  type Format,
} from '../format.ts';
import { overflowResult } from '../nvidia-rules.ts';
import { roundToFormat } from '../rounding.ts';
import type { SequenceOperand, Step } from '../steps.ts';
import type { RuleRef, Value } from '../value.ts';
import { multiplyValues } from './arithmetic.ts';
import { overflowRule } from './context.ts';
import { magnitudeOf, roundedSum } from './rounded-sum.ts';

/** An element of A's row, B's column or C: its bits in its format, and its value. */
export interface SequenceElement {
  readonly bits: bigint;
  readonly format: Format;
  readonly value: Value;
}

/** One term of an addition: what the trace shows, its value, the inputs behind it. */
interface Term {
  readonly operand: SequenceOperand;
  readonly value: Value;
  readonly inputs: readonly Value[];
  /** A product ∞ × 0 of non-NaN factors: the invalid operation itself. */
  readonly invalid: boolean;
  readonly expression: string;
}

const F32 = FORMATS.f32;

function productTerm(index: number, a: SequenceElement, b: SequenceElement): Term {
  const value = multiplyValues(a.value, b.value);
  return {
    operand: { source: 'product', index, value: exactValueOfValue(value) },
    value,
    inputs: [a.value, b.value],
    invalid: value.kind === 'nan' && a.value.kind !== 'nan' && b.value.kind !== 'nan',
    expression: `a[${index}] × b[${index}]`,
  };
}

function cTerm(c: SequenceElement): Term {
  return {
    operand: { source: 'c', value: bitsView(c.bits, c.format) },
    value: c.value,
    inputs: [c.value],
    invalid: false,
    expression: 'c',
  };
}

const ZERO_TERM: Term = {
  operand: { source: 'zero', value: bitsView(0n, F32) },
  value: valueOfBits(0n, F32),
  inputs: [],
  invalid: false,
  expression: '+0',
};

function sumTerm(index: number, bits: bigint): Term {
  const value = valueOfBits(bits, F32);
  return {
    operand: { source: 'sum', index, value: bitsView(bits, F32) },
    value,
    inputs: [value],
    invalid: false,
    expression: `s${index}`,
  };
}

/**
 * The sequence's d and (traced) its steps. `rule` cites the model's words with the
 * architecture's name; every step names the decision.
 */
export function measuredSequence(
  model: TensorCoreModel,
  kind: SequenceKind,
  a: readonly SequenceElement[],
  b: readonly SequenceElement[],
  c: SequenceElement,
  result: Format,
  rule: (text: string) => RuleRef,
  traced: boolean,
): { steps: Step[]; bits: bigint } {
  const words = rule(TENSOR_CORE_RULES.sequence[kind]);
  const steps: Step[] = [];
  let additions = 0;
  const add = (x: Term, y: Term): Term & { readonly bits: bigint } => {
    const index = additions++;
    // An invalid product goes first: sumOutcome reads a NaN first term as 0 × ∞.
    const [first, second] = y.invalid && !x.invalid ? [y, x] : [x, y];
    const sum = roundedSum(
      F32,
      'rn',
      first.value,
      second.value,
      [...x.inputs, ...y.inputs],
      `${x.expression} + ${y.expression}`,
      { exact: words, round: words },
      traced,
    );
    if (traced)
      steps.push({
        kind: 'sequence-add',
        index,
        terms: [x.operand, y.operand],
        steps: sum.steps,
        result: bitsView(sum.bits, F32),
        rule: words,
        decision: 'mma-sm90-differing-forms',
      });
    return { ...sumTerm(index, sum.bits), bits: sum.bits };
  };
  const p = a.map((x, i) => productTerm(i, x, b[i]!));

  if (kind === 'products-then-c') {
    let acc = ZERO_TERM;
    for (const term of p) acc = add(acc, term);
    return { steps, bits: add(acc, cTerm(c)).bits };
  }

  const s01 = add(p[0]!, p[1]!);
  const s23 = add(p[2]!, p[3]!);
  const u = add(add(cTerm(c), s01), s23);
  const final = toResult(u.value, result, words, traced);
  return { steps: [...steps, ...final.steps], bits: final.bits };
}

/** The last f32 sum rounded to d's format, to nearest even (or the special that decides it). */
function toResult(
  u: Value,
  f: Format,
  words: RuleRef,
  traced: boolean,
): { steps: Step[]; bits: bigint } {
  if (u.kind === 'nan' || u.kind === 'inf' || isZero(u.x)) {
    const bits =
      u.kind === 'nan'
        ? f.canonicalNaN!
        : u.kind === 'inf'
          ? withSign(f.infBits!, u.negative, f)
          : withSign(0n, u.x.negative, f);
    const special: Step = {
      kind: 'special',
      case: u.kind === 'nan' ? 'nan-operand' : u.kind === 'inf' ? 'infinity' : 'exact-zero',
      result: bitsView(bits, f),
      rule: words,
      ...(u.kind === 'nan' ? { decision: 'canonical-nan' as const } : {}),
    };
    return { bits, steps: traced ? [special] : [] };
  }
  const r = roundToFormat(magnitudeOf(u.x, traced), f, 'rn');
  const o = r.overflow ? overflowResult(f, u.x.negative, r.awayFromZero) : null;
  const bits = o ? o.bits : r.bits!;
  if (!traced) return { bits, steps: [] };
  const steps: Step[] = [{ ...r.step, rule: words, decision: 'mma-sm90-differing-forms' }];
  if (o)
    steps.push({
      kind: 'overflow',
      mode: 'rn',
      to: o.to,
      result: bitsView(bits, f),
      rule: overflowRule,
    });
  return { bits, steps };
}
