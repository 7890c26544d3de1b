/**
 * NVIDIA's rules as pure functions over bit patterns of any format, in one place (SoftFloat's
 * specialize.h): the canonical NaN, flushing subnormals and tiny results to zero, what an
 * overflow gives, .satfinite, .sat, .relu, OOB-NaN, the sign of an exact zero, and ue8m0's
 * missing zero. Each rule exists once, here. The pipeline (pipeline.ts) records a step around
 * each call; the fast path calls the same functions, or is checked against them where it
 * specialises.
 *
 * Where the spec leaves a rule open, the function follows a documented decision (decisions.ts),
 * and where a GPU was measured the decision says so.
 */
import type { Rounding } from '../catalog/modifiers.ts';
import {
  isNaNBits,
  isNegative,
  magnitudeOf,
  maxNormBits,
  withSign,
  type Format,
} from './format.ts';
import type { Tininess } from './rounding.ts';

/**
 * The NaN a NaN result is (decisions canonical-nan): the format's canonical NaN. A format
 * without NaN (e2m1, e2m3, e3m2) has none to give: only .satfinite converts to them, and it
 * gives +MAX_NORM instead (see satfinite).
 */
export function canonicalNaN(f: Format): bigint {
  if (f.canonicalNaN === null) throw new Error(`${f.name} has no NaN`);
  return f.canonicalNaN;
}

/** .ftz on an input: "flushes subnormal inputs … to sign-preserving zero". */
export function flushSubnormal(bits: bigint, f: Format): bigint {
  const m = magnitudeOf(bits, f);
  return f.hasSubnormals && m !== 0n && m <= f.manMask
    ? withSign(0n, isNegative(bits, f), f)
    : bits;
}

export type TininessReading = 'after-rounding' | 'before-rounding';

/** Whether a result is tiny under a reading (decision ftz-after-rounding). */
export function isTiny(tininess: Tininess, reading: TininessReading): boolean {
  return reading === 'after-rounding' ? tininess.after : tininess.before;
}

/**
 * .ftz on a result: a tiny result becomes a zero of its sign (decision ftz-after-rounding:
 * tininess after rounding, measured on sm_90). A NaN, an infinity or a zero is never flushed.
 */
export function flushTinyResult(bits: bigint, f: Format, tiny: boolean): bigint {
  if (!tiny) return bits;
  const m = magnitudeOf(bits, f);
  const finiteNonzero = m !== 0n && m <= f.maxBits;
  return finiteNonzero ? withSign(0n, isNegative(bits, f), f) : bits;
}

/**
 * IEEE 754 §7.4: a value rounded past MAX_NORM gives infinity where the rounding went away from
 * zero (round to nearest included), else MAX_NORM. ue8m0 has no infinity: NaN (decision
 * cvt-ue8m0). e4m3 and the 6- and 4-bit formats are only converted to with .satfinite, which
 * settles their overflow instead.
 */
export function overflowResult(
  f: Format,
  negative: boolean,
  awayFromZero: boolean,
): { readonly bits: bigint; readonly to: 'infinity' | 'max-norm' | 'nan' } {
  if (f.infBits === null) {
    if (f.canonicalNaN === null || f.signed) throw new Error(`${f.name} needs .satfinite`);
    return { bits: f.canonicalNaN, to: 'nan' };
  }
  return awayFromZero
    ? { bits: withSign(f.infBits, negative, f), to: 'infinity' }
    : { bits: maxNormBits(f, negative), to: 'max-norm' };
}

/** A value on its way to the destination, where the destination cannot hold it yet. */
export type Unencoded =
  /** Past MAX_NORM (a rounding that overflowed, or an infinity the format has none of). */
  | {
      readonly beyond: true;
      readonly negative: boolean;
      /** It is an input's infinity, not a rounding's overflow (decision cvt-satfinite-infinity). */
      readonly infinite?: boolean;
    }
  /** A NaN, in a format without NaN (e2m1, e2m3, e3m2). */
  | { readonly nan: true };

/**
 * .satfinite: "if the input value is NaN, then the result is NaN in the specified destination
 * format" (+MAX_NORM where it has no NaN); "if the absolute value of input … is greater than
 * MAX_NORM … the result is sign-preserved MAX_NORM" (+MAX_NORM in an unsigned format). An
 * infinity is greater than MAX_NORM (decision cvt-satfinite-infinity).
 */
export function satfinite(
  x: { readonly bits: bigint } | Unencoded,
  f: Format,
): { readonly bits: bigint; readonly case: 'nan' | 'beyond-max-norm' | 'in-range' } {
  if ('nan' in x) return { bits: f.canonicalNaN ?? f.maxBits, case: 'nan' };
  if ('beyond' in x) return { bits: maxNormBits(f, x.negative), case: 'beyond-max-norm' };
  if (isNaNBits(x.bits, f)) return { bits: x.bits, case: 'nan' };
  if (magnitudeOf(x.bits, f) > f.maxBits)
    return { bits: maxNormBits(f, isNegative(x.bits, f)), case: 'beyond-max-norm' };
  return { bits: x.bits, case: 'in-range' };
}

/**
 * .sat: "clamps the result to [0.0, 1.0]. NaN results are flushed to +0.0." Negative values,
 * -0.0 included, become +0.0 (decision sat-negative-zero).
 */
export function saturate(bits: bigint, f: Format): bigint {
  if (isNaNBits(bits, f) || isNegative(bits, f)) return 0n;
  const one = BigInt(f.bias) << BigInt(f.manBits);
  return bits > one ? one : bits;
}

/**
 * .relu: "clamps the result to 0 if negative. NaN results are converted to canonical NaN."
 * -0.0 becomes +0.0 (decision relu-negative-zero).
 */
export function relu(bits: bigint, f: Format): bigint {
  if (isNaNBits(bits, f)) return canonicalNaN(f);
  return isNegative(bits, f) ? 0n : bits;
}

/** Whether a 16-bit element is OOB-NaN (decision oob-nan-pattern): the pattern, either sign. */
export function isOobNaN(bits: bigint, f: Format, pattern: bigint): boolean {
  return magnitudeOf(bits, f) === magnitudeOf(pattern, f);
}

/**
 * .oob: "clamps the result to 0 if either of the operands is OOB NaN", per element. The operands
 * tested are a and b (measured on sm_90: an OOB-NaN addend is an ordinary NaN).
 */
export function oobForcesZero(a: bigint, b: bigint, f: Format, pattern: bigint): boolean {
  return isOobNaN(a, f, pattern) || isOobNaN(b, f, pattern);
}

/**
 * The sign of an exact zero result (IEEE 754 §6.3). A product's zero takes the exclusive or of
 * the factors' signs; a sum's zero is +0 (−0 under .rm) unless both terms are zeros of the same
 * sign, which keep it. Returns true for −0.
 */
export function exactZeroIsNegative(
  zero:
    | { readonly of: 'product'; readonly negative: boolean }
    | {
        readonly of: 'sum';
        readonly bothZeroSameSign: boolean;
        readonly termNegative: boolean;
        readonly mode: Rounding;
      },
): boolean {
  if (zero.of === 'product') return zero.negative;
  if (zero.bothZeroSameSign) return zero.termNegative;
  return zero.mode === 'rm';
}

/**
 * ue8m0 has no zero: a zero, or a value rounded below its least value, converts to the least
 * value 2^-127, pattern 0x00 (decision cvt-ue8m0).
 */
export function leastValueForZero(f: Format): bigint {
  if (f.hasZero) throw new Error(`${f.name} has a zero`);
  return 0n;
}
