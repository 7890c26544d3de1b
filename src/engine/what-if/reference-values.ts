/**
 * Reference values beside a result, as data, read off its trace: the exact value of the operation
 * on its inputs as the instruction reads them, what IEEE binary32 and binary64 arithmetic give
 * for it (the exact value rounded to nearest even by carryValue, the one conversion of a value
 * into a format), and how far each element's result is from it.
 *
 * The exact value of an element (decision compare-exact), from the first step that gives one:
 *
 *   cvt         the source value as the conversion reads it (after .ftz), also where ue8m0
 *               converts its magnitude (dropping the sign is part of that conversion's error)
 *   exact       add, sub, mul, fma: the operation's exact value (after .ftz on the inputs,
 *               before any rounding); an exact zero takes the sign the sum or product rule gave
 *               it in the form's rounding
 *   dot product mma, wgmma: c + Σ a_i·b_i exactly, with no cut and no rounding (NaN where an
 *               operand is NaN, a product is 0 × ∞ or infinities of both signs meet; an exact
 *               zero is −0 only where every term is a −0, as IEEE 754 §6.3 adds zeros); a
 *               block-scaled mma: c + Σ (a_i·SF_A)·(b_i·SF_B) as its block-scale step holds it
 *   approx      tanh, ex2: the function value to 17 significant digits (approximate)
 *   special     a NaN operand or an invalid operation: NaN; an infinity: that infinity
 *   min, max    the chosen operand (with .xorsign's sign), neg and abs: the negated or absolute
 *               value — these operations are exact
 *   otherwise   the result (.oob's +0)
 */
import { findForm } from '../../catalog/all-forms.ts';
import type { Form } from '../../catalog/instruction.ts';
import { dyadicOfDouble } from '../double.ts';
import { add, exactValueOfDyadic, isZero, ZERO } from '../exact.ts';
import { bitsView, exactValueOfValue, FORMATS, valueOfBits, type BitsView } from '../format.ts';
import { exactZeroIsNegative } from '../nvidia-rules.ts';
import { multiplyValues, negateValue } from '../semantics/arithmetic.ts';
import type { ElementTrace, EvalResult, Step } from '../steps.ts';
import type { Dyadic, ExactValue, Value } from '../value.ts';
import { carryValue } from './carry-values.ts';
import { difference, inUlps, ulpExponentAt } from './ulp.ts';

type StepOf<K extends Step['kind']> = Extract<Step, { readonly kind: K }>;

function findStep<K extends Step['kind']>(element: ElementTrace, kind: K): StepOf<K> | undefined {
  return element.steps.find((s): s is StepOf<K> => s.kind === kind);
}

/** The value a trace's bits view holds. */
export function valueOfView(view: BitsView): Value {
  return valueOfBits(BigInt(view.bits), FORMATS[view.format]);
}

/** The value an ExactValue writes ("-3 × 2^-26", "0", "-0", "+inf", "NaN"). */
export function valueOfExact(e: ExactValue): Value {
  if (e.kind === 'nan') return { kind: 'nan' };
  if (e.kind === 'inf') return { kind: 'inf', negative: e.negative };
  const m = /^(-?)(\d+) × 2\^(-?\d+)$/.exec(e.rational);
  if (m)
    return {
      kind: 'finite',
      x: { negative: m[1] === '-', mant: BigInt(m[2]!), exp: Number(m[3]) },
    };
  if (e.rational === '0' || e.rational === '-0')
    return { kind: 'finite', x: { negative: e.rational === '-0', mant: 0n, exp: 0 } };
  throw new Error(`not an exact value: ${e.rational}`);
}

/** The element's result as its `result` step writes it. */
export function resultOfElement(element: ElementTrace): BitsView {
  const step = findStep(element, 'result');
  if (!step) throw new Error(`element ${element.index} has no result step`);
  return step.result;
}

