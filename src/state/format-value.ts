import { FORMS } from '../catalog/all-forms.ts';
import type { FormatName } from '../catalog/formats.ts';
import type { Form } from '../catalog/instruction.ts';
import { typeParts } from '../catalog/record.ts';
import type { Registers } from './register-map.ts';
import { adaptRegisters, withEveryPlace } from './registers.ts';

/**
 * How a value clicked on a format page enters the editors: in the form that reads that format,
 * where the value can be seen computed. The current form where it reads the format; otherwise a
 * conversion — one to the current destination format, else the one of the fewest modifiers that
 * converts it exactly (widening) or, failing that, at all. Nothing reads .tf32: its values go,
 * as the .f32 values that hold them exactly, into a conversion that writes .tf32.
 */
export function formReading(format: FormatName, current: Form): { form: Form; asF32: boolean } {
  const source = (f: Form) => f.elements[0]!.inputs[0]!.format;
  const dest = (f: Form) => f.elements[0]!.dest.format;
  const reads = (f: Form) => source(f) === format;
  if (reads(current)) return { form: current, asF32: false };
  const conversions = FORMS.filter((f) => f.operation === 'convert');
  const readers = conversions.filter(reads);
  if (readers.length === 0) {
    const writesIt = (f: Form) => dest(f) === format && source(f) === 'f32';
    const form = writesIt(current) ? current : (conversions.find(writesIt) ?? conversions[0]!);
    return { form, asF32: true };
  }
  const fewest = (forms: Form[]) =>
    forms.reduce((best, f) => (f.modifiers.length < best.modifiers.length ? f : best), forms[0]!);
  const sameDest = readers.filter((f) => dest(f) === dest(current));
  if (sameDest.length > 0) return { form: fewest(sameDest), asF32: false };
  const widening = readers.filter((f) => {
    const { dtype, atype } = typeParts(f.type);
    return f.rounding === null && dtype !== atype;
  });
  return { form: fewest(widening.length > 0 ? widening : readers), asF32: false };
}

/**
 * The form and registers after a click on `bits` of `format`: the value in every element of the
 * register the form reads it from, the form's other registers kept or carried over.
 */
export function loadFormatValue(
  format: FormatName,
  bits: bigint,
  current: Form,
  registers: Registers,
): { form: Form; registers: Registers } {
  const { form, asF32 } = formReading(format, current);
  const base = form === current ? registers : adaptRegisters(current, form, registers);
  // A .tf32 value is the .f32 whose 13 low bits are zero.
  const value = asF32 ? bits << 13n : bits;
  const operand = form.elements[0]!.inputs[0]!.operand as 'a';
  return { form, registers: withEveryPlace(form, base, operand, value) };
}
