/**
 * What a format page and cvt's corner-case tables show, as data: each format's anatomy (field
 * widths, bias, which encodings are NaN, infinity or zero, MAX_NORM and the least values), the
 * whole value table of the formats of 8 bits or fewer with the gap to the next value, and the
 * corner-case rows of a cvt form (NaN, ±inf, ±0, MAX_NORM of the destination and just above it,
 * a midpoint, a subnormal), each evaluated by the engine.
 */
import { findCvtForm, type CvtForm } from '../../catalog/cvt-forms.ts';
import type { ElementFormatName } from '../../catalog/cvt-types.ts';
import {
  classifyElement,
  decodeElement,
  exactValueOfElement,
  F64,
  hexOf,
} from '../element-format.ts';
import { add, exactDecimal, type Dyadic } from '../exact.ts';
import { FLOAT_FORMATS } from '../formats.ts';
import type { FloatClass } from '../trace.ts';
import { cvtCornerTable } from './cvt-corner-table.ts';

export interface FormatInfo {
  readonly name: ElementFormatName;
  /** Bits of the value, and of its slot in a register (e2m3: 6 in 8; tf32: 19 in 32). */
  readonly width: number;
  readonly expBits: number;
  readonly manBits: number;
  readonly bias: number;
  readonly signed: boolean;
  readonly hasInfinity: boolean;
  readonly hasZero: boolean;
  readonly hasSubnormals: boolean;
  /** Which patterns are NaN, in words. */
  readonly nan: string;
  readonly canonicalNaN: string | null;
  readonly maxNorm: { readonly bits: string; readonly value: string };
  readonly minNormal: { readonly bits: string; readonly value: string };
  readonly minSubnormal: { readonly bits: string; readonly value: string } | null;
}

function entry(bits: bigint, name: ElementFormatName) {
  return { bits: hexOf(bits, widthOf(name)), value: exactValueOfElement(bits, name).decimal };
}

function widthOf(name: ElementFormatName): number {
  return name === 'f64' ? 64 : FLOAT_FORMATS[name].width;
}

export function formatInfo(name: ElementFormatName): FormatInfo {
  if (name === 'f64') {
    return {
      name,
      width: 64,
      expBits: 11,
      manBits: 52,
      bias: 1023,
      signed: true,
      hasInfinity: true,
      hasZero: true,
      hasSubnormals: true,
      nan: 'exponent all ones, mantissa nonzero',
      canonicalNaN: hexOf(F64.canonicalNaN, 64),
      maxNorm: entry(F64.maxBits, 'f64'),
      minNormal: entry(1n << 52n, 'f64'),
      minSubnormal: entry(1n, 'f64'),
    };
  }
  const f = FLOAT_FORMATS[name];
  const nan =
    f.nan === 'exponent-all-ones'
      ? 'exponent all ones, mantissa nonzero'
      : f.nan === 'all-ones'
        ? `only ${hexOf(BigInt(f.expMask + f.manMask), f.width)}${f.signed ? ` and ${hexOf(BigInt(f.signMask + f.expMask + f.manMask), f.width)}` : ''}`
        : 'none';
  return {
    name,
    width: f.width,
    expBits: f.expBits,
    manBits: f.manBits,
    bias: f.bias,
    signed: f.signed,
    hasInfinity: f.hasInfinity,
    hasZero: f.hasSubnormals,
    hasSubnormals: f.hasSubnormals && f.manBits > 0,
    nan,
    canonicalNaN: f.nan === 'none' ? null : hexOf(BigInt(f.canonicalNaN), f.width),
    maxNorm: entry(BigInt(f.maxBits), name),
    minNormal: entry(BigInt(f.hasSubnormals ? 2 ** f.manBits : 0), name),
    minSubnormal: f.hasSubnormals && f.manBits > 0 ? entry(1n, name) : null,
  };
}

export interface ValueRow {
  readonly bits: string;
  readonly class: FloatClass;
  /** Every digit, or NaN / ±inf. */
  readonly value: string;
  /** The distance to the next larger value of the format (by value), or null at the top. */
  readonly gapToNext: string | null;
}

/** Every pattern of a format of 8 bits or fewer, in pattern order, with the gap to the next value. */
export function valueTable(name: ElementFormatName): ValueRow[] {
  const width = widthOf(name);
  if (width > 8) throw new Error(`${name} has ${width} bits: only formats of 8 bits or fewer`);
  const patterns = Array.from({ length: 2 ** width }, (_, i) => BigInt(i));
  const finite = patterns
    .map((bits) => ({ bits, v: decodeElement(bits, name) }))
    .filter((p): p is { bits: bigint; v: { kind: 'finite'; x: Dyadic } } => p.v.kind === 'finite');
  const sorted = [...finite].sort((p, q) => compareDyadic(p.v.x, q.v.x));
  const next = new Map<bigint, Dyadic>();
  sorted.forEach((p, i) => {
    // -0 and +0 are one value: the next value of either is the least positive one.
    let j = i + 1;
    while (j < sorted.length && compareDyadic(sorted[j]!.v.x, p.v.x) === 0) j++;
    if (j < sorted.length) next.set(p.bits, sorted[j]!.v.x);
  });
  return patterns.map((bits) => {
    const v = decodeElement(bits, name);
    const to = next.get(bits);
    const gap =
      v.kind === 'finite' && to ? exactDecimal(add(to, { ...v.x, negative: !v.x.negative })) : null;
    return {
      bits: hexOf(bits, width),
      class: classifyElement(bits, name),
      value: exactValueOfElement(bits, name).decimal,
      gapToNext: gap,
    };
  });
}

function compareDyadic(x: Dyadic, y: Dyadic): number {
  const d = add(x, { ...y, negative: !y.negative });
  return d.mant === 0n ? 0 : d.negative ? -1 : 1;
}

export interface CvtCornerRow {
  readonly label: string;
  /** The source element's bits and value. */
  readonly input: { readonly bits: string; readonly value: string };
  readonly result: { readonly bits: string; readonly value: string; readonly class: FloatClass };
}

/**
 * The corner cases of a cvt form, for its first element (cvt-corner-table.ts: NaN, ±infinity,
 * ±0, the destination's MAX_NORM and past it, ties, the least normal and subnormal values),
 * each converted by the engine: the table's rows, as label, input and result.
 */
export function cvtCornerRows(formOrText: CvtForm | string): CvtCornerRow[] {
  const form = typeof formOrText === 'string' ? findCvtForm(formOrText) : formOrText;
  if (!form) throw new Error(`not a cvt form: ${String(formOrText)}`);
  return cvtCornerTable(form).rows.map((r) => ({
    label: r.name,
    input: { bits: r.input.bits, value: r.input.value },
    result: { bits: r.result.bits, value: r.result.value, class: r.result.class },
  }));
}
