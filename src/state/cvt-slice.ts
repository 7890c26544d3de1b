import {
  CVT_FORMS,
  findCvtForm,
  findForm,
  type CvtForm,
  type CvtSourceName,
  type ElementFormatName,
  type Form,
} from '../catalog/index.ts';
import type { CvtEvalResult } from '../engine/index.ts';
import {
  adaptCvtRegisters,
  defaultCvtRegisters,
  elementsIn,
  withElement,
  type CvtRegisters,
} from './cvt-operands.ts';
import {
  defaultOperandBits,
  DEFAULT_STATE,
  OPERAND_KEYS,
  type OperandKey,
  type Tab,
} from './url-codec.ts';
import { NO_CORNER_FILTERS, type CornerFilters, type SweepRange } from './panel-url.ts';

/**
 * The store's cvt slice: the source registers of a cvt form (BigInt, exact at 64 bits), its
 * evaluation, and the format page's format. The instruction itself is the store's one `instr`:
 * a cvt form's text when cvt is picked. store.ts composes this slice with the others.
 */

export type CvtEvalStatus = 'idle' | 'pending' | 'done' | 'error';

/** What a field stored when it was given a value (shared with the arithmetic's editors). */
interface StoredNoteLike {
  readonly field: string;
  readonly text: string;
}

export interface CvtSlice {
  cvtRegisters: CvtRegisters;
  cvtResult: CvtEvalResult | null;
  cvtEvalStatus: CvtEvalStatus;
  cvtEvalError: string | null;
  /** The format shown on the format tab (in the URL as `format`), or null. */
  formatPage: ElementFormatName | null;
  /** The range the sweep last ran over (in the URL with the sweep), or null: the form's default. */
  sweepRange: SweepRange | null;
  setSweepRange: (range: SweepRange) => void;
  setCvtRegister: (name: CvtSourceName, bits: bigint, stored?: StoredNoteLike) => void;
  /** Load a whole case (corner-case row): several registers at once, one history entry. */
  loadCvtCase: (registers: Partial<CvtRegisters>) => void;
  setCvtEvaluation: (update: {
    result?: CvtEvalResult | null;
    status: CvtEvalStatus;
    error?: string | null;
  }) => void;
  setFormatPage: (format: ElementFormatName) => void;
  /**
   * A value clicked on a format page: the form that reads the format (the current one where it
   * does) with the value in every element of operand a; see `formReading`.
   */
  loadFormatValue: (format: ElementFormatName, bits: bigint) => void;
}

/** The slice's part of the store's state, as the store's `set` takes it. */
interface SliceState extends CvtSlice {
  instr: string;
  operands: Readonly<Record<OperandKey, number>>;
  storedNote: StoredNoteLike | null;
  tab: Tab | null;
  cornerFilters: CornerFilters;
  historyIntent: 'push' | 'replace' | 'none';
}

type Set = (partial: Partial<SliceState> | ((s: SliceState) => Partial<SliceState>)) => void;

/**
 * How a value from a format page enters the editors: the form that reads that format as its
 * source, where the value can be seen converted. The current form when it reads the format;
 * otherwise a form converting it to the current destination format, else the form of the fewest
 * modifiers that converts it exactly (widening) or, failing that, at all. Nothing reads .tf32:
 * its values go, as .f32 values (which hold them exactly), into a form that writes .tf32.
 */
export function formReading(
  format: ElementFormatName,
  current: CvtForm | Form | undefined,
): { form: CvtForm; asF32: boolean } {
  const cvt = current && current.opcode === 'cvt' ? (current as CvtForm) : null;
  const reads = (f: CvtForm) => f.elements[0]!.source.format === format;
  if (cvt && reads(cvt)) return { form: cvt, asF32: false };
  const readers = CVT_FORMS.filter(reads);
  if (readers.length === 0) {
    const writesF32 = (f: CvtForm) =>
      f.elements[0]!.dest.format === format && f.elements[0]!.source.format === 'f32';
    const form = cvt && writesF32(cvt) ? cvt : (CVT_FORMS.find(writesF32) ?? CVT_FORMS[0]!);
    return { form, asF32: true };
  }
  const fewest = (forms: CvtForm[]) =>
    forms.reduce((best, f) => (f.modifiers.length < best.modifiers.length ? f : best), forms[0]!);
  const dest = cvt?.elements[0]!.dest.format;
  const sameDest = readers.filter((f) => f.elements[0]!.dest.format === dest);
  if (sameDest.length > 0) return { form: fewest(sameDest), asF32: false };
  const widening = readers.filter((f) => f.rounding === null && f.dtype !== f.atype);
  return { form: fewest(widening.length > 0 ? widening : readers), asF32: false };
}

