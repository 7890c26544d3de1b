/**
 * The one rounding routine (SoftFloat's roundPackTo*): an exact value in, the nearest
 * representable value of a format out, in one of the four PTX modes, with gradual underflow,
 * overflow per mode and the guard / round / sticky bits that decided it.
 *
 * Works on any exact magnitude that can say floor(|x| × 2^shift) and whether that is exact:
 * dyadic rationals (arithmetic results) and decimal rationals (typed-in values) alike.
 */
import type { RoundingMode } from '../catalog/types.ts';
import { bitLength, exactValueOfDyadic, ilog2, type Dyadic } from './exact.ts';
import type { FormatName } from '../catalog/types.ts';
import { FORMATS, type AnyFloatFormat, type FloatFormat } from './formats.ts';
import { canonicalNaN, type Tininess } from './specialize.ts';
import type { ExactValue, RoundStep } from './trace.ts';

export interface ExactMagnitude {
  readonly negative: boolean;
  /** floor(log2 |x|); |x| > 0. */
  ilog2(): number;
  /** floor(|x| × 2^shift), and whether the product was an integer. */
  floorScaled(shift: number): { int: bigint; exact: boolean };
  describe(): ExactValue;
}

export function dyadicMagnitude(x: Dyadic): ExactMagnitude {
  return {
    negative: x.negative,
    ilog2: () => ilog2(x),
    floorScaled(shift) {
      const e = x.exp + shift;
      if (e >= 0) return { int: x.mant << BigInt(e), exact: true };
      const int = x.mant >> BigInt(-e);
      return { int, exact: int << BigInt(-e) === x.mant };
    },
    describe: () => exactValueOfDyadic(x),
  };
}

/** |x| = num / den with num, den > 0. */
export function rationalMagnitude(
  negative: boolean,
  num: bigint,
  den: bigint,
  describe: () => ExactValue,
): ExactMagnitude {
  return {
    negative,
    ilog2() {
      let e = bitLength(num) - bitLength(den);
      // Adjust so that 2^e <= num/den < 2^(e+1).
      const ge = (k: number) => (k >= 0 ? num >= den << BigInt(k) : num << BigInt(-k) >= den);
      while (!ge(e)) e--;
      while (ge(e + 1)) e++;
      return e;
    },
    floorScaled(shift) {
      const n = shift >= 0 ? num << BigInt(shift) : num;
      const d = shift >= 0 ? den : den << BigInt(-shift);
      return { int: n / d, exact: n % d === 0n };
    },
    describe,
  };
}

export interface Rounded<N extends string = FormatName> {
  /** Result bits (with sign). */
  readonly bits: number;
  /** IEEE 754 §7.4: rounded with an unbounded exponent, the value is beyond the largest finite. */
  readonly overflow: boolean;
  /** Whether the exact value is tiny, before and after rounding (IEEE 754 §7.5). */
  readonly tininess: Tininess;
  /** The result differs from the exact value. */
  readonly inexact: boolean;
  readonly step: RoundStep<N>;
}

/**
 * Round a nonzero exact value to format `f` in `mode`.
 *
 * The significand is cut at the result's quantum 2^q (q = max(e, emin) - manBits, so gradual
 * underflow keeps the subnormal spacing), with guard, round and sticky below it; the mode picks
 * truncation or the next encoding up (the encoding is monotonic, so a carry into the exponent
 * field, or into infinity's pattern, falls out of "+1"). An encoding at or past infinity's is
 * overflow. Beyond the format's exponent range (|x| >= 2^(emax+1)) the cut is still what decides
 * overflow, but it is not a cut of any value of the format, so the step leaves it out and states
 * the outcome against the format's own neighbours: the largest finite value and the infinity.
 */
