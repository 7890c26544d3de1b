/**
 * Values as people type them, for every format a cvt element can have (PTX ISA 5.2.3 and
 * .f64): the one rule's "anything else is a value rounded to the operand's format by
 * round-to-nearest-even" (operand-text.ts), where a format may lack infinity, NaN, zero or a
 * sign. Such a value is refused with the reason, never stored as something else: 500 is past
 * .e4m3's largest finite value (448) and .e4m3 has no infinity; ue8m0 has no zero and no sign.
 *
 * .f16, .bf16 and .f32 are read by parseValue itself, so a value gives the same bits here as in
 * the arithmetic's editors. The other formats round through cvt's rounding (cvt-round.ts, one
 * rounding routine), from the typed value rounded to odd at 64 significant bits: rounding to
 * odd with at least two more bits than the destination keeps the final rounding exact (no
 * double rounding). .f64, whose 64-bit patterns the rounding routine cannot pack into a
 * double, is rounded here on BigInt, with guard and sticky bits as roundToFormat does.
 */
import type { ElementFormatName } from '../catalog/cvt-types.ts';
import { roundForCvt, type CvtRounded } from './cvt-round.ts';
import { decodeElement, encodeElement, F64, floatFormatOf } from './element-format.ts';
import { add, ilog2, type Dyadic } from './exact.ts';
import { FORMATS } from './formats.ts';
import { rationalMagnitude, type ExactMagnitude } from './round.ts';
import { parseValue, readNumberText } from './values-text.ts';

export type ElementValueResult =
  | {
      readonly ok: true;
      readonly bits: bigint;
      /** The value was one of the format's: no rounding happened. */
      readonly exact: boolean;
    }
  | { readonly ok: false; readonly message: string };

const refuse = (message: string): ElementValueResult => ({ ok: false, message });

/** .f64's decimal range: past 1e400 every value overflows, below 1e-400 it rounds to zero. */
export const F64_DECIMAL_RANGE = { above: 400, below: -400 } as const;

/** The largest finite value, as text, for the messages. */
function maxNormText(format: ElementFormatName): string {
  const bits = format === 'f64' ? F64.maxBits : BigInt(floatFormatOf(format).maxBits);
  const v = decodeElement(bits, format);
  if (v.kind !== 'finite') return String(bits);
  const x = v.x;
  return String(Number(x.mant) * 2 ** x.exp);
}

/** |x| rounded to odd at 64 significant bits: exact for every later rounding to fewer bits. */
function roundedToOdd(m: ExactMagnitude): Dyadic {
  const shift = 63 - m.ilog2();
  const { int, exact } = m.floorScaled(shift);
  return { negative: m.negative, mant: exact ? int : int | 1n, exp: -shift };
}

/** Round-to-nearest-even to .f64 on BigInt: the pattern, or null past the largest finite value. */
function roundToF64(m: ExactMagnitude): { bits: bigint; exact: boolean } {
  const sign = m.negative ? F64.signMask : 0n;
  const e = m.ilog2();
  if (e > F64.emax) return { bits: sign | F64.infBits, exact: false };
  const q = Math.max(e, F64.emin) - F64.manBits;
  // One bit below the quantum (guard); sticky is whether anything lies below that.
  const { int, exact } = m.floorScaled(1 - q);
  const guard = (int & 1n) === 1n;
  let kept = int >> 1n;
  if (guard && (!exact || (kept & 1n) === 1n)) kept++;
  const inexact = guard || !exact;
  if (kept === 0n) return { bits: sign, exact: false };
  // A carry into the next binade (or past the largest finite value) is still kept × 2^q.
  let mant = kept;
  let exp = q;
  while ((mant & 1n) === 0n) {
    mant >>= 1n;
    exp++;
  }
  if (exp + mant.toString(2).length - 1 > F64.emax)
    return { bits: sign | F64.infBits, exact: false };
  const bits = encodeElement({ kind: 'finite', x: { negative: m.negative, mant, exp } }, 'f64');
  return { bits, exact: !inexact };
}

/**
 * ue8m0's values are the powers of two: a significand of one bit, so "ties to even" can only
 * mean the even pattern (the even exponent). The nearest of the two neighbours is found by
 * comparing 2|x| with their sum; a tie takes the neighbour with the even pattern. Below 2^-127
 * the lower neighbour is the rounding geometry's zero, which ue8m0 lacks (refused later).
 */
function nearestPowerOfTwo(x: Dyadic): CvtRounded {
  const down = roundForCvt(x, 'ue8m0', 'rz');
  if (down.direction === 'exact' || down.overflow) return down;
  const up = roundForCvt(x, 'ue8m0', 'rp');
  const lower = down.value!;
  const upper = up.value ?? { negative: false, mant: 1n, exp: 128 };
  const twice = { negative: false, mant: x.mant, exp: x.exp + 1 };
  const diff = add(add(twice, { ...lower, negative: true }), { ...upper, negative: true });
  const lowerPattern = lower.mant === 0n ? -1 : ilog2(lower) + 127;
  const takeUp = diff.mant === 0n ? lowerPattern < 0 || lowerPattern % 2 !== 0 : !diff.negative;
  return takeUp ? up : down;
}

