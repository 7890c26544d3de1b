/**
 * add, sub, mul and fma — half precision (9.7.4.1–9.7.4.4) and mixed precision (9.7.5.1–9.7.5.3).
 *
 *   half:   d = a + b;   d = a - b;   d = a * b;   d = a * b + c;
 *   mixed:  d = convert(a) + c;   d = convert(a) - c;   d = convert(a) * convert(b) + c;
 *
 * .oob decides first: an OOB-NaN multiplicand makes the lane +0.0 whatever else it holds
 * (measured on sm_90). Otherwise one exact computation, one rounding (no intermediate rounding
 * for fma), then the modifiers in the order the spec's notes give them: .ftz on the result, then
 * .sat or .relu.
 */
import { isMixed, laneFormat } from '../../catalog/forms.ts';
import type { FormatName, RoundingMode } from '../../catalog/types.ts';
import { add, exactValueOfDyadic, isZero, multiply, type Dyadic } from '../exact.ts';
import { FORMATS, magnitudeOf, type FloatFormat } from '../formats.ts';
import {
  chapterRule,
  has,
  ieeeRule,
  rule,
  type LaneContext,
  type LaneInput,
  type LaneOutput,
} from '../lane.ts';
import { dyadicMagnitude, roundToFormat, type Rounded } from '../round.ts';
import { exactZeroIsNegative, type Tininess } from '../specialize.ts';
import {
  tracedFlushInput,
  tracedFlushResult,
  tracedOobCheck,
  tracedRelu,
  tracedSaturate,
} from '../traced-rules.ts';
import type { Step } from '../trace.ts';
import { negateValue, valueOf, type Value } from '../values.ts';
import { inputsStep, laneSemantics, resultStep } from './common.ts';

const FTZ_RULE = 'flushes subnormal inputs and results to sign-preserving zero';

export function arithmeticLane(ctx: LaneContext, input: LaneInput): LaneOutput {
  const { form, options } = ctx;
  const steps: Step[] = [];
  const src = FORMATS[laneFormat(form.type)];
  const mixed = isMixed(form.type);
  const dst = mixed ? FORMATS.f32 : src;
  const mode: RoundingMode = form.rounding ?? 'rn';
  const op = form.opcode;
  const names = form.operands.slice(1).map((o) => o.name as 'a' | 'b' | 'c');
  const formatOf = (name: string): FloatFormat =>
    FORMATS[form.operands.find((o) => o.name === name)!.format];
  const bits: Record<string, number> = { a: input.a, b: input.b, c: input.c };

  steps.push(inputsStep(form, input, formatOf));

  if (has(form, 'oob')) {
    const oobRule = rule(
      form,
      '.oob clamps the result to 0 if either of the operands is OOB NaN, independently for each SIMD lane',
    );
    if (tracedOobCheck(input, src, options.oobNanBits, oobRule, steps)) {
      steps.push(resultStep(form, 0, dst));
      return { result: 0, steps };
    }
  }

  if (has(form, 'ftz')) {
    for (const n of names)
      bits[n] = tracedFlushInput(n, bits[n]!, formatOf(n), rule(form, `.ftz ${FTZ_RULE}`), steps);
  }
  if (mixed) {
    for (const n of names.filter((x) => formatOf(x) !== dst)) {
      const after = convertExactly(bits[n]!, formatOf(n), dst);
      const nan = valueOf(bits[n]!, formatOf(n)).kind === 'nan';
      steps.push({
        kind: 'convert',
        operand: n,
        format: formatOf(n).name,
        to: dst.name,
        before: bits[n]!,
        after,
        exact: !nan,
        rule: rule(form, `Converts input operand ${n} from .atype into .f32 type`),
        ...(nan ? { decision: 'canonical-nan' as const } : {}),
      });
      bits[n] = after;
    }
  }

  const A = valueOf(bits.a!, dst);
  // The two terms of the sum: the product (or a alone) and the addend (b, -b, c or -c).
  let product: Value;
  let addend: Value | null;
  let expression: string;
  if (op === 'mul') {
    product = multiplyValues(A, valueOf(bits.b!, dst));
    addend = null;
    expression = 'a × b';
  } else if (op === 'fma') {
    product = multiplyValues(A, valueOf(bits.b!, dst));
    addend = valueOf(bits.c!, dst);
    expression = mixed ? 'convert(a) × convert(b) + c' : 'a × b + c';
  } else {
    const second = mixed ? 'c' : 'b';
    const B = valueOf(bits[second]!, dst);
    product = A;
    addend = op === 'sub' ? negateValue(B) : B;
    expression = `${mixed ? 'convert(a)' : 'a'} ${op === 'sub' ? '-' : '+'} ${second}`;
  }

  let tininess: Tininess = { before: false, after: false };
  let d = computeAndRound(
    form,
    dst,
    mode,
    product,
    addend,
    expression,
    [A, ...names.slice(1).map((n) => valueOf(bits[n]!, dst))],
    steps,
    (t) => {
      tininess = t;
    },
  );

  if (has(form, 'ftz'))
    d = tracedFlushResult(
      d,
      dst,
      tininess,
      options.ftzTininess,
      rule(form, `.ftz ${FTZ_RULE}`),
      steps,
    );
  if (has(form, 'sat'))
    d = tracedSaturate(
      d,
      dst,
      rule(form, '.sat clamps the result to [0.0, 1.0]. NaN results are flushed to +0.0f.'),
      steps,
    );
  if (has(form, 'relu'))
    d = tracedRelu(
      d,
      dst,
      rule(
        form,
        '.relu clamps the result to 0 if negative. NaN result is converted to canonical NaN.',
      ),
      steps,
    );
  steps.push(resultStep(form, d, dst));
  return { result: d, steps };
}

