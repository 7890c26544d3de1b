/**
 * One value stored in every floating-point format the playground knows, each by the conversion a
 * PTX instruction does, so a person can see the same number in .f64, .f32, .tf32, .f16, .bf16,
 * FP8, FP6, FP4 and UE8M0 side by side. Nothing is rounded here:
 *
 *   - .f64 holds the value as typed, rounded to nearest even by the one value reading the
 *     editors use (element-text.ts);
 *   - every other format is what a catalog cvt form makes of it: from .f64 where the catalog
 *     converts .f64 to that format (.f32, .f16, .bf16), else from .f32 (the .f32 result above),
 *     with round-to-nearest-even where the form has it (.ue8m0 has only .rz and .rp: .rz) and
 *     the fewest modifiers (.satfinite where the form requires it);
 *
 * and each result is measured against the value as typed, exactly: the error, the error
 * relative to the value, and the error in ulps of the format at the result. What happened
 * (a clamp to MAX_NORM, an overflow, a subnormal) is read off the conversion's trace
 * (cvt-case-outcomes.ts). Data only: the page words it.
 */
import { CVT_FORMS, type CvtForm, type CvtSourceName } from '../../catalog/cvt-forms.ts';
import type { CvtRounding, ElementFormatName } from '../../catalog/cvt-types.ts';
import { elementsIn, withElement } from '../cvt-registers.ts';
import {
  classifyElement,
  decodeElement,
  elementWidth,
  exactValueOfElement,
  ulpExponent,
} from '../element-format.ts';
import { F64_DECIMAL_RANGE, parseElementValue } from '../element-text.ts';
import { evaluateCvt, type CvtInput } from '../ops/cvt.ts';
import { ratio } from '../operand-text.ts';
import type { ExactValue, FloatClass } from '../trace.ts';
import { readNumberText } from '../values-text.ts';
import { cvtCaseOutcomes } from './cvt-case-outcomes.ts';
import type { CaseOutcome } from './outcomes.ts';

/** The formats, widest first, then the 8-bit and narrower ones. */
export const EVERY_FORMAT: readonly ElementFormatName[] = [
  'f64',
  'f32',
  'tf32',
  'f16',
  'bf16',
  'e4m3',
  'e5m2',
  'e3m2',
  'e2m3',
  'e2m1',
  'ue8m0',
];

/** The roundings a conversion may use, the nearest-even one first. */
const ROUNDING_PREFERENCE: readonly CvtRounding[] = ['rn', 'rna', 'rz', 'rm', 'rp'];

export interface StoredInFormat {
  readonly format: ElementFormatName;
  /** The cvt form that produces it; null for .f64, the value as typed (the others' source). */
  readonly form: string | null;
  /** The form's source format and registers (the value in each source element). */
  readonly source: { readonly format: 'f64' | 'f32'; readonly registers: CvtInput } | null;
  /**
   * The bits as the destination register holds them, and their width: the element's slot, so
   * .tf32 is its .b32 (0x3dccc000) and an FP6 value its byte, padding included.
   */
  readonly bits: bigint;
  readonly width: number;
  readonly class: FloatClass;
  readonly value: ExactValue;
  /** The stored value minus the typed one; null where either is not finite. */
  readonly error: {
    readonly absolute: number;
    /** The error over the typed value, (stored − typed)/typed; null for a typed zero. */
    readonly relative: number | null;
    /** The error in ulps of the format at the stored value. */
    readonly ulps: number;
  } | null;
  /** The stored value is the typed one. */
  readonly exact: boolean;
  /** What the conversion's trace marks (clamp, overflow, underflow, subnormal, tie, …). */
  readonly outcomes: readonly CaseOutcome[];
}

export type ValueInFormats =
  | {
      readonly ok: true;
      /**
       * What was typed: a finite number, NaN, an infinity, or a decimal beyond every finite
       * .f64 (`beyond`, 1e999) or below its least subnormal (`below`, 1e-999).
       */
      readonly kind: 'finite' | 'nan' | 'inf' | 'beyond' | 'below';
      /** The typed number, when it is finite and within .f64's decimal range. */
      readonly typed: {
        readonly negative: boolean;
        readonly num: bigint;
        readonly den: bigint;
      } | null;
      readonly rows: readonly StoredInFormat[];
    }
  | { readonly ok: false; readonly message: string };

/** The catalog form that converts `source` to `dest` as this page does, or undefined. */
function producingForm(dest: ElementFormatName, source: 'f64' | 'f32'): CvtForm | undefined {
  const forms = CVT_FORMS.filter(
    (f) =>
      f.elements[0]!.dest.format === dest &&
      f.elements[0]!.source.format === source &&
      f.rounding !== null &&
      ROUNDING_PREFERENCE.includes(f.rounding),
  );
  const rank = (f: CvtForm) => ROUNDING_PREFERENCE.indexOf(f.rounding!) * 100 + f.modifiers.length;
  return forms.reduce<CvtForm | undefined>(
    (best, f) => (best === undefined || rank(f) < rank(best) ? f : best),
    undefined,
  );
}

