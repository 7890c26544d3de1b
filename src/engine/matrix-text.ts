/**
 * A matrix form's row of A or column of B written as a list, `1, 0x3c00, -0.5, …` (k elements,
 * comma-separated; a block-scaled form's scales likewise, one per chunk: `0x7f, 0x80`), each
 * element by the one rule of operand text (register-text.ts readElementText): `0x…`/`0b…` the
 * element's bits, anything else a value rounded to its format. A tf32 element's bits are its
 * whole .b32 register (matrix-registers.ts), its value is stored in the upper 19 bits; a UE4M3
 * scale's bits are its byte. Nothing here throws: a wrong count or a bad element is an error
 * naming it.
 */
import type { Form } from '../catalog/instruction.ts';
import { readPrefixedBits } from './bits-text.ts';
import { FORMATS } from './format.ts';
import { givenPlace, placesOf } from './matrix-registers.ts';
import { textError, type TextError } from './number-text.ts';
import { readElementText } from './register-text.ts';
import type { StoredValue } from './stored-value.ts';

/** An element given as a value: its index in the list and what was stored. */
export interface StoredElement {
  readonly index: number;
  readonly value: StoredValue;
  /** The element's bits as given (a tf32 element's: its .b32 register) and their width. */
  readonly bits: bigint;
  readonly width: number;
}

export type MatrixListResult =
  | {
      readonly ok: true;
      /** The register holding the list's elements in their places. */
      readonly bits: bigint;
      /** The elements given as values, in order. */
      readonly stored: readonly StoredElement[];
    }
  | { readonly ok: false; readonly error: TextError };

/** Whether operand text is a list of elements (it has a comma) rather than one register text. */
export function isElementList(text: string): boolean {
  return text.includes(',');
}

/** The list's element texts: a list as given, or a text split at its commas. */
export function readMatrixList(
  form: Form,
  operand: 'a' | 'b' | 'scale_a' | 'scale_b',
  list: string | readonly string[],
): MatrixListResult {
  const places = placesOf(form, operand);
  const items = typeof list === 'string' ? list.split(',') : list;
  if (items.length !== places.length)
    return {
      ok: false,
      error: textError(
        'list-length',
        `${operand} is a list of ${places.length} .${places[0]!.format} elements; ${items.length} given`,
      ),
    };
  let bits = 0n;
  const stored: StoredElement[] = [];
  for (const [i, place] of places.entries()) {
    const { lo, width } = givenPlace(place);
    const item = items[i]!;
    // tf32's bits are its .b32 register, a value goes into its upper 19 bits; a UE4M3 scale's
    // bits are its byte (the sign bit ignored), a value its low 7 bits.
    const whole = place.format === 'tf32' || place.format === 'ue4m3';
    const container = whole ? readPrefixedBits(item, width, 'element') : null;
    const element = container ? null : readElementText(item, FORMATS[place.format]);
    const read = container ?? element!;
    if (!read.ok)
      return {
        ok: false,
        error: { ...read.error, message: `${operand}[${i}]: ${read.error.message}` },
      };
    const shift = place.format === 'tf32' && !container ? BigInt(width - FORMATS.tf32.width) : 0n;
    bits |= (read.bits << shift) << BigInt(lo);
    if (element?.ok && element.written === 'value')
      stored.push({ index: i, value: element.value, bits: read.bits << shift, width });
  }
  return { ok: true, bits, stored };
}
