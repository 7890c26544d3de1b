/**
 * NVIDIA's rules (nvidia-rules.ts) on patterns held as numbers, for the fast path's loops over
 * formats of at most 32 bits: the same functions, written for a JavaScript number instead of a
 * bigint (a bigint per element would cost the fast path most of its speed). Nothing is decided
 * here that nvidia-rules.ts does not decide: numeric-rules.test.ts checks every
 * function against its nvidia-rules.ts rule on every pattern of every format of at most 16 bits
 * (tf32's 19 included), and on the edges and a seeded sample of f32's.
 *
 * The sign of an exact zero (exactZeroIsNegative) takes no pattern: the fast path calls
 * nvidia-rules.ts for it.
 */
import { isNaNWord, type NumericFormat } from './numeric-format.ts';

/**
 * What the rules read of a format: a NumericFormat's facts (the bigint format it views is not
 * needed).
 */
export type RuleFormat = Omit<NumericFormat, 'format'>;

function magnitude(bits: number, f: RuleFormat): number {
  return bits >= f.signMask ? bits - f.signMask : bits;
}

function signedZero(bits: number, f: RuleFormat): number {
  return bits >= f.signMask ? f.signMask : 0;
}

/** nvidia-rules canonicalNaN (decision canonical-nan). */
export function canonicalNaN(f: RuleFormat): number {
  if (f.canonicalNaN === null) throw new Error(`${f.name} has no NaN`);
  return f.canonicalNaN;
}

/** nvidia-rules flushSubnormal: .ftz on an input, a subnormal becomes a zero of its sign. */
export function flushSubnormal(bits: number, f: RuleFormat): number {
  const m = magnitude(bits, f);
  return f.hasSubnormals && m !== 0 && m <= f.manMask ? signedZero(bits, f) : bits;
}

/** nvidia-rules flushTinyResult: .ftz on a result judged tiny; NaN, infinity and zero stay. */
export function flushTinyResult(bits: number, f: RuleFormat, tiny: boolean): number {
  if (!tiny) return bits;
  const m = magnitude(bits, f);
  return m !== 0 && m <= f.maxBits ? signedZero(bits, f) : bits;
}

/** nvidia-rules saturate: .sat clamps to [0.0, 1.0]; NaN, negatives and -0.0 give +0.0. */
export function saturate(bits: number, f: RuleFormat): number {
  if (bits >= f.signMask || isNaNWord(bits, f)) return 0;
  const one = f.bias * (f.manMask + 1);
  return bits > one ? one : bits;
}

/** nvidia-rules relu: negatives and -0.0 give +0.0; a NaN gives the canonical NaN. */
export function relu(bits: number, f: RuleFormat): number {
  if (isNaNWord(bits, f)) return canonicalNaN(f);
  return bits >= f.signMask ? 0 : bits;
}

/** nvidia-rules isOobNaN: the OOB-NaN pattern's magnitude, either sign. */
export function isOobNaN(bits: number, f: RuleFormat, pattern: number): boolean {
  return magnitude(bits, f) === magnitude(pattern, f);
}

/** nvidia-rules oobForcesZero: an OOB-NaN a or b makes the element +0.0. */
export function oobForcesZero(a: number, b: number, f: RuleFormat, pattern: number): boolean {
  return isOobNaN(a, f, pattern) || isOobNaN(b, f, pattern);
}

/** MAX_NORM with a sign (an unsigned format's is positive). */
export function maxNormBits(f: RuleFormat, negative: boolean): number {
  return negative && f.signed ? f.maxBits + f.signMask : f.maxBits;
}

/**
 * nvidia-rules overflowResult's bits: infinity where the rounding went away from zero, else
 * MAX_NORM; ue8m0 (no infinity, a NaN): the NaN.
 */
export function overflowResult(f: RuleFormat, negative: boolean, awayFromZero: boolean): number {
  if (!f.hasInfinity) {
    if (f.canonicalNaN === null || f.signed) throw new Error(`${f.name} needs .satfinite`);
    return f.canonicalNaN;
  }
  if (!awayFromZero) return maxNormBits(f, negative);
  return negative ? f.infBits + f.signMask : f.infBits;
}

/**
 * nvidia-rules satfinite of a pattern: a NaN stays (a format without NaN has none to hold), a
 * magnitude past MAX_NORM (an infinity) becomes MAX_NORM of its sign.
 */
export function satfinite(bits: number, f: RuleFormat): number {
  if (isNaNWord(bits, f)) return bits;
  return magnitude(bits, f) > f.maxBits ? maxNormBits(f, bits >= f.signMask) : bits;
}

/** nvidia-rules satfinite of a value rounded past MAX_NORM: MAX_NORM of its sign. */
export function satfiniteBeyond(f: RuleFormat, negative: boolean): number {
  return maxNormBits(f, negative);
}
