/**
 * One format type for every format PTX names (src/catalog/formats.ts): f64, f32, tf32, f16,
 * bf16, e4m3, e5m2, e3m2, e2m3, e2m1, ue8m0 and ue4m3. Bit patterns are unsigned `bigint`s (exact
 * for f64's 64 bits); one decode, one encode and one class vocabulary serve every format.
 *
 * Patterns grow with magnitude: within a sign, the next pattern up is the next value up. That is
 * what rounding (rounding.ts) relies on, and it holds for every format here, including those
 * without infinity (their largest pattern is MAX_NORM, or the NaN after it) and ue8m0 (no zero:
 * pattern e is 2^(e - 127)).
 */
import { FORMAT_SPECS, type FormatName, type FormatSpec } from '../catalog/formats.ts';
import { bitLength, exactValueOfDyadic, isZero } from './exact.ts';
import type { Dyadic, ExactValue, FloatClass, Value } from './value.ts';

export type { FormatName } from '../catalog/formats.ts';

export interface Format {
  readonly name: FormatName;
  readonly spec: FormatSpec;
  /** Width of the value itself (a register slot may be wider: e2m3 sits in 8 bits). */
  readonly width: number;
  readonly slotBits: number;
  readonly expBits: number;
  readonly manBits: number;
  readonly bias: number;
  /** Exponent of the smallest normal value: 1 − bias (ue8m0: −bias, its field 0 is normal). */
  readonly emin: number;
  /** Exponent of the largest finite value (bias for IEEE formats, bias + 1 for e4m3 and e2m*). */
  readonly emax: number;
  readonly signed: boolean;
  readonly hasInfinity: boolean;
  readonly hasNaN: boolean;
  readonly hasSubnormals: boolean;
  /** False for ue8m0 only. */
  readonly hasZero: boolean;
  /** The sign bit (0n for an unsigned format). */
  readonly signMask: bigint;
  readonly expMask: bigint;
  readonly manMask: bigint;
  /** MAX_NORM: the largest finite magnitude's pattern. */
  readonly maxBits: bigint;
  /** +infinity's pattern, or null where the format has none. */
  readonly infBits: bigint | null;
  /**
   * NVIDIA's canonical NaN (decision canonical-nan): all ones but the sign — 0x7fff for f16 and
   * bf16, 0x7fffffff for f32, 0x7f for e4m3/e5m2, 0xff for ue8m0; null where there is no NaN.
   */
  readonly canonicalNaN: bigint | null;
}

function makeFormat(spec: FormatSpec): Format {
  const { expBits, manBits, signed } = spec;
  const width = (signed ? 1 : 0) + expBits + manBits;
  const bias = 2 ** (expBits - 1) - 1;
  const manMask = (1n << BigInt(manBits)) - 1n;
  const expMask = ((1n << BigInt(expBits)) - 1n) << BigInt(manBits);
  const allOnes = expMask | manMask;
  const maxBits =
    spec.specials === 'ieee'
      ? expMask - 1n
      : spec.specials === 'nan-all-ones'
        ? allOnes - 1n
        : allOnes;
  const emin = spec.subnormals ? 1 - bias : -bias;
  const emax = Number(maxBits >> BigInt(manBits)) - bias;
  return {
    name: spec.name,
    spec,
    width,
    slotBits: spec.slotBits,
    expBits,
    manBits,
    bias,
    emin,
    emax,
    signed,
    hasInfinity: spec.specials === 'ieee',
    hasNaN: spec.specials !== 'finite',
    hasSubnormals: spec.subnormals,
    hasZero: spec.subnormals,
    signMask: signed ? 1n << BigInt(width - 1) : 0n,
    expMask,
    manMask,
    maxBits,
    infBits: spec.specials === 'ieee' ? expMask : null,
    canonicalNaN: spec.specials === 'finite' ? null : allOnes,
  };
}

export const FORMATS: { readonly [N in FormatName]: Format & { readonly name: N } } =
  Object.fromEntries(Object.values(FORMAT_SPECS).map((spec) => [spec.name, makeFormat(spec)])) as {
    readonly [N in FormatName]: Format & { readonly name: N };
  };

export function formatOf(name: FormatName): Format {
  return FORMATS[name];
}

/**
 * f with only `fractionBits` fraction bits and f's exponent range: a tensor core's "e8m13" f32
 * result (tensor-cores.md). Its patterns are f's shifted right by the bits it drops (`widen`
 * gives them back); its name stays f's, so it is only ever a rounding's grid, never shown.
 */
export function narrowedFormat(f: Format, fractionBits: number): Format {
  if (fractionBits >= f.manBits) throw new RangeError(`${f.name} has ${f.manBits} fraction bits`);
  return makeFormat({ ...f.spec, manBits: fractionBits });
}

/** A pattern of a narrowed format (narrowedFormat) as the pattern of f it stands for. */
export function widen(bits: bigint, narrow: Format, f: Format): bigint {
  return bits << BigInt(f.manBits - narrow.manBits);
}

// ---------------------------------------------------------------------------------------------
// Fields and classes