/** The element's inputs as the operation takes them: after .ftz (a mixed form's convert is exact). */
export function operandValues(element: ElementTrace): Value[] {
  const read = findStep(element, 'inputs');
  if (!read) return [];
  return read.operands.map((operand) => {
    const flushed = element.steps.find(
      (s): s is StepOf<'flush-input'> => s.kind === 'flush-input' && s.operand === operand.operand,
    );
    return valueOfView(flushed ? flushed.after : operand);
  });
}

export interface ElementExact {
  readonly value: Value;
  /** The same value as the trace writes values. */
  readonly text: ExactValue;
  /** A function value known to 17 significant digits (tanh, ex2), not exactly. */
  readonly approximate: boolean;
}

/** The value of a function value as the approx step writes it ("0.76159415595576489", "2^65504"). */
function approximateValue(mathValue: string): Value {
  const power = /^2\^(-?)/.exec(mathValue);
  const x = power ? (power[1] === '-' ? 0 : Infinity) : Number(mathValue);
  if (Number.isNaN(x)) return { kind: 'nan' };
  if (!Number.isFinite(x)) return { kind: 'inf', negative: x < 0 };
  return { kind: 'finite', x: dyadicOfDouble(x) };
}

/** c + Σ a_i·b_i of a dot product's inputs (a_0 … a_(k−1), b_0 … b_(k−1), c), exactly. */
function exactDotProduct(element: ElementTrace): Value {
  const inputs = operandValues(element);
  const k = (inputs.length - 1) / 2;
  const terms = [
    inputs[2 * k]!,
    ...inputs.slice(0, k).map((a, i) => multiplyValues(a, inputs[k + i]!)),
  ];
  if (terms.some((t) => t.kind === 'nan')) return { kind: 'nan' };
  const infinities = new Set(terms.flatMap((t) => (t.kind === 'inf' ? [t.negative] : [])));
  if (infinities.size === 2) return { kind: 'nan' };
  if (infinities.size === 1) return { kind: 'inf', negative: [...infinities][0]! };
  const finite = terms.map((t) => (t as Extract<Value, { kind: 'finite' }>).x);
  const sum = finite.reduce((x, y) => add(x, y), ZERO);
  const negativeZero = isZero(sum) && finite.every((x) => isZero(x) && x.negative);
  return { kind: 'finite', x: isZero(sum) ? { ...ZERO, negative: negativeZero } : sum };
}

function exactOf(form: Form, element: ElementTrace): { value: Value; approximate: boolean } {
  // A block-scaled form: c + Σ (a_i·SF_A)·(b_i·SF_B) exactly, as its step holds it.
  const block = findStep(element, 'block-scale');
  if (block) return { value: valueOfExact(block.exact), approximate: false };
  if (form.operation === 'dot-product')
    return { value: exactDotProduct(element), approximate: false };
  // A conversion's source value, also where ue8m0 converts its magnitude: dropping the sign is
  // part of that conversion's error.
  if (form.operation === 'convert')
    return { value: operandValues(element)[0]!, approximate: false };
  const exact = findStep(element, 'exact');
  if (exact) {
    const value = valueOfExact(exact.value);
    if (value.kind === 'finite' && isZero(value.x)) {
      // The number 0; its sign is the one the sum or product rule gave in the form's rounding.
      const zero = findStep(element, 'special');
      const negative = zero?.result?.value.negative ?? false;
      return { value: { kind: 'finite', x: { ...value.x, negative } }, approximate: false };
    }
    return { value, approximate: false };
  }
  const approx = findStep(element, 'approx');
  if (approx) return { value: approximateValue(approx.mathValue), approximate: true };
  const special = findStep(element, 'special');
  if (special?.case === 'nan-operand' || special?.case === 'invalid')
    return { value: { kind: 'nan' }, approximate: false };
  if (special?.result) return { value: valueOfView(special.result), approximate: false };
  const chosen = findStep(element, 'xorsign')?.after ?? findStep(element, 'minmax')?.result;
  if (chosen) return { value: valueOfView(chosen), approximate: false };
  const negated = element.steps.find(
    (s): s is Extract<Step, { kind: 'negate' | 'absolute' }> =>
      s.kind === 'negate' || s.kind === 'absolute',
  );
  if (negated) return { value: valueOfView(negated.after), approximate: false };
  return { value: valueOfView(resultOfElement(element)), approximate: false };
}

