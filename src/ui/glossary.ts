/**
 * The words the playground uses that a newcomer may not know, each with a short explanation and
 * the spec paragraph it comes from. Shown where the words appear (Term.tsx), on hover and on tap
 * or focus, and listed together in the page's glossary.
 */

const PTX = 'https://docs.nvidia.com/cuda/parallel-thread-execution/#';

export type TermId =
  | 'ftz'
  | 'sat'
  | 'relu'
  | 'oob'
  | 'nan'
  | 'xorsign-abs'
  | 'grs'
  | 'ulp'
  | 'bias'
  | 'subnormal'
  | 'canonical-nan'
  | 'satfinite'
  | 'rs'
  | 'max-norm';

export interface GlossaryEntry {
  readonly id: TermId;
  /** The word as the page writes it. */
  readonly term: string;
  /** One or two plain sentences. */
  readonly text: string;
  /** Where the PTX ISA says it: section number and link. */
  readonly spec: { readonly section: string; readonly href: string };
}

const ADD = { section: '9.7.4.1', href: `${PTX}half-precision-floating-point-instructions-add` };
const FMA = { section: '9.7.4.4', href: `${PTX}half-precision-floating-point-instructions-fma` };
const MIN = { section: '9.7.4.7', href: `${PTX}half-precision-floating-point-instructions-min` };
const CVT = { section: '9.7.9.21', href: `${PTX}data-movement-and-conversion-instructions-cvt` };
const FORMATS = { section: '5.2.3', href: `${PTX}alternate-floating-point-data-formats` };

export const GLOSSARY: readonly GlossaryEntry[] = [
  {
    id: 'ftz',
    term: '.ftz',
    text: 'Flush to zero: subnormal inputs and results become a zero of the same sign. Without .ftz, half-precision instructions keep subnormals.',
    spec: ADD,
  },
  {
    id: 'sat',
    term: '.sat',
    text: 'Saturate: the result is clamped to the range [0.0, 1.0], and a NaN result becomes +0.0.',
    spec: ADD,
  },
  {
    id: 'relu',
    term: '.relu',
    text: 'A negative result becomes 0 (as the ReLU activation function does); a NaN result becomes the canonical NaN.',
    spec: FMA,
  },
  {
    id: 'oob',
    term: '.oob',
    text: 'Out of bounds: if a or b holds OOB-NaN — the special NaN a tensor load gives for an element outside the tensor — the result is +0.0. The playground uses the pattern an H100 recognises: 0x7FF7 (or 0xFFF7).',
    spec: FMA,
  },
  {
    id: 'nan',
    term: '.NaN',
    text: 'min/max with .NaN return the canonical NaN when either input is a NaN; without it, a NaN input is ignored in favour of the other number.',
    spec: MIN,
  },
  {
    id: 'xorsign-abs',
    term: '.xorsign.abs',
    text: 'min/max compare the absolute values, then give the result the exclusive or of the two input signs (not when the result is a NaN).',
    spec: MIN,
  },
  {
    id: 'grs',
    term: 'guard / round / sticky',
    text: 'The three bits after the last kept bit of the exact result: guard is the first, round the second, sticky is 1 if any later bit is 1. Together they say whether the dropped part is below, at or above half an ulp, which decides the rounding.',
    spec: ADD,
  },
  {
    id: 'ulp',
    term: 'ulp',
    text: 'Unit in the last place: the distance between a value and the next representable one at its exponent. Round-to-nearest is off by at most half an ulp.',
    spec: ADD,
  },
  {
    id: 'bias',
    term: 'bias',
    text: 'The exponent field stores the exponent plus a fixed bias (15 for .f16, 127 for .bf16 and .f32), so that it is never negative: stored 01111 = 15, minus bias 15, is 2⁰.',
    spec: {
      section: '5.2.3',
      href: `${PTX}alternate-floating-point-data-formats`,
    },
  },
  {
    id: 'subnormal',
    term: 'subnormal',
    text: 'A value below the smallest normal number, with exponent field 0: no hidden 1 bit, so precision fades out towards zero. .ftz flushes them to zero.',
    spec: ADD,
  },
  {
    id: 'canonical-nan',
    term: 'canonical NaN',
    text: "The one NaN pattern NVIDIA's arithmetic writes: 0x7FFF for .f16 and .bf16, 0x7FFFFFFF for .f32. The spec says only 'an unspecified NaN'; the playground follows NVIDIA's CUDA headers.",
    spec: FMA,
  },
  {
    id: 'satfinite',
    term: '.satfinite',
    text: 'Saturate to finite values: a result beyond the largest finite value (MAX_NORM) becomes ±MAX_NORM instead of infinity or NaN. A NaN input stays NaN, or becomes +MAX_NORM in a format without NaN (e2m1, e2m3, e3m2).',
    spec: CVT,
  },
  {
    id: 'rs',
    term: '.rs',
    text: 'Stochastic rounding: the given random bits (rbits) are added to the most significant bits that the rounding drops; a carry out rounds away from zero, none rounds toward zero. On average the result is then exact.',
    spec: CVT,
  },
  {
    id: 'max-norm',
    term: 'MAX_NORM',
    text: 'The largest finite value of a format: 448 for e4m3, 57344 for e5m2, 6 for e2m1, 65504 for .f16. e4m3 and the 6- and 4-bit formats have no infinity, so past MAX_NORM there is only NaN or MAX_NORM itself.',
    spec: FORMATS,
  },
];

export function glossaryEntry(id: TermId): GlossaryEntry {
  return GLOSSARY.find((g) => g.id === id)!;
}

/** The glossary entry for a modifier, if it has one (`ftz` → .ftz). */
export function modifierTerm(modifier: string): TermId | null {
  const ids: Readonly<Record<string, TermId>> = {
    ftz: 'ftz',
    sat: 'sat',
    relu: 'relu',
    oob: 'oob',
    NaN: 'nan',
    'xorsign.abs': 'xorsign-abs',
    satfinite: 'satfinite',
    rs: 'rs',
  };
  return ids[modifier] ?? null;
}
