/**
 * The one rounding routine (SoftFloat's roundPackTo*): an exact value in, a value of a format out,
 * in any PTX rounding — .rn .rz .rm .rp, .rna (ties away), .rs (stochastic) and the integer
 * roundings .rni .rzi .rmi .rpi — with gradual underflow, overflow and the guard / round / sticky
 * bits that decided it. Every instruction rounds through here: arithmetic results, cvt elements,
 * typed-in values, tensor-core sums.
 *
 *   q      = max(floor(log2 |x|), emin) − manBits      the result's quantum (ulp) exponent
 *            (integer roundings: max(q, 0), the quantum of the integers)
 *   kept   = floor(|x| / 2^q)                         guard, round: the next two bits; sticky: the rest
 *   away   = the mode's choice between kept and kept + 1:
 *              rn   above half, or a tie whose kept pattern is odd (ties to the even ENCODING)
 *              rna  half or above
 *              rz   never          rp  x > 0          rm  x < 0
 *              rs   the carry out of (the top k discarded bits + k random bits)
 *   result = kept + away, as a position in the format's order of patterns; past MAX_NORM it is
 *            an overflow (IEEE 754 §7.4), which the overflow rule settles (nvidia-rules.ts)
 *
 * Positions count the non-negative values in order, with the subnormal binade at the bottom
 * (position = pattern for every format with subnormals; ue8m0, which has none and no zero, is
 * counted as if it had them, so its pattern is position − 1 and position 0 is the zero it lacks).
 * Ties go to the even pattern, not the even significand: with no mantissa bits (ue8m0) every
 * significand is 1, and 1.5·2¹ rounds to 2¹ (0x80), the even pattern.
 */
import { isIntegerRounding, type Rounding } from '../catalog/modifiers.ts';
import { bitLength, exactValueOfDyadic, ilog2 } from './exact.ts';
import { formatHex, narrowedFormat, widen, withSign, type Format } from './format.ts';
import type { RandomAddition, RoundStep } from './steps.ts';
import type { Dyadic, ExactValue } from './value.ts';

/** An exact nonzero magnitude, as rounding needs it: its exponent and its bits below any point. */
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

/** |x| = num / den with num, den > 0 (typed-in decimals, quotients). */
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

/** How the exact result compares with the smallest normal, 2^emin (IEEE 754 §7.5). */
export interface Tininess {
  /** |x| < 2^emin: tiny before rounding. */
  readonly before: boolean;
  /** x rounded to the format's precision with an unbounded exponent range is below 2^emin. */
  readonly after: boolean;
}

/** .rs: the random bits of this element, and where the source's significand ends at x. */
export interface RandomBits {
  readonly value: bigint;
  readonly count: number;
  /** Exponent of the source format's last significand bit at x (the discarded bits end there). */
  readonly sourceLsb: number;
}

export interface Rounded {
  /** The result's pattern (signed); null past MAX_NORM (overflow) or below ue8m0's least value. */
  readonly bits: bigint | null;
  /** IEEE 754 §7.4: the rounded value lies past MAX_NORM. */
  readonly overflow: boolean;
  /** Whether the rounding went away from zero (past MAX_NORM: toward the infinity). */
  readonly awayFromZero: boolean;
  /** The result would be zero in a format without one (ue8m0): the format's rule settles it. */
  readonly belowLeast: boolean;
  readonly tininess: Tininess;
  readonly inexact: boolean;
  readonly step: RoundStep;
}

interface Cut {
  readonly kept: bigint;
  readonly guard: 0 | 1;
  readonly round: 0 | 1;
  readonly sticky: 0 | 1;
}

function cutAt(x: ExactMagnitude, q: number): Cut {
  // Two extra bits below the quantum: guard and round; sticky is everything further down.
  const { int: scaled, exact } = x.floorScaled(2 - q);
  return {
    kept: scaled >> 2n,
    guard: Number((scaled >> 1n) & 1n) as 0 | 1,
    round: Number(scaled & 1n) as 0 | 1,
    sticky: exact ? 0 : 1,
  };
}

type Reason = RoundStep['reason'];

/**
 * The mode's choice between the value toward zero and the next one away from zero. `keptOdd`:
 * the pattern (or integer) toward zero is odd. `rest`: round or sticky is set.
 */
