/**
 * A number as people type it, read exactly, before any format is involved: a decimal
 * (`-1.5e-5`, `1_000`), a hex float (`0x1.8p-3`), `inf` / `infinity` / `∞`, `nan` / `qnan`,
 * `snan`, each with an optional sign; letters in either case. The result is the exact rational
 * the text names (num / den), or which side of every format it lies on where it is far beyond
 * them, so that `1e999999999` builds no huge power of ten.
 *
 * A text that is not a number gets a structured error (`TextError`): a code a program can act
 * on, a message, and the position in the text where the problem starts. Nothing here throws.
 */

/** What went wrong with a typed text; `message` quotes at most 40 characters of it. */
export type TextErrorCode =
  /** Nothing but spaces was typed. */
  | 'empty'
  /** More than MAX_TEXT_LENGTH characters. */
  | 'too-long'
  /** Neither register bits nor a number. */
  | 'not-a-number'
  /** An exponent too large to hold (`1e99999999999999999999`). */
  | 'exponent-range'
  /** `0x`/`0b` (or a hex or binary field) followed by something that is not a digit of the base. */
  | 'bits-digits'
  /** More digits, or a larger pattern, than the register or element holds. */
  | 'bits-too-wide'
  /** The register holds no value (rbits: random bits), only bits. */
  | 'bits-only'
  /** The form has no register of that name. */
  | 'no-register'
  /** `inf` typed for a format without infinity (e4m3, e2m1, e2m3, e3m2, ue8m0, ue4m3). */
  | 'no-infinity'
  /** `nan` typed for a format without NaN (e2m1, e2m3, e3m2). */
  | 'no-nan'
  /** `snan` typed for a format whose one NaN is quiet (e4m3, ue8m0, ue4m3) or that has none. */
  | 'no-signaling-nan'
  /** A zero typed for ue8m0, which has none. */
  | 'no-zero'
  /** A negative value typed for an unsigned format (ue8m0, ue4m3). */
  | 'unsigned'
  /** A value past MAX_NORM (after rounding) in a format without infinity. */
  | 'beyond-range'
  /** A value that rounds below ue8m0's least value 2^-127 (it has no zero). */
  | 'below-least'
  /** A matrix form's row or column given as a list of the wrong number of elements (matrix-text.ts). */
  | 'list-length';

export interface TextError {
  readonly code: TextErrorCode;
  readonly message: string;
  /** Index in the text as given (untrimmed) where the problem starts; 0 when it is the whole. */
  readonly position: number;
}

export const textError = (code: TextErrorCode, message: string, position = 0): TextError => ({
  code,
  message,
  position,
});

/**
 * The number a text names, exactly. `finite`: |x| = num / den (num ≥ 0, den > 0, not
 * necessarily reduced; num = 0 is a zero of the sign given). `beyond`: a decimal above 10^400 or
 * a hex float above 2^1100 in magnitude, past every format's largest finite value (f64's is
 * below 2^1024). `below`: a nonzero value below 10^-400 or 2^-1200, which rounds to zero in
 * every format (f64's least subnormal is 2^-1074).
 */
export type TypedNumber =
  | { readonly kind: 'nan' | 'snan' | 'inf'; readonly negative: boolean }
  | {
      readonly kind: 'finite';
      readonly negative: boolean;
      readonly num: bigint;
      readonly den: bigint;
    }
  | { readonly kind: 'beyond' | 'below'; readonly negative: boolean };

export type NumberTextResult =
  | { readonly ok: true; readonly number: TypedNumber }
  | { readonly ok: false; readonly error: TextError };

export const MAX_TEXT_LENGTH = 800;

/** Longest stretch of a text quoted back in a message, so a 1 MB paste stays one readable line. */
const QUOTE_LIMIT = 40;

/** The text in quotes, cut to 40 characters. */
export function quoteText(text: string): string {
  return text.length > QUOTE_LIMIT ? `'${text.slice(0, QUOTE_LIMIT)}…'` : `'${text}'`;
}

/** Decimal exponents past which every format (f64 included) overflows or rounds to zero. */
const DECIMAL_RANGE = { above: 400, below: -400 } as const;
/** The same for hex floats, in powers of two. */
const BINARY_RANGE = { above: 1100, below: -1200 } as const;

const fail = (code: TextErrorCode, message: string, position = 0): NumberTextResult => ({
  ok: false,
  error: textError(code, message, position),
});