/** The operands an arithmetic form starts with after cvt (no cvt value carries over). */
function arithmeticDefaults(form: Form): Record<OperandKey, number> {
  const out: Record<OperandKey, number> = { ...DEFAULT_STATE.operands };
  for (const key of OPERAND_KEYS) out[key] = defaultOperandBits(form, key);
  return out;
}

/**
 * The state change of picking `text` when it or the current instruction is a cvt form (null
 * when neither is: the arithmetic's own rule applies). cvt → cvt keeps the registers as far as
 * the new form allows; arithmetic → cvt starts from the form's start values; cvt → arithmetic
 * starts from the arithmetic form's defaults.
 */
export function cvtInstrChange(
  s: SliceState,
  text: string,
  history: 'push' | 'replace',
): Partial<SliceState> | null {
  const next = findCvtForm(text);
  const prev = findCvtForm(s.instr);
  if (!next && !prev) return null;
  if (next) {
    if (next.text === s.instr) return {};
    return {
      instr: next.text,
      cvtRegisters: adaptCvtRegisters(prev ?? null, next, s.cvtRegisters),
      storedNote: null,
      // A new form starts with its own table unfiltered and its own default range.
      cornerFilters: NO_CORNER_FILTERS,
      sweepRange: null,
      // The error plot and the GPU program are the arithmetic's; the sweep is cvt's.
      tab: s.tab === 'approx' || s.tab === 'repro' ? null : s.tab,
      historyIntent: history,
    };
  }
  const arithmetic = findForm(text);
  if (!arithmetic) return {};
  return {
    instr: arithmetic.text,
    operands: arithmeticDefaults(arithmetic),
    storedNote: null,
    cornerFilters: NO_CORNER_FILTERS,
    sweepRange: null,
    tab: s.tab === 'sweep' ? null : s.tab,
    historyIntent: history,
  };
}

export function cvtSlice(set: Set): CvtSlice {
  return {
    cvtRegisters: defaultCvtRegisters(findCvtForm('cvt.rn.satfinite.e4m3x2.f32')!),
    cvtResult: null,
    cvtEvalStatus: 'idle',
    cvtEvalError: null,
    formatPage: null,
    sweepRange: null,
    setSweepRange: (sweepRange) => set({ sweepRange, historyIntent: 'replace' }),
    setCvtRegister: (name, bits, stored) =>
      set((s) => {
        const note = stored ?? null;
        if (s.cvtRegisters[name] === bits) return note === s.storedNote ? {} : { storedNote: note };
        return {
          cvtRegisters: { ...s.cvtRegisters, [name]: bits },
          storedNote: note,
          historyIntent: 'replace',
        };
      }),
    loadCvtCase: (registers) =>
      set((s) => ({
        cvtRegisters: { ...s.cvtRegisters, ...registers },
        storedNote: null,
        historyIntent: 'push',
      })),
    setCvtEvaluation: ({ result, status, error }) =>
      set((s) => ({
        cvtResult: result === undefined ? s.cvtResult : result,
        cvtEvalStatus: status,
        cvtEvalError: error === undefined ? s.cvtEvalError : error,
      })),
    setFormatPage: (format) =>
      set((s) =>
        format === s.formatPage && s.tab === 'format'
          ? {}
          : { formatPage: format, tab: 'format', historyIntent: 'push' },
      ),
    loadFormatValue: (format, bits) =>
      set((s) => {
        const current = findCvtForm(s.instr) ?? findForm(s.instr);
        const { form, asF32 } = formReading(format, current);
        const prev = findCvtForm(s.instr) ?? null;
        const base =
          form.text === s.instr ? s.cvtRegisters : adaptCvtRegisters(prev, form, s.cvtRegisters);
        // A .tf32 value is the .f32 whose 13 low bits are zero.
        const value = asF32 ? bits << 13n : bits;
        let a = base.a;
        for (const e of elementsIn(form, 'a')) a = withElement(a, e.source, value);
        return {
          instr: form.text,
          cvtRegisters: { ...base, a },
          // The page stays on the format clicked, even where it was the old form's default.
          formatPage: format,
          storedNote: null,
          historyIntent: 'push',
        };
      }),
  };
}
