/**
 * The words for people of the analyses (src/engine/analysis): what each named value, case,
 * outcome tag and sweep problem is called on the page and in the CLI. The engine gives ids;
 * these are their names, composed with the form and formats they belong to.
 */
import type { Form } from '../catalog/instruction.ts';
import { isIntegerRounding } from '../catalog/modifiers.ts';
import type {
  CaseId,
  CaseOutcome,
  ConversionCaseId,
  FormatFacts,
  NamedValueId,
} from '../engine/analysis/index.ts';
import { FORMATS, type FormatName } from '../engine/format.ts';

/** The named special values as the bit editors' quick picks and the tables name them. */
export const NAMED_VALUE_WORDS: Readonly<Record<NamedValueId, string>> = {
  '+zero': '+0',
  '-zero': '-0',
  '+least-subnormal': '+min subnormal',
  '-least-subnormal': '-min subnormal',
  '+largest-subnormal': '+max subnormal',
  '+least-normal': '+min normal',
  '-least-normal': '-min normal',
  '+one': '+1',
  '-one': '-1',
  '+max-norm': '+max finite',
  '-max-norm': '-max finite',
  '+inf': '+inf',
  '-inf': '-inf',
  nan: 'NaN',
  snan: 'sNaN',
};

/** A named value of a format: a format without zero (ue8m0) calls its least normal its least value. */
export function namedValueWords(id: NamedValueId, format: FormatName): string {
  const f = FORMATS[format];
  if (id === '+least-normal' && !f.hasZero) return `least value (2^${f.emin})`;
  return NAMED_VALUE_WORDS[id];
}

/** A conversion's cases, by the destination (`dest`) and the form's rounding. */
function conversionCaseWords(id: ConversionCaseId, form: Form): string {
  const D = `.${form.elements[0]!.dest.format}`;
  const integer = form.rounding !== null && isIntegerRounding(form.rounding);
  switch (id) {
    case '+dest-max-norm':
      return `MAX_NORM of ${D}`;
    case '-dest-max-norm':
      return `-MAX_NORM of ${D}`;
    case 'above-dest-max-norm':
      return `just above MAX_NORM of ${D}`;
    case 'dest-overflow-tie':
      return `half an ulp past MAX_NORM of ${D} (a tie: the .rn threshold)`;
    case 'above-dest-overflow-tie':
      return 'just above that threshold';
    case '+quarter':
      return '0.25';
    case '+half':
      return '0.5 (a tie between 0 and 1)';
    case '+one-and-half':
      return integer ? '1.5 (a tie between 1 and 2)' : '1.5 (above 1: .sat clamps it)';
    case '+two-and-half':
      return '2.5 (a tie between 2 and 3)';
    case '-one-and-half':
      return '-1.5';
    case 'dest-tie-above-one':
      return `tie between 1 and the next ${D} value`;
    case 'below-dest-tie-above-one':
      return 'just below that tie';
    case 'above-dest-tie-above-one':
      return 'just above that tie';
    case 'dest-second-tie-above-one':
      return `tie between the next two ${D} values`;
    case '-dest-tie-above-one':
      return `-(tie between 1 and the next ${D} value)`;
    case 'dest-least-normal':
      return `least normal of ${D}`;
    case 'dest-least-subnormal':
      return `least subnormal of ${D}`;
    case 'dest-half-least-subnormal':
      return `half the least subnormal of ${D} (a tie with 0)`;
    case 'dest-three-quarters-least-subnormal':
      return `3/4 of the least subnormal of ${D}`;
    case 'dest-half-least-value':
      return `half of ${D}'s least value`;
  }
}

const isNamedValue = (id: CaseId): id is NamedValueId => id in NAMED_VALUE_WORDS;

/**
 * What a corner-case row's input is called. A conversion's cases are named by what they are to
 * the destination ("MAX_NORM of .e4m3"), and its ±1 and least subnormal as values of the source.
 */
export function caseWords(id: CaseId, form: Form, input = 0): string {
  const source = form.elements[0]!.inputs[input]!.format;
  if (!isNamedValue(id)) return conversionCaseWords(id, form);
  if (form.family === 'convert') {
    if (id === '+one') return '1';
    if (id === '-one') return '-1';
    if (id === '+least-subnormal') return `least subnormal of .${source}`;
  }
  return namedValueWords(id, source);
}

export interface OutcomeWords {
  /** Short, in the table's cell. */
  readonly mark: string;
  /** In the filter, with what it means. */
  readonly filter: string;
}

const OUTCOME_WORDS: Readonly<Record<CaseOutcome, OutcomeWords>> = {
  invalid: { mark: 'invalid', filter: 'invalid operation (∞ − ∞, 0 × ∞)' },
  'nan-input': { mark: 'NaN in', filter: 'a NaN input' },
  overflow: { mark: 'overflow', filter: 'overflow' },
  underflow: { mark: 'underflow', filter: 'underflow (tiny and inexact)' },
  subnormal: { mark: 'subnormal', filter: 'subnormal result' },
  tie: { mark: 'tie', filter: 'a tie, rounded to even' },
  flush: { mark: 'flushed', filter: 'flushed to zero (.ftz)' },
  clamp: { mark: 'clamped', filter: 'clamped (.sat or .relu)' },
  oob: { mark: 'OOB → +0', filter: 'OOB-NaN made it +0 (.oob)' },
};

/** The outcome tags as a form's table shows them (a conversion rounds ties by its mode, and clamps with .satfinite too). */
export function outcomeWords(form: Form): Readonly<Record<CaseOutcome, OutcomeWords>> {
  if (form.family !== 'convert') return OUTCOME_WORDS;
  return {
    ...OUTCOME_WORDS,
    tie: { mark: 'tie', filter: 'a tie, half way between two values' },
    clamp: { mark: 'clamped', filter: 'clamped (.satfinite, .sat or .relu)' },
  };
}

/** Which patterns of a format are NaN, in words. */
export function nanWords(facts: FormatFacts): string {
  switch (facts.nan) {
    case 'exponent-all-ones':
      return 'exponent all ones, mantissa nonzero';
    case 'all-ones':
      return `only ${facts.nanPatterns.join(' and ')}`;
    case 'none':
      return 'none';
  }
}