export function multiplyValues(x: Value, y: Value): Value {
  if (x.kind === 'nan' || y.kind === 'nan') return { kind: 'nan' };
  if (x.kind === 'inf' || y.kind === 'inf') {
    const xZero = x.kind === 'finite' && isZero(x.x);
    const yZero = y.kind === 'finite' && isZero(y.x);
    if (xZero || yZero) return { kind: 'nan' }; // 0 × inf: invalid
    const neg =
      (x.kind === 'inf' ? x.negative : x.x.negative) !==
      (y.kind === 'inf' ? y.negative : y.x.negative);
    return { kind: 'inf', negative: neg };
  }
  return { kind: 'finite', x: multiply(x.x, y.x) };
}

/** How the result of product + addend was decided, with what each case needs to be shown. */
export type ExactOutcome =
  | { readonly case: 'nan-operand' | 'invalid-0×∞' | 'invalid-∞−∞'; readonly bits: number }
  | { readonly case: 'infinity'; readonly bits: number }
  | {
      readonly case: 'exact-zero';
      readonly bits: number;
      readonly exact: Dyadic;
      /** The sign rule that decided: a product's (xor of signs) or a sum's. */
      readonly of: 'product' | 'sum';
    }
  | {
      readonly case: 'rounded';
      readonly bits: number;
      readonly exact: Dyadic;
      readonly rounded: Rounded<FormatName>;
    };

/**
 * The IEEE 754 rules for product + addend (addend null: a product alone) in format f and mode:
 * a NaN operand, an invalid operation (0 × ∞, ∞ − ∞), an infinity, an exact zero with its sign
 * (§6.3), or one rounding of the exact value. A pure function: the traced lane below records
 * what it decided, and composed evaluations (the unfused sequence of an fma) call it directly.
 */
export function exactResult(
  f: FloatFormat,
  mode: RoundingMode,
  product: Value,
  addend: Value | null,
  operands: readonly Value[],
): ExactOutcome {
  const nan = f.canonicalNaN;
  if (operands.some((v) => v.kind === 'nan')) return { case: 'nan-operand', bits: nan };
  if (product.kind === 'nan') return { case: 'invalid-0×∞', bits: nan };
  if (product.kind === 'inf' || addend?.kind === 'inf') {
    if (product.kind === 'inf' && addend?.kind === 'inf' && product.negative !== addend.negative)
      return { case: 'invalid-∞−∞', bits: nan };
    const negative =
      product.kind === 'inf' ? product.negative : (addend as { negative: boolean }).negative;
    return { case: 'infinity', bits: f.infBits + (negative ? f.signMask : 0) };
  }
  const p = (product as { x: Dyadic }).x;
  const c = addend ? (addend as { x: Dyadic }).x : null;
  const exact = c ? add(p, c) : p;
  if (isZero(exact)) {
    const negative = exactZeroIsNegative(
      c === null
        ? { of: 'product', negative: p.negative }
        : {
            of: 'sum',
            bothZeroSameSign: isZero(p) && isZero(c) && p.negative === c.negative,
            termNegative: p.negative,
            mode,
          },
    );
    return {
      case: 'exact-zero',
      bits: negative ? f.signMask : 0,
      exact,
      of: c === null ? 'product' : 'sum',
    };
  }
  const rounded = roundToFormat(dyadicMagnitude(exact), f, mode);
  return { case: 'rounded', bits: rounded.bits, exact, rounded };
}

