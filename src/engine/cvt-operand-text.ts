import type { CvtForm, CvtSourceName, ElementFormatName } from '../catalog/index.ts';
import { elementsIn, registerHex, registerWidth, withElement } from './cvt-registers.ts';
import { exactValueOfElement } from './element-format.ts';
import { parseElementValue } from './element-text.ts';
import { quoteText } from './operand-text.ts';

/**
 * Operand text for cvt's value fields, share links and the CLI, by the project's one rule
 * (operand-text.ts): `0x…` and `0b…` are bits, at most as many digits as the register or
 * element holds; anything else is a value, rounded to the element's format by round-to-nearest-
 * even and put in every element of the register. Bits are BigInt: a 64-bit .f64 register is
 * exact. rbits (random bits, no format) takes bits only.
 */

export type CvtTextResult =
  | {
      readonly ok: true;
      readonly bits: bigint;
      /** What a value stored ("stored 0x7e7e = 448 in each element"), when the text was one. */
      readonly stored?: string;
    }
  | { readonly ok: false; readonly message: string };

const GROUPING = /[\s_]/g;

/** Bits from `0x…`/`0b…` text, or null when the text is not written as bits. */
function readBits(text: string, width: number): CvtTextResult | null {
  const compact = text.trim().replace(GROUPING, '');
  const hex = /^0x([0-9a-f]+)$/i.exec(compact);
  const bin = /^0b([01]+)$/i.exec(compact);
  const digits = hex?.[1] ?? bin?.[1];
  if (digits === undefined) {
    if (/^0[bx]/i.test(compact) && !/^0x[0-9a-f]*[.p]/i.test(compact)) {
      const kind = /^0b/i.test(compact) ? 'binary digits (0 and 1)' : 'hexadecimal digits';
      return {
        ok: false,
        message: `${quoteText(text.trim())} is not a bit pattern: ${compact.slice(0, 2)} must be followed by ${kind}`,
      };
    }
    return null;
  }
  const bits = BigInt(`${hex ? '0x' : '0b'}${digits}`);
  const allowed = hex ? Math.ceil(width / 4) : width;
  if (digits.length > allowed || bits >> BigInt(width) !== 0n) {
    const kind = hex ? 'hex digits' : 'binary digits';
    return {
      ok: false,
      message: `${quoteText(text.trim())} does not fit: the field holds ${width} bits (at most ${allowed} ${kind}${hex && width % 4 ? `, below 0x${(1n << BigInt(width)).toString(16)}` : ''})`,
    };
  }
  return { ok: true, bits };
}

function valueOf(text: string, format: ElementFormatName): CvtTextResult & { exact?: boolean } {
  const r = parseElementValue(text, format);
  if (r.ok) return { ok: true, bits: r.bits, exact: r.exact };
  const trimmed = text.trim();
  const compact = trimmed.replace(GROUPING, '');
  const hint = /^[01]+$/.test(compact)
    ? `; bits take a prefix: 0b${compact} or 0x${compact}`
    : /^[0-9a-f]+$/i.test(compact) && /[a-f]/i.test(compact)
      ? `; bits take the 0x prefix (0x${compact.toLowerCase()})`
      : '';
  return { ok: false, message: `${r.message}${hint}` };
}

/** How a stored value reads: "stored 0x7e = 448 (500 rounded to nearest even)". */
function storedText(
  bits: bigint,
  width: number,
  value: bigint,
  format: ElementFormatName,
  text: string,
  exact: boolean,
  each: boolean,
): string {
  const shown = exactValueOfElement(value, format).decimal;
  const rounded = exact ? '' : ` (${text.trim()} rounded to nearest even)`;
  return `stored ${registerHex(bits, width)} = ${shown}${each ? ' in each element' : ''}${rounded}`;
}

/** A whole source register: bits of its width, or a value put in each of its elements. */
export function parseCvtRegisterText(
  text: string,
  form: CvtForm,
  name: CvtSourceName,
): CvtTextResult {
  const width = registerWidth(form, name);
  const bits = readBits(text, width);
  if (bits) return bits;
  const elements = elementsIn(form, name);
  if (elements.length === 0)
    return {
      ok: false,
      message: `${name} holds random bits, not a value: type 0x… or 0b… (${width} bits)`,
    };
  const format = elements[0]!.source.format;
  const v = valueOf(text, format);
  if (!v.ok) return v;
  let reg = 0n;
  for (const e of elements) reg = withElement(reg, e.source, v.bits);
  return {
    ok: true,
    bits: reg,
    stored: storedText(reg, width, v.bits, format, text, v.exact ?? true, elements.length > 1),
  };
}

/** One element's value bits: bits of the value's width, or a value rounded to its format. */
export function parseCvtElementText(
  text: string,
  format: ElementFormatName,
  width: number,
): CvtTextResult {
  const bits = readBits(text, width);
  if (bits) return bits;
  const v = valueOf(text, format);
  if (!v.ok) return v;
  return {
    ok: true,
    bits: v.bits,
    stored: storedText(v.bits, width, v.bits, format, text, v.exact ?? true, false),
  };
}
