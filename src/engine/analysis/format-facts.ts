/**
 * What a format page shows, as data, for every format of src/catalog/formats.ts (f64 and ue4m3
 * included): the anatomy (which bits are sign, exponent and mantissa), bias and exponent range,
 * which patterns are NaN and infinity, MAX_NORM and the least values, the named special values,
 * and for the formats of 8 bits or fewer every pattern with the gap to the next value.
 */
import { add, exactValueOfDyadic, negate } from '../exact.ts';
import {
  bitsView,
  FORMATS,
  formatHex,
  isNaNBits,
  maxNormBits,
  nextUp,
  valueOfBits,
  type BitsView,
  type Format,
  type FormatName,
} from '../format.ts';
import type { ExactValue } from '../value.ts';
import { namedValueBits, namedValues, type NamedValueId } from './named-values.ts';

/** One field of the value's bits, hi…lo inclusive, counted from the value's bit 0. */
export interface FormatField {
  readonly name: 'sign' | 'exponent' | 'mantissa';
  readonly hi: number;
  readonly lo: number;
}

/**
 * Which patterns are NaN: 'exponent-all-ones' (IEEE 754: exponent all ones, mantissa nonzero),
 * 'all-ones' (exponent and mantissa all ones, either sign: e4m3, ue8m0, ue4m3) or 'none'.
 */
export type NaNEncoding = 'exponent-all-ones' | 'all-ones' | 'none';

export interface FormatFacts {
  readonly name: FormatName;
  /** Bits of the value, and of its slot in a register (e2m3: 6 in 8; tf32: 19 in 32). */
  readonly width: number;
  readonly slotBits: number;
  readonly expBits: number;
  readonly manBits: number;
  readonly bias: number;
  /** Exponents of the least normal and of MAX_NORM. */
  readonly emin: number;
  readonly emax: number;
  readonly signed: boolean;
  readonly hasInfinity: boolean;
  readonly hasNaN: boolean;
  readonly hasZero: boolean;
  readonly hasSubnormals: boolean;
  /** The anatomy, most significant field first. */
  readonly fields: readonly FormatField[];
  readonly nan: NaNEncoding;
  /** With 'all-ones': the NaN patterns (one per sign); otherwise empty. */
  readonly nanPatterns: readonly string[];
  /** NVIDIA's canonical NaN (decision canonical-nan), or null without NaN. */
  readonly canonicalNaN: string | null;
  /** +infinity's pattern, or null without infinity. */
  readonly infinity: string | null;
  readonly maxNorm: BitsView;
  /** The least finite value: -MAX_NORM, or in an unsigned format its least value. */
  readonly lowest: BitsView;
  /** The least normal value (ue8m0: its least value, 2^-127, pattern 0x00). */
  readonly leastNormal: BitsView;
  readonly leastSubnormal: BitsView | null;
  readonly largestSubnormal: BitsView | null;
  /** The named special values the format has (named-values.ts), in their order. */
  readonly namedValues: readonly { readonly id: NamedValueId; readonly value: BitsView }[];
}

function fieldsOf(f: Format): FormatField[] {
  const fields: FormatField[] = [];
  if (f.signed) fields.push({ name: 'sign', hi: f.width - 1, lo: f.width - 1 });
  fields.push({ name: 'exponent', hi: f.manBits + f.expBits - 1, lo: f.manBits });
  if (f.manBits > 0) fields.push({ name: 'mantissa', hi: f.manBits - 1, lo: 0 });
  return fields;
}

function view(id: NamedValueId, f: Format): BitsView | null {
  const bits = namedValueBits(id, f);
  return bits === null ? null : bitsView(bits, f);
}

export function formatFacts(name: FormatName): FormatFacts {
  const f = FORMATS[name];
  const nan: NaNEncoding =
    f.spec.specials === 'ieee' ? 'exponent-all-ones' : f.hasNaN ? 'all-ones' : 'none';
  const nanPatterns =
    nan === 'all-ones'
      ? [f.canonicalNaN!, ...(f.signed ? [f.canonicalNaN! | f.signMask] : [])].map((b) =>
          formatHex(b, f),
        )
      : [];
  const lowest = f.signed ? maxNormBits(f, true) : namedValues(f)[0]!.bits;
  return {
    name,
    width: f.width,
    slotBits: f.slotBits,
    expBits: f.expBits,
    manBits: f.manBits,
    bias: f.bias,
    emin: f.emin,
    emax: f.emax,
    signed: f.signed,
    hasInfinity: f.hasInfinity,
    hasNaN: f.hasNaN,
    hasZero: f.hasZero,
    hasSubnormals: f.hasSubnormals && f.manBits > 0,
    fields: fieldsOf(f),
    nan,
    nanPatterns,
    canonicalNaN: f.canonicalNaN === null ? null : formatHex(f.canonicalNaN, f),
    infinity: f.infBits === null ? null : formatHex(f.infBits, f),
    maxNorm: bitsView(f.maxBits, f),
    lowest: bitsView(lowest, f),
    leastNormal: view('+least-normal', f)!,
    leastSubnormal: view('+least-subnormal', f),
    largestSubnormal: view('+largest-subnormal', f),
    namedValues: namedValues(f).map((v) => ({ id: v.id, value: bitsView(v.bits, f) })),
  };
}

/** One pattern of a small format, with the distance to the next larger value. */
export interface FormatValue extends BitsView {
  /** The next larger value minus this one; null at MAX_NORM and for NaN and infinity. */
  readonly gapToNext: ExactValue | null;
}

/** The widest format whose every pattern a table lists. */
export const VALUE_TABLE_MAX_WIDTH = 8;

/**
 * Every pattern of a format of 8 bits or fewer, in pattern order, each with the gap to the next
 * larger value (-0 and +0 are one value: the next of either is the least positive value).
 */
export function formatValues(name: FormatName): FormatValue[] {
  const f = FORMATS[name];
  if (f.width > VALUE_TABLE_MAX_WIDTH)
    throw new RangeError(
      `${name} has ${f.width} bits; a value table lists ${VALUE_TABLE_MAX_WIDTH} or fewer`,
    );
  return Array.from({ length: 2 ** f.width }, (_, i) => {
    const bits = BigInt(i);
    return { ...bitsView(bits, f), gapToNext: gapToNext(bits, f) };
  });
}

function gapToNext(bits: bigint, f: Format): ExactValue | null {
  if (isNaNBits(bits, f)) return null;
  const here = valueOfBits(bits, f);
  const next = valueOfBits(nextUp(bits, f), f);
  if (here.kind !== 'finite' || next.kind !== 'finite' || next.x === here.x) return null;
  const gap = add(next.x, negate(here.x));
  return gap.mant === 0n ? null : exactValueOfDyadic(gap);
}
