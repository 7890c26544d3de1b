/**
 * The round step as docs/trace.md defines it, for the trace checker: one rounding of a nonzero
 * exact value x to a format, worked out from the format's values and nothing else.
 *
 *   the two candidates   by magnitude: the largest value of the format at most |x| ("toward
 *                        zero") and the next one ("away"); past MAX_NORM the value one step past
 *                        it stands for the away one; below ue8m0's least value, toward zero is
 *                        the zero it lacks. Integer roundings (.rni …): the integers around |x|.
 *   the mode's choice    rn: the nearer, a tie to the candidate whose pattern (integer) is even;
 *                        rna: a tie away; rz: toward zero; rp/rm: by the sign; rs: away when
 *                        the random bits added to the discarded bits (the top ones of the part
 *                        of |x| below the result's quantum) carry out. rn and rna at or past
 *                        the value one step past MAX_NORM go past it.
 *   overflow             the choice lies past MAX_NORM; below ue8m0's least value: no value
 *   tininess (§7.5)      before: |x| < the smallest normal; after: |x| rounded in the mode to
 *                        the format's precision with an unbounded exponent (.rs read as .rz) is
 *                        below it
 *
 * The cut (kept bits, guard, round, sticky) is |x| in units of the result's quantum:
 * q = max(floor(log2 |x|), emin) − fraction bits (integer roundings: max(q, 0)), absent beyond
 * the exponent range.
 */
import { exactPattern } from './cvt-slowfloat.ts';
import { floorIndex, pastMax, patternAt, valueAt, type RefCvtFormat } from './cvt-formats.ts';
import { finiteText, floorLog2 } from './exact-text.ts';
import { abs, compare, floor, mul, pow2, rational, sub, type Rational } from './rational.ts';
import { formatHex } from './trace-views.ts';

export const INTEGER_MODES = ['rni', 'rzi', 'rmi', 'rpi'] as const;

export function isIntegerMode(mode: string): boolean {
  return (INTEGER_MODES as readonly string[]).includes(mode);
}

/** .rs: the element's random bits, and where the source's significand ends at x. */
export interface RandomInput {
  readonly value: bigint;
  readonly count: number;
  /** Exponent of the source format's last significand bit at x. */
  readonly sourceLsb: number;
}

export interface RoundModel {
  /** The round step's fields (all but kind, rule and decision). */
  readonly fields: Record<string, unknown>;
  /** The rounded pattern; null past MAX_NORM or below ue8m0's least value. */
  readonly result: bigint | null;
  readonly overflow: boolean;
  /** Whether the choice was the candidate away from zero. */
  readonly away: boolean;
  readonly belowLeast: boolean;
  readonly inexact: boolean;
  readonly tinyBefore: boolean;
  readonly tinyAfter: boolean;
}

/** The smallest normal value: the pattern with exponent field 1 (ue8m0: its least value). */
export function smallestNormal(fmt: RefCvtFormat): Rational {
  return fmt.specials === 'ue8m0' ? valueAt(0n, fmt) : valueAt(1n << BigInt(fmt.fractionBits), fmt);
}

export function maxValue(fmt: RefCvtFormat): Rational {
  return valueAt(fmt.maxPattern, fmt);
}

function signBit(fmt: RefCvtFormat): bigint {
  return fmt.signed ? 1n << BigInt(fmt.totalBits - 1) : 0n;
}

/** The pattern of a magnitude of the format with x's sign; a zero keeps the sign too. */
function signedPattern(m: Rational, negative: boolean, fmt: RefCvtFormat): bigint {
  if (m.num === 0n) return negative ? signBit(fmt) : 0n;
  const p = exactPattern(m, fmt);
  if (p === null) throw new Error(`${fmt.name} has no value ${m.num}/${m.den}`);
  return negative ? p | signBit(fmt) : p;
}

function infinityHex(negative: boolean, fmt: RefCvtFormat): string | null {
  if (fmt.specials !== 'ieee') return null;
  return formatHex((negative ? signBit(fmt) : 0n) | (fmt.maxPattern + 1n), fmt);
}

/** m rounded to `bits` significant bits in `mode` with an unbounded exponent (m > 0). */
function roundToPrecision(m: Rational, bits: number, mode: string, negative: boolean): Rational {
  const unit = pow2(floorLog2(m) - bits + 1);
  const scaled = mul(m, rational(unit.den, unit.num));
  const low = floor(scaled);
  const rest = sub(scaled, rational(low));
  if (rest.num === 0n) return m;
  const half = compare(rest, rational(1n, 2n));
  let up: boolean;
  switch (mode) {
    case 'rn':
      up = half > 0 || (half === 0 && low % 2n === 1n);
      break;
    case 'rna':
      up = half >= 0;
      break;
    case 'rp':
      up = !negative;
      break;
    case 'rm':
      up = negative;
      break;
    default:
      up = false; // rz, and rs judged as rz
  }
  return mul(rational(up ? low + 1n : low), unit);
}

function bitString(n: bigint, width: number): string {
  return n.toString(2).padStart(width, '0');
}