function chooseAway(
  mode: Rounding,
  negative: boolean,
  guard: boolean,
  rest: boolean,
  keptOdd: boolean,
): { away: boolean; reason: Reason } {
  switch (mode) {
    case 'rn':
    case 'rni':
      if (!guard) return { away: false, reason: 'below-half' };
      if (rest) return { away: true, reason: 'above-half' };
      return { away: keptOdd, reason: 'tie-to-even' };
    case 'rna':
      if (!guard) return { away: false, reason: 'below-half' };
      return { away: true, reason: rest ? 'above-half' : 'tie-away' };
    case 'rz':
    case 'rzi':
      return { away: false, reason: 'toward-zero' };
    case 'rp':
    case 'rpi':
      return { away: !negative, reason: 'toward-plus-inf' };
    case 'rm':
    case 'rmi':
      return { away: negative, reason: 'toward-minus-inf' };
    case 'rs':
      throw new Error('.rs chooses by its random bits');
  }
}

/** Position offset of a format: pattern = position − offset (ue8m0 has no subnormal binade). */
function offsetOf(f: Format): bigint {
  return f.hasSubnormals ? 0n : 1n << BigInt(f.manBits);
}

/**
 * Round the nonzero exact value x to format f in `mode` (`random`: the .rs bits). Integer
 * roundings need a value the format holds (cvt rounds a value of its own type to an integer).
 */
export function roundToFormat(
  x: ExactMagnitude,
  f: Format,
  mode: Rounding,
  random?: RandomBits,
): Rounded {
  const negative = x.negative;
  const e = x.ilog2();
  const integer = isIntegerRounding(mode);
  const formatQ = Math.max(e, f.emin) - f.manBits;
  const q = integer ? Math.max(formatQ, 0) : formatQ;
  const { kept, guard, round, sticky } = cutAt(x, q);
  const beyondRange = !integer && e > f.emax;
  const offset = offsetOf(f);
  const maxPos = f.maxBits + offset;
  // Position of the value toward zero: integers are encoded through their value.
  const truncPos = integer
    ? positionOfInteger(kept << BigInt(q), f)
    : (BigInt(q - (f.emin - f.manBits)) << BigInt(f.manBits)) + kept;
  // Past MAX_NORM no value of the format equals x, whatever the bits below the cut (e4m3's
  // 1.111b × 2^8 = 480 has a place on the grid, but its pattern is the NaN).
  const pastMax = beyondRange || truncPos > maxPos;
  const inexact = pastMax || guard === 1 || round === 1 || sticky === 1;

  let away: boolean;
  let reason: Reason;
  let randomAddition: RandomAddition | undefined;
  if (!inexact) {
    away = false;
    reason = 'exact';
  } else if (mode === 'rs') {
    if (!random) throw new Error('.rs needs random bits');
    const k = random.count;
    const top = x.floorScaled(k - q).int & ((1n << BigInt(k)) - 1n);
    const sum = top + random.value;
    const carry: 0 | 1 = sum >> BigInt(k) === 1n ? 1 : 0;
    away = carry === 1;
    reason = carry ? 'random-carry' : 'random-no-carry';
    randomAddition = {
      bits: random.value.toString(2).padStart(k, '0'),
      discarded: top.toString(2).padStart(k, '0'),
      sum: sum.toString(2).padStart(k + 1, '0'),
      carry,
      discardedCount: Math.max(0, q - random.sourceLsb),
    };
  } else if (pastMax && (mode === 'rn' || mode === 'rna')) {
    // At least the value after MAX_NORM (were the format to go on): past MAX_NORM plus half an ulp.
    away = true;
    reason = 'overflow-threshold';
  } else {
    const keptOdd = integer ? (kept & 1n) === 1n : ((truncPos - offset) & 1n) === 1n;
    ({ away, reason } = chooseAway(mode, negative, guard === 1, round + sticky > 0, keptOdd));
  }

  // The next value away from zero: the next pattern, or the next integer.
  const nextPos = integer ? positionOfInteger((kept + 1n) << BigInt(q), f) : truncPos + 1n;
  const pos = away ? nextPos : truncPos;
  const overflow = !integer && pos > maxPos;
  const belowLeast = !f.hasZero && pos < offset;
  const patternAt = (p: bigint): string | null => {
    if (p > maxPos)
      return f.infBits === null ? null : formatHex(withSign(f.infBits, negative, f), f);
    if (p < offset) return null;
    return formatHex(withSign(p - offset, negative, f), f);
  };
  const bits = overflow || belowLeast ? null : withSign(pos - offset, negative, f);
  // The neighbours, by magnitude and then by value (a negative x's larger magnitude is lower).
  const belowPos = truncPos > maxPos ? maxPos : truncPos;
  const abovePos = !inexact ? belowPos : truncPos >= maxPos ? maxPos + 1n : nextPos;
  const lower = patternAt(negative ? abovePos : belowPos);
  const upper = patternAt(negative ? belowPos : abovePos);
  const larger = inexact && away;
  const step: RoundStep = {
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
    result: bits === null ? null : formatHex(bits, f),
    subnormal: !integer && f.hasSubnormals && pos > 0n && pos <= f.manMask,
    ...(randomAddition ? { random: randomAddition } : {}),
  };
  const tininess: Tininess = integer
    ? { before: false, after: false }
    : { before: e < f.emin, after: tinyAfterRounding(x, e, f, mode) };
  return { bits, overflow, awayFromZero: away, belowLeast, tininess, inexact, step };
}