/** The exact value of an element of a result (see the top). */
export function exactOfElement(form: Form, element: ElementTrace): ElementExact {
  const { value, approximate } = exactOf(form, element);
  return { value, text: exactValueOfValue(value), approximate };
}

/**
 * The sign binary32 and binary64 arithmetic give an exact zero: they round to nearest, where a
 * sum's exact zero is +0 unless both terms are −0 (IEEE 754 §6.3). Under .rm the form's own
 * zero may be −0 where theirs is +0; a product's zero and the other modes' agree.
 */
function zeroAtNearest(form: Form, element: ElementTrace, zero: Dyadic): Dyadic {
  const sum = form.operation === 'add' || form.operation === 'sub' || form.operation === 'fma';
  if (form.rounding !== 'rm' || !sum || !findStep(element, 'exact')) return zero;
  const [a, b, c] = operandValues(element);
  const first = form.operation === 'fma' ? multiplyValues(a!, b!) : a!;
  const second = form.operation === 'fma' ? c! : form.operation === 'sub' ? negateValue(b!) : b!;
  if (first.kind !== 'finite' || second.kind !== 'finite') return zero;
  const negative = exactZeroIsNegative({
    of: 'sum',
    bothZeroSameSign: isZero(first.x) && isZero(second.x) && first.x.negative === second.x.negative,
    termNegative: first.x.negative,
    mode: 'rn',
  });
  return { ...zero, negative };
}

/** An error measured against an exact value: the difference, and that in ulps. */
export interface MeasuredError {
  readonly value: ExactValue;
  readonly ulps: number;
}

/**
 * result − exact, and that in ulps of the result's format at the result (decision compare-ulp);
 * null where either is not finite.
 */
export function errorAgainst(result: BitsView, exact: Value): MeasuredError | null {
  const r = valueOfView(result);
  if (r.kind !== 'finite' || exact.kind !== 'finite') return null;
  const d = difference(r.x, exact.x);
  return {
    value: exactValueOfDyadic(d),
    ulps: isZero(d) ? 0 : inUlps(d, ulpExponentAt(r.x, FORMATS[result.format])),
  };
}

export interface ElementReference {
  /** The element's index in its form. */
  readonly index: number;
  readonly exact: ExactValue;
  readonly approximate: boolean;
  /** What binary32 arithmetic gives for the exact value (round to nearest even). */
  readonly f32: BitsView;
  /** What binary64 arithmetic gives. */
  readonly f64: BitsView;
  /** The element's result against the exact value; null where either is not finite. */
  readonly error: MeasuredError | null;
}

/** The reference values of every element of an evaluation. */
export function referenceValues(result: EvalResult): ElementReference[] {
  const form = findForm(result.form);
  if (!form) throw new Error(`not a catalog form: ${result.form}`);
  return result.elements.map((element) => {
    const { value, text, approximate } = exactOfElement(form, element);
    const nearest: Value =
      value.kind === 'finite' && isZero(value.x)
        ? { kind: 'finite', x: zeroAtNearest(form, element, value.x) }
        : value;
    return {
      index: element.index,
      exact: text,
      approximate,
      f32: bitsView(carryValue(nearest, FORMATS.f32).bits, FORMATS.f32),
      f64: bitsView(carryValue(nearest, FORMATS.f64).bits, FORMATS.f64),
      error: errorAgainst(resultOfElement(element), value),
    };
  });
}
