/**
 * The corner-case table of a form: its result for every combination of special input values
 * (special-values.ts), each value described for display and sorting, and what happened in each
 * case, from the traced evaluation (case-outcomes.ts).
 */
import { findForm, type OperandName } from '../../catalog/index.ts';
import { evaluate } from '../evaluate.ts';
import { classify, FORMATS, toDouble, type FloatFormat } from '../formats.ts';
import type { FloatClass } from '../trace.ts';
import { shortestDecimal } from '../values-text.ts';
import { inEveryLane, operandFormat } from './registers.ts';
import { caseOutcomes, type CaseOutcome } from './case-outcomes.ts';
import { namedSpecialValues, type SpecialValue, type SpecialValueName } from './special-values.ts';

export type InputOperand = Exclude<OperandName, 'd'>;

/** One value of a corner-case row, described for display. */
export interface CornerValue {
  readonly class: FloatClass;
  /** Shortest decimal that reads back to the value. */
  readonly value: string;
  /** As a double, for sorting (NaN for NaN). */
  readonly number: number;
}

export interface CornerRow {
  /** Operand registers (x2 forms hold the same value in both lanes). */
  readonly a: number;
  readonly b?: number;
  readonly c?: number;
  readonly names: Readonly<Partial<Record<InputOperand, SpecialValueName>>>;
  /** Each operand's lane value. */
  readonly inputs: Readonly<Partial<Record<InputOperand, CornerValue>>>;
  /** The result register. */
  readonly d: number;
  /** Lane 0 of the result. */
  readonly result: CornerValue;
  /** What happened, read off the evaluation's trace (case-outcomes.ts). */
  readonly outcomes: readonly CaseOutcome[];
}

export interface CornerTable {
  readonly form: string;
  readonly rows: readonly CornerRow[];
}

/** fma's table would have 15³ rows: these addends instead (15² × 6 rows). */
const FMA_ADDENDS: ReadonlySet<SpecialValueName> = new Set<SpecialValueName>([
  '+0',
  '-0',
  '+1',
  '-max finite',
  '-inf',
  'NaN',
]);

export function describeValue(bits: number, f: FloatFormat): CornerValue {
  return { class: classify(bits, f), value: shortestDecimal(bits, f), number: toDouble(bits, f) };
}

/** The special values operand `name` takes in the table, or [null] where the form lacks it. */
function valuesOf(f: FloatFormat | null, addendOfFma: boolean): readonly (SpecialValue | null)[] {
  if (!f) return [null];
  const all = namedSpecialValues(f);
  return addendOfFma ? all.filter((v) => FMA_ADDENDS.has(v.name)) : all;
}

/** The form's result over every combination of special inputs; no rows for an unknown form. */
export function cornerTable(formText: string): CornerTable {
  const form = findForm(formText);
  if (!form) return { form: formText, rows: [] };
  const fa = operandFormat(form, 'a')!;
  const fb = operandFormat(form, 'b');
  const fc = operandFormat(form, 'c');
  const fd = FORMATS[form.operands[0]!.format];
  const rows: CornerRow[] = [];
  for (const a of namedSpecialValues(fa)) {
    for (const b of valuesOf(fb, false)) {
      for (const c of valuesOf(fc, fb !== null)) {
        const A = inEveryLane(form, 'a', a.bits);
        const B = b ? inEveryLane(form, 'b', b.bits) : 0;
        const C = c ? inEveryLane(form, 'c', c.bits) : 0;
        const evaluated = evaluate(form, { a: A, b: B, c: C });
        const d = evaluated.d;
        rows.push({
          a: A,
          ...(b ? { b: B } : {}),
          ...(c ? { c: C } : {}),
          names: { a: a.name, ...(b ? { b: b.name } : {}), ...(c ? { c: c.name } : {}) },
          inputs: {
            a: describeValue(a.bits, fa),
            ...(b && fb ? { b: describeValue(b.bits, fb) } : {}),
            ...(c && fc ? { c: describeValue(c.bits, fc) } : {}),
          },
          d,
          result: describeValue(fd.width === 16 ? d & 0xffff : d, fd),
          outcomes: caseOutcomes(evaluated.lanes),
        });
      }
    }
  }
  return { form: form.text, rows };
}
