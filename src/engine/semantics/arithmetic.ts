/**
 * add, sub, mul and fma — half precision (9.7.4.1–9.7.4.4) and mixed precision (9.7.5.1–9.7.5.3).
 *
 *   half:   d = a + b;   d = a - b;   d = a * b;   d = a * b + c;
 *   mixed:  d = convert(a) + c;   d = convert(a) - c;   d = convert(a) * convert(b) + c;
 *
 * The operation is one exact computation: the inputs' values (a mixed form's .f16/.bf16 inputs
 * converted exactly to .f32 first), then IEEE 754's rules for product + addend —
 *
 *   a NaN input                  → NaN                 (§6.2; the canonical NaN)
 *   0 × ∞, or ∞ − ∞              → NaN, invalid        (§7.2)
 *   an infinite term             → that infinity       (§6.1)
 *   an exact zero                → ±0 by the sign rule (§6.3)
 *   otherwise                    → the exact value, which the pipeline rounds once (no
 *                                  intermediate rounding for fma)
 *
 * .oob, .ftz, the rounding, .sat and .relu are the pipeline's (pipeline.ts).
 */
import type { Rounding } from '../../catalog/modifiers.ts';
import { add, exactValueOfDyadic, isZero, multiply } from '../exact.ts';
import { bitsView, encodeValue, valueOfBits, withSign, type Format } from '../format.ts';
import { canonicalNaN, exactZeroIsNegative } from '../nvidia-rules.ts';
import type { Dyadic, RuleRef, Value } from '../value.ts';
import { chapterRule, ieeeRule, type ElementContext, type Input, type Outcome } from './context.ts';

export function multiplyValues(x: Value, y: Value): Value {
  if (x.kind === 'nan' || y.kind === 'nan') return { kind: 'nan' };
  if (x.kind === 'inf' || y.kind === 'inf') {
    const xZero = x.kind === 'finite' && isZero(x.x);
    const yZero = y.kind === 'finite' && isZero(y.x);
    if (xZero || yZero) return { kind: 'nan' }; // 0 × ∞: invalid
    return { kind: 'inf', negative: signOf(x) !== signOf(y) };
  }
  return { kind: 'finite', x: multiply(x.x, y.x) };
}

function signOf(v: Value): boolean {
  return v.kind === 'inf' ? v.negative : v.kind === 'finite' ? v.x.negative : false;
}

export function negateValue(v: Value): Value {
  if (v.kind === 'nan') return v;
  if (v.kind === 'inf') return { kind: 'inf', negative: !v.negative };
  return { kind: 'finite', x: { ...v.x, negative: !v.x.negative } };
}

/** How the value of product + addend was decided. */
export type SumOutcome =
  | { readonly case: 'nan-operand' | 'invalid-0×∞' | 'invalid-∞−∞'; readonly bits: bigint }
  | { readonly case: 'infinity'; readonly bits: bigint }
  | {
      readonly case: 'exact-zero';
      readonly bits: bigint;
      /** The sign rule that decided: a product's (xor of signs) or a sum's. */
      readonly of: 'product' | 'sum';
    }
  | { readonly case: 'exact'; readonly x: Dyadic };

/**
 * IEEE 754's rules for product + addend (addend null: a product alone) in format f: a pure
 * function, which the traced semantics below records and composed evaluations (the unfused
 * sequence of an fma) call directly. `operands` are the inputs, for the NaN-operand rule.
 */
export function sumOutcome(
  f: Format,
  mode: Rounding,
  product: Value,
  addend: Value | null,
  operands: readonly Value[],
): SumOutcome {
  if (operands.some((v) => v.kind === 'nan')) return { case: 'nan-operand', bits: canonicalNaN(f) };
  if (product.kind === 'nan') return { case: 'invalid-0×∞', bits: canonicalNaN(f) };
  if (product.kind === 'inf' || addend?.kind === 'inf') {
    if (product.kind === 'inf' && addend?.kind === 'inf' && product.negative !== addend.negative)
      return { case: 'invalid-∞−∞', bits: canonicalNaN(f) };
    const negative = product.kind === 'inf' ? product.negative : signOf(addend!);
    return { case: 'infinity', bits: withSign(f.infBits!, negative, f) };
  }
  const p = (product as { x: Dyadic }).x;
  const c = addend ? (addend as { x: Dyadic }).x : null;
  const exact = c ? add(p, c) : p;
  if (!isZero(exact)) return { case: 'exact', x: exact };
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
    bits: withSign(0n, negative, f),
    of: c === null ? 'product' : 'sum',
  };
}

/**
 * The IEEE 754 clause that decided a sum outcome (the half-precision NaN rule is the chapter's
 * own, which arithmetic() cites instead).
 */
