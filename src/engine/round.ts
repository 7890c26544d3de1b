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
import type { FloatFormat } from './formats.ts';
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

export interface Rounded {
  /** Result bits (with sign). */
  readonly bits: number;
  readonly overflow: boolean;
  /** The rounded value is subnormal or zero-from-underflow (nonzero exact value below 2^emin after rounding). */
  readonly subnormalResult: boolean;
  readonly tinyBeforeRounding: boolean;
  readonly inexact: boolean;
  readonly step: RoundStep;
}

/** Round a nonzero exact value to format `f` in `mode`. */
export function roundToFormat(x: ExactMagnitude, f: FloatFormat, mode: RoundingMode): Rounded {
  const e = x.ilog2();
  // Quantum (ulp) exponent: fixed at the subnormal spacing below the normal range.
  const q = Math.max(e, f.emin) - f.manBits;
  // Two extra bits below the ulp: guard and round; sticky is everything further down.
  const { int: scaled, exact } = x.floorScaled(2 - q);
  const kept = scaled >> 2n;
  const guard = Number((scaled >> 1n) & 1n) as 0 | 1;
  const round = Number(scaled & 1n) as 0 | 1;
  const sticky: 0 | 1 = exact ? 0 : 1;
  const inexact = guard === 1 || round === 1 || sticky === 1;

  // Encoded magnitude: the encoding is monotonic, so "next value up" is "+1" (carries into the
  // exponent field, and into the infinity pattern, fall out naturally).
  const qmin = f.emin - f.manBits;
  const truncated = (q - qmin) * 2 ** f.manBits + Number(kept);
  const negative = x.negative;

  let awayFromZero: boolean;
  let reason: RoundStep['reason'];
  if (!inexact) {
    awayFromZero = false;
    reason = 'exact';
  } else if (mode === 'rn') {
    if (guard === 0) {
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
    const toInfinity = mode === 'rn' || (mode === 'rp' && !negative) || (mode === 'rm' && negative);
    magnitude = toInfinity ? f.infBits : f.maxBits;
  }
  const sign = negative ? f.signMask : 0;
  const lowerMag = Math.min(truncated, f.infBits);
  const upperMag = Math.min(truncated + (inexact ? 1 : 0), f.infBits);
  // Neighbours by value: for a negative x the larger magnitude is the lower value.
  const lower = sign + (negative ? upperMag : lowerMag);
  const upper = sign + (negative ? lowerMag : upperMag);
  const bits = sign + magnitude;
  const towardPlus = inexact && awayFromZero !== negative;
  const step: RoundStep = {
    kind: 'round',
    format: f.name,
    mode,
    exact: x.describe(),
    kept: kept.toString(2),
    guard,
    round,
    sticky,
    ulpExponent: q,
    inexact,
    direction: !inexact ? 'exact' : towardPlus ? 'up' : 'down',
    reason,
    lower,
    upper,
    result: bits,
    subnormal: magnitude > 0 && magnitude < 2 ** f.manBits,
  };
  return {
    bits,
    overflow,
    subnormalResult: magnitude < 2 ** f.manBits,
    tinyBeforeRounding: e < f.emin,
    inexact,
    step,
  };
}
