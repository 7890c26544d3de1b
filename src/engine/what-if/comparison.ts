/**
 * What-if: an instruction (A) beside a variant (B) on the same values — one comparison for every
 * instruction. B is another catalog form of any family (an add beside a cvt too), given A's
 * values (carry-values.ts, decision compare-carry), or the unfused sequence of an fma
 * (unfused-sequence.ts). Element by element:
 *
 *   a, b         each one's result, and its error against A's exact value (decision compare-exact)
 *   difference   B − A, exactly
 *   unit         the one ulp every figure of the element is counted in: A's format at A's
 *                result (decision compare-ulp)
 *   bits         the bits that differ, where the two elements have the same width
 *
 * and for the whole: the registers' XOR where both destinations have the same type. Data only:
 * src/present writes it in words.
 */
import type { FormatName } from '../../catalog/formats.ts';
import type { Form } from '../../catalog/instruction.ts';
import { exactValueOfDyadic, isZero } from '../exact.ts';
import { FORMATS, hexOf, type BitsView } from '../format.ts';
import type { EngineOptions } from '../options.ts';
import { evaluate, resolveForm, type Registers } from '../pipeline.ts';
import type { EvalResult } from '../steps.ts';
import type { Variant } from './variant.ts';
import type { ExactValue, Value } from '../value.ts';
import { carryRegisters, type Carried } from './carry-values.ts';
import type { WhatIfDecisionId } from '../decisions.ts';
import {
  exactOfElement,
  referenceValues,
  resultOfElement,
  valueOfView,
  type ElementExact,
  type ElementReference,
} from './reference-values.ts';
import { difference, inUlps, ulpExponentAt } from './ulp.ts';
import {
  evaluateUnfused,
  type UnfusedEvaluation,
  type UnfusedRefusal,
} from './unfused-sequence.ts';

export { parseVariant, variantText, type Variant, type VariantTextError } from './variant.ts';

/** The unit of an element's figures: one ulp of A's format at A's result, 2^exponent. */
export interface Ulp {
  readonly format: FormatName;
  readonly exponent: number;
  /** A's result it is taken at (hex). */
  readonly at: string;
}

/** A difference: exactly, and in the element's unit (null where there is none: A not finite). */
export interface Measured {
  readonly value: ExactValue;
  readonly ulps: number | null;
}

/** One element's result on one side. */
export interface SideElement {
  /** The element's place in its own form (or in the unfused sequence's d). */
  readonly element: number;
  readonly result: BitsView;
  /**
   * The result minus A's exact value; null where either is NaN or infinite, or (B) where B
   * computes another operation than A.
   */
  readonly error: Measured | null;
}

/**
 * 'same-bits': the same format and bits; 'same-value': the same number or infinity in other bits
 * (another format, or the other zero); 'both-nan'; 'differ'; 'unpaired': B has no element here.
 */
export type ElementRelation = 'same-bits' | 'same-value' | 'both-nan' | 'differ' | 'unpaired';

export interface ElementComparison {
  /** B's element (or, past B's last, A's). */
  readonly index: number;
  /** A's exact value for A's element here. */
  readonly exact: ExactValue;
  readonly approximate: boolean;
  readonly a: SideElement;
  /** Null where B has fewer elements than A. */
  readonly b: SideElement | null;
  /** A's element is A's last, read again by a B element past A's count. */
  readonly repeated: boolean;
  readonly relation: ElementRelation;
  /** A's bits XOR B's (hex), where the two elements have the same width; else null. */
  readonly differingBits: string | null;
  readonly unit: Ulp | null;
  /** B − A; null where either is NaN or infinite (or B has no element). */
  readonly difference: Measured | null;
}

export type ComparedVariant =
  | {
      readonly kind: 'form';
      readonly form: Form;
      readonly result: EvalResult;
      readonly carried: Carried;
      /** B's own reference values: its operation on the values as carried. */
      readonly reference: readonly ElementReference[];
    }
  | { readonly kind: 'unfused'; readonly sequence: UnfusedEvaluation }
  | { readonly kind: 'refused'; readonly refusal: UnfusedRefusal };

export interface Comparison {
  readonly a: {
    readonly form: Form;
    readonly result: EvalResult;
    readonly reference: readonly ElementReference[];
  };
  readonly b: ComparedVariant;
  readonly elements: readonly ElementComparison[];
  /** B computes A's operation (the unfused sequence computes the fma's). */
  readonly sameOperation: boolean;
  /** A's register XOR B's (hex), where both destinations have the same type; else null. */
  readonly registerXor: string | null;
  /** The same register type and bits. */
  readonly same: boolean;
  readonly decisions: readonly WhatIfDecisionId[];
}

