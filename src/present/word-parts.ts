/**
 * What a description for people is made of, so that the page and the CLI show the same words
 * without composing any themselves: a line is a list of parts — plain text, a value with its
 * bits, an exact value, a glossary word, bits to show with marks (kept, guard, round, sticky,
 * random bits, carry, padding), code (an expression, a register's bits) or a citation of a rule.
 * The page draws each part its way (a value's bits in code, a glossary word as a button, marked
 * bits in colour); the CLI writes it as text (step-text.ts). Every number is in the one number
 * style (numbers.ts).
 */
import type { DecisionId } from '../engine/decisions.ts';
import type { BitsView } from '../engine/format.ts';
import type { ExactValue, RuleRef } from '../engine/value.ts';
import { exactText } from './numbers.ts';

/** The glossary words a description can point to (the page's glossary has an entry for each). */
export const GLOSSARY_TERM_IDS = [
  'ftz',
  'sat',
  'relu',
  'oob',
  'nan',
  'xorsign-abs',
  'grs',
  'ulp',
  'bias',
  'subnormal',
  'canonical-nan',
  'satfinite',
  'rs',
  'max-norm',
] as const;
export type GlossaryTermId = (typeof GLOSSARY_TERM_IDS)[number];

/** What a run of bits is, for the page's colours and the text's labels. */
export type BitMark =
  | 'kept'
  | 'guard'
  | 'round'
  | 'sticky'
  | 'random'
  | 'discarded'
  | 'carry'
  | 'sum'
  | 'padding'
  | 'value'
  | 'zero';

export interface BitSegment {
  /** Binary digits, most significant first. */
  readonly bits: string;
  readonly mark: BitMark;
  /** A short name written before the bits ("kept", "G"), or '' where the line names them. */
  readonly label: string;
}

/**
 * One part of a line. Every part has `text`: how it reads as plain text (the CLI writes that;
 * the page draws the other fields and may use it as an accessible label).
 */
export type Part =
  | { readonly kind: 'text'; readonly text: string }
  /**
   * A value of a format: `value` in the one number style; `note` what its class adds
   * ("subnormal", with its glossary word), or null.
   */
  | {
      readonly kind: 'value';
      readonly view: BitsView;
      readonly value: string;
      readonly note: ValueNote | null;
      readonly text: string;
    }
  /** An exact value: `decimal` in the one number style, `binary` where it says more ("1.01b × 2^-3"). */
  | {
      readonly kind: 'exact';
      readonly value: ExactValue;
      readonly decimal: string;
      readonly binary: string | null;
      readonly text: string;
    }
  /** A glossary word, written as `text`. */
  | { readonly kind: 'term'; readonly term: GlossaryTermId; readonly text: string }
  | { readonly kind: 'bits'; readonly segments: readonly BitSegment[]; readonly text: string }
  /** Written as it is, in a code font: an expression, a register's bits, a hex pattern. */
  | { readonly kind: 'code'; readonly text: string }
  /** A rule cited inline: "IEEE 754 §4.3.1". */
  | {
      readonly kind: 'cite';
      readonly source: RuleRef['source'];
      readonly section: string;
      readonly text: string;
    };

/** What a value's class adds to it, with the glossary word that explains it where there is one. */
export interface ValueNote {
  readonly text: string;
  readonly term: GlossaryTermId | null;
}

export type Line = readonly Part[];

/** The rule a step applies, with the documented decision it relies on. */
export interface RuleCitation {
  readonly source: RuleRef['source'];
  readonly section: string;
  /** "§9.7.4.1" (PTX ISA) or "IEEE 754 §7.4". */
  readonly citation: string;
  /** The rule's words, as the engine records them. */
  readonly text: string;
  /** The decision, and what the step takes from it (its title, or the reading asked for). */
  readonly decision: { readonly id: DecisionId; readonly text: string } | null;
}

export const text = (words: string): Part => ({ kind: 'text', text: words });

export const code = (words: string): Part => ({ kind: 'code', text: words });

export const term = (id: GlossaryTermId, words: string): Part => ({
  kind: 'term',
  term: id,
  text: words,
});

const CLASS_NOTES: Partial<Record<BitsView['class'], ValueNote>> = {
  subnormal: { text: 'subnormal', term: 'subnormal' },
  snan: { text: 'signaling', term: null },
};

/** A value with its bits: "1 (f16 0x3c00)", "5.9604644775390625e-8 (f16 0x0001, subnormal)". */
export const value = (view: BitsView): Part => {
  const written = view.value.kind === 'nan' ? 'NaN' : exactText(view.value);
  const note = CLASS_NOTES[view.class] ?? null;
  return {
    kind: 'value',
    view,
    value: written,
    note,
    text: `${written} (${view.format} ${view.bits}${note ? `, ${note.text}` : ''})`,
  };
};

/** An exact value: its decimal and, for a finite value whose binary form differs, that too. */
export const exact = (v: ExactValue): Part => {
  // A zero here is the number 0 (an exact value's sign is the next step's business).
  const zero = v.kind === 'finite' && /^-?0$/.test(v.decimal);
  const decimal = zero ? '0' : exactText(v);
  const binary = v.kind === 'finite' && !zero && v.binary !== decimal ? v.binary : null;
  return {
    kind: 'exact',
    value: v,
    decimal,
    binary,
    text: binary ? `${decimal} = ${binary}` : decimal,
  };
};

/** Bits as text: "kept=1000 G=1 R=0 S=0" where the segments are named, else the digits run on. */
export const bits = (...segments: BitSegment[]): Part => {
  const named = segments.some((s) => s.label !== '');
  return {
    kind: 'bits',
    segments,
    text: named
      ? segments.map((s) => (s.label ? `${s.label}=${s.bits}` : s.bits)).join(' ')
      : segments.map((s) => s.bits).join(''),
  };
};

export const segment = (digits: string, mark: BitMark, label = ''): BitSegment => ({
  bits: digits,
  mark,
  label,
});

/**
 * How a rule is cited: "§9.7.4.1" for the PTX ISA, "IEEE 754 §7.4" for the standard, "Hopper
 * tensor-core model" for an architecture's published model (tensor-cores.md).
 */
export function citationOf(source: RuleRef['source'], section: string): string {
  if (source === 'tensor-core-model') return `${section} tensor-core model`;
  return source === 'ieee-754' ? `IEEE 754 §${section}` : `§${section}`;
}

export const cite = (source: RuleRef['source'], section: string): Part => ({
  kind: 'cite',
  source,
  section,
  text: citationOf(source, section),
});

/** A bit range of a register: "a[15:8]", "d[5]", or the register alone where it is all of it. */
export function placeText(register: string, range: { hi: number; lo: number }, width: number) {
  if (range.lo === 0 && range.hi === width - 1) return register;
  return range.hi === range.lo
    ? `${register}[${range.hi}]`
    : `${register}[${range.hi}:${range.lo}]`;
}
