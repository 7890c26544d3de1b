/**
 * NVIDIA specifics as pure functions over bit patterns, in one place (SoftFloat's specialize.h):
 * the canonical NaN, flushing subnormals to zero, saturation, relu, the sign of an exact zero and
 * OOB-NaN. Each rule exists once, here. The traced path (traced-rules.ts) wraps these functions
 * to record a step around each; the fast path (fast.ts) calls them directly.
 *
 * Where the spec leaves a rule open, the function follows a documented decision (decisions.ts),
 * and where a GPU was measured the decision says so.
 */
import type { RoundingMode } from '../catalog/types.ts';
import type { FloatFormat } from './formats.ts';

/** NaN results are the format's canonical NaN (decision 'canonical-nan'). */
export function canonicalNaN(f: FloatFormat): number {
  return f.canonicalNaN;
}

function magnitude(bits: number, f: FloatFormat): number {
  return bits >= f.signMask ? bits - f.signMask : bits;
}

function signedZero(bits: number, f: FloatFormat): number {
  return bits >= f.signMask ? f.signMask : 0;
}

/** .ftz on an input: "flushes subnormal inputs … to sign-preserving zero". */
export function flushSubnormal(bits: number, f: FloatFormat): number {
  const m = magnitude(bits, f);
  return m !== 0 && m <= f.manMask ? signedZero(bits, f) : bits;
}

/** How the exact result compares with the smallest normal, 2^emin (IEEE 754 §7.5). */
export interface Tininess {
  /** |exact| < 2^emin: tiny before rounding. */
  readonly before: boolean;
  /**
   * The exact value rounded to the format's precision as though the exponent range were
   * unbounded is nonzero and below 2^emin in magnitude: tiny after rounding.
   */
  readonly after: boolean;
}

export type TininessReading = 'after-rounding' | 'before-rounding';

/** Whether a result is tiny under a reading (decision 'ftz-after-rounding'). */
export function isTiny(tininess: Tininess, reading: TininessReading): boolean {
  return reading === 'after-rounding' ? tininess.after : tininess.before;
}

/**
 * .ftz on a result: a tiny result becomes a zero of the same sign (decision
 * 'ftz-after-rounding': tininess after rounding, measured on sm_90). A NaN, an infinity or a
 * zero is never flushed.
 */
export function flushTinyResult(bits: number, f: FloatFormat, tiny: boolean): number {
  if (!tiny) return bits;
  const m = magnitude(bits, f);
  return m !== 0 && m < f.infBits ? signedZero(bits, f) : bits;
}

/**
 * .sat: "clamps the result to [0.0, 1.0]. NaN results are flushed to +0.0f." Negative values,
 * -0.0 included, become +0.0 (decision 'sat-negative-zero').
 */
export function saturate(bits: number, f: FloatFormat): number {
  if (bits >= f.signMask) return 0; // negative, -0.0, or a NaN with the sign bit set
  if (bits > f.infBits) return 0; // NaN
  const one = f.bias * (f.manMask + 1);
  return bits > one ? one : bits;
}

/**
 * .relu: "clamps the result to 0 if negative. NaN result is converted to canonical NaN."
 * -0.0 becomes +0.0 (decision 'relu-negative-zero').
 */
export function relu(bits: number, f: FloatFormat): number {
  if (magnitude(bits, f) > f.infBits) return f.canonicalNaN;
  return bits >= f.signMask ? 0 : bits;
}

/**
 * Whether a 16-bit lane value is OOB-NaN (decision 'oob-nan-pattern'): its magnitude is that of
 * `pattern` (0x7FF7 measured on sm_90; either sign).
 */
export function isOobNaN(bits: number, f: FloatFormat, pattern: number): boolean {
  return magnitude(bits, f) === magnitude(pattern, f);
}

/**
 * .oob: "clamps the result to 0 if either of the operands is OOB NaN", per lane. The operands
 * tested are the multiplicands a and b (measured on sm_90: an OOB-NaN addend is an ordinary NaN).
 */
export function oobForcesZero(a: number, b: number, f: FloatFormat, pattern: number): boolean {
  return isOobNaN(a, f, pattern) || isOobNaN(b, f, pattern);
}

/**
 * The sign of an exact zero result (IEEE 754 §6.3). A product's zero takes the exclusive or of
 * the factors' signs; a sum's zero is +0 (-0 under .rm) unless both terms are zeros of the same
 * sign, which keep it. Returns true for -0.
 */
export function exactZeroIsNegative(
  zero:
    | { readonly of: 'product'; readonly negative: boolean }
    | {
        readonly of: 'sum';
        readonly bothZeroSameSign: boolean;
        readonly termNegative: boolean;
        readonly mode: RoundingMode;
      },
): boolean {
  if (zero.of === 'product') return zero.negative;
  if (zero.bothZeroSameSign) return zero.termNegative;
  return zero.mode === 'rm';
}
