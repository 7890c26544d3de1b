/**
 * A format of at most 32 bits with its facts as numbers, for the fast path: its patterns are
 * unsigned JavaScript numbers instead of bigints. Built from the one format type (format.ts), with
 * two conventions that let the fast path's loops compare instead of branch on the format's kind:
 *
 *  - `signMask` of an unsigned format (ue8m0, ue4m3) is 2^width, a bit no pattern sets, so
 *    `bits >= signMask` is false for every one of its patterns;
 *  - `infBits` of a format without infinity is the pattern after MAX_NORM (e4m3 0x7f, ue8m0 0xff,
 *    e2m1 0x8): where a rounding past MAX_NORM lands, before the format's overflow rule applies.
 *
 * `canonicalNaN` of a format without NaN (e2m1, e2m3, e3m2) is null, as in format.ts.
 */
import { FORMAT_NAMES } from '../../catalog/formats.ts';
import { FORMATS, type Format, type FormatName } from '../format.ts';

export interface NumericFormat {
  readonly name: string;
  readonly width: number;
  readonly expBits: number;
  readonly manBits: number;
  readonly bias: number;
  readonly emin: number;
  readonly emax: number;
  /** The sign bit; 2^width for an unsigned format (see above). */
  readonly signMask: number;
  readonly expMask: number;
  readonly manMask: number;
  readonly maxBits: number;
  /** +infinity's pattern, or the pattern after MAX_NORM where there is none (see above). */
  readonly infBits: number;
  readonly hasInfinity: boolean;
  readonly hasSubnormals: boolean;
  readonly signed: boolean;
  /** NVIDIA's canonical NaN (nvidia-rules.ts canonicalNaN); null where the format has no NaN. */
  readonly canonicalNaN: number | null;
  /** The bigint format this one views. */
  readonly format: Format;
}

/** The name of every format of at most 32 bits (every one but f64). */
export type NumericFormatName = Exclude<FormatName, 'f64'>;

function numericFormatOf(f: Format): NumericFormat {
  if (f.width > 32) throw new Error(`${f.name} is wider than 32 bits`);
  return {
    name: f.name,
    width: f.width,
    expBits: f.expBits,
    manBits: f.manBits,
    bias: f.bias,
    emin: f.emin,
    emax: f.emax,
    signMask: f.signed ? Number(f.signMask) : 2 ** f.width,
    expMask: Number(f.expMask),
    manMask: Number(f.manMask),
    maxBits: Number(f.maxBits),
    infBits: f.infBits === null ? Number(f.maxBits) + 1 : Number(f.infBits),
    hasInfinity: f.hasInfinity,
    hasSubnormals: f.hasSubnormals,
    signed: f.signed,
    canonicalNaN: f.canonicalNaN === null ? null : Number(f.canonicalNaN),
    format: f,
  };
}

export const NUMERIC_FORMATS: { readonly [N in NumericFormatName]: NumericFormat } =
  Object.fromEntries(
    FORMAT_NAMES.filter((n) => n !== 'f64').map((n) => [n, numericFormatOf(FORMATS[n])]),
  ) as { readonly [N in NumericFormatName]: NumericFormat };

/** The canonical NaN of a format that has one (every format the arithmetic reads). */
export function nanOf(f: NumericFormat): number {
  if (f.canonicalNaN === null) throw new Error(`${f.name} has no NaN`);
  return f.canonicalNaN;
}

/** format.ts isNaNBits: infinity's exponent with a nonzero mantissa, or the all-ones NaN. */
export function isNaNWord(
  bits: number,
  f: Pick<NumericFormat, 'signMask' | 'hasInfinity' | 'infBits' | 'canonicalNaN'>,
): boolean {
  const m = bits >= f.signMask ? bits - f.signMask : bits;
  return f.hasInfinity ? m > f.infBits : m === f.canonicalNaN;
}

/** format.ts isSubnormalBits: a nonzero pattern below the smallest normal's. */
export function isSubnormalWord(bits: number, f: NumericFormat): boolean {
  const m = bits >= f.signMask ? bits - f.signMask : bits;
  return f.hasSubnormals && m !== 0 && m <= f.manMask;
}

/** format.ts toDouble of a pattern held as a number: the value, exactly (NaN for a NaN). */
export function valueOfWord(bits: number, f: NumericFormat): number {
  if (isNaNWord(bits, f)) return NaN;
  const negative = bits >= f.signMask;
  const m = negative ? bits - f.signMask : bits;
  let v: number;
  if (f.hasInfinity && m === f.infBits) v = Infinity;
  else {
    const exponent = Math.floor(m / 2 ** f.manBits);
    const mantissa = m % 2 ** f.manBits;
    v =
      exponent === 0 && f.hasSubnormals
        ? mantissa * 2 ** (f.emin - f.manBits)
        : (2 ** f.manBits + mantissa) * 2 ** (exponent - f.bias - f.manBits);
  }
  return negative ? -v : v;
}

// Every pattern's value of each format of at most 16 bits: a memo of a pure function.
const valueTables = new Map<string, Float64Array>();

/**
 * valueOfWord of every pattern of a format of at most 16 bits, indexed by the pattern: filled a
 * binade (one exponent field) at a time, each value its significand times the binade's scale.
 */
export function valueTable(f: NumericFormat): Float64Array {
  if (f.width > 16) throw new Error(`${f.name} is wider than 16 bits`);
  let t = valueTables.get(f.name);
  if (!t) {
    t = new Float64Array(2 ** f.width);
    const binade = 2 ** f.manBits;
    for (let first = 0; first < t.length; first += binade) {
      const exponent = (first % (f.expMask + binade)) / binade;
      const finite = valueOfWord(first, f);
      if (
        !Number.isFinite(finite) ||
        (f.canonicalNaN !== null && !f.hasInfinity && exponent === f.expMask / binade)
      ) {
        // The binade of infinity and the NaNs, or of an all-ones NaN: pattern by pattern.
        for (let m = 0; m < binade; m++) t[first + m] = valueOfWord(first + m, f);
        continue;
      }
      const sign = first >= f.signMask ? -1 : 1;
      const subnormal = exponent === 0 && f.hasSubnormals;
      const scale = sign * 2 ** ((subnormal ? f.emin : exponent - f.bias) - f.manBits);
      const implicit = subnormal ? 0 : binade;
      for (let m = 0; m < binade; m++) t[first + m] = (implicit + m) * scale;
    }
    valueTables.set(f.name, t);
  }
  return t;
}