function finite(v: Value): v is Extract<Value, { kind: 'finite' }> {
  return v.kind === 'finite';
}

function relationOf(a: BitsView, b: BitsView): ElementRelation {
  if (a.format === b.format && BigInt(a.bits) === BigInt(b.bits)) return 'same-bits';
  const x = valueOfView(a);
  const y = valueOfView(b);
  if (x.kind === 'nan' && y.kind === 'nan') return 'both-nan';
  if (x.kind === 'inf' && y.kind === 'inf')
    return x.negative === y.negative ? 'same-value' : 'differ';
  if (finite(x) && finite(y) && isZero(difference(y.x, x.x))) return 'same-value';
  return 'differ';
}

function compareElement(
  index: number,
  exact: ElementExact,
  a: { element: number; result: BitsView },
  b: { element: number; result: BitsView } | null,
  repeated: boolean,
  sameOperation: boolean,
): ElementComparison {
  const av = valueOfView(a.result);
  const unit: Ulp | null = finite(av)
    ? {
        format: a.result.format,
        exponent: ulpExponentAt(av.x, FORMATS[a.result.format]),
        at: a.result.bits,
      }
    : null;
  const measure = (y: Value, x: Value): Measured | null => {
    if (!finite(y) || !finite(x)) return null;
    const d = difference(y.x, x.x);
    return {
      value: exactValueOfDyadic(d),
      ulps: unit === null ? null : isZero(d) ? 0 : inUlps(d, unit.exponent),
    };
  };
  const bv = b && valueOfView(b.result);
  const fa = FORMATS[a.result.format];
  const fb = b && FORMATS[b.result.format];
  return {
    index,
    exact: exact.text,
    approximate: exact.approximate,
    a: { ...a, error: measure(av, exact.value) },
    b: b && { ...b, error: sameOperation ? measure(bv!, exact.value) : null },
    repeated,
    relation: b ? relationOf(a.result, b.result) : 'unpaired',
    differingBits:
      b && fb!.width === fa.width
        ? hexOf(BigInt(a.result.bits) ^ BigInt(b.result.bits), fa.width)
        : null,
    unit,
    difference: bv ? measure(bv, av) : null,
  };
}

/** A beside B on A's registers (B's given A's values; see the top). */
export function compareWith(
  formOrText: Form | string,
  registers: Registers,
  variant: Variant,
  options?: Partial<EngineOptions>,
): Comparison {
  const form = resolveForm(formOrText);
  const resultA = evaluate(form, registers, options);
  const a = { form, result: resultA, reference: referenceValues(resultA) };
  let b: ComparedVariant;
  let bElements: readonly BitsView[];
  let bRegister: { d: string; dBits: number; dType: string };
  if (variant.kind === 'unfused') {
    const sequence = evaluateUnfused(form, registers, options, resultA);
    if ('ok' in sequence)
      return {
        a,
        b: { kind: 'refused', refusal: sequence.refusal },
        elements: [],
        sameOperation: true,
        registerXor: null,
        same: false,
        decisions: ['compare-unfused'],
      };
    b = { kind: 'unfused', sequence };
    bElements = sequence.elements;
    bRegister = sequence;
  } else {
    const carried = carryRegisters(form, variant.form, registers);
    const result = evaluate(variant.form, carried.registers, options);
    b = { kind: 'form', form: variant.form, result, carried, reference: referenceValues(result) };
    bElements = result.elements.map(resultOfElement);
    bRegister = result;
  }
  const sameOperation = variant.kind === 'unfused' || variant.form.operation === form.operation;
  const exacts = resultA.elements.map((e) => exactOfElement(form, e));
  const aCount = resultA.elements.length;
  const count = Math.max(aCount, bElements.length);
  const elements = Array.from({ length: count }, (_, i) => {
    const paired = i < bElements.length;
    const aIndex = paired ? Math.min(i, aCount - 1) : i;
    return compareElement(
      i,
      exacts[aIndex]!,
      { element: aIndex, result: resultOfElement(resultA.elements[aIndex]!) },
      paired ? { element: i, result: bElements[i]! } : null,
      i >= aCount,
      sameOperation,
    );
  });
  const sameType = resultA.dType === bRegister.dType && resultA.dBits === bRegister.dBits;
  const xor = BigInt(resultA.d) ^ BigInt(bRegister.d);
  return {
    a,
    b,
    elements,
    sameOperation,
    registerXor: sameType ? hexOf(xor, resultA.dBits) : null,
    same: sameType && xor === 0n,
    decisions: [
      'compare-exact',
      'compare-ulp',
      variant.kind === 'unfused' ? 'compare-unfused' : 'compare-carry',
    ],
  };
}