/** The registers of `form` with `bits` in every source element (rbits, if any, zero). */
function inEveryElement(form: CvtForm, bits: bigint): CvtInput {
  const registers: Partial<Record<CvtSourceName, bigint>> = {};
  for (const operand of form.operands.slice(1)) {
    const name = operand.name as CvtSourceName;
    let register = 0n;
    for (const e of elementsIn(form, name)) register = withElement(register, e.source, bits);
    registers[name] = register;
  }
  return registers as CvtInput;
}

/** stored − typed, exactly, as num/den (den > 0). */
function difference(
  bits: bigint,
  format: ElementFormatName,
  typed: { negative: boolean; num: bigint; den: bigint },
): { num: bigint; den: bigint; ulpExponent: number } | null {
  const v = decodeElement(bits, format);
  if (v.kind !== 'finite') return null;
  const { negative, mant, exp } = v.x;
  const stored = (negative ? -mant : mant) * (exp >= 0 ? 1n << BigInt(exp) : 1n);
  const storedDen = exp >= 0 ? 1n : 1n << BigInt(-exp);
  const typedNum = typed.negative ? -typed.num : typed.num;
  return {
    num: stored * typed.den - typedNum * storedDen,
    den: storedDen * typed.den,
    ulpExponent: ulpExponent(v.x, format),
  };
}

function storedRow(
  format: ElementFormatName,
  bits: bigint,
  typed: { negative: boolean; num: bigint; den: bigint } | null,
  extra: Pick<StoredInFormat, 'form' | 'source' | 'outcomes'>,
  slot: { readonly bits: bigint; readonly width: number },
): StoredInFormat {
  const diff = typed ? difference(bits, format, typed) : null;
  const u = diff?.ulpExponent ?? 0;
  const error = diff
    ? {
        absolute: ratio(diff.num, diff.den),
        relative:
          typed!.num === 0n
            ? null
            : ratio(diff.num * typed!.den * (typed!.negative ? -1n : 1n), diff.den * typed!.num),
        ulps:
          u >= 0 ? ratio(diff.num, diff.den << BigInt(u)) : ratio(diff.num << BigInt(-u), diff.den),
      }
    : null;
  const value = exactValueOfElement(bits, format);
  return {
    format,
    ...extra,
    bits: slot.bits,
    width: slot.width,
    class: classifyElement(bits, format),
    value,
    error,
    exact: diff ? diff.num === 0n : false,
  };
}

/** `text` (a value, as the value fields read it) stored in every format of EVERY_FORMAT. */
export function valueInFormats(text: string): ValueInFormats {
  const read = readNumberText(text, F64_DECIMAL_RANGE);
  if (!read.ok) return { ok: false, message: read.error.message };
  const f64 = parseElementValue(text, 'f64');
  if (!f64.ok) return { ok: false, message: f64.message };
  const typed =
    read.kind === 'finite' ? { negative: read.negative, num: read.num, den: read.den } : null;
  const rows: StoredInFormat[] = [
    storedRow(
      'f64',
      f64.bits,
      typed,
      { form: null, source: null, outcomes: [] },
      { bits: f64.bits, width: elementWidth('f64') },
    ),
  ];
  const sourceBits: Record<'f64' | 'f32', bigint | null> = { f64: f64.bits, f32: null };
  for (const format of EVERY_FORMAT.slice(1)) {
    const sourceFormat = producingForm(format, 'f64') ? 'f64' : 'f32';
    const form = producingForm(format, sourceFormat);
    const source = sourceBits[sourceFormat];
    // Every format has a conversion from .f64 or .f32, and .f32's comes from .f64 (above).
    if (!form || source === null) throw new Error(`no catalog conversion to .${format}`);
    const registers = inEveryElement(form, source);
    const result = evaluateCvt(form, registers);
    const element = result.elements[0]!;
    const bits = BigInt(element.result);
    if (format === 'f32') sourceBits.f32 = bits;
    const { slot } = form.elements[0]!.dest;
    const width = slot.hi - slot.lo + 1;
    const slotBits = (BigInt(result.d) >> BigInt(slot.lo)) & ((1n << BigInt(width)) - 1n);
    rows.push(
      storedRow(
        format,
        bits,
        typed,
        {
          form: form.text,
          source: { format: sourceFormat, registers },
          outcomes: cvtCaseOutcomes(element.steps),
        },
        { bits: slotBits, width },
      ),
    );
  }
  const kind = read.kind === 'snan' ? 'nan' : read.kind;
  return { ok: true, kind, typed, rows };
}
