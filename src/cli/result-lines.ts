/**
 * A result as `ptxf eval` prints it, the same layout for every instruction: the register, one
 * line per element (a lane of the arithmetic's x2 forms, an element of cvt's, named only where
 * there are several), the one-sentence summary (present/summary.ts), and per element the
 * reference values (present/reference-text.ts); with `--json`, the reference values as data.
 */
import type { Form } from '../catalog/instruction.ts';
import { CLASS_WORDS } from '../engine/class-words.ts';
import type { BitsView } from '../engine/format.ts';
import type { EvalResult } from '../engine/steps.ts';
import type { ElementReference, MeasuredError } from '../engine/what-if/reference-values.ts';
import { resultOfElement } from '../engine/what-if/reference-values.ts';
import { exactText } from '../present/numbers.ts';
import { referenceLine } from '../present/reference-text.ts';
import { elementWord } from '../present/element-word.ts';

/** `0x3c00 (1, normal)`: a value's bits, its value in the one number style and its class. */
export function bitsText(view: BitsView): string {
  const value = view.value.kind === 'nan' ? 'NaN' : exactText(view.value);
  return `${view.bits} (${value}, ${CLASS_WORDS[view.class]})`;
}

/** "  lane 1: " before each of several elements, "  " before the only one. */
function elementLabel(form: Form, index: number, count: number): string {
  return count > 1 ? `  ${elementWord(form)} ${index}: ` : '  ';
}

/** Each element's result, by its index. */
export function elementViews(result: EvalResult): { index: number; view: BitsView }[] {
  return result.elements.map((e) => ({ index: e.index, view: resultOfElement(e) }));
}

/** The register line and one line per element's value. */
export function resultLines(form: Form, result: EvalResult): string[] {
  return [`${result.form}  →  d = ${result.d}`, ...elementLines(form, elementViews(result))];
}

/** One line per element: its value, named by its index where there are several. */
export function elementLines(
  form: Form,
  elements: readonly { readonly index: number; readonly view: BitsView }[],
): string[] {
  return elements.map((e) => `${elementLabel(form, e.index, elements.length)}${bitsText(e.view)}`);
}

/** Per element: the exact value and what f32 and f64 arithmetic give for it. */
export function referenceLines(form: Form, reference: readonly ElementReference[]): string[] {
  return reference.map((r) => {
    const label = reference.length > 1 ? ` ${elementWord(form)} ${r.index}` : '';
    return `  reference${label}: ${referenceLine(r)}`;
  });
}

/** An error measured against an exact value, for --json: the exact difference and in ulps. */
export function errorJson(e: MeasuredError | null) {
  return e ? { value: e.value.decimal, ulps: e.ulps } : null;
}

/**
 * Reference values for `--json`, per element: the exact value, what binary32 and binary64
 * arithmetic round it to, and the result's error against it.
 */
export function referenceJson(reference: readonly ElementReference[]) {
  return reference.map((r) => ({
    element: r.index,
    exact: r.exact.decimal,
    ...(r.approximate ? { approximate: true } : {}),
    f32: r.f32.bits,
    f64: r.f64.bits,
    error: errorJson(r.error),
  }));
}
