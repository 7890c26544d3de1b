/**
 * The catalog cvt forms a quantization runs, and how their results are read: each evaluated by
 * the one pipeline (pipeline.ts) on registers given as bits, recorded as a CvtCall that
 * reproduces it, and the views of binary32 values and elements the answer carries.
 */
import { findForm } from '../../catalog/all-forms.ts';
import { registerOf, type Form, type SourceName } from '../../catalog/instruction.ts';
import {
  bitsView,
  exactValueOfBits,
  FORMATS,
  hexOf,
  valueOfBits,
  type BitsView,
  type FormatName,
} from '../format.ts';
import { evaluate } from '../pipeline.ts';
import { convertFamily } from '../semantics/convert-family.ts';
import type { EvalResult } from '../steps.ts';
import type { Dyadic } from '../value.ts';
import { f32Hex } from './ptx-program.ts';
import type { CvtCall, F32View } from './types.ts';

/** cvt's semantics, which this module's conversions need wherever it runs. */
const CONVERT = { convert: convertFamily } as const;

const F32 = FORMATS.f32;

/** Source registers as bits (numbers: every register a quantization fills is at most 32 bits). */
export type CvtRegisters = Partial<Record<SourceName, number>>;

export const f32View = (bits: number): F32View => ({
  bits: f32Hex(bits),
  value: exactValueOfBits(BigInt(bits >>> 0), F32),
});

export function elementView(bits: bigint, format: FormatName): BitsView {
  return bitsView(bits, FORMATS[format]);
}

export const finiteOf = (bits: number): Dyadic => {
  const v = valueOfBits(BigInt(bits >>> 0), F32);
  if (v.kind !== 'finite') throw new RangeError('a finite binary32 value was expected');
  return v.x;
};

/** A catalog cvt form, evaluated by the pipeline on registers given as bits. */
export function runCvt(form: Form, registers: CvtRegisters): EvalResult {
  const input: Partial<Record<SourceName, bigint>> = {};
  for (const [name, bits] of Object.entries(registers) as [SourceName, number][])
    input[name] = BigInt(bits >>> 0);
  return evaluate(form, input, undefined, CONVERT);
}

export function cvtForm(text: string): Form {
  const form = findForm(text);
  if (!form) throw new Error(`the catalog has no ${text}`);
  return form;
}

export function cvtCall(
  form: Form,
  registers: CvtRegisters,
  element: number,
  result: EvalResult,
): CvtCall {
  const hex: Partial<Record<SourceName, string>> = {};
  for (const [name, bits] of Object.entries(registers) as [SourceName, number][])
    hex[name] = hexOf(BigInt(bits >>> 0), registerOf(form, name)!.bits);
  return { form: form.text, registers: hex, element, d: result.d };
}

/** Whether .satfinite clamped element `i` of a cvt past MAX_NORM. */
export function saturatedIn(result: EvalResult, i: number): boolean {
  return result.elements[i]!.steps.some(
    (s) => s.kind === 'satfinite' && s.case === 'beyond-max-norm',
  );
}

/** The upper element (d[15:8]) of a scale cvt that converted one value twice. */
export const upperByte = (result: EvalResult) => Number(BigInt(result.d) >> 8n) & 0xff;