export function roundToFormat<N extends string>(
  x: ExactMagnitude,
  f: FloatFormat<N>,
  mode: RoundingMode,
): Rounded<N> {
  const e = x.ilog2();
  // Quantum (ulp) exponent: fixed at the subnormal spacing below the normal range.
  const q = Math.max(e, f.emin) - f.manBits;
  // Two extra bits below the ulp: guard and round; sticky is everything further down.
  const { int: scaled, exact } = x.floorScaled(2 - q);
  const kept = scaled >> 2n;
  const guard = Number((scaled >> 1n) & 1n) as 0 | 1;
  const round = Number(scaled & 1n) as 0 | 1;
  const sticky: 0 | 1 = exact ? 0 : 1;
  const beyondRange = e > f.emax;
  // Beyond the exponent range no value of the format equals x, whatever the bits below the cut.
  const inexact = beyondRange || guard === 1 || round === 1 || sticky === 1;

  // Encoded magnitude of x truncated to the quantum.
  const qmin = f.emin - f.manBits;
  const truncated = (q - qmin) * 2 ** f.manBits + Number(kept);
  const negative = x.negative;

  let awayFromZero: boolean;
  let reason: RoundStep['reason'];
  if (!inexact) {
    awayFromZero = false;
    reason = 'exact';
  } else if (mode === 'rn') {
    if (beyondRange) {
      // At least 2^(emax+1), past the largest finite value plus half an ulp.
      awayFromZero = true;
      reason = 'overflow-threshold';
    } else if (guard === 0) {
      awayFromZero = false;
      reason = 'below-half';
    } else if (round === 1 || sticky === 1) {
      awayFromZero = true;
      reason = 'above-half';
    } else {
      awayFromZero = (kept & 1n) === 1n; // tie: to the even neighbour
      reason = 'tie-to-even';
    }
  } else if (mode === 'rz') {
    awayFromZero = false;
    reason = 'toward-zero';
  } else if (mode === 'rp') {
    awayFromZero = !negative;
    reason = 'toward-plus-inf';
  } else {
    awayFromZero = negative;
    reason = 'toward-minus-inf';
  }

  let magnitude = truncated + (awayFromZero ? 1 : 0);
  let overflow = false;
  if (magnitude >= f.infBits) {
    overflow = true;
    // Overflow: modes that round away from zero give infinity, the others the largest finite.
    magnitude = awayFromZero ? f.infBits : f.maxBits;
  }
  const sign = negative ? f.signMask : 0;
  // The neighbours' magnitudes in the format: past the largest finite value, the largest finite
  // value and the infinity.
  const belowMag = Math.min(truncated, f.maxBits);
  const aboveMag = inexact ? Math.min(belowMag + 1, f.infBits) : belowMag;
  // By value: for a negative x the larger magnitude is the lower value.
  const lower = sign + (negative ? aboveMag : belowMag);
  const upper = sign + (negative ? belowMag : aboveMag);
  const bits = sign + magnitude;
  const larger = inexact && magnitude === aboveMag;
  const step: RoundStep<N> = {
    kind: 'round',
    format: f.name,
    mode,
    exact: x.describe(),
    ...(beyondRange
      ? {}
      : { cut: { kept: kept.toString(2), guard, round, sticky, ulpExponent: q } }),
    inexact,
    direction: !inexact ? 'exact' : larger !== negative ? 'up' : 'down',
    magnitude: !inexact ? 'exact' : larger ? 'larger' : 'smaller',
    reason,
    lower,
    upper,
    result: bits,
    subnormal: magnitude > 0 && magnitude < 2 ** f.manBits,
  };
  return {
    bits,
    overflow,
    tininess: { before: e < f.emin, after: tinyAfterRounding(x, e, f, mode) },
    inexact,
    step,
  };
}

/**
 * IEEE 754 §7.5 tininess after rounding: x rounded to the format's precision (manBits + 1
 * significant bits) as though the exponent range were unbounded lies below 2^emin. Only a value
 * in [2^(emin-1), 2^emin) can round up to 2^emin: when its kept bits are all ones and the mode
 * rounds away from zero.
 */
