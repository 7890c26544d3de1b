/**
 * The rounding of the modules still on the numeric formats of formats.ts (the older evaluators
 * ops/, cvt-round.ts, what-if/, block-scale/, values-text.ts, element-text.ts): an exact value
 * in, the nearest representable value of a format out, in one of the four PTX modes, with
 * gradual underflow, overflow per mode and the guard / round / sticky bits that decided it.
 * rounding.ts is the one rounding of the pipeline and of everything on format.ts; the fast path
 * rounds through fast/round-pair.ts, which is checked against it.
 *
 * Works on any exact magnitude that can say floor(|x| × 2^shift) and whether that is exact:
 * dyadic rationals (arithmetic results) and decimal rationals (typed-in values) alike.
 */
import type { RoundingMode } from '../catalog/types.ts';
import { bitLength, exactValueOfDyadic, ilog2, type Dyadic } from './exact.ts';
import type { FormatName } from '../catalog/types.ts';
import type { AnyFloatFormat, FloatFormat } from './formats.ts';
import type { Tininess } from './specialize.ts';
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
