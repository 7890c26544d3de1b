/**
 * Where the elements of a form sit in its registers, from the record's layout and the formats'
 * facts (formats.ts): a register of type `e4m3x2` holds two 8-bit elements, `e2m3x4` four 6-bit
 * values each in the low bits of an 8-bit slot, `tf32` its 19 bits in the upper bits of a .b32.
 */
import { FORMAT_SPECS, isFormatName, type FormatName } from './formats.ts';
import type { BitRange, Place, Register, RegisterName } from './instruction.ts';
import type { RegisterLayout } from './record.ts';

/** The format of each element a register type holds, and how many it packs: `e4m3x2` → e4m3, 2. */
export function elementsOfType(type: string): { format: FormatName; count: number } {
  const m = /^(.*?)x([24])$/.exec(type);
  const format = m ? m[1]! : type;
  if (!isFormatName(format)) throw new Error(`not a floating-point type: ${type}`);
  return { format, count: m ? Number(m[2]) : 1 };
}

/** Bits of the value itself: a slot may hold padding beside it (e2m3 in 8 bits, tf32 in 32). */
function valueBits(format: FormatName): number {
  const spec = FORMAT_SPECS[format];
  return (spec.signed ? 1 : 0) + spec.expBits + spec.manBits;
}

/**
 * Register width of a type (Description of cvt; .b16/.b32 of 9.7.4): `.b8` for e2m1x2, `.b16`
 * for the 8-bit x2 types and e2m1x4, `.b32` for f16x2/bf16x2/tf32 and the 8-bit x4 types.
 */
export function registerBits(type: string): Register['bits'] {
  if (type === 'b32') return 32;
  const { format, count } = elementsOfType(type);
  return (FORMAT_SPECS[format].slotBits * count) as Register['bits'];
}

/**
 * The place of element `index` of `count` in a register of `type`. Elements are numbered from
 * the low bits or from the high bits (`order`). A value narrower than its slot sits in the slot's
 * low bits ("with 2 MSB bits 0"), except tf32's 19 bits, in the upper bits of its .b32 (decision
 * cvt-tf32-layout).
 */
export function placeIn(
  operand: RegisterName,
  type: string,
  index: number,
  count: number,
  order: RegisterLayout['order'],
): Place {
  const { format } = elementsOfType(type);
  const width = count === 1 ? registerBits(type) : FORMAT_SPECS[format].slotBits;
  const position = order === 'low-first' ? index : count - 1 - index;
  const lo = position * width;
  const slot: BitRange = { hi: lo + width - 1, lo };
  const bits = valueBits(format);
  const value: BitRange =
    format === 'tf32' ? { hi: slot.hi, lo: slot.hi - bits + 1 } : { hi: slot.lo + bits - 1, lo };
  return { operand, slot, value, format };
}