function tinyAfterRounding(x: ExactMagnitude, e: number, f: AnyFloatFormat, mode: RoundingMode) {
  if (e >= f.emin) return false;
  if (e < f.emin - 1) return true;
  // Significant bits of x at exponent e, one guard bit below them, sticky below that.
  const { int: scaled, exact } = x.floorScaled(f.manBits + 1 - e);
  const kept = scaled >> 1n;
  const guard = (scaled & 1n) === 1n;
  const inexact = guard || !exact;
  if (kept !== (1n << BigInt(f.manBits + 1)) - 1n || !inexact) return true;
  const away = roundsAway(mode, x.negative, guard, !exact, true);
  return !away;
}

/** Whether rounding moves away from zero, given the first discarded bit and the rest. */
function roundsAway(
  mode: RoundingMode,
  negative: boolean,
  guard: boolean,
  rest: boolean,
  keptOdd: boolean,
): boolean {
  switch (mode) {
    case 'rn':
      return guard && (rest || keptOdd);
    case 'rz':
      return false;
    case 'rp':
      return !negative && (guard || rest);
    case 'rm':
      return negative && (guard || rest);
  }
}

// ---------------------------------------------------------------------------------------------
// The same rounding for the fast path: the exact value held as an unevaluated pair of doubles.
// The mode travels as a small integer (comparing integers is cheaper than comparing strings).

export type ModeCode = 0 | 1 | 2 | 3;
const RN = 0;
const RM = 2;
const RP = 3;
const MODE_CODES: Readonly<Record<RoundingMode, ModeCode>> = { rn: 0, rz: 1, rm: 2, rp: 3 };
export function modeCode(mode: RoundingMode): ModeCode {
  return MODE_CODES[mode];
}
// tests/fast-vs-traced.test.ts checks it against roundToFormat bit for bit.

// Scratch view for reading a double's exponent field (a pure function's workspace, not state).
const f64 = new Float64Array(1);
const f64Words = new Uint32Array(f64.buffer);
// Typed arrays use the platform's byte order; every platform Node and the browsers run on is
// little-endian (the high word of a double is word 1). Fixed indices let the JIT fold them.
if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1)
  throw new Error('the engine needs a little-endian platform');
const POW2_OFFSET = 1100;
const POW2 = Float64Array.from({ length: 2 * POW2_OFFSET }, (_, i) => 2 ** (i - POW2_OFFSET));

/** floor(log2 |x|) of a normal double, straight from its exponent field. */
function exponentOf(mag: number): number {
  f64[0] = mag;
  return ((f64Words[1]! >>> 20) & 0x7ff) - 1023;
}

/**
 * Where the exact value s + err lies between the multiples of the quantum 2^q, packed as
 * trunc × 4 + position: `trunc` is the number of whole quanta below |s + err| and `position`
 * says where in the gap it is — 0 exact, 1 below half, 2 half way, 3 above half. Needs
 * |err| <= ulp(s)/2 (s = fl(s + err)) and s a nonzero normal double; `e` is err with the sign of
 * the magnitude (err × sign(s)). Packed into one number so the fast path allocates nothing.
 */
function quantaOf(mag: number, e: number, q: number): number {
  const scaled = mag * POW2[POW2_OFFSET - q]!;
  const t = Math.floor(scaled);
  const frac = scaled - t;
  if (frac === 0) {
    if (e === 0) return t * 4;
    if (e > 0) return t * 4 + 1;
    // Just below a multiple of the quantum: far above the half-way point of the gap below.
    return t * 4 - 1;
  }
  if (frac < 0.5) return t * 4 + 1;
  if (frac > 0.5) return t * 4 + 3;
  return t * 4 + (e > 0 ? 3 : e < 0 ? 1 : 2);
}

function roundsUp(
  mode: ModeCode,
  negative: boolean,
  position: 0 | 1 | 2 | 3,
  truncOdd: boolean,
): boolean {
  if (position === 0) return false;
  if (mode === RN) return position === 3 || (position === 2 && truncOdd);
  return mode === RP ? !negative : mode === RM ? negative : false;
}

