import type { BitRange, Form, Place, SourceName } from '../catalog/instruction.ts';
import { FORMATS, hexOf } from '../engine/format.ts';
import { readValueText } from '../engine/stored-value.ts';
import { carryRegisters } from '../engine/what-if/carry-values.ts';
import { ZERO_REGISTERS, type Registers } from './register-map.ts';

/**
 * The register map (register-map.ts) read and written by the places the catalog gives
 * (src/catalog/instruction.ts): an x2 form's lanes, cvt's packed elements with the padding beside
 * them, rbits; a form's start values, and the values carried over to another form.
 */

const mask = (bits: number) => (1n << BigInt(bits)) - 1n;

/** The bits hi…lo of a register (an element's slot or its value). */
export function bitsAt(register: bigint, range: BitRange): bigint {
  return (register >> BigInt(range.lo)) & mask(range.hi - range.lo + 1);
}

/** The register with bits hi…lo replaced by `bits`. */
export function withBitsAt(register: bigint, range: BitRange, bits: bigint): bigint {
  const width = range.hi - range.lo + 1;
  const m = mask(width) << BigInt(range.lo);
  return (register & ~m) | ((bits & mask(width)) << BigInt(range.lo));
}

/** The register as the page and links write it: `0x` and lower-case hex of its full width. */
export function registerHex(bits: bigint, width: number): string {
  return hexOf(bits, width);
}

/** The form's registers only, as the engine takes them. */
export function formRegisters(
  form: Form,
  registers: Registers,
): Partial<Record<SourceName, bigint>> {
  const out: Partial<Record<SourceName, bigint>> = {};
  for (const r of form.registers.slice(1))
    out[r.name as SourceName] = registers[r.name as SourceName];
  return out;
}

/** The form's registers as lower-case hex of their widths (the worker's request). */
export function formRegistersHex(
  form: Form,
  registers: Registers,
): Partial<Record<SourceName, string>> {
  const out: Partial<Record<SourceName, string>> = {};
  for (const r of form.registers.slice(1))
    out[r.name as SourceName] = registerHex(registers[r.name as SourceName], r.bits);
  return out;
}

/**
 * The values the editors start a form with. The arithmetic computes 1.5 × 2 + 0.25 (a, b and c
 * in every element). A conversion's elements start from values that show what a conversion does,
 * element by element: 500 (past e4m3's MAX_NORM: .satfinite shows), 4.25 (a tie in e4m3), -0.3,
 * 0.001 (a subnormal in the 8-bit formats); a value the format cannot hold gives way to 1.5, then
 * to 1. .rs starts with random bits that carry in some elements and not in others.
 */
const ARITHMETIC_START: Readonly<Partial<Record<SourceName, string>>> = {
  a: '1.5',
  b: '2',
  c: '0.25',
};
const CONVERSION_START = ['500', '4.25', '-0.3', '0.001'];
const FALLBACK_START = ['1.5', '1'];
const START_RBITS = 0x9e3779b9n;

/** The first of `texts` the place's format holds, as bits of the value. */
function firstHeld(texts: readonly string[], place: Place): bigint {
  for (const text of texts) {
    const r = readValueText(text, FORMATS[place.format]);
    if (r.ok) return r.value.bits;
  }
  return 0n;
}

/** The start value of one input place of element `index`. */
function startBits(form: Form, index: number, place: Place): bigint {
  const first =
    form.operation === 'convert'
      ? CONVERSION_START[index % CONVERSION_START.length]!
      : (ARITHMETIC_START[place.operand as SourceName] ?? '1');
  return firstHeld([first, ...FALLBACK_START], place);
}

/** The registers a form starts with (the page's first form, a link that gives no operand). */
export function startRegisters(form: Form, base: Registers = ZERO_REGISTERS): Registers {
  const out: Record<SourceName, bigint> = { ...base };
  for (const r of form.registers.slice(1)) out[r.name as SourceName] = 0n;
  for (const element of form.elements)
    for (const place of element.inputs) {
      const name = place.operand as SourceName;
      out[name] = withBitsAt(out[name], place.value, startBits(form, element.index, place));
    }
  if (form.registers.some((r) => r.name === 'rbits')) out.rbits = START_RBITS;
  return out;
}

/**
 * The registers after a pick of another form: the values carry over as a comparison carries them
 * (what-if/carry-values.ts: the same format keeps its bits, another format gets the nearest value,
 * element i reads the old element min(i, last)); an input the old form had no value for, and
 * random bits it had none of, take the new form's start values. An editing convenience: the
 * engine sees only the bits the editors show.
 */
export function adaptRegisters(prev: Form, next: Form, registers: Registers): Registers {
  const carried = carryRegisters(prev, next, formRegisters(prev, registers));
  const start = startRegisters(next);
  const out: Record<SourceName, bigint> = { ...registers };
  for (const r of next.registers.slice(1)) {
    const name = r.name as SourceName;
    out[name] = carried.registers[name] ?? start[name];
  }
  for (const input of carried.inputs) {
    if (input.how !== 'absent') continue;
    const place = next.elements[input.element]!.inputs[input.input]!;
    out[input.operand] = withBitsAt(
      out[input.operand],
      place.value,
      bitsAt(start[input.operand], place.value),
    );
  }
  if (carried.rbits === 'absent') out.rbits = start.rbits;
  return out;
}

/**
 * Registers that hold `bits` in every element that reads register `name` (both lanes of an x2
 * register, every element of a packed cvt), from `registers`: a value loaded from a table.
 */
export function withEveryPlace(
  form: Form,
  registers: Registers,
  name: SourceName,
  bits: bigint,
): Registers {
  let register = registers[name];
  for (const element of form.elements)
    for (const place of element.inputs)
      if (place.operand === name) register = withBitsAt(register, place.value, bits);
  return { ...registers, [name]: register };
}
