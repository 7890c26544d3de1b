/**
 * The catalog cvt forms a quantization runs, and how their results are read: each evaluated by
 * the engine's cvt (ops/cvt.ts) on registers given as bits, recorded as a CvtCall that
 * reproduces it, and the views of binary32 values and elements the answer carries.
 */
import { findCvtForm, type CvtForm, type CvtSourceName } from '../../catalog/cvt-forms.ts';
import type { ElementFormatName } from '../../catalog/cvt-types.ts';
import { registerHex, registerWidth } from '../cvt-registers.ts';
import type { ElementView } from '../cvt-trace.ts';
import { classifyElement, elementWidth, exactValueOfElement, hexOf } from '../element-format.ts';
import { type Dyadic } from '../exact.ts';
import { FORMATS, exactValueOfBits } from '../formats.ts';
import { evaluateCvt, type CvtEvalResult } from '../ops/cvt.ts';
import { valueOf } from '../values.ts';
import { f32Hex } from './ptx-program.ts';
import type { CvtCall, F32View } from './types.ts';

const F32 = FORMATS.f32;

export const f32View = (bits: number): F32View => ({
  bits: f32Hex(bits),
  value: exactValueOfBits(bits >>> 0, F32),
});

export function elementView(bits: bigint, format: ElementFormatName): ElementView {
  return {
    format,
    bits: hexOf(bits, elementWidth(format)).toLowerCase(),
    class: classifyElement(bits, format),
    value: exactValueOfElement(bits, format),
  };
}

export const finiteOf = (bits: number): Dyadic => {
  const v = valueOf(bits >>> 0, F32);
  if (v.kind !== 'finite') throw new RangeError('a finite binary32 value was expected');
  return v.x;
};

/** A catalog cvt form, evaluated on registers given as bits. */
export function runCvt(
  form: CvtForm,
  registers: Partial<Record<CvtSourceName, number>>,
): CvtEvalResult {
  const input: Record<string, bigint> = {};
  for (const [name, bits] of Object.entries(registers)) input[name] = BigInt(bits >>> 0);
  return evaluateCvt(form, input as { a: bigint });
}

export function cvtForm(text: string): CvtForm {
  const form = findCvtForm(text);
  if (!form) throw new Error(`the catalog has no ${text}`);
  return form;
}

export function cvtCall(
  form: CvtForm,
  registers: Partial<Record<CvtSourceName, number>>,
  element: number,
  result: CvtEvalResult,
): CvtCall {
  const hex: Partial<Record<CvtSourceName, string>> = {};
  for (const [name, bits] of Object.entries(registers) as [CvtSourceName, number][])
    hex[name] = registerHex(BigInt(bits >>> 0), registerWidth(form, name));
  return { form: form.text, registers: hex, element, d: `0x${result.d.slice(2).toLowerCase()}` };
}

/** Whether .satfinite clamped element `i` of a cvt past MAX_NORM. */
export function saturatedIn(result: CvtEvalResult, i: number): boolean {
  return result.elements[i]!.steps.some(
    (s) => s.kind === 'cvt-satfinite' && s.case === 'beyond-max-norm',
  );
}

/** The upper element (d[15:8]) of a scale cvt that converted one value twice. */
export const upperByte = (result: CvtEvalResult) => Number(BigInt(result.d) >> 8n) & 0xff;