/** exactResult, recorded as steps: the special value, or the exact value and its rounding. */
function computeAndRound(
  form: LaneContext['form'],
  f: FloatFormat,
  mode: RoundingMode,
  product: Value,
  addend: Value | null,
  expression: string,
  operands: readonly Value[],
  steps: Step[],
  reportTininess: (tininess: Tininess) => void,
): number {
  const outcome = exactResult(f, mode, product, addend, operands);
  switch (outcome.case) {
    case 'nan-operand':
      steps.push({
        kind: 'special',
        case: 'nan-operand',
        format: f.name,
        result: outcome.bits,
        rule:
          form.record.family === 'half'
            ? chapterRule(form, 'Half-precision instructions return an unspecified NaN.')
            : ieeeRule(
                '6.2',
                'an operation with a NaN operand delivers a NaN (the mixed-precision sections do not say which)',
              ),
        decision: 'canonical-nan',
      });
      return outcome.bits;
    case 'invalid-0×∞':
      steps.push({
        kind: 'special',
        case: 'invalid',
        detail: '0 × ∞',
        format: f.name,
        result: outcome.bits,
        rule: ieeeRule('7.2', '0 × ∞ is an invalid operation; its result is a NaN'),
        decision: 'canonical-nan',
      });
      return outcome.bits;
    case 'invalid-∞−∞':
      steps.push({
        kind: 'special',
        case: 'invalid',
        detail: '∞ − ∞',
        format: f.name,
        result: outcome.bits,
        rule: ieeeRule(
          '7.2',
          '∞ − ∞ (a sum of infinities of different signs) is invalid; its result is a NaN',
        ),
        decision: 'canonical-nan',
      });
      return outcome.bits;
    case 'infinity':
      steps.push({
        kind: 'special',
        case: 'infinity',
        format: f.name,
        result: outcome.bits,
        rule: ieeeRule(
          '6.1',
          'arithmetic on infinities is exact: an infinite operand gives an infinity of the sign the operation gives',
        ),
      });
      return outcome.bits;
    case 'exact-zero':
    case 'rounded':
      break;
  }
  const exact = outcome.exact;
  steps.push({
    kind: 'exact',
    expression,
    // A zero is the number 0 here; the sign rule of the next step gives the result's sign.
    value: exactValueOfDyadic(isZero(exact) ? { ...exact, negative: false } : exact),
    rule: rule(form, laneSemantics(form)),
  });
  if (outcome.case === 'exact-zero') {
    steps.push({
      kind: 'special',
      case: 'exact-zero',
      format: f.name,
      result: outcome.bits,
      rule: ieeeRule(
        '6.3',
        outcome.of === 'product'
          ? 'the sign of a product is the exclusive or of the signs of its factors, also when it is zero'
          : 'an exact zero sum is +0 (−0 when rounding toward −∞) unless both terms are zeros of the same sign, which keep it',
      ),
    });
    return outcome.bits;
  }
  const rounded = outcome.rounded;
  reportTininess(rounded.tininess);
  steps.push({ ...rounded.step, rule: rule(form, roundingRuleText(mode)) });
  if (rounded.overflow) {
    steps.push({
      kind: 'overflow',
      format: f.name,
      mode,
      to: magnitudeOf(rounded.bits, f) === f.infBits ? 'infinity' : 'max-finite',
      result: rounded.bits,
      rule: ieeeRule(
        '7.4',
        'overflow: rounded as though the exponent range were unbounded, the result would exceed the largest finite value; round to nearest and rounding away from zero give ∞, the others the largest finite value',
      ),
    });
  } else if (rounded.tininess.before) {
    steps.push({
      kind: 'tininess',
      format: f.name,
      result: rounded.bits,
      tinyBeforeRounding: rounded.tininess.before,
      tinyAfterRounding: rounded.tininess.after,
      inexact: rounded.inexact,
      rule: ieeeRule(
        '7.5',
        'a nonzero result below 2^emin in magnitude is tiny, judged before or after rounding; tiny and inexact is underflow. By default PTX keeps subnormal results (gradual underflow).',
      ),
    });
  }
  return rounded.bits;
}

function roundingRuleText(mode: RoundingMode): string {
  switch (mode) {
    case 'rn':
      return '.rn: mantissa LSB rounds to nearest even';
    case 'rz':
      return '.rz: mantissa LSB rounds towards zero';
    case 'rm':
      return '.rm: mantissa LSB rounds towards negative infinity';
    case 'rp':
      return '.rp: mantissa LSB rounds towards positive infinity';
  }
}

/** Exact widening conversion (f16/bf16 → f32): every value is representable. */
export function convertExactly(bits: number, from: FloatFormat, to: FloatFormat): number {
  const v = valueOf(bits, from);
  if (v.kind === 'nan') return to.canonicalNaN;
  if (v.kind === 'inf') return to.infBits + (v.negative ? to.signMask : 0);
  if (isZero(v.x)) return v.x.negative ? to.signMask : 0;
  return roundToFormat(dyadicMagnitude(v.x), to, 'rn').bits;
}
