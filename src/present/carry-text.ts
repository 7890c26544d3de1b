/**
 * What carrying A's values into B did (engine/what-if/carry-values.ts), in words: one line per
 * input B reads, and one for B's random bits.
 *
 *   "a: 0.0999755859375 (f16 0x2e66) is not a bf16 value: it becomes the nearest, 0.10009765625 (bf16 0x3dcd) (round to nearest even)"
 *   "b lane 1: 1 (f16 0x3c00) is exactly 1 (bf16 0x3f80)"
 */
import type { Form } from '../catalog/instruction.ts';
import { FORMATS, hexOf, valueOfBits } from '../engine/format.ts';
import type { Carried, CarriedInput } from '../engine/what-if/carry-values.ts';
import { article, valueWithBits, viewOf } from './values.ts';

/** How an input of B is named: its register, and its lane or element where B has several. */
function inputName(input: CarriedInput, b: Form): string {
  if (b.elements.length === 1) return input.operand;
  return `${input.operand} ${b.family === 'convert' || b.family === 'matrix' ? 'element' : 'lane'} ${input.element}`;
}

/** Why a value became another: past the largest value, negative or zero where the format lacks them. */
function roundedText(input: CarriedInput, from: string, to: string): string {
  const f = FORMATS[input.format];
  const source = input.from!;
  const v = valueOfBits(BigInt(source.bits), FORMATS[source.format]);
  const negative = v.kind !== 'nan' && (v.kind === 'inf' ? v.negative : v.x.negative);
  const carried = BigInt(input.bits) & ~f.signMask;
  if (negative && !f.signed)
    return `${from} is negative and ${input.format} has no sign: it becomes its least value, ${to}`;
  if (v.kind === 'finite' && v.x.mant === 0n)
    return `${from}: ${input.format} has no zero; it becomes its least value, ${to}`;
  if (carried === f.infBits)
    return `${from} is past the largest ${input.format} value: it becomes ${to}`;
  if (carried === f.maxBits && (v.kind === 'inf' || f.infBits === null))
    return `${from} is past the largest ${input.format} value, and ${input.format} has no infinity: it becomes ${to}`;
  return `${from} is not ${article(input.format)} ${input.format} value: it becomes the nearest, ${to} (round to nearest even)`;
}

/** What the carry did to one input B reads. */
export function carriedText(input: CarriedInput, b: Form): string {
  const name = inputName(input, b);
  const to = valueWithBits(viewOf(input.bits, input.format));
  const again = input.repeated ? '; A has fewer elements, so B reads its last one again' : '';
  if (input.how === 'absent' || input.from === null)
    return `${name}: A has no operand in this role; B gets ${to}`;
  const from = valueWithBits(viewOf(input.from.bits, input.from.format));
  switch (input.how) {
    case 'same':
      return `${name}: ${from}, the same bits${again}`;
    case 'exact':
      return `${name}: ${from} is exactly ${to}${again}`;
    case 'rounded':
      return `${name}: ${roundedText(input, from, to)}${again}`;
    case 'nan':
      return `${name}: ${from} is a NaN: B gets the canonical NaN ${to} (payloads do not carry)${again}`;
    case 'no-nan':
      return `${name}: ${from} is a NaN and ${input.format} has none: B gets ${to}${again}`;
  }
}

/** What B's random bits are (.rs), or null where B takes none. */
export function rbitsText(carried: Carried): string | null {
  if (carried.rbits === null) return null;
  const hex = hexOf(carried.registers.rbits ?? 0n, 32);
  return carried.rbits === 'bits'
    ? `rbits: A's random bits, carried as bits (${hex})`
    : `rbits: A has no random bits; B reads ${hex} (no carry: an inexact value rounds toward zero)`;
}
