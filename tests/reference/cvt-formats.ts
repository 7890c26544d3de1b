/**
 * The formats cvt reads and writes, for the reference model, written from PTX ISA 5.2.3 and the
 * textbook formula (independently of src/engine/format.ts):
 *   exponent field E (w bits), fraction field T (t bits), bias = 2^(w-1) - 1
 *   E = 0:        (-1)^s × 2^(1-bias) × (T / 2^t)
 *   otherwise:    (-1)^s × 2^(E-bias) × (1 + T / 2^t)
 * with the encodings each format sets apart: IEEE (E all ones: T = 0 infinity, else NaN) for
 * f16, bf16, tf32, f32, f64 and e5m2; "no infinity, NaN only S.1111.111" for e4m3; no specials
 * at all for e2m3, e3m2, e2m1; and ue8m0, unsigned with 8 exponent bits and no fraction, whose
 * pattern e is 2^(e-127) (no zero) and 0xFF NaN. Beside them ue4m3, a block scale of the
 * block-scaled mma and a format a typed value may be stored in: e4m3 without its sign (7 bits, NaN
 * 0x7F).
 */
import { compare, pow2, mul, rational, sub, add, type Rational } from './rational.ts';

export type RefCvtFormatName =
  | 'f16'
  | 'bf16'
  | 'tf32'
  | 'f32'
  | 'f64'
  | 'e4m3'
  | 'e5m2'
  | 'e2m3'
  | 'e3m2'
  | 'e2m1'
  | 'ue8m0'
  | 'ue4m3';

export interface RefCvtFormat {
  readonly name: RefCvtFormatName;
  readonly exponentBits: number;
  readonly fractionBits: number;
  /** Bits of the value (tf32: 19; e2m3: 6). */
  readonly totalBits: number;
  readonly specials: 'ieee' | 'nan-all-ones' | 'none' | 'ue8m0';
  readonly signed: boolean;
  /** The pattern of the largest finite value (MAX_NORM). */
  readonly maxPattern: bigint;
  /** NVIDIA's canonical NaN in this format, or null where the format has none. */
  readonly nanPattern: bigint | null;
}

function ieee(name: RefCvtFormatName, w: number, t: number): RefCvtFormat {
  const total = 1 + w + t;
  const infPattern = ((1n << BigInt(w)) - 1n) << BigInt(t);
  return {
    name,
    exponentBits: w,
    fractionBits: t,
    totalBits: total,
    specials: 'ieee',
    signed: true,
    maxPattern: infPattern - 1n,
    nanPattern: (1n << BigInt(total - 1)) - 1n,
  };
}

function noInfinity(name: RefCvtFormatName, w: number, t: number, nan: boolean): RefCvtFormat {
  const total = 1 + w + t;
  const allOnes = (1n << BigInt(total - 1)) - 1n;
  return {
    name,
    exponentBits: w,
    fractionBits: t,
    totalBits: total,
    specials: nan ? 'nan-all-ones' : 'none',
    signed: true,
    maxPattern: nan ? allOnes - 1n : allOnes,
    nanPattern: nan ? allOnes : null,
  };
}

export const REF_CVT_FORMATS: Record<RefCvtFormatName, RefCvtFormat> = {
  f16: ieee('f16', 5, 10),
  bf16: ieee('bf16', 8, 7),
  tf32: ieee('tf32', 8, 10),
  f32: ieee('f32', 8, 23),
  f64: ieee('f64', 11, 52),
  e5m2: ieee('e5m2', 5, 2),
  e4m3: noInfinity('e4m3', 4, 3, true),
  e2m3: noInfinity('e2m3', 2, 3, false),
  e3m2: noInfinity('e3m2', 3, 2, false),
  e2m1: noInfinity('e2m1', 2, 1, false),
  ue8m0: {
    name: 'ue8m0',
    exponentBits: 8,
    fractionBits: 0,
    totalBits: 8,
    specials: 'ue8m0',
    signed: false,
    maxPattern: 0xfen,
    nanPattern: 0xffn,
  },
  // "A 7-bit unsigned … 4 bits for exponent and 3 bits for mantissa", "does not support
  // infinity. NaN value is limited to 0x7f": e4m3 without its sign.
  ue4m3: {
    name: 'ue4m3',
    exponentBits: 4,
    fractionBits: 3,
    totalBits: 7,
    specials: 'nan-all-ones',
    signed: false,
    maxPattern: 0x7en,
    nanPattern: 0x7fn,
  },
};

