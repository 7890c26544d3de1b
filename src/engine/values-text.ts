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

function fail(message: string, position = 0): ParsedValue {
  return { ok: false, error: { code: 'value', message, position } };
}

export function parseValue(text: string, f: FloatFormat): ParsedValue {
  if (text.length > MAX_TEXT)
    return fail(`value is too long (${text.length} characters; at most ${MAX_TEXT})`);
  const s = text.trim().replace(/_/g, '');
  if (s === '') return fail('empty value: type a number such as 1.5, -0, 0x1.8p-3, inf or nan');
  const m = /^([+-]?)(.*)$/s.exec(s)!;
  const negative = m[1] === '-';
  const body = m[2]!;
  const lower = body.toLowerCase();
  const sign = negative ? f.signMask : 0;
  if (lower === 'inf' || lower === 'infinity' || lower === '∞')
    return { ok: true, bits: sign + f.infBits, exact: true };
  if (lower === 'nan' || lower === 'qnan')
    return { ok: true, bits: f.canonicalNaN + sign, exact: true };
  if (lower === 'snan') return { ok: true, bits: sign + f.infBits + 1, exact: true };

  let num: bigint;
  let den: bigint;
  const hex = /^0x([0-9a-f]*)(?:\.([0-9a-f]*))?(?:p([+-]?\d+))?$/i.exec(body);
  const dec = /^(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(body);
  if (hex && (hex[1] || hex[2]) && (hex[3] !== undefined || hex[2] !== undefined)) {
    // Hex float: 0x1.8p-3. (A bare 0x1234 is a bit pattern, not a value: the editors' hex field.)
    const digits = (hex[1] ?? '') + (hex[2] ?? '');
    const p = Number(hex[3] ?? '0') - 4 * (hex[2]?.length ?? 0);
    if (!Number.isSafeInteger(p)) return fail('exponent out of range', s.length - 1);
    ({ num, den } = scaleByPowerOf2(BigInt(`0x${digits || '0'}`), p));
  } else if (dec && (dec[1] || dec[2])) {
    const digits = (dec[1] ?? '') + (dec[2] ?? '');
    const e10 = Number(dec[3] ?? '0') - (dec[2]?.length ?? 0);
    if (!Number.isSafeInteger(e10)) return fail('exponent out of range', s.length - 1);
    const n = BigInt(digits || '0');
    const magnitude = digits.replace(/^0+/, '').length + e10; // ~ decimal exponent of the value
    if (n !== 0n && magnitude > 60)
      return {
        ok: true,
        bits: sign + f.infBits,
        exact: false,
        typed: { negative, beyond: 'huge' },
      };
    if (n === 0n) return { ok: true, bits: sign, exact: true };
    if (magnitude < -80)
      return { ok: true, bits: sign, exact: false, typed: { negative, beyond: 'tiny' } };
    if (e10 >= 0) {
      num = n * 10n ** BigInt(e10);
      den = 1n;
    } else {
      num = n;
      den = 10n ** BigInt(-e10);
    }
  } else {
    const at = s.search(/[^0-9a-fA-FxXpP.eE+\-_]/);
    return fail(
      `'${text.trim()}' is not a number: expected a decimal (-1.5e-5), a hex float (0x1.8p-3), inf, -0 or nan`,
      at < 0 ? 0 : at,
    );
  }
  if (num === 0n) return { ok: true, bits: sign, exact: true };
  const describe = (): ExactValue => ({
    kind: 'finite',
    negative,
    decimal: text.trim(),
    binary: text.trim(),
    rational: text.trim(),
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
