/**
 * cvt's roundings, all through the one rounding routine (round.ts roundToFormat):
 *  - .rn .rz .rm .rp: roundToFormat itself;
 *  - .rna (ties away from zero): the value toward zero, or away from it when the first
 *    discarded bit (the guard bit) is set;
 *  - .rs (stochastic): toward zero, or away from zero when adding the random bits to the most
 *    significant discarded bits carries out (decisions cvt-rs-rbits, cvt-rs-subnormal);
 *  - .rni .rzi .rmi .rpi (to an integral value): roundToFormat on the grid of the integers.
 * roundToFormat needs an encoding in which "one more" is "the next value up", with room for the
 * overflow pattern past MAX_NORM: the rounding geometry of each format gives it that.
 */
import type { CvtRounding, ElementFormatName } from '../catalog/cvt-types.ts';
import type { RoundingMode } from '../catalog/types.ts';
import { type Dyadic } from './exact.ts';
import { ALT_FORMATS, FLOAT_FORMATS, type AnyFloatFormat, dyadicOf } from './formats.ts';
import { dyadicMagnitude, roundToFormat, type Rounded } from './round.ts';
import type { RandomAddition } from './steps.ts';

/**
 * The format as roundToFormat sees it: e2m3, e3m2 and e2m1 get a sign bit above the overflow
 * pattern (their own sign bit sits right above MAX_NORM); ue8m0, which has no zero and no
 * subnormals, is the format of powers of two 2^(p-128) with 0 below them (pattern p here is
 * pattern p - 1 in ue8m0). The other formats are their own geometry (e4m3's overflow pattern is
 * its NaN, 0x7F, which the overflow rule replaces).
 */
export function roundingGeometry(name: Exclude<ElementFormatName, 'f64'>): AnyFloatFormat {
  const f = FLOAT_FORMATS[name];
  if (name === 'ue8m0') {
    return {
      ...ALT_FORMATS.ue8m0,
      name: 'ue8m0-rounding',
      width: 9,
      expBits: 9,
      bias: 128,
      signMask: 0x200,
      expMask: 0x1ff,
      infBits: 0x100,
      maxBits: 0xff,
      signed: true,
      hasInfinity: true,
      nan: 'exponent-all-ones',
      hasSubnormals: true,
    };
  }
  if (f.nan === 'none') return { ...f, signMask: 2 ** f.width, width: f.width + 1 };
  return f;
}

/**
 * The integers a format holds, as a format: quantum 1 below 2^manBits (every integer there is
 * a value of the format), so rounding a non-integer magnitude (below 2^manBits) to it rounds to
 * an integer, at most 2^manBits. Its patterns are the integers themselves. Only magnitudes are
 * rounded to it (a sign bit above 2^53 would not be exact in a double for .f64).
 */
export function integerGeometry(name: 'f16' | 'bf16' | 'f32' | 'f64'): AnyFloatFormat {
  const manBits = name === 'f64' ? 52 : FLOAT_FORMATS[name].manBits;
  const top = 2 ** (manBits + 1);
  return {
    name: `${name}-integers`,
    width: manBits + 3,
    expBits: 2,
    manBits,
    bias: 1 - manBits,
    emin: manBits,
    emax: manBits,
    signMask: 2 * top,
    expMask: 3 * 2 ** manBits,
    manMask: 2 ** manBits - 1,
    infBits: top,
    maxBits: top - 1,
    quietBit: 2 ** (manBits - 1),
    canonicalNaN: 2 * top - 1,
    signed: true,
    hasInfinity: true,
    nan: 'exponent-all-ones',
    hasSubnormals: true,
  };
}

/** A rounded value: the exact value of the result, or past MAX_NORM (overflow). */
export interface CvtRounded {
  /** The rounded value; null when it lies past MAX_NORM. */
  readonly value: Dyadic | null;
  readonly overflow: boolean;
  /**
   * Past MAX_NORM: whether the rounding went away from zero (to the overflow pattern, which is
   * infinity where the format has one) rather than stopping at MAX_NORM.
   */
  readonly awayPastMax: boolean;
  /** The rounding whose guard / round / sticky bits and neighbours the trace shows. */
  readonly shown: Rounded<string>;
  readonly geometry: AnyFloatFormat;
  /** The shown rounding is of |x| (integer roundings): its neighbours are magnitudes. */
  readonly magnitudeOnly?: boolean;
  readonly direction: 'exact' | 'toward-zero' | 'away';
  readonly reason:
    Rounded<string>['step']['reason'] | 'tie-away' | 'random-carry' | 'random-no-carry';
  readonly random?: RandomAddition;
}

/** The value of a pattern of the geometry (null for the overflow pattern). */
export function geometryValue(bits: number, g: AnyFloatFormat): Dyadic | null {
  const mag = bits >= g.signMask ? bits - g.signMask : bits;
  if (mag >= g.infBits) return null;
  return dyadicOf(bits, g);
}

