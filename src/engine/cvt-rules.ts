/**
 * The rules of cvt's modifiers (PTX ISA 9.7.9.21, Floating Point Notes) as pure functions on
 * values: NaN, ±infinity or an exact dyadic rational, before they are encoded in the destination
 * format. The traced evaluation (ops/cvt.ts) records a step around each.
 */
import type { ElementFormatName } from '../catalog/cvt-types.ts';
import { isZero, type Dyadic } from './exact.ts';
import { FLOAT_FORMATS, dyadicOf } from './formats.ts';
import { dyadicOfDouble } from './double.ts';
import type { Value } from './values.ts';

const ONE: Dyadic = { negative: false, mant: 1n, exp: 0 };
const PLUS_ZERO: Value = { kind: 'finite', x: { negative: false, mant: 0n, exp: 0 } };

export function isNegativeValue(v: Value): boolean {
  if (v.kind === 'nan') return false;
  return v.kind === 'inf' ? v.negative : v.x.negative;
}

/** MAX_NORM of a format, signed. */
export function maxNorm(name: ElementFormatName, negative = false): Value {
  const x =
    name === 'f64'
      ? dyadicOfDouble(Number.MAX_VALUE)
      : dyadicOf(FLOAT_FORMATS[name].maxBits, FLOAT_FORMATS[name]);
  return { kind: 'finite', x: { ...x, negative } };
}

/** Whether the format has NaN (e2m1, e2m3, e3m2 do not). */
export function hasNaN(name: ElementFormatName): boolean {
  return name === 'f64' || FLOAT_FORMATS[name].nan !== 'none';
}

export function hasInfinity(name: ElementFormatName): boolean {
  return name === 'f64' || FLOAT_FORMATS[name].hasInfinity;
}

export function isSigned(name: ElementFormatName): boolean {
  return name === 'f64' || FLOAT_FORMATS[name].signed;
}

/**
 * A value rounded past MAX_NORM without .satfinite: infinity or MAX_NORM as the rounding went
 * (`toInfinity`: it rounded away from zero, IEEE 754 §7.4), or NaN in ue8m0, which has no
 * infinity (decision cvt-ue8m0). e4m3 and the 6-/4-bit formats are never converted to without
 * .satfinite.
 */
export function overflowResult(
  name: ElementFormatName,
  negative: boolean,
  toInfinity: boolean,
): Value {
  if (!hasInfinity(name)) {
    if (!hasNaN(name)) throw new Error(`${name} needs .satfinite`);
    return { kind: 'nan' };
  }
  return toInfinity ? { kind: 'inf', negative } : maxNorm(name, negative);
}

/**
 * .satfinite: "if the input value is NaN, then the result is NaN in the specified destination
 * format" (positive MAX_NORM for e2m1, e2m3, e3m2); "if the absolute value of input … is greater
 * than MAX_NORM … the result is sign-preserved MAX_NORM … and a positive MAX_NORM in .ue8m0x2".
 * An infinity is greater than MAX_NORM (decision cvt-satfinite-infinity). `beyond` says the
 * value rounded past MAX_NORM (the value itself is then the overflow result).
 */
export function satfinite(
  v: Value,
  beyond: boolean,
  name: ElementFormatName,
): { readonly value: Value; readonly case: 'nan' | 'beyond-max-norm' | 'in-range' } {
  if (v.kind === 'nan') return { value: hasNaN(name) ? v : maxNorm(name), case: 'nan' };
  if (v.kind === 'inf' || beyond)
    return { value: maxNorm(name, isSigned(name) && isNegativeValue(v)), case: 'beyond-max-norm' };
  return { value: v, case: 'in-range' };
}

/**
 * .sat: "limits the result to the range [0.0, 1.0]. NaN results are flushed to positive zero."
 * -0.0 and every negative value become +0.0 (decision cvt-negative-zero).
 */
export function saturate(v: Value): Value {
  if (v.kind === 'nan' || isNegativeValue(v)) return PLUS_ZERO;
  if (v.kind === 'inf') return { kind: 'finite', x: ONE };
  const x = v.x;
  // x > 1 when its leading bit is at 2^0 or above and it is not exactly 1.
  const above = !isZero(x) && x.exp + x.mant.toString(2).length - 1 >= 0 && !isOne(x);
  return above ? { kind: 'finite', x: ONE } : v;
}

function isOne(x: Dyadic): boolean {
  return x.mant === 1n << BigInt(-x.exp) || (x.exp >= 0 && x.mant << BigInt(x.exp) === 1n);
}

/**
 * .relu: "clamps the result to 0 if negative. NaN results are converted to canonical NaN."
 * -0.0 becomes +0.0 (decision cvt-negative-zero).
 */
export function relu(v: Value): Value {
  if (v.kind === 'nan') return v;
  return isNegativeValue(v) ? PLUS_ZERO : v;
}

/** .ftz on an .f32 input: "flush … subnormal inputs … to sign-preserving zero". */
export function flushSubnormalInput(v: Value): Value {
  if (v.kind !== 'finite' || isZero(v.x)) return v;
  const e = v.x.exp + v.x.mant.toString(2).length - 1;
  return e < FLOAT_FORMATS.f32.emin
    ? { kind: 'finite', x: { negative: v.x.negative, mant: 0n, exp: 0 } }
    : v;
}

/** .ftz on an .f32 result: a tiny result becomes a zero of the same sign. */
export function flushTinyResult(v: Value, tiny: boolean): Value {
  if (!tiny || v.kind !== 'finite' || isZero(v.x)) return v;
  return { kind: 'finite', x: { negative: v.x.negative, mant: 0n, exp: 0 } };
}
