/**
 * Registers that hold chosen element values, for any form: a case of a corner-case table puts
 * its value in every element that reads that input (both lanes of an x2 register, every source
 * element of a packed cvt), and a sweep puts its input in element 0 alone.
 */
import type { Form, Place, SourceName } from '../../catalog/instruction.ts';
import { hexOf } from '../format.ts';
import type { Registers } from '../pipeline.ts';

type MutableRegisters = { -readonly [K in SourceName]?: bigint };

/** Every source register of the form (rbits included), all zero. */
export function zeroRegisters(form: Form): MutableRegisters {
  const registers: MutableRegisters = {};
  for (const r of form.registers.slice(1)) registers[r.name as SourceName] = 0n;
  return registers;
}

function put(registers: MutableRegisters, place: Place, bits: bigint): void {
  const name = place.operand as SourceName;
  registers[name] = (registers[name] ?? 0n) | (bits << BigInt(place.value.lo));
}

/**
 * The registers whose every element holds `values[i]` as its i-th input (the operation's inputs
 * in order: add a, b; mixed add a, c; cvt its source); every other bit, rbits included, is zero.
 */
export function registersHolding(form: Form, values: readonly bigint[]): Registers {
  const registers = zeroRegisters(form);
  for (const element of form.elements)
    element.inputs.forEach((place, i) => put(registers, place, values[i] ?? 0n));
  return registers;
}

/** The register `operand` with `bits` in every element that reads it (both lanes of an x2). */
export function registerHolding(form: Form, operand: SourceName, bits: bigint): bigint {
  const registers: MutableRegisters = { [operand]: 0n };
  for (const element of form.elements)
    for (const place of element.inputs) if (place.operand === operand) put(registers, place, bits);
  return registers[operand]!;
}

/** The registers as lower-case hex of each register's width (plain data for a table row). */
export function registersHex(
  form: Form,
  registers: Registers,
): Readonly<Partial<Record<SourceName, string>>> {
  const hex: Partial<Record<SourceName, string>> = {};
  for (const r of form.registers.slice(1)) {
    const name = r.name as SourceName;
    hex[name] = hexOf(registers[name] ?? 0n, r.bits);
  }
  return hex;
}

/** Registers written as hex (a table row's) back as the pipeline takes them. */
export function registersOfHex(hex: Readonly<Partial<Record<SourceName, string>>>): Registers {
  const registers: MutableRegisters = {};
  for (const [name, text] of Object.entries(hex)) registers[name as SourceName] = BigInt(text!);
  return registers;
}