/** A decoded pattern: NaN, a signed infinity, or a signed exact value (zero keeps its sign). */
export type RefCvtValue =
  | { readonly kind: 'nan' }
  | { readonly kind: 'inf'; readonly negative: boolean }
  | { readonly kind: 'finite'; readonly q: Rational; readonly negative: boolean };

function signBitOf(fmt: RefCvtFormat): bigint {
  return fmt.signed ? 1n << BigInt(fmt.totalBits - 1) : 0n;
}

const decodeCache = new Map<string, RefCvtValue[]>();

/** decodeCvt, remembered for the formats of 16 bits or fewer (a pure function of the pattern). */
export function decodeCvt(bits: bigint, fmt: RefCvtFormat): RefCvtValue {
  if (fmt.totalBits > 16) return decodeUncached(bits, fmt);
  let table = decodeCache.get(fmt.name);
  if (!table) decodeCache.set(fmt.name, (table = []));
  return (table[Number(bits)] ??= decodeUncached(bits, fmt));
}

function decodeUncached(bits: bigint, fmt: RefCvtFormat): RefCvtValue {
  if (fmt.specials === 'ue8m0') {
    if (bits === 0xffn) return { kind: 'nan' };
    return { kind: 'finite', q: pow2(Number(bits) - 127), negative: false };
  }
  const t = BigInt(fmt.fractionBits);
  const signBit = signBitOf(fmt);
  const negative = (bits & signBit) !== 0n;
  const magnitude = bits & (signBit - 1n);
  const fraction = magnitude & ((1n << t) - 1n);
  const exponent = Number(magnitude >> t);
  const maxExponent = 2 ** fmt.exponentBits - 1;
  if (fmt.specials === 'ieee' && exponent === maxExponent)
    return fraction === 0n ? { kind: 'inf', negative } : { kind: 'nan' };
  if (fmt.specials === 'nan-all-ones' && magnitude === fmt.maxPattern + 1n) return { kind: 'nan' };
  const bias = 2 ** (fmt.exponentBits - 1) - 1;
  const significand = exponent === 0 ? fraction : (1n << t) + fraction;
  const scale = (exponent === 0 ? 1 : exponent) - bias - fmt.fractionBits;
  const q = mul(rational(significand), pow2(scale));
  return { kind: 'finite', q: negative ? rational(-q.num, q.den) : q, negative };
}

/** The finite pattern at signed index i of the value order (index 0 is +0; -i is -value(i)). */
export function patternAt(index: bigint, fmt: RefCvtFormat): bigint {
  return index >= 0n ? index : signBitOf(fmt) - index;
}

export function valueAt(index: bigint, fmt: RefCvtFormat): Rational {
  const v = decodeCvt(patternAt(index, fmt), fmt);
  if (v.kind !== 'finite') throw new Error(`not finite at ${index}`);
  return v.q;
}

/** The largest index whose value is <= x, for x within ±MAX_NORM (and >= the least value). */
export function floorIndex(x: Rational, fmt: RefCvtFormat): bigint {
  let lo = fmt.signed ? -fmt.maxPattern : 0n;
  let hi = fmt.maxPattern;
  while (lo < hi) {
    const mid = lo + (hi - lo + 1n) / 2n;
    if (compare(valueAt(mid, fmt), x) <= 0) lo = mid;
    else hi = mid - 1n;
  }
  return lo;
}

/**
 * The value one step past MAX_NORM, as if the exponent range went on: MAX + ulp(MAX), or for
 * ue8m0 (powers of two) 2^128.
 */
export function pastMax(fmt: RefCvtFormat): Rational {
  if (fmt.specials === 'ue8m0') return pow2(128);
  const top = valueAt(fmt.maxPattern, fmt);
  const below = valueAt(fmt.maxPattern - 1n, fmt);
  return add(top, sub(top, below));
}
