/**
 * Values as people type them: decimal (`-1.5e-5`), hex float (`0x1.8p-3`), `inf`, `-0`, `nan`,
 * rounded to a format with round-to-nearest-even exactly (no detour through a double); and the
 * shortest decimal that reads back to the same bits.
 */
import { toDouble, type FloatFormat } from './formats.ts';
import { rationalMagnitude, roundToFormat } from './round.ts';
import type { ExactValue } from './trace.ts';

/**
 * The number a text names, before rounding: num/den, or only which side of every format it lies
 * on where it is far beyond them (more than 10^60, or less than 10^-80, in magnitude).
 */
export type TypedNumber =
  | { readonly negative: boolean; readonly num: bigint; readonly den: bigint }
  | { readonly negative: boolean; readonly beyond: 'huge' | 'tiny' };

export type ParsedValue =
  | {
      readonly ok: true;
      readonly bits: number;
      readonly exact: boolean;
      /** The nonzero finite number that was rounded (absent for inf, nan and zero). */
      readonly typed?: TypedNumber;
    }
  | {
      readonly ok: false;
      readonly error: {
        readonly code: 'value';
        readonly message: string;
        readonly position: number;
      };
    };

const MAX_TEXT = 800;

type ValueError = Extract<ParsedValue, { ok: false }>;

function fail(message: string, position = 0): ValueError {
  return { ok: false, error: { code: 'value', message, position } };
}

/**
 * A number as typed, read exactly (before any rounding): NaN, infinity, or the rational
 * num / den (num may be 0). Decimals whose magnitude lies past `decimalRange` (in powers of ten)
 * are `beyond` (overflows every format asked about) or `below` (rounds to zero in every one),
 * which keeps BigInt arithmetic small for `1e999999999`.
 */
export type NumberText =
  | {
      readonly ok: true;
      readonly kind: 'nan' | 'snan' | 'inf' | 'beyond' | 'below';
      readonly negative: boolean;
    }
  | {
      readonly ok: true;
      readonly kind: 'finite';
      readonly negative: boolean;
      readonly num: bigint;
      readonly den: bigint;
    }
  | ValueError;

/** Decimal exponents past which every format of at most 32 bits overflows or rounds to zero. */
const DECIMAL_RANGE = { above: 60, below: -80 } as const;

