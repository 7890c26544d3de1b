/**
 * Round to nearest through binary32: the fast path's shortcut for the .rn forms into f16 and bf16.
 *
 * r = fround(s) is the exact value x rounded to nearest twice: to binary64 when s was computed,
 * then to binary32. Rounding to nearest is monotone, and every midpoint between neighbouring
 * values of f16 or bf16 (their subnormal steps and their overflow thresholds included) is both a
 * binary64 and a binary32 value. So x, s and r lie on the same side of every such midpoint unless
 * r is one, and then the nearest f16/bf16 value to r is the nearest to x. When r is a midpoint,
 * r's tie (to even) is the answer when x = r, and also wherever double rounding is known to be
 * innocuous (Figueroa, "When is double rounding innocuous?", 1995: rounding to p' bits, then to
 * p, is the same as rounding to p once for a sum of two p-bit numbers when p' >= 2p + 1, and for
 * a product when p' >= 2p — so for f16 and bf16 add, sub and mul, but not fma). Where the caller
 * asks, the result says so with NEAREST_TIE, for it to keep or to hand to roundPair (round-pair.ts).
 * nearest-binary32.test.ts checks these functions against roundPair.
 */
import { FORMATS } from '../format.ts';
import { canonicalNaN } from '../nvidia-rules.ts';

/** Added to the bits when fround(s) is a midpoint: right if the exact value is s, or see above. */
export const NEAREST_TIE = 0x10000;
/** Added when s is an exact zero: its sign is a rule of its own, not rounding's. */
export const NEAREST_ZERO = 0x20000;

/**
 * Added to nearestF16OfBinary32's result with flags = 0 when the binary32 is zero, subnormal,
 * infinite or a NaN.
 */
export const BINARY32_NOT_NORMAL = 0x10000;

/**
 * The workspace of the roundings through binary32: a scratch binary32 (storing a double in it
 * rounds to nearest binary32, as Math.fround does) with its bits, and the f16 tables. The caller
 * makes one with binary32Rounding() and keeps it in a constant of its own module: the JIT then
 * folds the arrays into the code it inlines these functions into, where through an import it
 * would read them on every call (a quarter of the time of the whole rounding, measured).
 */
export interface Binary32Rounding {
  readonly value: Float32Array;
  readonly bits: Uint32Array;
  /**
   * f16 from a binary32 encoding by its sign and exponent field t = bits >>> 23 (E = t & 255),
   * one entry each: the significand (24 bits, its leading one included) is shifted right by the
   * entry's top byte to count f16 quanta, added to its low 16 bits (the base, the sign
   * included); bit 16 is BINARY32_NOT_NORMAL where E is 0 or 255. Normal results (E 113…142) keep 11 bits; below 2^-14 the quantum is the
   * subnormal step 2^-24; from 2^16 up everything is infinity, and below 2^-26 zero (a shift of
   * 31 leaves nothing). A table, and flags computed with masks, instead of branches: on random
   * data a mispredicted branch costs more than the whole rounding.
   */
  readonly f16Rounding: Int32Array;
  /** The canonical NaNs (nvidia-rules.ts canonicalNaN), what a NaN rounds to. */
  readonly f16NaN: number;
  readonly bf16NaN: number;
}

export function binary32Rounding(): Binary32Rounding {
  const value = new Float32Array(1);
  return {
    value,
    bits: new Uint32Array(value.buffer),
    f16Rounding: Int32Array.from({ length: 512 }, (_, t) => {
      const E = t & 255;
      const shift = E >= 143 ? 31 : E >= 113 ? 13 : Math.min(126 - E, 31);
      const base = (t >>> 8) * 0x8000 + (E >= 143 ? 0x7c00 : E >= 113 ? (E - 113) << 10 : 0);
      const notNormal = E === 0 || E === 255 ? BINARY32_NOT_NORMAL : 0;
      return base + notNormal + shift * 2 ** 24;
    }),
    f16NaN: Number(canonicalNaN(FORMATS.f16)),
    bf16NaN: Number(canonicalNaN(FORMATS.bf16)),
  };
}

/**
 * The f16 encoding nearest (ties to even) to fround(s); a NaN gives the canonical NaN. Flags
 * added: NEAREST_ZERO when s is zero, and with ties = 1, NEAREST_TIE when fround(s) is
 * an f16 midpoint (ties = 0 where the caller keeps that tie anyway: innocuous double rounding).
 * normalFirst = 1 tries the normal range first, with a branch: for sums, whose results are
 * mostly normal, that is the faster way; for products, spread over the whole range, the branch
 * mispredicts and the tables alone (normalFirst = 0) are faster (measured: 156 against 125 Mop/s
 * for add.rn.f16, 95 against 130 for mul.rn.f16).
 */
export function nearestF16ViaBinary32(
  s: number,
  ties: 0 | 1,
  normalFirst: 0 | 1,
  w: Binary32Rounding,
): number {
  w.value[0] = s;
  return nearestF16OfBinary32(w.bits[0]!, ties, normalFirst, w);
}

/**
 * nearestF16ViaBinary32 of the binary32 value with these bits: its rounding to nearest (ties to
 * even) once, with the same flags; with flags = 0, the bits alone plus BINARY32_NOT_NORMAL for a
 * zero, subnormal, infinite or NaN binary32 (whose bits are then not a NaN's: the caller chooses
 * those results). The conversion of an .f32 register to .f16 takes it that way, with no double
 * in between.
 */
