/**
 * What-if for conversions: a cvt form (A) beside another cvt form (B) on the same source values
 * (cvt-carry.ts), e.g. the same two .f32 values into e4m3, e5m2 and e2m1. Element by element:
 * both results' bits (and the bits that differ, where the elements have the same width), both
 * values, each one's error against the exact source value, and B − A in ulps of each
 * destination format at its result.
 */
import { CVT_FORMS, findCvtForm, type CvtForm } from '../../catalog/cvt-forms.ts';
import { parseAnyInstruction } from '../../catalog/any-instruction.ts';
import { isCvtRounding, type ElementFormatName } from '../../catalog/cvt-types.ts';
import {
  classifyElement,
  decodeElement,
  elementWidth,
  exactValueOfElement,
  ulpExponent,
  hexOf,
} from '../element-format.ts';
import { add, exactValueOfDyadic, isZero, negate, type Dyadic } from '../exact.ts';
import { evaluateCvt, type CvtEvalResult, type CvtInput } from '../ops/cvt.ts';
import type { EngineOptions } from '../options.ts';
import type { ExactValue, FloatClass } from '../trace.ts';
import { carryCvtOperands, sourceBitsOf, type CvtCarried } from './cvt-carry.ts';

/** A cvt form as the variant of a cvt A (any spelling the parser reads), else the reason. */
export function parseCvtVariant(
  text: string,
): { readonly form: CvtForm } | { readonly error: string } {
  const t = text.trim();
  if (t === 'unfused')
    return {
      error: 'unfused: the mul-then-add sequence of an fma; a cvt compares with another cvt form',
    };
  const parsed = parseAnyInstruction(t);
  if (!parsed.ok) return { error: `${t}: ${parsed.error.message}` };
  if (parsed.form.opcode !== 'cvt')
    return {
      error: `${parsed.form.text} is an arithmetic instruction; a cvt compares with another cvt form`,
    };
  return { form: parsed.form as CvtForm };
}

/** One element's result on one side. */
export interface CvtSideElement {
  readonly format: ElementFormatName;
  /** The element's value bits (hex of the value's width). */
  readonly bits: string;
  readonly class: FloatClass;
  readonly value: ExactValue;
  /**
   * The result minus the exact source value (A's), and that in ulps of the element's format at
   * the result; null where either is NaN or infinite.
   */
  readonly error: { readonly value: ExactValue; readonly ulps: number } | null;
}

export interface CvtElementComparison {
  /** 0: the first line of the Semantics block (the upper bits, or from a). */
  readonly index: number;
  /** The exact value A's element converts (its source bits as A reads them). */
  readonly source: ExactValue;
  /** Null where that side converts fewer elements. */
  readonly a: CvtSideElement | null;
  readonly b: CvtSideElement | null;
  /** A's bits XOR B's (hex), where both elements have the same width; else null. */
  readonly differingBits: string | null;
  /** B − A in ulps of A's format at A's result, and of B's format at B's result (null: not finite). */
  readonly ulpsOfA: number | null;
  readonly ulpsOfB: number | null;
}

export type CvtVariantSide =
  | {
      readonly kind: 'form';
      readonly form: CvtForm;
      readonly result: CvtEvalResult;
      readonly carried: CvtCarried;
    }
  | { readonly kind: 'refused'; readonly reason: string };

export interface CvtComparison {
  readonly a: { readonly form: CvtForm; readonly result: CvtEvalResult };
  readonly b: CvtVariantSide;
  readonly elements: readonly CvtElementComparison[];
  /** A's register XOR B's (hex), where both destinations have the same type; else null. */
  readonly registerXor: string | null;
  readonly same: boolean;
}

function finite(bits: bigint, format: ElementFormatName): Dyadic | null {
  const v = decodeElement(bits, format);
  return v.kind === 'finite' ? v.x : null;
}

/** d in units of 2^exponent, as a number (exact where it fits a double). */
function inUnits(d: Dyadic, exponent: number): number {
  if (isZero(d)) return 0;
  return (d.negative ? -1 : 1) * Number(d.mant) * 2 ** (d.exp - exponent);
}

function side(bits: bigint, format: ElementFormatName, source: Dyadic | null): CvtSideElement {
  const x = finite(bits, format);
  const diff = x && source ? add(x, negate(source)) : null;
  return {
    format,
    bits: hexOf(bits, elementWidth(format)),
    class: classifyElement(bits, format),
    value: exactValueOfElement(bits, format),
    error:
      diff && x
        ? { value: exactValueOfDyadic(diff), ulps: inUnits(diff, ulpExponent(x, format)) }
        : null,
  };
}

function elementOf(result: CvtEvalResult, form: CvtForm, index: number) {
  const e = result.elements[index];
  if (!e) return null;
  return { bits: BigInt(e.result), format: form.elements[index]!.dest.format };
}