/**
 * Round x to f keeping only `fractionBits` of its fraction bits (f's exponent range): a tensor
 * core's e8m13 f32 result. The rounding counts in the narrowed format (narrowedFormat); the
 * result, its neighbours and its step are written as f's patterns, the step marked with
 * `fractionBits`. Past MAX_NORM `narrow` is the format whose overflow rule applies.
 */
export function roundToFractionBits(
  x: ExactMagnitude,
  f: Format,
  fractionBits: number,
  mode: Rounding,
): Rounded & { readonly narrow: Format } {
  const narrow = narrowedFormat(f, fractionBits);
  const r = roundToFormat(x, narrow, mode);
  const wide = (hex: string | null) =>
    hex === null ? null : formatHex(widen(BigInt(hex), narrow, f), f);
  return {
    ...r,
    narrow,
    bits: r.bits === null ? null : widen(r.bits, narrow, f),
    step: {
      ...r.step,
      format: f.name,
      lower: wide(r.step.lower),
      upper: wide(r.step.upper),
      result: wide(r.step.result),
      fractionBits,
    },
  };
}

/** Round an exact dyadic value (nonzero). */
export function roundDyadic(x: Dyadic, f: Format, mode: Rounding, random?: RandomBits): Rounded {
  return roundToFormat(dyadicMagnitude(x), f, mode, random);
}

/** Position of the integer n (a value of f: cvt rounds within the source format). */
function positionOfInteger(n: bigint, f: Format): bigint {
  if (n === 0n) return 0n;
  const e = bitLength(n) - 1;
  const q = Math.max(e, f.emin) - f.manBits;
  const kept = q >= 0 ? n >> BigInt(q) : n << BigInt(-q);
  return (BigInt(q - (f.emin - f.manBits)) << BigInt(f.manBits)) + kept;
}

/**
 * IEEE 754 §7.5 tininess after rounding: x rounded to the format's precision (manBits + 1
 * significant bits) as though the exponent range were unbounded lies below 2^emin. Only a value
 * in [2^(emin−1), 2^emin) can round up to 2^emin: when its kept bits are all ones and the mode
 * rounds away from zero (.rs is judged as .rz: its direction is not a property of x).
 */
function tinyAfterRounding(x: ExactMagnitude, e: number, f: Format, mode: Rounding): boolean {
  if (e >= f.emin) return false;
  if (e < f.emin - 1) return true;
  const { int: scaled, exact } = x.floorScaled(f.manBits + 1 - e);
  const kept = scaled >> 1n;
  const guard = (scaled & 1n) === 1n;
  if (kept !== (1n << BigInt(f.manBits + 1)) - 1n || (!guard && exact)) return true;
  if (mode === 'rs') return true;
  return !chooseAway(mode, x.negative, guard, !exact, true).away;
}
