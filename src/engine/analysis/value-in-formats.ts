/**
 * One value stored in every floating-point format the playground knows, each by the conversion a
 * PTX instruction does, so a person can see the same number in .f64, .f32, .tf32, .f16, .bf16,
 * FP8, FP6, FP4 and UE8M0 side by side. Nothing is rounded here:
 *
 *   - .f64 holds the value as typed, rounded to nearest even by the one value reading the
 *     editors use (stored-value.ts);
 *   - every other format is what a catalog cvt form makes of it: from .f64 where the catalog
 *     converts .f64 to that format (.f32, .f16, .bf16), else from .f32 (the .f32 result above),
 *     with round-to-nearest-even where the form has it (.ue8m0 has only .rz and .rp: .rz) and
 *     the fewest modifiers (.satfinite where the form requires it);
 *
 * and each result is measured against the value as typed, exactly: the error, the error
 * relative to the value, and the error in ulps of the format at the result. What happened
 * (a clamp to MAX_NORM, an overflow, a subnormal) is read off the conversion's trace, as the
 * corner-case rows read theirs (outcomes.ts). Data only: the page words it.
 */
import { ALL_FORMS } from '../../catalog/all-forms.ts';
import type { Form, SourceName } from '../../catalog/instruction.ts';
import type { Rounding } from '../../catalog/modifiers.ts';
import { classify, exactValueOfBits, FORMATS, valueOfBits, type FormatName } from '../format.ts';
import { readNumberText } from '../number-text.ts';
import { evaluate, type Registers } from '../pipeline.ts';
import { convertFamily } from '../semantics/convert-family.ts';
import { storeNumber } from '../stored-value.ts';
import type { ExactValue, FloatClass } from '../value.ts';
import { stepOutcomes, type CaseOutcome } from './outcomes.ts';

/** cvt's semantics, which this module's conversions need wherever it runs. */
const CONVERT = { convert: convertFamily } as const;

/** The formats, widest first, then the 8-bit and narrower ones. */
export const EVERY_FORMAT: readonly FormatName[] = [
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
const ROUNDING_PREFERENCE: readonly Rounding[] = ['rn', 'rna', 'rz', 'rm', 'rp'];

const CONVERSIONS = ALL_FORMS.filter((f) => f.family === 'convert');

export interface StoredInFormat {
  readonly format: FormatName;
  /** The cvt form that produces it; null for .f64, the value as typed (the others' source). */
  readonly form: string | null;
  /** The form's source format and registers (the value in each source element). */
  readonly source: { readonly format: 'f64' | 'f32'; readonly registers: Registers } | null;
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
function producingForm(dest: FormatName, source: 'f64' | 'f32'): Form | undefined {
  const forms = CONVERSIONS.filter(
    (f) =>
      f.elements[0]!.dest.format === dest &&
      f.elements[0]!.inputs[0]!.format === source &&
      f.rounding !== null &&
      ROUNDING_PREFERENCE.includes(f.rounding),
  );
  const rank = (f: Form) => ROUNDING_PREFERENCE.indexOf(f.rounding!) * 100 + f.modifiers.length;
  return forms.reduce<Form | undefined>(
    (best, f) => (best === undefined || rank(f) < rank(best) ? f : best),
    undefined,
  );
}

/** The registers of `form` with `bits` in every source element (rbits, if any, zero). */
function inEveryElement(form: Form, bits: bigint): Registers {
  const registers: Partial<Record<SourceName, bigint>> = {};
  for (const r of form.registers.slice(1)) registers[r.name as SourceName] = 0n;
  for (const element of form.elements)
    for (const place of element.inputs) {
      const name = place.operand as SourceName;
      registers[name] = registers[name]! | (bits << BigInt(place.value.lo));
    }
  return registers;
}

/** The nearest double to n/d (d > 0): 64 quotient bits, then BigInt → Number. */
function ratio(n: bigint, d: bigint): number {
  if (n === 0n) return 0;
  const negative = n < 0n;
  const m = negative ? -n : n;
  const shift = 64 - (m.toString(2).length - d.toString(2).length);
  const q = shift >= 0 ? (m << BigInt(shift)) / d : m / (d << BigInt(-shift));
  return (negative ? -1 : 1) * Number(q) * 2 ** -shift;
}

/** The exponent of one ulp of a format at a finite value: 2^(max(e, emin) − manBits). */
function ulpExponent(x: { mant: bigint; exp: number }, format: FormatName): number {
  const f = FORMATS[format];
  const e = x.mant === 0n ? f.emin : Math.max(x.mant.toString(2).length - 1 + x.exp, f.emin);
  return e - f.manBits;
}

/** stored − typed, exactly, as num/den (den > 0). */
function difference(
  bits: bigint,
  format: FormatName,
  typed: { negative: boolean; num: bigint; den: bigint },
): { num: bigint; den: bigint; ulpExponent: number } | null {
  const v = valueOfBits(bits, FORMATS[format]);
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
  format: FormatName,
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
  const value = exactValueOfBits(bits, FORMATS[format]);
  return {
    format,
    ...extra,
    bits: slot.bits,
    width: slot.width,
    class: classify(bits, FORMATS[format]),
    value,
    error,
    exact: diff ? diff.num === 0n : false,
  };
}

/** `text` (a value, as the value fields read it) stored in every format of EVERY_FORMAT. */
export function valueInFormats(text: string): ValueInFormats {
  const read = readNumberText(text);
  if (!read.ok) return { ok: false, message: read.error.message };
  const number = read.number;
  const stored = storeNumber(number, FORMATS.f64, text.trim());
  if (!stored.ok) return { ok: false, message: stored.error.message };
  const f64 = stored.value;
  const typed =
    number.kind === 'finite'
      ? { negative: number.negative, num: number.num, den: number.den }
      : null;
  const rows: StoredInFormat[] = [
    storedRow(
      'f64',
      f64.bits,
      typed,
      { form: null, source: null, outcomes: [] },
      { bits: f64.bits, width: FORMATS.f64.width },
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
    const result = evaluate(form, registers, undefined, CONVERT);
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
          outcomes: stepOutcomes(element.steps),
        },
        { bits: slotBits, width },
      ),
    );
  }
  const kind = number.kind === 'snan' ? 'nan' : number.kind;
  return { ok: true, kind, typed, rows };
}
