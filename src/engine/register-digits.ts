/**
 * A register's bits as written in a field labelled with its base: the editors' "a hex" field
 * reads hexadecimal digits and "a binary" binary digits, each with its prefix (`0x`, `0b`) or
 * without it, so `1000` in a hex field is 0x1000 and `101` in a binary field 0b101. A field
 * labelled with a base never reads a value: values go in the value fields, which read operand
 * text by the one rule (operand-text.ts) as links and the CLI do.
 *
 * Bits are a BigInt so that one reading serves the arithmetic's 16- and 32-bit registers and
 * cvt's registers of 8 to 64 bits.
 */
import { quoteText } from './operand-text.ts';

export type RegisterBase = 'hex' | 'binary';

export type RegisterDigitsResult =
  { readonly ok: true; readonly bits: bigint } | { readonly ok: false; readonly message: string };

/** Grouping characters a person may put between digits (as operand-text.ts allows). */
const GROUPING = /[\s_]/g;

const BASES = {
  hex: { prefix: /^0x/i, digits: /^[0-9a-f]+$/i, radix: 16, name: 'hex digits' },
  binary: { prefix: /^0b/i, digits: /^[01]+$/, radix: 2, name: 'binary digits' },
} as const;

/** How a field of this base is written, for the messages: "in hex (3c00 or 0x3c00)". */
function howToWrite(base: RegisterBase, width: number): string {
  if (base === 'binary') return 'in binary (0 and 1, 0b optional)';
  const example = width <= 8 ? '7e' : width <= 16 ? '3c00' : '3f800000';
  return `in hex (${example} or 0x${example})`;
}

/**
 * The bits `text` writes in `base`, for a register of `width` bits: at most as many digits as
 * the register holds (leading zeros included), and a value below 2^width. Anything else is
 * refused with what the field takes and where the text belongs instead.
 */
export function parseRegisterDigits(
  text: string,
  base: RegisterBase,
  width: number,
): RegisterDigitsResult {
  const trimmed = text.trim();
  const compact = trimmed.replace(GROUPING, '');
  const spec = BASES[base];
  const refuse = (message: string): RegisterDigitsResult => ({ ok: false, message });
  if (compact === '') return refuse(`empty: type the register's bits ${howToWrite(base, width)}`);

  const other: RegisterBase = base === 'hex' ? 'binary' : 'hex';
  // The other base's prefix says which field the text is for. (In a hex field `0b1` would also
  // be three hex digits; it is refused rather than read either way without saying.)
  if (BASES[other].prefix.test(compact) && BASES[other].digits.test(compact.slice(2)))
    return refuse(`${quoteText(trimmed)} is ${other}: type it in the ${other} field`);

  const prefixed = spec.prefix.test(compact);
  const digits = prefixed ? compact.slice(2) : compact;
  if (!spec.digits.test(digits)) {
    if (prefixed)
      return refuse(
        `${quoteText(trimmed)} is not a bit pattern: ${compact.slice(0, 2)} must be followed by ${base === 'hex' ? 'hexadecimal digits' : 'binary digits (0 and 1)'}`,
      );
    return refuse(
      `${quoteText(trimmed)} is not ${spec.name}: this field takes the register's bits ${howToWrite(base, width)}; type a value such as 1.5 in a value field`,
    );
  }

  const bits = BigInt(`${base === 'hex' ? '0x' : '0b'}${digits}`);
  const allowed = base === 'hex' ? Math.ceil(width / 4) : width;
  if (digits.length > allowed)
    return refuse(
      `${quoteText(trimmed)} has ${digits.length} ${spec.name}; the register is ${width} bits (at most ${allowed} ${spec.name})`,
    );
  if (bits >> BigInt(width) !== 0n)
    return refuse(
      `${quoteText(trimmed)} does not fit: the register is ${width} bits (below 0x${(1n << BigInt(width)).toString(16)})`,
    );
  return { ok: true, bits };
}
