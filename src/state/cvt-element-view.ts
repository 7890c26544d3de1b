import { CLASS_WORDS } from '../engine/class-words.ts';
import type { ElementFormatName } from '../catalog/index.ts';
import {
  ALL_FLOAT_FORMATS,
  classifyElement,
  decodeElement,
  exactValueOfElement,
  F64,
  formatInfo,
  nextDown,
  nextUp,
  parseElementValue,
  shortestElementDecimal,
} from '../engine/index.ts';
import { powerOfTwo } from './bit-view.ts';

/**
 * What the cvt editors show of one element, for every format a cvt element can have (4 to 64
 * bits; patterns are BigInt): its fields, readouts, quick picks and neighbours. Pure, for the
 * UI and its tests; the arithmetic's editors have the same for .f16/.bf16/.f32 in bit-view.ts.
 */

export interface ElementField {
  readonly name: 'sign' | 'exponent' | 'mantissa';
  /** Bits of the value, most significant first (from > to), counted from the value's bit 0. */
  readonly from: number;
  readonly to: number;
}

/** Width of a format's value bits. */
export function valueWidth(format: ElementFormatName): number {
  return format === 'f64' ? 64 : ALL_FLOAT_FORMATS[format].width;
}

/** The value's fields: sign (where the format has one), exponent, mantissa (where it has one). */
export function fieldsOf(format: ElementFormatName): ElementField[] {
  const info = formatInfo(format);
  const width = valueWidth(format);
  const fields: ElementField[] = [];
  if (info.signed) fields.push({ name: 'sign', from: width - 1, to: width - 1 });
  fields.push({ name: 'exponent', from: info.manBits + info.expBits - 1, to: info.manBits });
  if (info.manBits > 0) fields.push({ name: 'mantissa', from: info.manBits - 1, to: 0 });
  return fields;
}

export interface ElementReadout {
  readonly className: string;
  readonly exact: string;
  readonly shortest: string;
  /** What the value field shows: the exact value when short, else the shortest decimal. */
  readonly fieldText: string;
  readonly exponentText: string;
  readonly significand: string | null;
  readonly ulp: string | null;
  readonly canonicalNaN: boolean;
  /** The format's largest finite value (or its negative). */
  readonly maxNorm: boolean;
}

const FIELD_EXACT_LIMIT = 14;

export function elementReadout(bits: bigint, format: ElementFormatName): ElementReadout {
  const info = formatInfo(format);
  const width = valueWidth(format);
  const cls = classifyElement(bits, format);
  const signBit = info.signed ? (bits >> BigInt(width - 1)) & 1n : 0n;
  const exponent = Number((bits >> BigInt(info.manBits)) & ((1n << BigInt(info.expBits)) - 1n));
  const mantissa = bits & ((1n << BigInt(info.manBits)) - 1n);
  const finite = cls === 'normal' || cls === 'subnormal';
  const exact = exactValueOfElement(bits, format).decimal;
  const shortest = shortestElementDecimal(bits, format);
  const stored = exponent.toString(2).padStart(info.expBits, '0');
  const emin = 1 - info.bias;
  const unbiased = exponent - info.bias;
  const exponentText =
    cls === 'normal'
      ? `stored ${stored} = ${exponent}, bias ${info.bias} → ${powerOfTwo(unbiased)}`
      : cls === 'subnormal'
        ? `stored ${stored}: subnormal, 1 − bias ${info.bias} → ${powerOfTwo(emin)}`
        : cls === 'zero'
          ? `stored ${stored}: zero`
          : info.hasInfinity
            ? `stored ${stored}: all ones, infinity or NaN`
            : `stored ${stored}: the NaN pattern`;
  const man = info.manBits > 0 ? `.${mantissa.toString(2).padStart(info.manBits, '0')}` : '';
  const sign = signBit ? '−' : '+';
  const ulpExponent =
    cls === 'normal'
      ? unbiased - info.manBits
      : cls === 'subnormal' || cls === 'zero'
        ? emin - info.manBits
        : null;
  const maxBits = BigInt(info.maxNorm.bits);
  const magnitude = info.signed ? bits & ~(1n << BigInt(width - 1)) : bits;
  return {
    className: `${signBit ? 'negative' : 'positive'} ${CLASS_WORDS[cls]}`,
    exact,
    shortest,
    fieldText: finite && exact.length <= FIELD_EXACT_LIMIT ? exact : shortest,
    exponentText,
    significand: finite ? `${sign}${cls === 'normal' ? '1' : '0'}${man}b` : null,
    ulp: ulpExponent === null ? null : powerOfTwo(ulpExponent),
    canonicalNaN: info.canonicalNaN !== null && bits === BigInt(info.canonicalNaN),
    maxNorm: magnitude === maxBits,
  };
}

export interface ElementPick {
  readonly name: string;
  readonly bits: bigint;
}

/** The quick picks of a format: its special values, those it has, named as the tables name them. */
export function elementQuickPicks(format: ElementFormatName): ElementPick[] {
  const info = formatInfo(format);
  const width = valueWidth(format);
  const sign = info.signed ? 1n << BigInt(width - 1) : 0n;
  const max = BigInt(info.maxNorm.bits);
  const picks: ElementPick[] = [];
  const add = (name: string, bits: bigint | null) => {
    if (bits !== null) picks.push({ name, bits });
  };
  if (info.hasZero) {
    add('+0', 0n);
    if (info.signed) add('-0', sign);
  }
  if (info.minSubnormal) {
    add('+min subnormal', BigInt(info.minSubnormal.bits));
    if (info.signed) add('-min subnormal', BigInt(info.minSubnormal.bits) | sign);
    add('+max subnormal', BigInt(info.minNormal.bits) - 1n);
  }
  add(info.hasZero ? '+min normal' : 'least value (2^-127)', BigInt(info.minNormal.bits));
  const one = parseElementValue('1', format);
  if (one.ok) {
    add('+1', one.bits);
    if (info.signed) add('-1', one.bits | sign);
  }
  add('+MAX_NORM', max);
  if (info.signed) add('-MAX_NORM', max | sign);
  if (info.hasInfinity) {
    add('+inf', max + 1n);
    add('-inf', (max + 1n) | sign);
  }
  if (info.canonicalNaN !== null) add('NaN', BigInt(info.canonicalNaN));
  if (info.hasInfinity) add('sNaN', max + 2n);
  return picks;
}

/** The next value up and down (NaN and the ends stay), for the step buttons. */
export function elementNeighbours(
  bits: bigint,
  format: ElementFormatName,
): { up: bigint; down: bigint } {
  if (format !== 'f64') {
    const f = ALL_FLOAT_FORMATS[format];
    return { up: BigInt(nextUp(Number(bits), f)), down: BigInt(nextDown(Number(bits), f)) };
  }
  const v = decodeElement(bits, 'f64');
  if (v.kind === 'nan') return { up: bits, down: bits };
  const negative = (bits & F64.signMask) !== 0n;
  const magnitude = bits & ~F64.signMask;
  const towardZero = magnitude === 0n ? bits : bits - 1n;
  const away = magnitude === F64.infBits ? bits : bits + 1n;
  if (!negative) {
    // +0 down is the least negative subnormal.
    return { up: away, down: magnitude === 0n ? F64.signMask | 1n : towardZero };
  }
  return { up: magnitude === 1n ? 0n : magnitude === 0n ? 1n : towardZero, down: away };
}
