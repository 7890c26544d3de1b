/**
 * Operand text, read by one rule wherever a person writes an operand — a share link's `a=`, the
 * editors' value fields, `ptxf eval` arguments and `ptxf batch` fields (the editors' hex and
 * binary fields read digits of their base: register-digits.ts):
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
import { classify, FORMATS, type FloatFormat, dyadicOf, exactValueOfBits } from './formats.ts';
import { parseValue, shortestDecimal, type TypedNumber } from './values-text.ts';

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
  /** Where the value was rounded: the number it names, to say how far the stored one is. */
  readonly typed?: TypedNumber;
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
  const value: StoredValue =
    parsed.exact || !parsed.typed
      ? { text: trimmed, exact: parsed.exact }
      : { text: trimmed, exact: false, typed: parsed.typed };
  return { ok: true, bits, value };
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
 * the stored bits), "in each lane" for a packed register, and where the value was not
 * representable, why and by which rounding:
 *
 *   "0.1 is not an f16 value: stored 0x2e66 = 0.0999755859375 (rounded to nearest even; error -2.44e-5)"
 *   "70000 is above the largest f16 (65504): stored 0x7c00 = +inf (rounded to nearest even)"
 *   "1e-8 is below half the smallest f16 subnormal (2^-25 = 2.98e-8): stored 0x0000 = 0 (rounded to nearest even)"
 */
export function describeStored(bits: number, shape: OperandShape, value: StoredValue): string {
  const f = FORMATS[shape.format];
  const lane = shape.lanes === 2 ? bits & 0xffff : bits;
  // Every digit: the shortest decimal of a rounded value would read back as the text typed.
  const shown = exactValueOfBits(lane, f).decimal;
  const each = shape.lanes === 2 ? ' in each lane' : '';
  const stored = `stored ${hexBits(bits, shape.bits)} = ${shown}${each}`;
  if (value.exact) return stored;
  const rounding = 'rounded to nearest even';
  const cls = classify(lane, f);
  const negative = lane >= f.signMask;
  if (cls === 'infinity') {
    const max = largest(f);
    const why = negative
      ? `is below the most negative ${f.name} (-${max})`
      : `is above the largest ${f.name} (${max})`;
    return `${value.text} ${why}: ${stored} (${rounding})`;
  }
  if (cls === 'zero') {
    const under = underflow(value.typed, f);
    return `${value.text} ${under.why}: ${stored} (${rounding}${under.tie ? ': the tie goes to the even value, 0' : ''})`;
  }
  const error = value.typed && 'num' in value.typed ? errorText(lane, f, value.typed) : '';
  return `${value.text} is not ${article(f.name)} ${f.name} value: ${stored} (${rounding}${error})`;
}

function article(name: string): string {
  return /^[aefhilmnorsx]/.test(name) ? 'an' : 'a';
}

/** Why a nonzero value became zero: at most half the smallest subnormal (a tie goes to even 0). */
function underflow(typed: TypedNumber | undefined, f: FloatFormat): { why: string; tie: boolean } {
  const halfExp = f.emin - f.manBits - 1;
  const half = `2^${halfExp} = ${shortNumber(2 ** halfExp)}`;
  const magnitude = typed?.negative ? ' in magnitude' : '';
  const tie =
    typed !== undefined && 'num' in typed && typed.num * 2n ** BigInt(-halfExp) === typed.den;
  const relation = tie ? 'is exactly half' : 'is below half';
  return { why: `${relation} the smallest ${f.name} subnormal (${half})${magnitude}`, tie };
}

/** A format's largest finite value: every digit where that is short, else the shortest decimal. */
function largest(f: FloatFormat): string {
  const exact = exactValueOfBits(f.maxBits, f).decimal;
  return exact.length <= 12 ? exact : shortestDecimal(f.maxBits, f);
}

/** "; error -2.44e-5": the stored value minus the typed one, to three significant digits. */
function errorText(
  lane: number,
  f: FloatFormat,
  typed: { negative: boolean; num: bigint; den: bigint },
): string {
  const stored = dyadicOf(lane, f);
  // stored − typed = (m·2^e·den − num)/den, with signs.
  const scaleUp = stored.exp >= 0 ? 2n ** BigInt(stored.exp) : 1n;
  const scaleDown = stored.exp < 0 ? 2n ** BigInt(-stored.exp) : 1n;
  const s = (stored.negative ? -1n : 1n) * stored.mant * scaleUp * typed.den;
  const t = (typed.negative ? -1n : 1n) * typed.num * scaleDown;
  const diff = s - t;
  const den = typed.den * scaleDown;
  return `; error ${shortNumber(ratio(diff, den))}`;
}

/** n/d as a double (to 64 significant bits, then the double's rounding), for BigInts of any size. */
export function ratio(n: bigint, d: bigint): number {
  if (n === 0n) return 0;
  const negative = n < 0n;
  const m = negative ? -n : n;
  const shift = 64 - (m.toString(2).length - d.toString(2).length);
  const q = shift >= 0 ? (m << BigInt(shift)) / d : m / (d << BigInt(-shift));
  return (negative ? -1 : 1) * Number(q) * 2 ** -shift;
}

/** Three significant digits: 0.000123 as 1.23e-4, 65504 as 6.55e+4 only beyond 10^6. */
export function shortNumber(x: number): string {
  if (x === 0) return '0';
  const a = Math.abs(x);
  const text = a >= 1e-3 && a < 1e6 ? String(Number(x.toPrecision(3))) : x.toExponential(2);
  return text.replace(/\.?0+e/, 'e').replace('e+', 'e');
}