function awayMode(negative: boolean): RoundingMode {
  return negative ? 'rm' : 'rp';
}

/**
 * An integer rounding as a rounding of the magnitude |x|: toward -inf is away from zero for a
 * negative x, toward +inf is toward zero for it.
 */
export function integerMagnitudeMode(
  mode: 'rni' | 'rzi' | 'rmi' | 'rpi',
  negative: boolean,
): RoundingMode {
  switch (mode) {
    case 'rni':
      return 'rn';
    case 'rzi':
      return 'rz';
    case 'rmi':
      return negative ? 'rp' : 'rz';
    case 'rpi':
      return negative ? 'rz' : 'rp';
  }
}

const INTEGER_REASON = {
  rzi: 'toward-zero',
  rmi: 'toward-minus-inf',
  rpi: 'toward-plus-inf',
} as const;

/**
 * Round the nonzero finite x to `dst` (not f64 unless `mode` rounds to an integer). `random`
 * holds the .rs random bits of this element (value and count).
 */
export function roundForCvt(
  x: Dyadic,
  dst: ElementFormatName,
  mode: CvtRounding,
  random?: {
    readonly value: bigint;
    readonly count: number;
    /** Exponent of the source format's last significand bit at x (the discarded bits end there). */
    readonly sourceLsb: number;
  },
): CvtRounded {
  const magnitude = dyadicMagnitude(x);
  if (mode === 'rni' || mode === 'rzi' || mode === 'rmi' || mode === 'rpi') {
    const g = integerGeometry(dst as 'f16' | 'bf16' | 'f32' | 'f64');
    const r = roundToFormat(
      dyadicMagnitude({ ...x, negative: false }),
      g,
      integerMagnitudeMode(mode, x.negative),
    );
    const rounded = fromRounding(r, g);
    return {
      ...rounded,
      value: rounded.value && { ...rounded.value, negative: x.negative },
      magnitudeOnly: true,
      reason: r.inexact && mode !== 'rni' ? INTEGER_REASON[mode] : r.step.reason,
      direction: !r.inexact ? 'exact' : r.step.direction === 'up' ? 'away' : 'toward-zero',
    };
  }
  if (dst === 'f64') throw new Error('conversions to .f64 are exact');
  const g = roundingGeometry(dst);
  if (mode === 'rn' || mode === 'rz' || mode === 'rm' || mode === 'rp')
    return fromRounding(roundToFormat(magnitude, g, mode), g);
  const towardZero = roundToFormat(magnitude, g, 'rz');
  if (!towardZero.inexact) return fromRounding(towardZero, g);
  const away = () => roundToFormat(magnitude, g, awayMode(x.negative));
  // The quantum of the result's binade (the subnormal spacing below the normal range), as though
  // the exponent range were unbounded above: .rna and .rs look at the bits just below it.
  const q = Math.max(magnitude.ilog2(), g.emin) - g.manBits;
  if (mode === 'rna') {
    const up = (magnitude.floorScaled(1 - q).int & 1n) === 1n;
    return {
      ...fromRounding(up ? away() : towardZero, g),
      shown: towardZero,
      reason: up ? 'tie-away' : 'below-half',
    };
  }
  // .rs: the random bits added to as many of the most significant discarded bits.
  if (!random) throw new Error('.rs needs random bits');
  const k = random.count;
  const top = magnitude.floorScaled(k - q).int & ((1n << BigInt(k)) - 1n);
  const sum = top + random.value;
  const carry: 0 | 1 = sum >> BigInt(k) === 1n ? 1 : 0;
  const chosen = carry ? away() : towardZero;
  return {
    ...fromRounding(chosen, g),
    shown: towardZero,
    reason: carry ? 'random-carry' : 'random-no-carry',
    random: {
      bits: random.value.toString(2).padStart(k, '0'),
      discarded: top.toString(2).padStart(k, '0'),
      sum: sum.toString(2).padStart(k + 1, '0'),
      carry,
      discardedCount: Math.max(0, q - random.sourceLsb),
    },
  };
}

function fromRounding(r: Rounded<string>, g: AnyFloatFormat): CvtRounded {
  const value = r.overflow ? null : geometryValue(r.bits, g);
  const magnitude = r.bits >= g.signMask ? r.bits - g.signMask : r.bits;
  return {
    value,
    overflow: r.overflow,
    awayPastMax: r.overflow && magnitude >= g.infBits,
    shown: r,
    geometry: g,
    direction: !r.inexact
      ? 'exact'
      : r.step.reason === 'toward-zero'
        ? 'toward-zero'
        : awayOrToward(r),
    reason: r.step.reason,
  };
}

/** Whether an inexact rounding moved away from zero (its result's magnitude grew). */
function awayOrToward(r: Rounded<string>): 'toward-zero' | 'away' {
  const negative = r.step.exact.negative;
  const towardPlus = r.step.direction === 'up';
  return towardPlus !== negative ? 'away' : 'toward-zero';
}