const finite = (negative: boolean, num: bigint, den: bigint): NumberTextResult => ({
  ok: true,
  number: { kind: 'finite', negative, num, den },
});

export function readNumberText(text: string): NumberTextResult {
  if (text.length > MAX_TEXT_LENGTH)
    return fail(
      'too-long',
      `the text is too long (${text.length} characters; at most ${MAX_TEXT_LENGTH})`,
    );
  const trimmed = text.trim();
  const s = trimmed.replace(/_/g, '');
  if (s === '')
    return fail(
      'empty',
      'empty: type a number such as 1.5, -0, 1e-3, 0x1.8p-3, inf or nan',
      text.length,
    );
  const m = /^([+-]?)(.*)$/s.exec(s)!;
  const negative = m[1] === '-';
  const body = m[2]!;
  const lower = body.toLowerCase();
  if (lower === 'inf' || lower === 'infinity' || lower === '∞')
    return { ok: true, number: { kind: 'inf', negative } };
  if (lower === 'nan' || lower === 'qnan') return { ok: true, number: { kind: 'nan', negative } };
  if (lower === 'snan') return { ok: true, number: { kind: 'snan', negative } };

  const exponentAt = Math.max(text.search(/[eEpP][^eEpP]*$/), 0);
  const hex = /^0x([0-9a-f]*)(?:\.([0-9a-f]*))?(?:p([+-]?\d+))?$/i.exec(body);
  if (hex && (hex[1] || hex[2]) && (hex[3] !== undefined || hex[2] !== undefined)) {
    // Hex float: 0x1.8p-3. (A bare 0x1234 is register bits, read before any number: bits-text.ts.)
    const digits = (hex[1] ?? '') + (hex[2] ?? '');
    const p = Number(hex[3] ?? '0') - 4 * (hex[2]?.length ?? 0);
    if (!Number.isSafeInteger(p))
      return fail('exponent-range', 'the binary exponent is out of range', exponentAt);
    const n = BigInt(`0x${digits || '0'}`);
    if (n === 0n) return finite(negative, 0n, 1n);
    const log2 = n.toString(2).length - 1 + p; // floor(log2 |x|)
    if (log2 > BINARY_RANGE.above) return { ok: true, number: { kind: 'beyond', negative } };
    if (log2 < BINARY_RANGE.below) return { ok: true, number: { kind: 'below', negative } };
    return p >= 0 ? finite(negative, n << BigInt(p), 1n) : finite(negative, n, 1n << BigInt(-p));
  }
  const dec = /^(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(body);
  if (dec && (dec[1] || dec[2])) {
    const digits = (dec[1] ?? '') + (dec[2] ?? '');
    const e10 = Number(dec[3] ?? '0') - (dec[2]?.length ?? 0);
    if (!Number.isSafeInteger(e10))
      return fail('exponent-range', 'the decimal exponent is out of range', exponentAt);
    const n = BigInt(digits || '0');
    // Zero is zero whatever its exponent: no power of ten to build (-0e-999999999).
    if (n === 0n) return finite(negative, 0n, 1n);
    const magnitude = digits.replace(/^0+/, '').length + e10; // ~ decimal exponent of the value
    if (magnitude > DECIMAL_RANGE.above) return { ok: true, number: { kind: 'beyond', negative } };
    if (magnitude < DECIMAL_RANGE.below) return { ok: true, number: { kind: 'below', negative } };
    return e10 >= 0
      ? finite(negative, n * 10n ** BigInt(e10), 1n)
      : finite(negative, n, 10n ** BigInt(-e10));
  }
  const at = text.search(/[^\s0-9a-fA-FxXpP.eE+\-_]/);
  return fail(
    'not-a-number',
    `${quoteText(trimmed)} is not a number: expected a decimal (-1.5e-5), a hex float (0x1.8p-3), inf, -0 or nan${numberHint(s)}`,
    at < 0 ? text.length - text.trimStart().length : at,
  );
}

/**
 * What the person probably meant, for the common slips (a decimal comma, a fraction), as the
 * tail of a message ("; …"), or ''. `s`: the text without spaces and `_`.
 */
export function numberHint(s: string): string {
  if (/^[+-]?\d+(,\d+)+$/.test(s))
    return '; commas are not read: a decimal takes a point (1.5), digits may be grouped with _ (1_000)';
  if (/^[+-]?\d+(\.\d*)?\/\d+(\.\d*)?$/.test(s))
    return '; a fraction is not read: type its value as a decimal (0.3333) or a hex float';
  return '';
}
