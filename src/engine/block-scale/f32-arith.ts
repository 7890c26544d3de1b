/**
 * The binary32 arithmetic of the scale rules: `div.rn.f32`, `mul.rn.f32` and `copysign.f32`
 * (PTX ISA 9.7.3, floating-point instructions: "div.rnd.f32 … IEEE 754 compliant rounding";
 * without .ftz, subnormal inputs and results are kept, sm_20 and later). Each exact result is
 * rounded once by the one rounding routine (rounding.ts), to nearest even, a result past
 * MAX_NORM by nvidia-rules.ts's overflowResult:
 *
 *   div.rn.f32 d, a, b:   NaN operand, 0/0, ±inf/±inf   → NaN
 *                         ±inf / finite                → ±inf (sign: a's XOR b's)
 *                         finite / ±inf, ±0 / nonzero  → ±0
 *                         nonzero finite / ±0          → ±inf (IEEE 754 §7.3, division by zero)
 *                         otherwise                    → round(a / b), the exact rational
 *   mul.rn.f32 d, a, b:   NaN operand, ±0 × ±inf       → NaN
 *                         ±inf × nonzero               → ±inf
 *                         a zero product               → ±0 (sign: a's XOR b's)
 *                         otherwise                    → round(a × b), the exact dyadic
 *   copysign.f32 d, a, b: |b| with a's sign.
 *
 * A NaN result is the canonical NaN 0x7FFFFFFF (decision canonical-nan, nvidia-rules.ts). These
 * specials are IEEE 754's (§6.1, §6.2, §7.2, §7.3) as the instruction text promises; the block
 * rules only reach them where a block-scale decision says so (decisions.ts of this folder).
 */
import { exactValueOfDyadic, isZero, multiply, type Dyadic } from '../exact.ts';
import { FORMATS, valueOfBits } from '../format.ts';
import { canonicalNaN, exactZeroIsNegative, overflowResult } from '../nvidia-rules.ts';
import {
  dyadicMagnitude,
  rationalMagnitude,
  roundToFormat,
  type ExactMagnitude,
} from '../rounding.ts';
import type { ExactValue, Value } from '../value.ts';

const F32 = FORMATS.f32;
const SIGN = 0x80000000;
const INFINITY = 0x7f800000;

/** The result bits, and whether rounding changed the exact result (false for the specials). */
export interface F32Result {
  readonly bits: number;
  readonly inexact: boolean;
}

const special = (bits: number | bigint): F32Result => ({
  bits: Number(bits) >>> 0,
  inexact: false,
});
const signed = (negative: boolean, magnitude: number) => (negative ? SIGN + magnitude : magnitude);
const valueOf = (bits: number): Value => valueOfBits(BigInt(bits >>> 0), F32);

/** The exact nonzero result, rounded once to binary32 to nearest even. */
function roundRn(x: ExactMagnitude): F32Result {
  const r = roundToFormat(x, F32, 'rn');
  const bits = r.bits ?? overflowResult(F32, x.negative, r.awayFromZero).bits;
  return { bits: Number(bits) >>> 0, inexact: r.inexact };
}

/** `div.rn.f32 d, a, b` on binary32 bit patterns. */
export function divRnF32(a: number, b: number): F32Result {
  const x = valueOf(a);
  const y = valueOf(b);
  const negative = a >>> 31 !== b >>> 31;
  if (x.kind === 'nan' || y.kind === 'nan') return special(canonicalNaN(F32));
  if (x.kind === 'inf')
    return special(y.kind === 'inf' ? canonicalNaN(F32) : signed(negative, INFINITY));
  if (y.kind === 'inf') return special(signed(negative, 0));
  if (isZero(y.x)) return special(isZero(x.x) ? canonicalNaN(F32) : signed(negative, INFINITY));
  if (isZero(x.x)) return special(signed(negative, 0));
  // |a| / |b| = (ma · 2^ea) / (mb · 2^eb): the powers of two go to whichever side keeps them whole.
  const shift = x.x.exp - y.x.exp;
  const num = shift >= 0 ? x.x.mant << BigInt(shift) : x.x.mant;
  const den = shift >= 0 ? y.x.mant : y.x.mant << BigInt(-shift);
  return roundRn(rationalMagnitude(negative, num, den, () => fractionValue(negative, num, den)));
}

/** `mul.rn.f32 d, a, b` on binary32 bit patterns. */
export function mulRnF32(a: number, b: number): F32Result {
  const x = valueOf(a);
  const y = valueOf(b);
  const negative = a >>> 31 !== b >>> 31;
  if (x.kind === 'nan' || y.kind === 'nan') return special(canonicalNaN(F32));
  if (x.kind === 'inf' || y.kind === 'inf') {
    const other = x.kind === 'inf' ? y : x;
    if (other.kind === 'finite' && isZero(other.x)) return special(canonicalNaN(F32));
    return special(signed(negative, INFINITY));
  }
  const product: Dyadic = multiply(x.x, y.x);
  if (isZero(product)) return special(signed(exactZeroIsNegative({ of: 'product', negative }), 0));
  return roundRn(dyadicMagnitude(product));
}

/** `copysign.f32 d, a, b`: b's magnitude with a's sign. */
export function copysignF32(a: number, b: number): number {
  return ((a & SIGN) | (b & ~SIGN)) >>> 0;
}

/** 2^k as binary32 bits, for k in [-149, 127] (below -126 a subnormal). */
export function powerOfTwoF32(k: number): number {
  if (!Number.isInteger(k) || k < -149 || k > 127) throw new RangeError(`2^${k} is no binary32`);
  return (k >= -126 ? (k + 127) * 2 ** 23 : 2 ** (k + 149)) >>> 0;
}

/**
 * The exact quotient num/den as ExactValue's texts (a quotient need not be dyadic: its decimal
 * expansion may not end, so every field holds the reduced fraction).
 */
function fractionValue(negative: boolean, num: bigint, den: bigint): ExactValue {
  let [p, q] = [num, den];
  while (q !== 0n) [p, q] = [q, p % q];
  const text = `${negative ? '-' : ''}${num / p}/${den / p}`;
  if (den / p === 1n) return exactValueOfDyadic({ negative, mant: num / p, exp: 0 });
  return { kind: 'finite', negative, decimal: text, binary: text, rational: text };
}