/** The round step of x (nonzero) to fmt in `mode`; `random` for .rs. */
export function roundModel(
  x: Rational,
  fmt: RefCvtFormat,
  mode: string,
  random?: RandomInput,
): RoundModel {
  const negative = x.num < 0n;
  const m = abs(x);
  const integer = isIntegerMode(mode);
  const max = maxValue(fmt);
  const minNormal = smallestNormal(fmt);
  const emin = floorLog2(minNormal);
  const emax = floorLog2(max);
  const e = floorLog2(m);
  const formatQ = Math.max(e, emin) - fmt.fractionBits;
  const q = integer ? Math.max(formatQ, 0) : formatQ;
  const beyondRange = !integer && e > emax;
  const past = pastMax(fmt);
  const atOrPastNext = !integer && compare(m, past) >= 0;

  // The candidates by magnitude; null stands for ue8m0's missing zero, 'past' for past MAX_NORM.
  let toward: Rational | null;
  let away: Rational | 'past';
  let towardOdd: boolean;
  if (integer) {
    const low = floor(m);
    toward = rational(low);
    away = rational(low + 1n);
    towardOdd = low % 2n === 1n;
  } else if (compare(m, max) > 0) {
    toward = max;
    away = 'past';
    towardOdd = fmt.maxPattern % 2n === 1n;
  } else if (!fmt.signed && compare(m, valueAt(0n, fmt)) < 0) {
    toward = null;
    away = valueAt(0n, fmt);
    towardOdd = false;
  } else {
    const index = floorIndex(m, fmt);
    toward = valueAt(index, fmt);
    away = index === fmt.maxPattern ? 'past' : valueAt(index + 1n, fmt);
    towardOdd = patternAt(index, fmt) % 2n === 1n;
  }
  const inexact = atOrPastNext || toward === null || compare(toward, m) !== 0;

  const cutScaled = mul(m, pow2(2 - q));
  const whole = floor(cutScaled);
  const cut = {
    kept: (whole >> 2n).toString(2),
    guard: Number((whole >> 1n) & 1n),
    round: Number(whole & 1n),
    sticky: compare(cutScaled, rational(whole)) === 0 ? 0 : 1,
    ulpExponent: q,
  };

  let goAway: boolean;
  let reason: string;
  let randomFields: Record<string, unknown> | undefined;
  if (!inexact) {
    goAway = false;
    reason = 'exact';
  } else if (mode === 'rs') {
    if (!random) throw new Error('.rs needs random bits');
    const k = random.count;
    const scaled = mul(m, pow2(-q));
    const fraction = sub(scaled, rational(floor(scaled)));
    const top = floor(mul(fraction, pow2(k)));
    const sum = top + random.value;
    const carry = sum >= 1n << BigInt(k) ? 1 : 0;
    goAway = carry === 1;
    reason = carry ? 'random-carry' : 'random-no-carry';
    randomFields = {
      bits: bitString(random.value, k),
      discarded: bitString(top, k),
      sum: bitString(sum, k + 1),
      carry,
      discardedCount: Math.max(0, q - random.sourceLsb),
    };
  } else if (atOrPastNext && (mode === 'rn' || mode === 'rna')) {
    goAway = true;
    reason = 'overflow-threshold';
  } else {
    const low = toward ?? rational(0n);
    const high = away === 'past' ? past : away;
    const half = compare(mul(sub(m, low), rational(2n)), sub(high, low));
    switch (mode) {
      case 'rn':
      case 'rni':
        goAway = half > 0 || (half === 0 && towardOdd);
        reason = half < 0 ? 'below-half' : half > 0 ? 'above-half' : 'tie-to-even';
        break;
      case 'rna':
        goAway = half >= 0;
        reason = half < 0 ? 'below-half' : half > 0 ? 'above-half' : 'tie-away';
        break;
      case 'rz':
      case 'rzi':
        goAway = false;
        reason = 'toward-zero';
        break;
      case 'rp':
      case 'rpi':
        goAway = !negative;
        reason = 'toward-plus-inf';
        break;
      case 'rm':
      case 'rmi':
        goAway = negative;
        reason = 'toward-minus-inf';
        break;
      default:
        throw new Error(`rounding mode ${mode}`);
    }
  }

  const overflow = atOrPastNext || (goAway && away === 'past');
  const belowLeast = !goAway && toward === null;
  const chosen = overflow || belowLeast ? null : goAway ? (away as Rational) : toward!;
  const result = chosen === null ? null : signedPattern(chosen, negative, fmt);

  // The neighbours in value order: the smaller and the larger magnitude, signed like x.
  const hexOfMagnitude = (v: Rational | null) =>
    v === null ? null : formatHex(signedPattern(v, negative, fmt), fmt);
  let small: string | null;
  let large: string | null;
  if (!inexact) small = large = hexOfMagnitude(toward);
  else {
    small = hexOfMagnitude(atOrPastNext ? max : toward);
    large =
      !integer && compare(m, max) > 0
        ? infinityHex(negative, fmt)
        : hexOfMagnitude(away as Rational);
  }

  const hasSubnormals = fmt.specials !== 'ue8m0';
  const subnormal =
    !integer &&
    hasSubnormals &&
    chosen !== null &&
    chosen.num !== 0n &&
    compare(chosen, minNormal) < 0;
  const tinyBefore = !integer && compare(m, minNormal) < 0;
  const tinyAfter =
    tinyBefore && compare(roundToPrecision(m, fmt.fractionBits + 1, mode, negative), minNormal) < 0;

  const larger = inexact && goAway;
  const fields: Record<string, unknown> = {
    format: fmt.name,
    mode,
    exact: finiteText(x),
    ...(beyondRange ? {} : { cut }),
    inexact,
    direction: !inexact ? 'exact' : larger !== negative ? 'up' : 'down',
    magnitude: !inexact ? 'exact' : larger ? 'larger' : 'smaller',
    reason,
    lower: negative ? large : small,
    upper: negative ? small : large,
    result: result === null ? null : formatHex(result, fmt),
    subnormal,
    ...(randomFields ? { random: randomFields } : {}),
  };
  return {
    fields,
    result,
    overflow,
    away: goAway,
    belowLeast,
    inexact,
    tinyBefore,
    tinyAfter,
  };
}

/** Whether x is an integer. */
export function isIntegral(x: Rational): boolean {
  return x.den === 1n;
}
