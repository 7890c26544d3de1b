/**
 * Operand text, read by one rule for every form (src/catalog/instruction.ts) wherever a person
 * writes an operand — a share link's `a=`, the editors' fields, `ptxf eval` arguments and batch
 * fields:
 *
 *   - `0x…` (hex digits only) and `0b…` are the register's bits, at most as many digits as the
 *     register holds (`0x00003c00` is a 32-bit pattern: refused for a 16-bit register);
 *   - anything else is a value (`1.5`, `2`, `-0`, `inf`, `nan`, `1e-3`, the hex float
 *     `0x1.8p-3`), rounded to each element's format (stored-value.ts: round to nearest even by
 *     the one rounding routine; what a format cannot hold is refused) and put in every element
 *     of the register that the form reads; bits outside them (e2m3's padding, tf32's tail) are 0.
 *     rbits holds random bits, no value: bits only.
 *
 * A value is never taken silently: the answer says what was stored in which elements, as data,
 * for the page or the CLI to write ("stored 0x3e003e00 = 1.5 in each lane"). One element's
 * field reads the same rule at the element's width (readElementText); a field labelled hex or
 * binary takes digits of its base (bits-text.ts parseBitsText). Nothing here throws.
 */
import type { Form, Place, RegisterName } from '../catalog/instruction.ts';
import { readPrefixedBits } from './bits-text.ts';
import { FORMATS, type Format } from './format.ts';
import {
  numberHint,
  quoteText,
  readNumberText,
  textError,
  type NumberTextResult,
  type TextError,
} from './number-text.ts';
import { storeNumber, type StoredValue } from './stored-value.ts';

/** A place of the register that received the value, and the elements that read it. */
export interface StoredPlace {
  readonly place: Place;
  /** Form.elements[].index of each element whose input (or, for d, output) is this place. */
  readonly elements: readonly number[];
  readonly value: StoredValue;
}

export type RegisterTextResult =
  | {
      readonly ok: true;
      readonly written: 'bits';
      readonly bits: bigint;
      /** The register's width in bits (hexOf(bits, width) writes it as the app does). */
      readonly width: number;
    }
  | {
      readonly ok: true;
      readonly written: 'value';
      readonly bits: bigint;
      readonly width: number;
      /** Every place the value went to, in the order of the form's elements. */
      readonly places: readonly StoredPlace[];
    }
  | { readonly ok: false; readonly error: TextError };

export type ElementTextResult =
  | { readonly ok: true; readonly written: 'bits'; readonly bits: bigint }
  | {
      readonly ok: true;
      readonly written: 'value';
      readonly bits: bigint;
      readonly value: StoredValue;
    }
  | { readonly ok: false; readonly error: TextError };

/** The register's places that hold values, each once, with the elements that read them. */
export function registerPlaces(
  form: Form,
  register: RegisterName,
): readonly { readonly place: Place; readonly elements: readonly number[] }[] {
  const places: { place: Place; elements: number[] }[] = [];
  for (const element of form.elements) {
    const held = register === 'd' ? [element.dest] : element.inputs;
    for (const place of held) {
      if (place.operand !== register) continue;
      const same = places.find(
        (p) => p.place.value.hi === place.value.hi && p.place.value.lo === place.value.lo,
      );
      if (same) {
        if (!same.elements.includes(element.index)) same.elements.push(element.index);
      } else places.push({ place, elements: [element.index] });
    }
  }
  return places;
}

/** Text for one of a form's registers, by the one rule. */
export function readRegisterText(
  form: Form,
  register: RegisterName,
  text: string,
): RegisterTextResult {
  const spec = form.registers.find((r) => r.name === register);
  if (!spec)
    return failed(
      textError(
        'no-register',
        `${form.text} has no register ${register} (its registers: ${form.registers.map((r) => r.name).join(', ')})`,
      ),
    );
  const width = spec.bits;
  const bits = readPrefixedBits(text, width, 'register');
  if (bits) return bits.ok ? { ok: true, written: 'bits', bits: bits.bits, width } : bits;
  const places = registerPlaces(form, register);
  if (places.length === 0)
    return failed(
      textError(
        'bits-only',
        `${register} holds ${register === 'rbits' ? 'random bits' : 'no value of the form'}, not a value: type 0x… or 0b… (${width} bits)`,
      ),
    );
  const read = readValue(text, 'register bits (0x3c00, 0b0011110000000000)');
  if (!read.ok) return read;
  // One rounding per format (a register's places share one today).
  const byFormat = new Map<string, StoredValue>();
  let bitsOfRegister = 0n;
  const stored: StoredPlace[] = [];
  for (const { place, elements } of places) {
    let value = byFormat.get(place.format);
    if (!value) {
      const s = storeNumber(read.number, FORMATS[place.format], text.trim());
      if (!s.ok) return s;
      byFormat.set(place.format, (value = s.value));
    }
    bitsOfRegister |= value.bits << BigInt(place.value.lo);
    stored.push({ place, elements, value });
  }
  return { ok: true, written: 'value', bits: bitsOfRegister, width, places: stored };
}

/**
 * Text for one element's value field: `0x…`/`0b…` bits of the format's value width (6 for
 * e2m3, 19 for tf32), or a value rounded to the format.
 */
export function readElementText(text: string, f: Format): ElementTextResult {
  const bits = readPrefixedBits(text, f.width, 'element');
  if (bits) return bits.ok ? { ok: true, written: 'bits', bits: bits.bits } : bits;
  const read = readValue(text, `element bits (0x…, ${f.width} bits)`);
  if (!read.ok) return read;
  const s = storeNumber(read.number, f, text.trim());
  return s.ok ? { ok: true, written: 'value', bits: s.value.bits, value: s.value } : s;
}

const failed = (error: TextError): { readonly ok: false; readonly error: TextError } => ({
  ok: false,
  error,
});

/**
 * The number a value text names, or an error that says how else it could be written: a text of
 * bare hex or binary digits was probably meant as bits and lacks the prefix.
 */
function readValue(text: string, bitsExample: string): NumberTextResult {
  const read = readNumberText(text);
  if (read.ok || (read.error.code !== 'not-a-number' && read.error.code !== 'empty')) return read;
  const trimmed = text.trim();
  if (read.error.code === 'empty')
    return failed(
      textError(
        'empty',
        `empty: type ${bitsExample} or a value (1.5, -0, inf, nan)`,
        read.error.position,
      ),
    );
  const compact = trimmed.replace(/[\s_]/g, '');
  // The suggestion repeats the digits; a long paste is shortened as in the quote.
  const digits = compact.length > 40 ? `${compact.slice(0, 40)}…` : compact;
  const hint = /^[01]+$/.test(compact)
    ? `; bits take a prefix: 0b${digits} (binary) or 0x${digits} (hex)`
    : /^[0-9a-f]+$/i.test(compact)
      ? `; bits take the 0x prefix (0x${digits.toLowerCase()})`
      : '';
  return failed(
    textError(
      'not-a-number',
      `${quoteText(trimmed)} is neither bits (0x…, 0b…) nor a value (1.5, -0, 1e-3, inf, nan)${hint}${numberHint(compact)}`,
      read.error.position,
    ),
  );
}