export function sumOutcomeRule(outcome: Exclude<SumOutcome, { case: 'exact' }>): RuleRef {
  switch (outcome.case) {
    case 'nan-operand':
      return ieeeRule(
        '6.2',
        'an operation with a NaN operand delivers a NaN (the mixed-precision sections do not say which)',
      );
    case 'invalid-0×∞':
      return ieeeRule('7.2', '0 × ∞ is an invalid operation; its result is a NaN');
    case 'invalid-∞−∞':
      return ieeeRule(
        '7.2',
        '∞ − ∞ (a sum of infinities of different signs) is invalid; its result is a NaN',
      );
    case 'infinity':
      return ieeeRule(
        '6.1',
        'arithmetic on infinities is exact: an infinite operand gives an infinity of the sign the operation gives',
      );
    case 'exact-zero':
      return ieeeRule(
        '6.3',
        outcome.of === 'product'
          ? 'the sign of a product is the exclusive or of the signs of its factors, also when it is zero'
          : 'an exact zero sum is +0 (−0 when rounding toward −∞) unless both terms are zeros of the same sign, which keep it',
      );
  }
}

/**
 * The spec's semantics line for the form's shape: the scalar statement for a one-element form,
 * the x2 statement (after "// x2:") for a packed one, where the section gives both.
 */
export function semanticsLine(ctx: ElementContext): string {
  const [scalar, packed] = ctx.form.section.semantics.split('\n')[0]!.split('// x2:');
  return (ctx.form.elements.length > 1 && packed !== undefined ? packed : scalar!).trim();
}

export function arithmetic(ctx: ElementContext, inputs: readonly Input[]): Outcome {
  const { form, dest } = ctx;
  const mixed = form.family === 'mixed';
  // Mixed precision: the .f16/.bf16 inputs are converted to .f32 (exactly: .f32 holds them all).
  const values = inputs.map((input) => {
    const v = valueOfBits(input.bits, input.format);
    if (input.format === dest) return v;
    const after = encodeValue(v, dest);
    ctx.record(
      {
        kind: 'convert',
        operand: input.name,
        before: bitsView(input.bits, input.format),
        after: bitsView(after, dest),
        exact: v.kind !== 'nan',
      },
      `Converts input operand ${input.name} from .atype into .f32 type`,
      v.kind === 'nan' ? 'canonical-nan' : undefined,
    );
    return valueOfBits(after, dest);
  });

  // The two terms of the sum: the product (or a alone) and the addend (b, −b, c or −c).
  const [a, b, c] = values as [Value, Value | undefined, Value | undefined];
  const second = inputs[1]?.name ?? 'b';
  let product: Value;
  let addend: Value | null;
  let expression: string;
  switch (form.operation) {
    case 'mul':
      product = multiplyValues(a, b!);
      addend = null;
      expression = 'a × b';
      break;
    case 'fma':
      product = multiplyValues(a, b!);
      addend = c!;
      expression = mixed ? 'convert(a) × convert(b) + c' : 'a × b + c';
      break;
    default:
      product = a;
      addend = form.operation === 'sub' ? negateValue(b!) : b!;
      expression = `${mixed ? 'convert(a)' : 'a'} ${form.operation === 'sub' ? '-' : '+'} ${second}`;
  }

  const outcome = sumOutcome(dest, form.rounding ?? 'rn', product, addend, values);
  const decided = (bits: bigint): Outcome => ({ kind: 'value', value: { bits } });
  switch (outcome.case) {
    case 'nan-operand':
      ctx.recordRule(
        { kind: 'special', case: 'nan-operand', result: bitsView(outcome.bits, dest) },
        form.family === 'half'
          ? chapterRule(form, 'Half-precision instructions return an unspecified NaN.')
          : sumOutcomeRule(outcome),
        'canonical-nan',
      );
      return decided(outcome.bits);
    case 'invalid-0×∞':
    case 'invalid-∞−∞':
      ctx.recordRule(
        {
          kind: 'special',
          case: 'invalid',
          detail: outcome.case === 'invalid-0×∞' ? '0 × ∞' : '∞ − ∞',
          result: bitsView(outcome.bits, dest),
        },
        sumOutcomeRule(outcome),
        'canonical-nan',
      );
      return decided(outcome.bits);
    case 'infinity':
      ctx.recordRule(
        { kind: 'special', case: 'infinity', result: bitsView(outcome.bits, dest) },
        sumOutcomeRule(outcome),
      );
      return decided(outcome.bits);
    case 'exact-zero':
      // A zero is the number 0 here; the sign rule of the next step gives the result's sign.
      ctx.record(
        {
          kind: 'exact',
          expression,
          value: exactValueOfDyadic({ negative: false, mant: 0n, exp: 0 }),
          representable: true,
        },
        semanticsLine(ctx),
      );
      ctx.recordRule(
        { kind: 'special', case: 'exact-zero', result: bitsView(outcome.bits, dest) },
        sumOutcomeRule(outcome),
      );
      return decided(outcome.bits);
    case 'exact':
      return { kind: 'exact', x: outcome.x, expression, rule: semanticsLine(ctx) };
  }
}
