/**
 * What the references read of the catalog (src/catalog/all-forms.ts, the one instruction model):
 * a form's opcode, types, modifiers and rounding, and of each register its width, how many lanes
 * it holds and their format. Data only: the references place, decode and round the values
 * themselves, with no engine code.
 */
import { FORMS, findForm } from '../../src/catalog/all-forms.ts';
import type { Form } from '../../src/catalog/instruction.ts';
import { IEEE_ROUNDINGS, type IeeeRounding } from '../../src/catalog/modifiers.ts';

export type OperandName = 'd' | 'a' | 'b' | 'c';
export type LaneFormatName = 'f16' | 'bf16' | 'f32';

/** A register of a half- or mixed-precision form: its width, its lanes (2 in x2) and their format. */
export interface RefOperand {
  readonly name: OperandName;
  readonly bits: 16 | 32;
  readonly lanes: 1 | 2;
  readonly format: LaneFormatName;
}

/** The half- and mixed-precision forms (9.7.4, 9.7.5), in the catalog's order. */
export const ARITHMETIC_FORMS: readonly Form[] = FORMS.filter(
  (f) => f.family === 'half' || f.family === 'mixed',
);

/** The float-to-float conversions (9.7.9.21), in the catalog's order. */
export const CONVERT_FORMS: readonly Form[] = FORMS.filter((f) => f.family === 'convert');

const OPERAND_NAMES: readonly string[] = ['d', 'a', 'b', 'c'];
const LANE_FORMATS: readonly string[] = ['f16', 'bf16', 'f32'];
const operandsCache = new WeakMap<Form, readonly RefOperand[]>();

/** The registers of a half- or mixed-precision form, `d` first (the type `f16x2` is 2 f16 lanes). */
export function operandsOf(form: Form): readonly RefOperand[] {
  let operands = operandsCache.get(form);
  if (operands) return operands;
  operands = form.registers.map((r): RefOperand => {
    const format = r.type.replace(/x2$/, '');
    if (!OPERAND_NAMES.includes(r.name) || !LANE_FORMATS.includes(format) || r.bits > 32)
      throw new Error(`not a half- or mixed-precision register: ${form.text} ${r.name}`);
    return {
      name: r.name as OperandName,
      bits: r.bits as 16 | 32,
      lanes: r.type.endsWith('x2') ? 2 : 1,
      format: format as LaneFormatName,
    };
  });
  operandsCache.set(form, operands);
  return operands;
}

/** The half- or mixed-precision form of this canonical text. */
export function arithmeticForm(text: string): Form {
  const form = findForm(text);
  if (!form || (form.family !== 'half' && form.family !== 'mixed'))
    throw new Error(`not a half- or mixed-precision form: ${text}`);
  return form;
}

/** The rounding of an arithmetic form: the written one or the line's default, else .rn. */
export function roundingOf(form: Form): IeeeRounding {
  const mode = form.rounding ?? 'rn';
  if (!(IEEE_ROUNDINGS as readonly string[]).includes(mode))
    throw new Error(`not an IEEE rounding: ${form.text}`);
  return mode as IeeeRounding;
}

/** The conversion of this canonical text. */
export function convertForm(text: string): Form {
  const form = findForm(text);
  if (!form || form.family !== 'convert') throw new Error(`not a cvt form: ${text}`);
  return form;
}

/** A conversion's destination and source types, as written: `e4m3x2.f32` → e4m3x2, f32. */
export function cvtTypes(form: Form): { readonly dtype: string; readonly atype: string } {
  const [dtype, atype] = form.type.split('.');
  return { dtype: dtype!, atype: atype! };
}
