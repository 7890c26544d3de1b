/**
 * Where the elements of a form sit in its registers, from the record's layout and the formats'
 * facts (formats.ts): a register of type `e4m3x2` holds two 8-bit elements, `e2m3x4` four 6-bit
 * values each in the low bits of an 8-bit slot, `tf32` its 19 bits in the upper bits of a .b32.
 */
import { FORMAT_SPECS, isFormatName, type FormatName } from './formats.ts';
import type { BitRange, Place, Register, RegisterName } from './instruction.ts';
import type { RegisterLayout } from './record.ts';

/**
 * The format of each element a register type holds, and how many it packs: `e4m3x2` → e4m3, 2;
 * a matrix form's row `f16x16` → f16, 16.
 */
export function elementsOfType(type: string): { format: FormatName; count: number } {
  const m = /^(.*?)x(\d+)$/.exec(type);
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

/**
 * The container of one element of a matrix row or column: the format's own slot, or the
 * record's container (mma's FP6 and FP4 in 8 bits), and where the value sits in it. tf32's 19
 * bits are the upper bits of its .b32 ("the lower 13 bits are ignored").
 */
export function containerOf(
  format: FormatName,
  layout: RegisterLayout,
): { readonly bits: number; readonly value: BitRange } {
  const own = layout.containers?.[format];
  if (own) return own;
  const bits = FORMAT_SPECS[format].slotBits;
  const width = valueBits(format);
  return {
    bits,
    value: format === 'tf32' ? { hi: bits - 1, lo: bits - width } : { hi: width - 1, lo: 0 },
  };
}

/** The places of a matrix row or column of k elements in `operand`: element i in slot i from the low bits. */
export function vectorPlaces(
  operand: RegisterName,
  format: FormatName,
  k: number,
  layout: RegisterLayout,
): Place[] {
  const { bits, value } = containerOf(format, layout);
  return Array.from({ length: k }, (_, i) => {
    const lo = i * bits;
    return {
      operand,
      slot: { hi: lo + bits - 1, lo },
      value: { hi: lo + value.hi, lo: lo + value.lo },
      format,
    };
  });
}

/** The place of a one-element matrix register (C, D): the whole register, or tf32's upper bits. */
export function scalarPlace(
  operand: RegisterName,
  format: FormatName,
  layout: RegisterLayout,
): Place {
  return vectorPlaces(operand, format, 1, layout)[0]!;
}