/**
 * roundToFormat for the exact value s + err (|err| <= ulp(s)/2, s = fl(s + err); s finite and
 * nonzero; |s·err| not below 2^-1074, which holds for every sum and product of f16/bf16/f32
 * values): the signed encoding of the correctly rounded value of format f.
 *
 * The magnitude is scaled so that the quantum of its binade (or of the subnormal range) is 1;
 * rounding to an integer is then the whole job, and the floating-point unit does round-to-
 * nearest-even itself (y + 1.5·2^52 − 1.5·2^52). err only matters where |s| is exactly half way
 * (round to nearest) or exactly an integer (the directed modes), and only by its sign. No branch
 * depends on the data except those rare cases: on random operands a mispredicted branch costs
 * more than the rounding.
 */
export function roundPair(s: number, err: number, f: AnyFloatFormat, mode: ModeCode): number {
  // Kept small, each mode's work in a function of its own, so that the JIT inlines the one a
  // loop uses (a call that never ran is not inlined and costs nothing).
  return mode === RN ? roundPairNearest(s, err, f) : roundPairDirected(s, err, f, mode);
}

/** roundPair to nearest, ties to even. */
function roundPairNearest(s: number, err: number, f: AnyFloatFormat): number {
  f64[0] = s;
  const hi = f64Words[1]! | 0;
  // Exponent of |s|, not below the subnormal range's.
  const E = maxInt(((hi >>> 20) & 0x7ff) - 1023, f.emin);
  const y = Math.abs(s) * POW2[POW2_OFFSET + f.manBits - E]!;
  let t = y + ROUND_TO_INTEGER - ROUND_TO_INTEGER;
  // Exactly half way: err decides (rare: only a sum whose error TwoSum kept).
  if (Math.abs(y - t) === 0.5 && err !== 0) t = hairAbove(s, err) ? Math.ceil(y) : Math.floor(y);
  return packPair(minInt(E, f.emax + 1), t, hi >>> 31, f, RN);
}

/** roundPair toward zero, +infinity or -infinity. */
function roundPairDirected(s: number, err: number, f: AnyFloatFormat, mode: ModeCode): number {
  f64[0] = s;
  const hi = f64Words[1]! | 0;
  const negative = hi >>> 31;
  const E = maxInt(((hi >>> 20) & 0x7ff) - 1023, f.emin);
  const y = Math.abs(s) * POW2[POW2_OFFSET + f.manBits - E]!;
  // err as seen from the magnitude: +1 a hair above |s|, -1 a hair below, 0 exact.
  const e = err === 0 ? 0 : hairAbove(s, err) ? 1 : -1;
  // Toward zero, or away from it (rp for a positive value, rm for a negative one).
  const down = Math.floor(y) - +(e < 0 && Math.floor(y) === y);
  const up = Math.ceil(y) + +(e > 0 && Math.ceil(y) === y);
  const t = awayFromZero(mode, negative) ? up : down;
  // A hair below a power of two belongs to the binade below (finer quanta).
  if (t < f.manMask + 1 && E > f.emin) return roundPairByQuanta(s, err, f, mode);
  return packPair(minInt(E, f.emax + 1), t, negative, f, mode);
}

/** err (nonzero) points away from zero, as s does: the exact magnitude is a hair above |s|. */
function hairAbove(s: number, err: number): boolean {
  return err > 0 === s > 0;
}

/** 1.5·2^52: adding and subtracting it rounds a double below 2^51 to an integer, ties to even. */
const ROUND_TO_INTEGER = 6755399441055744;

/** max(a, b) of two int32 values without a branch. */
function maxInt(a: number, b: number): number {
  const d = a - b;
  return a - (d & (d >> 31));
}

/**
 * min(a, b) of two int32 values without a branch (Math.min works in doubles and may branch; a
 * mispredicted branch on random data costs more than this whole function).
 */
function minInt(a: number, b: number): number {
  const d = a - b;
  return b + (d & (d >> 31));
}

/** 1 when the directed mode rounds a value of this sign away from zero, else 0. */
function awayFromZero(mode: ModeCode, negative: number): number {
  return mode === RP ? 1 - negative : mode === RM ? negative : 0;
}

/**
 * The encoding of significand × 2^(E - manBits) (E >= emin; the significand holds its leading
 * one, or none for a subnormal at E = emin): a carry out of the significand moves into the
 * exponent field. Anything from infinity's encoding up is overflow, which gives infinity or the
 * largest finite value by mode: a minimum picks that without a branch.
 */
