/**
 * The corner-case table of any form: its result over the cases that decide something, each
 * case evaluated by the pipeline (pipeline.ts) with its trace and tagged with what happened
 * (outcomes.ts). The cases:
 *
 *  - an operation of its inputs (add, fma, min, neg, tanh, …): every combination of the named
 *    special values of each input's format (named-values.ts), the first input outermost; the
 *    third input of a three-input operation (fma's addend) takes only CORNER_ADDENDS, which
 *    keeps fma's table at 15 × 15 × 6 rows instead of 15³;
 *  - a conversion: the source values of conversion-cases.ts;
 *  - a matrix form's dot product: the vectors of matrix-cases.ts (NaN, ∞ × 0, ∞ − ∞, signed
 *    zeros, cancellation, subnormal inputs, a term far below E, an overflowing sum, …), on
 *    the target of the options (EngineOptions.target).
 *
 * Each case's values go into every element of the registers (both lanes of an x2 form, every
 * source element of a packed cvt), so every element computes the same case; the row shows
 * element 0's result. Other register bits are zero, rbits included: under .rs every inexact
 * case rounds toward zero.
 */
import type { Form, SourceName } from '../../catalog/instruction.ts';
import { bitsView, FORMATS, toDouble, type BitsView } from '../format.ts';
import type { EngineOptions } from '../options.ts';
import { evaluate, resolveForm } from '../pipeline.ts';
import { conversionCases, type ConversionCaseId } from './conversion-cases.ts';
import { matrixCases, type MatrixCaseId } from './matrix-cases.ts';
import { registersHex, registersHolding } from './form-registers.ts';
import { namedValues, type NamedValueId } from './named-values.ts';
import { caseOutcomes, type CaseOutcome } from './outcomes.ts';

/** What a case's input value is: a named value of its format, or a conversion's case. */
export type CaseId = NamedValueId | ConversionCaseId;

/** The third input of a three-input operation (fma's c) takes these values only. */
export const CORNER_ADDENDS: readonly NamedValueId[] = [
  '+zero',
  '-zero',
  '+one',
  '-max-norm',
  '-inf',
  'nan',
];

/** One value of a row: its pattern, class and exact value, and as a double for sorting. */
export interface CornerValue extends BitsView {
  /** The value as a double (exact: every value of every format is one), NaN for NaN. */
  readonly number: number;
}

export interface CornerInput {
  /** The register the input comes from. */
  readonly operand: SourceName;
  readonly case: CaseId;
  /** The element's value (every element that reads this input holds it). */
  readonly value: CornerValue;
}

export interface CornerRow {
  /** Every source register (rbits included), lower-case hex of its width: load these. */
  readonly registers: Readonly<Partial<Record<SourceName, string>>>;
  /** The operation's inputs, in order (add a, b; mixed add a, c; cvt its source). */
  readonly inputs: readonly CornerInput[];
  /** The destination register, lower-case hex of its width. */
  readonly d: string;
  /** Element 0's result (every element computes the same case). */
  readonly result: CornerValue;
  /** What happened, read off the evaluation's steps, over all its elements. */
  readonly outcomes: readonly CaseOutcome[];
  /** A matrix form's row: the vector case it shows (matrix-cases.ts). */
  readonly matrixCase?: MatrixCaseId;
}

export interface CornerTable {
  readonly form: string;
  readonly rows: readonly CornerRow[];
}

function cornerValue(view: BitsView): CornerValue {
  const f = FORMATS[view.format];
  return { ...view, number: toDouble(BigInt(view.bits), f) };
}

/** The cases of the form: per case, one (id, bits) per input of the operation. */
function casesOf(form: Form): { id: CaseId; bits: bigint }[][] {
  const inputs = form.elements[0]!.inputs;
  if (form.operation === 'convert') return conversionCases(form).map((c) => [c]);
  if (form.matrix) return matrixCases(form).map((c) => [...c.inputs]);
  let combos: { id: CaseId; bits: bigint }[][] = [[]];
  inputs.forEach((place, i) => {
    const all = namedValues(place.format);
    const values = i === 2 ? all.filter((v) => CORNER_ADDENDS.includes(v.id)) : all;
    combos = combos.flatMap((combo) => values.map((v) => [...combo, { id: v.id, bits: v.bits }]));
  });
  return combos;
}

/** The form's result over its corner cases. */
export function cornerTable(
  formOrText: Form | string,
  options?: Partial<EngineOptions>,
): CornerTable {
  const form = resolveForm(formOrText);
  const places = form.elements[0]!.inputs;
  const vectorCases = form.matrix ? matrixCases(form).map((c) => c.id) : null;
  const rows = casesOf(form).map((cases, row): CornerRow => {
    const registers = registersHolding(
      form,
      cases.map((c) => c.bits),
    );
    const evaluated = evaluate(form, registers, options);
    const element = evaluated.elements[0]!;
    const dest = FORMATS[form.elements[0]!.dest.format];
    return {
      registers: registersHex(form, registers),
      inputs: cases.map((c, i) => ({
        operand: places[i]!.operand as SourceName,
        case: c.id,
        value: cornerValue(bitsView(c.bits, FORMATS[places[i]!.format])),
      })),
      d: evaluated.d,
      result: cornerValue(bitsView(BigInt(element.result), dest)),
      outcomes: caseOutcomes(evaluated),
      ...(vectorCases ? { matrixCase: vectorCases[row]! } : {}),
    };
  });
  return { form: form.text, rows };
}
