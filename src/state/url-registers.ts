/**
 * A link's registers, by the one rule for operand text (engine/register-text.ts): the form's
 * registers from their parameters, a start value with a notice for one that cannot be read, a
 * sentence for each value given (what it stored). The decoder (url-codec.ts) and the migrations
 * of older links (url-migrations.ts) read registers through here.
 */
import type { Form, SourceName } from '../catalog/instruction.ts';
import { readRegisterText } from '../engine/register-text.ts';
import { registerStoredText } from '../present/stored-text.ts';
import { SOURCE_NAMES } from './register-map.ts';
import { registerHex, startRegisters } from './registers.ts';
import { isListRegister, linkParam, readMatrixListParam } from './url-matrix.ts';

/** Where a reading reports what it could not use, and what a value it read stored. */
export interface RegisterNotes {
  readonly ignored: string[];
  readonly stored: string[];
}

/** The link parameters of the registers (url-matrix.ts linkParam: the scales are `sa` and `sb`). */
export const REGISTER_KEYS: readonly string[] = SOURCE_NAMES.map(linkParam);

/**
 * One register from its text by the one rule, or the form's start value for it with a notice
 * when the text is neither bits nor a value the register can hold; a value's stored bits are
 * noted.
 */
export function readRegister(
  form: Form,
  name: SourceName,
  text: string | undefined,
  start: bigint,
  notes: RegisterNotes,
): bigint {
  if (text === undefined) return start;
  const list = isListRegister(form, name)
    ? readMatrixListParam(form, name, text, start, notes)
    : null;
  if (list !== null) return list;
  const r = readRegisterText(form, name, text);
  if (!r.ok) {
    const width = form.registers.find((x) => x.name === name)!.bits;
    notes.ignored.push(`operand ${name}: ${r.error.message}; using ${registerHex(start, width)}`);
    return start;
  }
  if (r.written === 'value')
    notes.stored.push(`${name} = ${text.trim()}: ${registerStoredText(form, r, r.places)}`);
  return r.bits;
}

/**
 * The form's registers from the link: those it has in its order (what they held, or their start
 * values), then a notice for each register the link gives that the form does not have.
 */
export function readRegisters(
  form: Form,
  params: ReadonlyMap<string, string>,
  notes: RegisterNotes,
): Partial<Record<SourceName, bigint>> {
  const start = startRegisters(form);
  const registers: Partial<Record<SourceName, bigint>> = {};
  for (const r of form.registers.slice(1)) {
    const name = r.name as SourceName;
    registers[name] = readRegister(form, name, params.get(linkParam(name)), start[name], notes);
  }
  for (const name of SOURCE_NAMES)
    if (registers[name] === undefined && params.has(linkParam(name)))
      notes.ignored.push(`operand ${name}: ${form.text} has no operand ${name}`);
  return registers;
}