export function readNumberText(
  text: string,
  decimalRange: { readonly above: number; readonly below: number } = DECIMAL_RANGE,
): NumberText {
  if (text.length > MAX_TEXT)
    return fail(`value is too long (${text.length} characters; at most ${MAX_TEXT})`);
  const s = text.trim().replace(/_/g, '');
  if (s === '') return fail('empty value: type a number such as 1.5, -0, 0x1.8p-3, inf or nan');
  const m = /^([+-]?)(.*)$/s.exec(s)!;
  const negative = m[1] === '-';
  const body = m[2]!;
  const lower = body.toLowerCase();
  if (lower === 'inf' || lower === 'infinity' || lower === '∞')
    return { ok: true, kind: 'inf', negative };
  if (lower === 'nan' || lower === 'qnan') return { ok: true, kind: 'nan', negative };
  if (lower === 'snan') return { ok: true, kind: 'snan', negative };

  const hex = /^0x([0-9a-f]*)(?:\.([0-9a-f]*))?(?:p([+-]?\d+))?$/i.exec(body);
  const dec = /^(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(body);
  if (hex && (hex[1] || hex[2]) && (hex[3] !== undefined || hex[2] !== undefined)) {
    // Hex float: 0x1.8p-3. (A bare 0x1234 is a bit pattern, not a value: the editors' hex field.)
    const digits = (hex[1] ?? '') + (hex[2] ?? '');
    const p = Number(hex[3] ?? '0') - 4 * (hex[2]?.length ?? 0);
    if (!Number.isSafeInteger(p)) return fail('exponent out of range', s.length - 1);
    return {
      ok: true,
      kind: 'finite',
      negative,
      ...scaleByPowerOf2(BigInt(`0x${digits || '0'}`), p),
    };
  }
  if (dec && (dec[1] || dec[2])) {
    const digits = (dec[1] ?? '') + (dec[2] ?? '');
    const e10 = Number(dec[3] ?? '0') - (dec[2]?.length ?? 0);
    if (!Number.isSafeInteger(e10)) return fail('exponent out of range', s.length - 1);
    const n = BigInt(digits || '0');
    // Zero is zero whatever its exponent: no power of ten to build (-0e-999999999).
    if (n === 0n) return { ok: true, kind: 'finite', negative, num: 0n, den: 1n };
    const magnitude = digits.replace(/^0+/, '').length + e10; // ~ decimal exponent of the value
    if (magnitude > decimalRange.above) return { ok: true, kind: 'beyond', negative };
    if (magnitude < decimalRange.below) return { ok: true, kind: 'below', negative };
    return e10 >= 0
      ? { ok: true, kind: 'finite', negative, num: n * 10n ** BigInt(e10), den: 1n }
      : { ok: true, kind: 'finite', negative, num: n, den: 10n ** BigInt(-e10) };
  }
  const at = s.search(/[^0-9a-fA-FxXpP.eE+\-_]/);
  return fail(`'${text.trim()}' is not a number: ${notANumberHint(body)}`, at < 0 ? 0 : at);
}

/**
 * What to type instead, for the shapes people write that are not read: a fraction (1/3), a
 * decimal comma (1,5); otherwise the forms that are.
 */
function notANumberHint(body: string): string {
  const fraction = /^(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(body);
  if (fraction && Number(fraction[2]) !== 0)
    return `a fraction is not read; type its decimal, ${String(Number(fraction[1]) / Number(fraction[2]))}`;
  const comma = /^(\d*),(\d+)$/.exec(body);
  if (comma) {
    const [whole, part] = [comma[1] || '0', comma[2]!];
    // Three digits after the comma may be a thousands separator: say both readings.
    return part.length === 3
      ? `a comma is not read: write ${whole}${part} (thousands) or ${whole}.${part} (a decimal point)`
      : `write the decimal point as a point (${whole}.${part})`;
  }
  return 'expected a decimal (-1.5e-5), a hex float (0x1.8p-3), inf, -0 or nan';
}

export function parseValue(text: string, f: FloatFormat): ParsedValue {
  const read = readNumberText(text);
  if (!read.ok) return read;
  const sign = read.negative ? f.signMask : 0;
  switch (read.kind) {
    case 'inf':
      return { ok: true, bits: sign + f.infBits, exact: true };
    case 'nan':
      return { ok: true, bits: f.canonicalNaN + sign, exact: true };
    case 'snan':
      return { ok: true, bits: sign + f.infBits + 1, exact: true };
    case 'beyond':
      return {
        ok: true,
        bits: sign + f.infBits,
        exact: false,
        typed: { negative: read.negative, beyond: 'huge' },
      };
    case 'below':
      return {
        ok: true,
        bits: sign,
        exact: false,
        typed: { negative: read.negative, beyond: 'tiny' },
      };
  }
  const { num, den, negative } = read;
  if (num === 0n) return { ok: true, bits: sign, exact: true };
  const trimmed = text.trim();
  const describe = (): ExactValue => ({
    kind: 'finite',
    negative,
    decimal: trimmed,
    binary: trimmed,
    rational: trimmed,
  });
  const r = roundToFormat(rationalMagnitude(negative, num, den, describe), f, 'rn');
  return {
    ok: true,
    bits: r.bits,
    exact: !r.inexact && !r.overflow,
    typed: { negative, num, den },
  };
}

function scaleByPowerOf2(n: bigint, p: number): { num: bigint; den: bigint } {
  // Beyond these, every format overflows or underflows anyway; clamp to keep BigInt small.
  const q = Math.max(-2000, Math.min(2000, p));
  return q >= 0 ? { num: n << BigInt(q), den: 1n } : { num: n, den: 1n << BigInt(-q) };
}

/** The shortest decimal that parses back (round-to-nearest-even) to the same bits. */
export function shortestDecimal(bits: number, f: FloatFormat): string {
  const v = toDouble(bits, f);
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  for (let digits = 1; digits <= 17; digits++) {
    const candidate = v.toPrecision(digits);
    const back = parseValue(candidate, f);
    if (back.ok && back.bits === bits) return normalizeDecimal(candidate);
  }
  return String(v);
}

function normalizeDecimal(s: string): string {
  // toPrecision gives "1.0e+5" or "0.00012"; drop a trailing ".0" and the '+' of exponents.
  const [mant, exp] = s.split('e');
  const m = mant!.includes('.') ? mant!.replace(/0+$/, '').replace(/\.$/, '') : mant!;
  return exp ? `${m}e${exp.replace('+', '')}` : m;
}
