/**
 * Operand text for the CLI (`ptxf eval` arguments and `ptxf batch` fields): register bits
 * written in hex with a `0x` prefix. The prefix is required so that "10" is never silently read
 * as sixteen by someone who meant ten; the digit count may not exceed the register width, so a
 * 32-bit pattern given to a 16-bit register is reported instead of truncated or accepted.
 */

export type OperandParse =
  { readonly ok: true; readonly bits: number } | { readonly ok: false; readonly message: string };

/** Longest operand text quoted back in an error message. */
const QUOTE_LIMIT = 40;

export function quote(text: string): string {
  const shown = text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}…` : text;
  return JSON.stringify(shown);
}

/** Parse `0x3c00` (case-insensitive, surrounding white space allowed) as `width` register bits. */
export function parseOperandBits(name: string, text: string, width: 16 | 32): OperandParse {
  const digitsAllowed = width / 4;
  const trimmed = text.trim();
  const m = /^0[xX]([0-9a-fA-F]+)$/.exec(trimmed);
  if (!m) {
    const example = width === 16 ? '0x3c00' : '0x3c003c00';
    const hint = /^[0-9a-fA-F]+$/.test(trimmed) ? ' (add the 0x prefix)' : '';
    return {
      ok: false,
      message: `operand ${name}: ${quote(text)} is not hex register bits${hint}; expected ${width}-bit hex such as ${example}`,
    };
  }
  const digits = m[1]!;
  if (digits.length > digitsAllowed) {
    return {
      ok: false,
      message: `operand ${name}: ${quote(text)} has ${digits.length} hex digits; ${name} is a ${width}-bit register (at most ${digitsAllowed} digits)`,
    };
  }
  return { ok: true, bits: Number.parseInt(digits, 16) };
}

/** `0x` followed by the bits zero-padded to the register width, lower case. */
export function formatBits(bits: number, width: 16 | 32): string {
  return `0x${(bits >>> 0).toString(16).padStart(width / 4, '0')}`;
}
