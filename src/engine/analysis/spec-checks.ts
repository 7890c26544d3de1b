/**
 * The spec's own corner-case tables (tanh, ex2: the form's `cornerCases`) checked line by line
 * against the pipeline: each line's input put in every element of a, and whether the result is
 * what the line says.
 */
import type { CornerInput, CornerResult, Form, SourceName } from '../../catalog/instruction.ts';
import { bitsView, FORMATS, formatHex, isNaNBits, type BitsView, type Format } from '../format.ts';
import type { EngineOptions } from '../options.ts';
import { evaluate, resolveForm } from '../pipeline.ts';
import { registersHex, registersHolding } from './form-registers.ts';
import { namedValueBits, type NamedValueId } from './named-values.ts';

/** The pipeline's answer for one line of a spec corner-case table. */
export interface SpecCornerCheck {
  readonly title: string;
  /** The input as the spec writes it ("-inf", "+subnormal"). */
  readonly input: CornerInput;
  /** The element tried for it (a subnormal: the least one of that sign), hex of its format. */
  readonly inputBits: string;
  /** The source registers that hold it in every element. */
  readonly registers: Readonly<Partial<Record<SourceName, string>>>;
  readonly expected: CornerResult;
  /** Element 0's result. */
  readonly result: BitsView;
  readonly agrees: boolean;
}

/** The named value each input of the tables stands for. */
const INPUT_VALUES: Record<CornerInput, NamedValueId> = {
  '-inf': '-inf',
  '-subnormal': '-least-subnormal',
  '-0': '-zero',
  '+0': '+zero',
  '+subnormal': '+least-subnormal',
  '+inf': '+inf',
  nan: 'nan',
};

/** The named value each result of the tables stands for ('nan': any NaN; 'input': the input). */
const RESULT_VALUES: Record<Exclude<CornerResult, 'nan' | 'input'>, NamedValueId> = {
  '+0.0': '+zero',
  '-0.0': '-zero',
  '+1.0': '+one',
  '-1.0': '-one',
  '+inf': '+inf',
};

function agrees(expected: CornerResult, bits: bigint, input: bigint, f: Format): boolean {
  if (expected === 'nan') return isNaNBits(bits, f);
  if (expected === 'input') return bits === input;
  return bits === namedValueBits(RESULT_VALUES[expected], f);
}

/** Every line of the form's spec tables beside the pipeline's answer; none for other forms. */
export function specCornerChecks(
  formOrText: Form | string,
  options?: Partial<EngineOptions>,
): SpecCornerCheck[] {
  const form = resolveForm(formOrText);
  const element = form.elements[0]!;
  const f = FORMATS[element.inputs[0]!.format];
  const dest = FORMATS[element.dest.format];
  return (form.cornerCases ?? []).flatMap((table) =>
    table.rows.map((row) => {
      const input = namedValueBits(INPUT_VALUES[row.input], f)!;
      const registers = registersHolding(form, [input]);
      const bits = BigInt(evaluate(form, registers, options).elements[0]!.result);
      return {
        title: table.title,
        input: row.input,
        inputBits: formatHex(input, f),
        registers: registersHex(form, registers),
        expected: row.result,
        result: bitsView(bits, dest),
        agrees: agrees(row.result, bits, input, dest),
      };
    }),
  );
}
