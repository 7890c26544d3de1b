/**
 * Operand text, read by one rule wherever a person writes an operand — a share link's `a=`, the
 * editors' fields, `ptxf eval` arguments and `ptxf batch` fields:
 *
 *   - `0x…` (hex digits only) and `0b…` are the register's bits, at most as many digits as the
 *     register holds (`0x00003c00` is a 32-bit pattern: refused for a 16-bit register);
 *   - anything else is a value (`1.5`, `2`, `-0`, `inf`, `nan`, `1e-3`, the hex float
 *     `0x1.8p-3`) rounded to the operand's format by round-to-nearest-even (parseValue), and put
 *     in every lane of a packed register.
 *
 * A value is never taken silently: the answer says what was stored, for the page or the CLI to
 * show ("stored 0x3e00 = 1.5").
 */
import type { FormatName } from '../catalog/types.ts';
import { FORMATS } from './formats.ts';
import { exactValueOfBits } from './exact.ts';
import { parseValue } from './values-text.ts';

/** The shape of the register an operand text goes into. */
export interface OperandShape {
  readonly format: FormatName;
  readonly lanes: 1 | 2;
  readonly bits: 16 | 32;
}

export type OperandTextResult =
  | {
      readonly ok: true;
      readonly bits: number;
      /** Present when the text was a value rather than bits: what it became. */
      readonly value?: StoredValue;
    }
  | { readonly ok: false; readonly message: string };

export interface StoredValue {
  /** The text as written, trimmed. */
  readonly text: string;
  /** The value was representable: no rounding happened. */
  readonly exact: boolean;
}

/** Longest text quoted back in a message, so a 1 MB paste stays one readable line. */
const QUOTE_LIMIT = 40;

export function quoteText(text: string): string {
  return text.length > QUOTE_LIMIT ? `'${text.slice(0, QUOTE_LIMIT)}…'` : `'${text}'`;
}

/** Lower-case hex with `0x`, zero-padded to the register width, as the app writes bits. */
export function hexBits(bits: number, width: 16 | 32): string {
  return `0x${(bits >>> 0).toString(16).padStart(width / 4, '0')}`;
}

/** Grouping characters a person may put between digits of a bit pattern. */
const GROUPING = /[\s_]/g;

/** `0x` followed by hex digits only: register bits (a hex float has a point or a `p`). */
const HEX_BITS = /^0x[0-9a-f]+$/i;
const BIN_BITS = /^0b[01]+$/i;

export function parseOperandText(text: string, shape: OperandShape): OperandTextResult {
  const trimmed = text.trim();
  const compact = trimmed.replace(GROUPING, '');
  if (HEX_BITS.test(compact)) return bitsFrom(compact.slice(2), 16, trimmed, shape.bits);
  if (BIN_BITS.test(compact)) return bitsFrom(compact.slice(2), 2, trimmed, shape.bits);
  if (/^0[bx]/i.test(compact) && !/^0x[0-9a-f]*[.p]/i.test(compact)) {
    const kind = /^0b/i.test(compact) ? 'binary digits (0 and 1)' : 'hexadecimal digits';
    return {
      ok: false,
      message: `${quoteText(trimmed)} is not a bit pattern: ${compact.slice(0, 2)} must be followed by ${kind}`,
    };
  }
  const f = FORMATS[shape.format];
  const parsed = parseValue(trimmed, f);
  if (!parsed.ok) {
    // The suggestion repeats the digits; a long paste is shortened as in the quote.
    const digits = compact.length > QUOTE_LIMIT ? `${compact.slice(0, QUOTE_LIMIT)}…` : compact;
    const hint = /^[01]+$/.test(compact)
      ? `; register bits take a prefix: 0b${digits} (binary) or 0x${digits} (hex)`
      : /^[0-9a-f]+$/i.test(compact)
        ? `; register bits take the 0x prefix (0x${digits.toLowerCase()})`
        : '';
    return {
      ok: false,
      message:
        trimmed === ''
          ? 'empty: type register bits (0x3c00, 0b0011110000000000) or a value (1.5, -0, inf, nan)'
          : `${quoteText(trimmed)} is neither register bits (0x…, 0b…) nor a value (1.5, -0, 1e-3, inf, nan)${hint}`,
    };
  }
  const lane = parsed.bits;
  const bits = shape.lanes === 2 ? (lane * 65536 + lane) >>> 0 : lane;
  return { ok: true, bits, value: { text: trimmed, exact: parsed.exact } };
}

function bitsFrom(
  digits: string,
  radix: 16 | 2,
  written: string,
  width: 16 | 32,
): OperandTextResult {
  // At most as many digits as the register holds, leading zeros included: eight hex digits for
  // a 16-bit register are a 32-bit pattern given by mistake, reported rather than truncated.
  const allowed = radix === 16 ? width / 4 : width;
  if (digits.length > allowed) {
    const kind = radix === 16 ? 'hex digits' : 'binary digits';
    return {
      ok: false,
      message: `${quoteText(written)} has ${digits.length} ${kind}; the register is ${width} bits (at most ${allowed} ${kind})`,
    };
  }
  return { ok: true, bits: parseInt(digits, radix) >>> 0 };
}

/**
 * What a value text became, for the page or the CLI: "stored 0x3e00 = 1.5" (the exact value of
 * the stored bits), with the rounding named when the value was not representable, and "in each lane" for a packed register.
 */
export function describeStored(bits: number, shape: OperandShape, value: StoredValue): string {
  const f = FORMATS[shape.format];
  const lane = shape.lanes === 2 ? bits & 0xffff : bits;
  // Every digit: the shortest decimal of a rounded value would read back as the text typed.
  const shown = exactValueOfBits(lane, f).decimal;
  const rounded = value.exact ? '' : ` (${value.text} rounded to nearest even)`;
  const each = shape.lanes === 2 ? ' in each lane' : '';
  return `stored ${hexBits(bits, shape.bits)} = ${shown}${each}${rounded}`;
}