function packPair(
  E: number,
  significand: number,
  negative: number,
  f: AnyFloatFormat,
  mode: ModeCode,
): number {
  const enc = (E + f.bias - 1) * (f.manMask + 1) + significand;
  const overflow = f.maxBits + (mode === RN ? 1 : awayFromZero(mode, negative));
  return minInt(enc, overflow) + negative * f.signMask;
}

/** roundPair by counting quanta in doubles: every case, including subnormals and overflow. */
function roundPairByQuanta(s: number, err: number, f: AnyFloatFormat, mode: ModeCode): number {
  const negative = s < 0;
  const mag = negative ? -s : s;
  const e = negative ? -err : err;
  const E = exponentOf(mag);
  const q = (E > f.emin ? E : f.emin) - f.manBits;
  const packed = quantaOf(mag, e, q);
  const trunc = packed >> 2;
  const position = (packed & 3) as 0 | 1 | 2 | 3;
  // Encodings are monotonic in the magnitude: the quanta below it are the encoding (carries into
  // the exponent field, and into the infinity pattern, fall out naturally).
  const base = trunc + (q - f.emin + f.manBits) * (f.manMask + 1);
  let enc = base + (roundsUp(mode, negative, position, (trunc & 1) === 1) ? 1 : 0);
  if (enc >= f.infBits) {
    const toInfinity = mode === RN || (mode === RP && !negative) || (mode === RM && negative);
    enc = toInfinity ? f.infBits : f.maxBits;
  }
  return negative ? enc + f.signMask : enc;
}

/**
 * Tininess of the exact value s + err (as roundPair takes it), before and after rounding
 * (IEEE 754 §7.5; see tinyAfterRounding).
 */
export function pairIsTiny(
  s: number,
  err: number,
  f: AnyFloatFormat,
  mode: ModeCode,
  reading: 'after-rounding' | 'before-rounding',
): boolean {
  const negative = s < 0;
  const mag = negative ? -s : s;
  const e = negative ? -err : err;
  const minNormal = POW2[POW2_OFFSET + f.emin]!;
  const before = mag < minNormal || (mag === minNormal && e < 0);
  if (!before || reading === 'before-rounding') return before;
  if (mag < minNormal / 2) return true;
  // In [2^(emin-1), 2^emin): rounded to manBits + 1 bits it reaches 2^emin only from all ones.
  const q = f.emin - 1 - f.manBits;
  const packed = quantaOf(mag, e, q);
  if (packed >> 2 !== 2 ** (f.manBits + 1) - 1) return true;
  return !roundsUp(mode, negative, (packed & 3) as 0 | 1 | 2 | 3, true);
}

// Round to nearest through binary32: the fast path's shortcut for the .rn forms.
//
// r = fround(s) is the exact value x rounded to nearest twice: to binary64 when s was computed,
// then to binary32. Rounding to nearest is monotone, and every midpoint between neighbouring
// values of f16 or bf16 (their subnormal steps and their overflow thresholds included) is both a
// binary64 and a binary32 value. So x, s and r lie on the same side of every such midpoint unless
// r is one, and then the nearest f16/bf16 value to r is the nearest to x. When r is a midpoint,
// r's tie (to even) is the answer when x = r, and also wherever double rounding is known to be
// innocuous (Figueroa, "When is double rounding innocuous?", 1995: rounding to p' bits, then to
// p, is the same as rounding to p once for a sum of two p-bit numbers when p' >= 2p + 1, and for
// a product when p' >= 2p — so for f16 and bf16 add, sub and mul, but not fma). Where the caller
// asks, the result says so with NEAREST_TIE, for it to keep or to hand to roundPair.
// tests/round-nearest-binary32.test.ts checks these functions against roundPair.

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
  /** The canonical NaNs (specialize.ts's rule), what a NaN rounds to. */
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
    f16NaN: canonicalNaN(FORMATS.f16),
    bf16NaN: canonicalNaN(FORMATS.bf16),
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