export function nearestF16OfBinary32(
  bits: number,
  ties: 0 | 1,
  normalFirst: 0 | 1,
  w: Binary32Rounding,
  flags: 0 | 1 = 1,
): number {
  const abs = bits & 0x7fffffff;
  // A normal f16 result (2^-14 <= |r| < 65520) keeps the top 11 of r's 24 bits; the binary32
  // exponent is rebiased by the field's difference, 127 - 15.
  if (normalFirst === 1 && (abs - 0x38800000) >>> 0 < 0x477ff000 - 0x38800000) {
    const normal =
      ((bits >>> 16) & 0x8000) | ((abs - 0x38000000 + 0xfff + ((abs >>> 13) & 1)) >>> 13);
    return ties === 1 ? normal + isZero32((abs & 0x1fff) ^ 0x1000) * NEAREST_TIE : normal;
  }
  const entry = w.f16Rounding[bits >>> 23]!;
  const shift = entry >>> 24;
  const m = (bits & 0x7fffff) | 0x800000;
  const half = 1 << (shift - 1);
  // Round to nearest, ties to even: add just under half a quantum, plus one when the kept
  // part is odd. A carry moves into the exponent field, and from 65520 up into infinity.
  // With flags = 0 the entry's BINARY32_NOT_NORMAL comes along (the sum stays below it: at
  // most 0xfc00).
  const d =
    (entry & (flags === 0 ? 0x1ffff : 0xffff)) + ((m + half - 1 + ((m >>> shift) & 1)) >>> shift);
  if (flags === 0) return d;
  const tie = ties === 1 ? isZero32((m & (half + half - 1)) ^ half) : 0;
  // A sum or product of f16 values is 0 or at least 2^-48: a binary32 zero is an exact zero.
  return withFlags(d, tie, isZero32(abs), abs, w.f16NaN);
}

/**
 * The bf16 encoding nearest (ties to even) to fround(s), with the flags of
 * nearestF16ViaBinary32. bf16 is binary32's upper half: one rounding at bit 16 serves the
 * subnormals and the carry into infinity alike.
 */
export function nearestBf16ViaBinary32(s: number, ties: 0 | 1, w: Binary32Rounding): number {
  w.value[0] = s;
  return nearestBf16OfBinary32(w.bits[0]!, ties, +(s === 0), w);
}

/**
 * nearestBf16ViaBinary32 of the binary32 value with these bits; `exactZero` is 1 where a zero
 * encoding is an exact zero (for NEAREST_ZERO). The conversion of an .f32 register to .bf16
 * takes it, with ties = 0.
 */
export function nearestBf16OfBinary32(
  bits: number,
  ties: 0 | 1,
  exactZero: number,
  w: Binary32Rounding,
): number {
  const abs = bits & 0x7fffffff;
  const d = ((bits >>> 16) & 0x8000) | ((abs + 0x7fff + ((abs >>> 16) & 1)) >>> 16);
  const tie = ties === 1 ? isZero32((abs & 0xffff) ^ 0x8000) : 0;
  // A product of bf16 values may be too small for binary32 (down to 2^-266): its bits, a zero of
  // its sign, are the answer; only a zero s is an exact zero.
  return withFlags(d, tie, isZero32(abs) & exactZero, abs, w.bf16NaN);
}

/** 1 when x (0 <= x < 2^31) is zero, else 0, without a branch. */
function isZero32(x: number): number {
  return (x - 1) >>> 31;
}

/**
 * The rounded bits d with the flags (NEAREST_TIE when tie is 1 and the value is no NaN, NEAREST_ZERO
 * when zero is 1), or nanBits, the format's canonical NaN, when that magnitude is a NaN's. Selected
 * with masks, not branches.
 */
function withFlags(d: number, tie: number, zero: number, abs: number, nanBits: number): number {
  const nan = (0x7f800000 - abs) >>> 31;
  return (d ^ ((d ^ nanBits) & (0 - nan))) + (tie & (nan ^ 1)) * NEAREST_TIE + zero * NEAREST_ZERO;
}

/**
 * The binary32 encoding nearest to x = u + v, given s = u + v computed in doubles, where u and v
 * are binary32 values (or, for a bf16 product below 2^-133, such that u + v is exact in a
 * double), or -1 for a NaN or a zero (whose rules are not rounding's).
 *
 * Why fround(s) is x rounded once: if s is exact, it is. If not, s is no binary32 midpoint.
 * Let u be the larger term (a binary32 value) and suppose s were a midpoint: s ≠ u, s − u is a
 * multiple of a quarter of u's binary32 step (x, and so s, is at least |u|/2: a closer cancellation is
 * exact), and v = (s − u) + (x − s) would need bits from there down to below s's last double bit,
 * over 26 bits, where a binary32 value has 24. s is then on the same side of every binary32
 * midpoint as x (rounding is monotone), and binary32's nearest value to s is its nearest to x.
 */
export function nearestBinary32OfTwoTerms(s: number, w: Binary32Rounding): number {
  w.value[0] = s;
  const bits = w.bits[0]!;
  const abs = bits & 0x7fffffff;
  return (abs - 1) >>> 0 >= 0x7f800000 ? -1 : bits;
}
