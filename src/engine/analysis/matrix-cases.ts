/**
 * The corner cases of a matrix form's one element, d = c + Σ a_i·b_i: the vectors that teach what
 * a tensor core does (issue: NaN, ∞ − ∞, ∞ × 0, signed zeros, subnormal inputs, total
 * cancellation, a term far below E, a sum that overflows, FP8's saturating values), each written
 * with the named values of the elements' formats (named-values.ts). An element a case does not
 * set is +0; a block-scaled form's scales are 1. A case a format cannot state (an infinity in
 * e4m3 or e2m1) is left out.
 */
import type { Form } from '../../catalog/instruction.ts';
import { FORMATS } from '../format.ts';
import { namedValueBits, type NamedValueId } from './named-values.ts';

export const MATRIX_CASE_IDS = [
  'nan-operand',
  'infinity-times-zero',
  'infinity-minus-infinity',
  'infinite-term',
  'negative-zeros',
  'zeros-of-both-signs',
  'total-cancellation',
  'subnormal-inputs',
  'term-far-below',
  'ones',
  'largest-products',
  'sum-overflows',
] as const;

export type MatrixCaseId = (typeof MATRIX_CASE_IDS)[number];

/** What a case sets: a's and b's first elements (the rest +0, or `fill` for every one), and c. */
interface CaseSpec {
  readonly a: readonly NamedValueId[];
  readonly b: readonly NamedValueId[];
  readonly c: NamedValueId;
  /** Every element of a and b takes its list's first value, not just the first element. */
  readonly fill?: boolean;
}

const SPECS: Readonly<Record<MatrixCaseId, CaseSpec>> = {
  'nan-operand': { a: ['nan'], b: ['+one'], c: '+one' },
  'infinity-times-zero': { a: ['+inf'], b: ['+zero'], c: '+one' },
  'infinity-minus-infinity': { a: ['+inf'], b: ['+one'], c: '-inf' },
  'infinite-term': { a: ['-inf', '+max-norm'], b: ['+one', '+max-norm'], c: '+one' },
  'negative-zeros': { a: ['-zero'], b: ['+one'], c: '-zero', fill: true },
  'zeros-of-both-signs': { a: ['-zero', '+zero'], b: ['+one', '+one'], c: '-zero' },
  'total-cancellation': { a: ['+one', '+one'], b: ['+one', '-one'], c: '+zero' },
  'subnormal-inputs': {
    a: ['+least-subnormal', '+largest-subnormal'],
    b: ['+one', '-one'],
    c: '+zero',
  },
  'term-far-below': { a: ['+least-subnormal'], b: ['+least-subnormal'], c: '+one' },
  ones: { a: ['+one'], b: ['+one'], c: '+one', fill: true },
  'largest-products': { a: ['+max-norm'], b: ['+max-norm'], c: '+zero', fill: true },
  'sum-overflows': { a: ['+max-norm'], b: ['+max-norm'], c: '+max-norm', fill: true },
};

export interface MatrixCase {
  readonly id: MatrixCaseId;
  /** The named value of each input (a_0 … a_(k−1), b_0 … b_(k−1), c) and its pattern. */
  readonly inputs: readonly { readonly id: NamedValueId; readonly bits: bigint }[];
}

/** The cases a matrix form's formats can state, in MATRIX_CASE_IDS order. */
export function matrixCases(form: Form): MatrixCase[] {
  const m = form.matrix;
  if (!m) throw new Error(`not a matrix form: ${form.text}`);
  const k = m.shape.k;
  const cases: MatrixCase[] = [];
  for (const id of MATRIX_CASE_IDS) {
    const spec = SPECS[id];
    const ids: NamedValueId[] = [
      ...Array.from({ length: k }, (_, i) => spec.a[spec.fill ? 0 : i] ?? '+zero'),
      ...Array.from({ length: k }, (_, i) => spec.b[spec.fill ? 0 : i] ?? '+zero'),
      spec.c,
      // A block-scaled form's scales: 1 each, so that the case is the elements' own.
      ...Array.from({ length: 2 * (m.blockScale?.chunks ?? 0) }, (): NamedValueId => '+one'),
    ];
    const inputs = form.elements[0]!.inputs.map((place, i) => ({
      id: ids[i]!,
      bits: namedValueBits(ids[i]!, FORMATS[place.format]),
    }));
    if (inputs.some((x) => x.bits === null)) continue;
    cases.push({ id, inputs: inputs as MatrixCase['inputs'] });
  }
  return cases;
}
