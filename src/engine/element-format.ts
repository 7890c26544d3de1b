/**
 * One interface over every format a cvt element can have: the formats of formats.ts (32 bits or
 * fewer, bit patterns as numbers there) and .f64, whose 64-bit patterns need BigInt. Here every
 * pattern is a bigint: decode to a Value (NaN, ±infinity, or an exact dyadic rational), encode an
 * exactly representable Value back, classify, describe.
 */
import type { ElementFormatName } from '../catalog/cvt-types.ts';
import { dyadicOfDouble } from './double.ts';
import { exactValueOfDyadic, ilog2, isZero, type Dyadic } from './exact.ts';
import { classify, FLOAT_FORMATS, type AnyFloatFormat, exactValueOfBits } from './formats.ts';
import type { ExactValue, FloatClass } from './value.ts';
import { valueOf, type Value } from './values.ts';

/** .f64 (1-11-52), as data beside formats.ts's descriptions. */
export const F64 = {
  name: 'f64',
  width: 64,
  expBits: 11,
  manBits: 52,
  bias: 1023,
  emin: -1022,
  emax: 1023,
  signMask: 1n << 63n,
  infBits: 0x7ff0000000000000n,
  maxBits: 0x7fefffffffffffffn,
  /** All ones but the sign, as for the other formats (decision 'cvt-nan'). */
  canonicalNaN: 0x7fffffffffffffffn,
} as const;

/** The number-pattern format of a name other than f64. */
export function floatFormatOf(name: Exclude<ElementFormatName, 'f64'>): AnyFloatFormat {
  return FLOAT_FORMATS[name];
}

/** Width of an element's value in bits (tf32 19, e2m3 6, …). */
export function elementWidth(name: ElementFormatName): number {
  return name === 'f64' ? 64 : FLOAT_FORMATS[name].width;
}

const scratch = new DataView(new ArrayBuffer(8));

function doubleOfBits(bits: bigint): number {
  scratch.setBigUint64(0, bits);
  return scratch.getFloat64(0);
}

function bitsOfDouble(x: number): bigint {
  scratch.setFloat64(0, x);
  return scratch.getBigUint64(0);
}

function f64Class(bits: bigint): FloatClass {
  const mag = bits & ~F64.signMask;
  if (mag > F64.infBits) return (mag & (1n << 51n)) !== 0n ? 'qnan' : 'snan';
  if (mag === F64.infBits) return 'infinity';
  if (mag === 0n) return 'zero';
  return mag < 1n << 52n ? 'subnormal' : 'normal';
}

export function classifyElement(bits: bigint, name: ElementFormatName): FloatClass {
  return name === 'f64' ? f64Class(bits) : classify(Number(bits), FLOAT_FORMATS[name]);
}

export function decodeElement(bits: bigint, name: ElementFormatName): Value {
  if (name !== 'f64') return valueOf(Number(bits), FLOAT_FORMATS[name]);
  const cls = f64Class(bits);
  if (cls === 'qnan' || cls === 'snan') return { kind: 'nan' };
  const negative = (bits & F64.signMask) !== 0n;
  if (cls === 'infinity') return { kind: 'inf', negative };
  if (cls === 'zero') return { kind: 'finite', x: { negative, mant: 0n, exp: 0 } };
  return { kind: 'finite', x: dyadicOfDouble(doubleOfBits(bits)) };
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
 * The pattern of an exactly representable finite value in a format of formats.ts, or null when
 * the value is not one of the format's values.
 */
export function encodeExact(x: Dyadic, f: AnyFloatFormat): number | null {
  const sign = x.negative ? f.signMask : 0;
  if (isZero(x)) return f.hasSubnormals ? sign : null;
  if (x.negative && !f.signed) return null;
  const r = reduced(x);
  const e = r.exp + r.mant.toString(2).length - 1;
  // Significand bits at the quantum of the value's binade (subnormal spacing below emin).
  const q = Math.max(e, f.emin) - f.manBits;
  if (r.exp < q) return null;
  const significand = Number(r.mant << BigInt(r.exp - q));
  const field = e < f.emin ? 0 : e - f.emin + (f.hasSubnormals ? 1 : 0);
  const mantissa = e < f.emin ? significand : significand - 2 ** f.manBits;
  const magnitude = field * 2 ** f.manBits + mantissa;
  return magnitude > f.maxBits ? null : sign + magnitude;
}

/** A value's pattern in a format; NaN is the canonical NaN. Throws when not representable. */
export function encodeElement(v: Value, name: ElementFormatName): bigint {
  if (name === 'f64') {
    if (v.kind === 'nan') return F64.canonicalNaN;
    if (v.kind === 'inf') return v.negative ? F64.signMask | F64.infBits : F64.infBits;
    const r = reduced(v.x);
    const d = Number(r.mant) * 2 ** r.exp;
    if (r.mant >= 1n << 53n || !Number.isFinite(d) || (d === 0 && r.mant !== 0n))
      throw new RangeError('not an f64 value');
    return bitsOfDouble(v.x.negative ? -d : d);
  }
  const f = FLOAT_FORMATS[name];
  if (v.kind === 'nan') {
    if (f.nan === 'none') throw new RangeError(`${name} has no NaN`);
    return BigInt(f.canonicalNaN);
  }
  if (v.kind === 'inf') {
    if (!f.hasInfinity) throw new RangeError(`${name} has no infinity`);
    return BigInt(f.infBits + (v.negative ? f.signMask : 0));
  }
  const bits = encodeExact(v.x, f);
  if (bits === null) throw new RangeError(`not a ${name} value`);
  return BigInt(bits);
}

/** Whether the finite value is one of the format's values. */
export function isRepresentable(x: Dyadic, name: ElementFormatName): boolean {
  if (name !== 'f64') return encodeExact(x, FLOAT_FORMATS[name]) !== null;
  try {
    encodeElement({ kind: 'finite', x }, 'f64');
    return true;
  } catch {
    return false;
  }
}

export function exactValueOfElement(bits: bigint, name: ElementFormatName): ExactValue {
  if (name !== 'f64') return exactValueOfBits(Number(bits), FLOAT_FORMATS[name]);
  const v = decodeElement(bits, 'f64');
  if (v.kind === 'nan')
    return { kind: 'nan', negative: false, decimal: 'NaN', binary: 'NaN', rational: 'NaN' };
  if (v.kind === 'inf') {
    const s = v.negative ? '-inf' : '+inf';
    return { kind: 'inf', negative: v.negative, decimal: s, binary: s, rational: s };
  }
  return exactValueOfDyadic(v.x);
}

/** The exponent of one ulp of a format at a finite value: 2^(max(e, emin) − manBits). */
export function ulpExponent(x: Dyadic, format: ElementFormatName): number {
  const f = format === 'f64' ? F64 : floatFormatOf(format);
  const e = isZero(x) ? f.emin : Math.max(ilog2(x), f.emin);
  return e - f.manBits;
}

/** `0x7E`, `0x3C00`, `0x3FF0000000000000`: hex of `width` bits (at least one digit). */
export function hexOf(bits: bigint, width: number): string {
  return `0x${bits
    .toString(16)
    .toUpperCase()
    .padStart(Math.max(1, Math.ceil(width / 4)), '0')}`;
}
