/**
 * Bit patterns as people type them, in two places:
 *   - operand text, where `0x…` (hex digits only: a hex float has a point or a `p`) and `0b…`
 *     are bits and anything else is a value (readPrefixedBits; register-text.ts applies the rule);
 *   - a field labelled hex or binary, which takes digits of that base, the prefix optional:
 *     `1000` in a hex field is 0x1000, `101` in a binary field 0b101 (parseBitsText).
 * Spaces and `_` may group the digits. At most as many digits as the bits hold, leading zeros
 * included — eight hex digits for 16 bits are a 32-bit pattern given by mistake, reported rather
 * than cut — and, where the width is not a whole number of digits (a 6-bit e2m3 element), a
 * pattern below 2^width. Patterns are bigint, exact up to f64's 64 bits.
 */
import { hexOf } from './format.ts';
import {
  MAX_TEXT_LENGTH,
  quoteText,
  readNumberText,
  textError,
  type TextError,
} from './number-text.ts';

export type BitsTextResult =
  { readonly ok: true; readonly bits: bigint } | { readonly ok: false; readonly error: TextError };

/** What holds the bits, as a message names it. */
export type BitsHolder = 'register' | 'element' | 'field';

const GROUPING = /[\s_]/g;

const fail = (code: TextError['code'], message: string, position = 0): BitsTextResult => ({
  ok: false,
  error: textError(code, message, position),
});

/**
 * Operand text written as bits (`0x3c00`, `0b0011_1100_0000_0000`): the pattern, or why it is
 * not one; null when the text is not written as bits (it is to be read as a value).
 */
export function readPrefixedBits(
  text: string,
  width: number,
  holder: BitsHolder = 'register',
): BitsTextResult | null {
  if (text.length > MAX_TEXT_LENGTH) return null;
  const trimmed = text.trim();
  const compact = trimmed.replace(GROUPING, '');
  const hex = /^0x([0-9a-f]+)$/i.exec(compact);
  const bin = /^0b([01]+)$/i.exec(compact);
  if (hex) return fitting(hex[1]!, 16, width, trimmed, holder);
  if (bin) return fitting(bin[1]!, 2, width, trimmed, holder);
  if (/^0[bx]/i.test(compact) && !/^0x[0-9a-f]*[.p]/i.test(compact)) {
    const binary = /^0b/i.test(compact);
    const kind = binary ? 'binary digits (0 and 1)' : 'hexadecimal digits';
    return fail(
      'bits-digits',
      `${quoteText(trimmed)} is not a bit pattern: ${compact.slice(0, 2)} must be followed by ${kind}`,
      firstBadDigit(text, binary ? 2 : 16),
    );
  }
  return null;
}

/**
 * A field labelled hex (`base` 16) or binary (2): digits of that base, the prefix (`0x`, `0b`)
 * optional, at most `width` bits. A value is not read here: the value field takes values.
 */
export function parseBitsText(
  text: string,
  base: 16 | 2,
  width: number,
  holder: BitsHolder = 'field',
): BitsTextResult {
  if (text.length > MAX_TEXT_LENGTH)
    return fail(
      'too-long',
      `the text is too long (${text.length} characters; at most ${MAX_TEXT_LENGTH})`,
    );
  const trimmed = text.trim();
  const compact = trimmed.replace(GROUPING, '');
  const name = base === 16 ? 'hex' : 'binary';
  const example = base === 16 ? '3c00' : '0011110000000000';
  if (compact === '') return fail('empty', `empty: type ${name} digits (${example})`, text.length);
  const prefix = base === 16 ? /^0x/i : /^0b/i;
  const digits = compact.replace(prefix, '');
  const valid = base === 16 ? /^[0-9a-f]+$/i : /^[01]+$/;
  if (!valid.test(digits)) {
    const allowed = base === 16 ? 'the digits 0-9 and a-f' : 'the digits 0 and 1';
    const value = readNumberText(trimmed);
    const hint = value.ok ? '; a value goes in the value field' : '';
    return fail(
      'bits-digits',
      `${quoteText(trimmed)} is not ${name}: type ${allowed} (${base === 16 ? '0x' : '0b'} optional)${hint}`,
      digits === '' ? text.length : firstBadDigit(text, base),
    );
  }
  return fitting(digits, base, width, trimmed, holder);
}

/** The pattern of `digits`, or why it does not fit `width` bits. */
function fitting(
  digits: string,
  base: 16 | 2,
  width: number,
  written: string,
  holder: BitsHolder,
): BitsTextResult {
  const allowed = base === 16 ? Math.ceil(width / 4) : width;
  const kind = base === 16 ? 'hex digits' : 'binary digits';
  if (digits.length > allowed)
    return fail(
      'bits-too-wide',
      `${quoteText(written)} has ${digits.length} ${kind}; the ${holder} is ${width} bits (at most ${allowed} ${kind})`,
    );
  const bits = BigInt(`${base === 16 ? '0x' : '0b'}${digits}`);
  if (bits >> BigInt(width) !== 0n)
    return fail(
      'bits-too-wide',
      `${quoteText(written)} does not fit: the ${holder} is ${width} bits (at most ${hexOf((1n << BigInt(width)) - 1n, width)})`,
    );
  return { ok: true, bits };
}

/** Index of the first character after an optional prefix that is not a digit of the base. */
function firstBadDigit(text: string, base: 16 | 2): number {
  const start = text.length - text.trimStart().length;
  const prefix = base === 16 ? /^0x/i : /^0b/i;
  let i = start + (prefix.test(text.slice(start)) ? 2 : 0);
  const digit = base === 16 ? /[0-9a-f\s_]/i : /[01\s_]/;
  while (i < text.length && digit.test(text[i]!)) i++;
  return i;
}
