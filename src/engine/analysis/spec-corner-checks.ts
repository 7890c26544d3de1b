/**
 * The spec's corner-case tables (tanh, ex2: the catalog record's `cornerCases`) checked line by
 * line against the engine's traced evaluation.
 */
import { findForm, laneFormat, type CornerInput, type CornerResult } from '../../catalog/index.ts';
import { evaluate } from '../evaluate.ts';
import { FORMATS, specialValues, toDouble, type FloatFormat } from '../formats.ts';
import { shortestDecimal } from '../values-text.ts';
import { inEveryLane } from './registers.ts';

/** The engine's answer for one line of a spec corner-case table. */
export interface SpecCornerCheck {
  readonly title: string;
  /** The input as the spec writes it ("-inf", "+subnormal"). */
  readonly input: CornerInput;
  /** The lane bits tried for it (a subnormal: the smallest of that sign). */
  readonly inputBits: number;
  readonly expected: CornerResult;
  readonly engineBits: number;
  readonly engineValue: string;
  readonly agrees: boolean;
}

/** Lane bits of a value of each kind the tables name. */
const INPUT_BITS: Record<CornerInput, (f: FloatFormat) => number> = {
  '-inf': (f) => specialValues(f).minusInf,
  '-subnormal': (f) => specialValues(f).minSubnormal + f.signMask,
  '-0': (f) => specialValues(f).minusZero,
  '+0': (f) => specialValues(f).plusZero,
  '+subnormal': (f) => specialValues(f).minSubnormal,
  '+inf': (f) => specialValues(f).plusInf,
  nan: (f) => specialValues(f).canonicalNaN,
};

/** Does the engine's result `bits` for lane input `input` say what the table's entry says? */
function agrees(expected: CornerResult, bits: number, input: number, f: FloatFormat): boolean {
  const s = specialValues(f);
  switch (expected) {
    case '+0.0':
      return bits === s.plusZero;
    case '-0.0':
      return bits === s.minusZero;
    case '+1.0':
      return bits === s.one;
    case '-1.0':
      return bits === s.minusOne;
    case '+inf':
      return bits === s.plusInf;
    case 'nan':
      return Number.isNaN(toDouble(bits, f));
    case 'input':
      return bits === input;
  }
}

/** Every line of the form's spec tables beside the engine's answer; none for other forms. */
export function specCornerChecks(formText: string): SpecCornerCheck[] {
  const form = findForm(formText);
  if (!form?.record.cornerCases) return [];
  const f = FORMATS[laneFormat(form.type)];
  const checks: SpecCornerCheck[] = [];
  for (const table of form.record.cornerCases) {
    if (!table.types.includes(form.type)) continue;
    for (const row of table.rows) {
      const input = INPUT_BITS[row.input](f);
      const engineBits = evaluate(form, { a: inEveryLane(form, 'a', input) }).lanes[0]!.result;
      checks.push({
        title: table.title,
        input: row.input,
        inputBits: input,
        expected: row.result,
        engineBits,
        engineValue: shortestDecimal(engineBits, f),
        agrees: agrees(row.result, engineBits, input, f),
      });
    }
  }
  return checks;
}