/** A beside B on A's registers (B's carried over by value). */
export function compareCvtWith(
  formOrText: CvtForm | string,
  input: CvtInput,
  variant: CvtForm | string,
  options?: Partial<EngineOptions>,
): CvtComparison {
  const form = typeof formOrText === 'string' ? findCvtForm(formOrText) : formOrText;
  if (!form) throw new Error(`not a catalog cvt form: ${String(formOrText)}`);
  const resultA = evaluateCvt(form, input, options);
  const a = { form, result: resultA };
  const formB = typeof variant === 'string' ? findCvtForm(variant) : variant;
  if (!formB)
    return {
      a,
      b: { kind: 'refused', reason: `not a catalog cvt form: ${String(variant)}` },
      elements: [],
      registerXor: null,
      same: false,
    };
  const carried = carryCvtOperands(form, formB, input);
  const resultB = evaluateCvt(formB, carried.input, options);
  const count = Math.max(form.elements.length, formB.elements.length);
  const elements = Array.from({ length: count }, (_, index): CvtElementComparison => {
    const sourceIndex = Math.min(index, form.elements.length - 1);
    const sourceFormat = form.elements[sourceIndex]!.source.format;
    const sourceBits = sourceBitsOf(form, input, sourceIndex);
    const exact = finite(sourceBits, sourceFormat);
    const ea = elementOf(resultA, form, index);
    const eb = elementOf(resultB, formB, index);
    const sa = ea && side(ea.bits, ea.format, exact);
    const sb = eb && side(eb.bits, eb.format, exact);
    const xa = ea && finite(ea.bits, ea.format);
    const xb = eb && finite(eb.bits, eb.format);
    const diff = xa && xb ? add(xb, negate(xa)) : null;
    const width = ea && elementWidth(ea.format);
    const sameWidth = sa && sb && width === elementWidth(eb.format);
    return {
      index,
      source: exactValueOfElement(sourceBits, sourceFormat),
      a: sa,
      b: sb,
      differingBits: sameWidth ? hexOf(ea.bits ^ eb.bits, width!) : null,
      ulpsOfA: diff && xa ? inUnits(diff, ulpExponent(xa, ea!.format)) : null,
      ulpsOfB: diff && xb ? inUnits(diff, ulpExponent(xb, eb!.format)) : null,
    };
  });
  const sameType = form.dtype === formB.dtype;
  const xor = BigInt(resultA.d) ^ BigInt(resultB.d);
  return {
    a,
    b: { kind: 'form', form: formB, result: resultB, carried },
    elements,
    registerXor: sameType ? hexOf(xor, resultA.dBits) : null,
    same: sameType && xor === 0n,
  };
}

export interface CvtQuickVariant {
  readonly label: string;
  readonly variant: string;
}

const sameSet = (x: readonly string[], y: readonly string[]) =>
  x.length === y.length && x.every((m) => y.includes(m));

/**
 * One-click variants of a cvt form, the ones the catalog has: the same conversion into each
 * other destination format with the same source and element count (e4m3 ↔ e5m2 ↔ e2m1 …, with
 * the modifiers that form needs where it cannot take A's), each other rounding mode, and
 * .satfinite / .relu on or off.
 */
export function cvtQuickVariants(formOrText: CvtForm | string): CvtQuickVariant[] {
  const form = typeof formOrText === 'string' ? findCvtForm(formOrText) : formOrText;
  if (!form) return [];
  const out: CvtQuickVariant[] = [];
  const push = (label: string, found: CvtForm | undefined) => {
    if (found && found.text !== form.text && !out.some((v) => v.variant === found.text))
      out.push({ label, variant: found.text });
  };
  const destOf = (f: CvtForm) => f.elements[0]!.dest.format;
  const rounding = form.modifiers.find(isCvtRounding);
  const others = form.modifiers.filter((m) => !isCvtRounding(m));
  // Other destination formats: the form with A's modifiers, else the closest the catalog has.
  const byDest = new Map<ElementFormatName, CvtForm[]>();
  for (const f of CVT_FORMS) {
    if (f.atype !== form.atype || f.elements.length !== form.elements.length) continue;
    if (destOf(f) === destOf(form)) continue;
    byDest.set(destOf(f), [...(byDest.get(destOf(f)) ?? []), f]);
  }
  for (const [dest, forms] of byDest) {
    const overlap = (f: CvtForm) =>
      (f.rounding === form.rounding ? 10 : 0) -
      f.modifiers.filter((m) => !form.modifiers.includes(m)).length -
      form.modifiers.filter((m) => !f.modifiers.includes(m)).length;
    const best = [...forms].sort((x, y) => overlap(y) - overlap(x))[0]!;
    // The modifiers that form has and A has not, where it cannot take A's.
    const extra = best.modifiers.filter((m) => !form.modifiers.includes(m));
    const type = `.${dest}${form.elements.length > 1 ? `x${form.elements.length}` : ''}`;
    push(extra.length > 0 ? `${type} (${extra.map((m) => `.${m}`).join('')})` : type, best);
  }
  const withMods = (mods: readonly string[]) =>
    CVT_FORMS.find(
      (f) => f.dtype === form.dtype && f.atype === form.atype && sameSet(f.modifiers, mods),
    );
  for (const mode of CVT_ROUNDING_ORDER) {
    if (mode === rounding || !rounding) continue;
    push(`.${mode}`, withMods([mode, ...others]));
  }
  for (const m of ['satfinite', 'relu'] as const) {
    const on = form.modifiers.includes(m);
    push(
      on ? `without .${m}` : `.${m}`,
      withMods(on ? form.modifiers.filter((x) => x !== m) : [...form.modifiers, m]),
    );
  }
  return out;
}

const CVT_ROUNDING_ORDER = ['rn', 'rz', 'rm', 'rp', 'rna', 'rs', 'rni', 'rzi', 'rmi', 'rpi'];