export function isNegative(bits: bigint, f: Format): boolean {
  return f.signed && (bits & f.signMask) !== 0n;
}

export function magnitudeOf(bits: bigint, f: Format): bigint {
  return bits & ~f.signMask;
}

export function withSign(magnitude: bigint, negative: boolean, f: Format): bigint {
  return negative && f.signed ? magnitude | f.signMask : magnitude;
}

export interface Fields {
  readonly negative: boolean;
  /** Biased exponent field. */
  readonly exponent: number;
  /** Trailing significand field. */
  readonly mantissa: bigint;
}

export function fieldsOf(bits: bigint, f: Format): Fields {
  return {
    negative: isNegative(bits, f),
    exponent: Number((bits & f.expMask) >> BigInt(f.manBits)),
    mantissa: bits & f.manMask,
  };
}

/** Bits from the three fields (the inverse of fieldsOf); a field out of range is an error. */
export function fromFields(fields: Fields, f: Format): bigint {
  const { negative, exponent, mantissa } = fields;
  if (!Number.isInteger(exponent) || exponent < 0 || exponent >= 2 ** f.expBits)
    throw new RangeError(`exponent field must be 0…${2 ** f.expBits - 1}`);
  if (mantissa < 0n || mantissa > f.manMask)
    throw new RangeError(`mantissa field must be 0…${f.manMask}`);
  if (negative && !f.signed) throw new RangeError(`${f.name} has no sign`);
  return withSign((BigInt(exponent) << BigInt(f.manBits)) | mantissa, negative, f);
}

export function isNaNBits(bits: bigint, f: Format): boolean {
  const m = magnitudeOf(bits, f);
  switch (f.spec.specials) {
    case 'ieee':
      return m > f.infBits!;
    case 'nan-all-ones':
      return m === f.canonicalNaN;
    case 'finite':
      return false;
  }
}

export function isInfBits(bits: bigint, f: Format): boolean {
  return f.infBits !== null && magnitudeOf(bits, f) === f.infBits;
}

export function isZeroBits(bits: bigint, f: Format): boolean {
  return f.hasZero && magnitudeOf(bits, f) === 0n;
}

export function isSubnormalBits(bits: bigint, f: Format): boolean {
  const m = magnitudeOf(bits, f);
  return f.hasSubnormals && m !== 0n && m <= f.manMask;
}

export function classify(bits: bigint, f: Format): FloatClass {
  if (isNaNBits(bits, f)) {
    // Only the IEEE encoding has a quiet bit; the one NaN of e4m3, ue8m0 and ue4m3 is quiet.
    const quiet = f.spec.specials !== 'ieee' || (bits & (1n << BigInt(f.manBits - 1))) !== 0n;
    return quiet ? 'qnan' : 'snan';
  }
  if (isInfBits(bits, f)) return 'infinity';
  if (isZeroBits(bits, f)) return 'zero';
  if (isSubnormalBits(bits, f)) return 'subnormal';
  return 'normal';
}

// ---------------------------------------------------------------------------------------------
// Values

/** The exact value of a finite pattern (the caller excludes NaN and infinity). */
export function dyadicOfBits(bits: bigint, f: Format): Dyadic {
  const { negative, exponent, mantissa } = fieldsOf(bits, f);
  if (exponent === 0 && f.hasSubnormals)
    return { negative, mant: mantissa, exp: f.emin - f.manBits };
  const implicit = 1n << BigInt(f.manBits);
  const e = f.hasSubnormals ? exponent - f.bias : exponent + f.emin;
  return { negative, mant: implicit | mantissa, exp: e - f.manBits };
}

export function valueOfBits(bits: bigint, f: Format): Value {
  if (isNaNBits(bits, f)) return { kind: 'nan' };
  if (isInfBits(bits, f)) return { kind: 'inf', negative: isNegative(bits, f) };
  return { kind: 'finite', x: dyadicOfBits(bits, f) };
}

/** The value as a JavaScript double (exact: every value of these formats is a double). */
export function toDouble(bits: bigint, f: Format): number {
  const v = valueOfBits(bits, f);
  if (v.kind === 'nan') return NaN;
  if (v.kind === 'inf') return v.negative ? -Infinity : Infinity;
  // mant < 2^53 and 2^exp ≥ 2^-1074 for every value here: the product is exact.
  const mag = Number(v.x.mant) * 2 ** v.x.exp;
  return v.x.negative ? -mag : mag;
}

const NAN_TEXT: ExactValue = {
  kind: 'nan',
  negative: false,
  decimal: 'NaN',
  binary: 'NaN',
  rational: 'NaN',
};

function infText(negative: boolean): ExactValue {
  const s = negative ? '-inf' : '+inf';
  return { kind: 'inf', negative, decimal: s, binary: s, rational: s };
}

export function exactValueOfValue(v: Value): ExactValue {
  if (v.kind === 'nan') return NAN_TEXT;
  if (v.kind === 'inf') return infText(v.negative);
  return exactValueOfDyadic(v.x);
}

// A memo of a pure function: 16-bit patterns recur constantly (inputs, results, tables).
const memo = new Map<FormatName, ExactValue[]>();