/** The value of `text` in `format`, rounded to nearest even, or why it has none there. */
export function parseElementValue(text: string, format: ElementFormatName): ElementValueResult {
  if (format === 'f16' || format === 'bf16' || format === 'f32') {
    const r = parseValue(text, FORMATS[format]);
    return r.ok ? { ok: true, bits: BigInt(r.bits), exact: r.exact } : refuse(r.error.message);
  }
  const read = readNumberText(text, format === 'f64' ? F64_DECIMAL_RANGE : undefined);
  if (!read.ok) return refuse(read.error.message);
  const f = format === 'f64' ? null : floatFormatOf(format);
  const signed = f ? f.signed : true;
  const hasInfinity = f ? f.hasInfinity : true;
  const nan = f ? f.nan : 'exponent-all-ones';
  const hasZero = f ? f.hasSubnormals : true;
  const signBit = format === 'f64' ? F64.signMask : BigInt(f!.signMask);
  const sign = read.negative && signed ? signBit : 0n;
  const name = `.${format}`;
  const infinityBits = format === 'f64' ? F64.infBits : BigInt(f!.infBits);
  if (read.negative && !signed && read.kind !== 'nan')
    return refuse(`${name} is unsigned: it has no negative values (its least value is 2^-127)`);

  switch (read.kind) {
    case 'nan':
      if (nan === 'none') return refuse(`${name} has no NaN`);
      return {
        ok: true,
        bits: (format === 'f64' ? F64.canonicalNaN : BigInt(f!.canonicalNaN)) | sign,
        exact: true,
      };
    case 'snan':
      if (nan !== 'exponent-all-ones')
        return refuse(`${name} has no signaling NaN${nan === 'none' ? ' (and no NaN)' : ''}`);
      return { ok: true, bits: sign | (infinityBits + 1n), exact: true };
    case 'inf':
      if (!hasInfinity)
        return refuse(
          `${name} has no infinity; its largest finite value is ${maxNormText(format)}`,
        );
      return { ok: true, bits: sign | infinityBits, exact: true };
    case 'beyond':
      if (!hasInfinity)
        return refuse(
          `${text.trim()} is past ${name}'s largest finite value ${maxNormText(format)}, and ${name} has no infinity`,
        );
      return { ok: true, bits: sign | infinityBits, exact: false };
    case 'below':
      if (!hasZero)
        return refuse(`${text.trim()} is below ${name}'s least value 2^-127 (${name} has no zero)`);
      return { ok: true, bits: sign, exact: false };
  }
  if (read.num === 0n) {
    if (!hasZero) return refuse(`${name} has no zero; its least value is 2^-127 (0x00)`);
    return { ok: true, bits: sign, exact: true };
  }
  const trimmed = text.trim();
  const magnitude = rationalMagnitude(read.negative, read.num, read.den, () => ({
    kind: 'finite',
    negative: read.negative,
    decimal: trimmed,
    binary: trimmed,
    rational: trimmed,
  }));
  if (format === 'f64') return { ok: true, ...roundToF64(magnitude) };

  const x = roundedToOdd(magnitude);
  const r = format === 'ue8m0' ? nearestPowerOfTwo(x) : roundForCvt(x, format, 'rn');
  if (r.overflow) {
    if (!hasInfinity)
      return refuse(
        `${trimmed} is past ${name}'s largest finite value ${maxNormText(format)}, and ${name} has no infinity`,
      );
    return { ok: true, bits: sign | infinityBits, exact: false };
  }
  const value = r.value!;
  if (value.mant === 0n && !hasZero)
    return refuse(`${trimmed} rounds below ${name}'s least value 2^-127 (${name} has no zero)`);
  const bits = encodeElement({ kind: 'finite', x: { ...value, negative: read.negative } }, format);
  // A typed value with more than 64 significant bits is not one of the format's either.
  const longer = !magnitude.floorScaled(63 - magnitude.ilog2()).exact;
  return { ok: true, bits, exact: r.direction === 'exact' && !longer };
}

/**
 * The shortest decimal that reads back (parseElementValue) to the same bits: what the value
 * fields show. NaN and the infinities by name.
 */
export function shortestElementDecimal(bits: bigint, format: ElementFormatName): string {
  const v = decodeElement(bits, format);
  if (v.kind === 'nan') return 'NaN';
  if (v.kind === 'inf') return v.negative ? '-inf' : 'inf';
  if (v.x.mant === 0n) return v.x.negative ? '-0' : '0';
  const d = (v.x.negative ? -1 : 1) * Number(v.x.mant) * 2 ** v.x.exp;
  for (let digits = 1; digits <= 17; digits++) {
    const candidate = normalize(d.toPrecision(digits));
    const back = parseElementValue(candidate, format);
    if (back.ok && back.bits === bits) return candidate;
  }
  return String(d);
}

function normalize(s: string): string {
  // toPrecision gives "1.0e+5" or "0.00012"; drop a trailing ".0" and the '+' of exponents.
  const [mant, exp] = s.split('e');
  const m = mant!.includes('.') ? mant!.replace(/0+$/, '').replace(/\.$/, '') : mant!;
  return exp ? `${m}e${exp.replace('+', '')}` : m;
}