export function exactValueOfBits(bits: bigint, f: Format): ExactValue {
  if (f.width > 16) return exactValueOfValue(valueOfBits(bits, f));
  let table = memo.get(f.name);
  if (!table) memo.set(f.name, (table = []));
  const i = Number(bits);
  return (table[i] ??= exactValueOfValue(valueOfBits(bits, f)));
}

/** mant × 2^exp with mant odd (or zero): the same value, reduced. */
function reduced(x: Dyadic): Dyadic {
  if (x.mant === 0n) return x;
  let { mant, exp } = x;
  while ((mant & 1n) === 0n) {
    mant >>= 1n;
    exp++;
  }
  return { negative: x.negative, mant, exp };
}

/**
 * The pattern of an exactly representable finite value, or null when the value is not one of
 * the format's values (too precise, out of range, negative in an unsigned format, zero in ue8m0).
 */
export function encodeFinite(x: Dyadic, f: Format): bigint | null {
  if (isZero(x)) return f.hasZero ? withSign(0n, x.negative, f) : null;
  if (x.negative && !f.signed) return null;
  const r = reduced(x);
  const e = r.exp + bitLength(r.mant) - 1;
  if (e < f.emin && !f.hasSubnormals) return null;
  // Significand bits at the quantum of the value's binade (the subnormal spacing below emin).
  const q = Math.max(e, f.emin) - f.manBits;
  if (r.exp < q) return null;
  const significand = r.mant << BigInt(r.exp - q);
  let magnitude: bigint;
  if (e < f.emin) magnitude = significand;
  else {
    const field = BigInt(e - f.emin + (f.hasSubnormals ? 1 : 0));
    magnitude = (field << BigInt(f.manBits)) | (significand & f.manMask);
  }
  return magnitude > f.maxBits ? null : withSign(magnitude, x.negative, f);
}

/** A value's pattern; NaN is the canonical NaN. Throws when the format cannot hold it. */
export function encodeValue(v: Value, f: Format): bigint {
  if (v.kind === 'nan') {
    if (f.canonicalNaN === null) throw new RangeError(`${f.name} has no NaN`);
    return f.canonicalNaN;
  }
  if (v.kind === 'inf') {
    if (f.infBits === null) throw new RangeError(`${f.name} has no infinity`);
    if (v.negative && !f.signed) throw new RangeError(`${f.name} has no sign`);
    return withSign(f.infBits, v.negative, f);
  }
  const bits = encodeFinite(v.x, f);
  if (bits === null) throw new RangeError(`not a ${f.name} value`);
  return bits;
}

export function isRepresentable(x: Dyadic, f: Format): boolean {
  return encodeFinite(x, f) !== null;
}

/** MAX_NORM with a sign (an unsigned format's is positive). */
export function maxNormBits(f: Format, negative = false): bigint {
  return withSign(f.maxBits, negative, f);
}

// ---------------------------------------------------------------------------------------------
// Order

/** The largest magnitude the order of values reaches: infinity, or MAX_NORM without one. */
function topMagnitude(f: Format): bigint {
  return f.infBits ?? f.maxBits;
}

/** Next value toward +infinity (NaN stays, the top stays, -0 → the smallest positive value). */
export function nextUp(bits: bigint, f: Format): bigint {
  if (isNaNBits(bits, f) || bits === topMagnitude(f)) return bits;
  if (!f.signed) return bits + 1n;
  if (bits === f.signMask) return 1n;
  if (bits < f.signMask) return bits + 1n;
  return bits === f.signMask + 1n ? 0n : bits - 1n;
}

/** Next value toward -infinity. */
export function nextDown(bits: bigint, f: Format): bigint {
  if (isNaNBits(bits, f)) return bits;
  if (!f.signed) return bits === 0n ? 0n : bits - 1n;
  if (bits === (f.signMask | topMagnitude(f))) return bits;
  if (bits === 0n) return f.signMask + 1n;
  return bits >= f.signMask ? bits + 1n : bits - 1n;
}

// ---------------------------------------------------------------------------------------------
// Text of patterns

/** `0x3c00`, `0x7e`, `0x3ff0000000000000`: lower-case hex of `width` bits (one digit at least). */
export function hexOf(bits: bigint, width: number): string {
  return `0x${bits.toString(16).padStart(Math.max(1, Math.ceil(width / 4)), '0')}`;
}

/** A pattern of the format as hex of the format's value width. */
export function formatHex(bits: bigint, f: Format): string {
  return hexOf(bits, f.width);
}

/** One value as a trace shows it: its format, bits (hex), class and exact value. */
export interface BitsView {
  readonly format: FormatName;
  readonly bits: string;
  readonly class: FloatClass;
  readonly value: ExactValue;
}

export function bitsView(bits: bigint, f: Format): BitsView {
  return {
    format: f.name,
    bits: formatHex(bits, f),
    class: classify(bits, f),
    value: exactValueOfBits(bits, f),
  };
}

export function valueView(v: Value, f: Format): BitsView {
  return bitsView(encodeValue(v, f), f);
}

/** The pattern a view holds. */
export function bitsOfView(view: BitsView): bigint {
  return BigInt(view.bits);
}
