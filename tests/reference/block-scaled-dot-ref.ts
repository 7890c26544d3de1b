/**
 * The reference model of one block-scaled mma output element (9.7.14.3; the "Block scaling"
 * model of ../shared/spec/beyond/tensor-cores.md), written without the engine's code. Values are
 * exact rationals; exponents are found by comparing with powers of two; the one rounding (toward
 * zero to f32) is a search over f32's patterns (cvt-formats.ts).
 *
 *   a NaN scale or a NaN c → 0x7FFFFFFF; a NaN element, ∞ × 0, or +∞ and −∞ → 0x7FFFFFFF;
 *   otherwise an infinity → that infinity
 *   scale values: UE8M0 2^(bits − 127); UE4M3 the low 7 bits as unsigned e4m3
 *   mxf8f6f4 (k = 32, one scale each): terms c and a_i·b_i·SA·SB, the product at exponent
 *     e(a_i) + e(b_i) + log2 SA + log2 SB (e: floor(log2 |x|), at least the format's least
 *     normal exponent; a zero at −126); n = 25
 *   mxf4 / mxf4nvf4 (k = 64): G_j = Σ of 16 products, exact; terms c and G_j·SA·SB (the scales of
 *     the chunk holding group j), each at floor(log2 |t|) (a zero at −126); n = 35
 *   c at its f32 exponent (at least −126; a zero at −126)
 *   E = the largest exponent; each term truncated toward zero to a multiple of 2^(E − n); S their
 *   sum; d = S truncated to f32, the largest finite value past it; S = 0: −0 only when every term
 *   is a −0.
 */
import {
  decodeCvt,
  floorIndex,
  patternAt,
  REF_CVT_FORMATS,
  valueAt,
  type RefCvtValue,
} from './cvt-formats.ts';
import {
  abs,
  add,
  compare,
  floor,
  isZero,
  mul,
  pow2,
  rational,
  sign,
  ZERO,
  type Rational,
} from './rational.ts';

export interface RefBlockDotRequest {
  readonly kind: 'mxf8f6f4' | 'mxf4' | 'mxf4nvf4';
  readonly atype: 'e4m3' | 'e5m2' | 'e3m2' | 'e2m3' | 'e2m1';
  readonly btype: 'e4m3' | 'e5m2' | 'e3m2' | 'e2m3' | 'e2m1';
  readonly stype: 'ue8m0' | 'ue4m3';
  readonly a: readonly bigint[];
  readonly b: readonly bigint[];
  readonly c: bigint;
  readonly scaleA: readonly bigint[];
  readonly scaleB: readonly bigint[];
}

const NAN = 0x7fffffffn;
const F32 = REF_CVT_FORMATS.f32;

/** floor(log2 |x|) for x ≠ 0, by comparison with powers of two. */
function log2Floor(x: Rational): number {
  const m = abs(x);
  let e = 0;
  while (compare(m, pow2(e)) < 0) e--;
  while (compare(m, pow2(e + 1)) >= 0) e++;
  return e;
}

function leastNormalExponent(format: keyof typeof REF_CVT_FORMATS): number {
  return 2 - 2 ** (REF_CVT_FORMATS[format].exponentBits - 1);
}

function signed(v: RefCvtValue & { kind: 'finite' }): Rational {
  return v.q;
}

function truncateTo(x: Rational, quantum: Rational): Rational {
  const units = floor(mul(abs(x), rational(quantum.den, quantum.num)));
  const kept = mul(rational(units), quantum);
  return sign(x) < 0 ? rational(-kept.num, kept.den) : kept;
}

export function refBlockScaledDot(r: RefBlockDotRequest): bigint {
  const k = r.kind === 'mxf8f6f4' ? 32 : 64;
  const n = r.kind === 'mxf8f6f4' ? 25 : 35;
  const chunk = k / r.scaleA.length;
  const scale = (bits: bigint) =>
    r.stype === 'ue8m0'
      ? decodeCvt(bits, REF_CVT_FORMATS.ue8m0)
      : decodeCvt(bits & 0x7fn, REF_CVT_FORMATS.ue4m3);
  const sa = r.scaleA.map(scale);
  const sb = r.scaleB.map(scale);
  const c = decodeCvt(r.c, F32);
  if ([...sa, ...sb].some((v) => v.kind === 'nan') || c.kind === 'nan') return NAN;
  const a = r.a.map((x) => decodeCvt(x, REF_CVT_FORMATS[r.atype]));
  const b = r.b.map((x) => decodeCvt(x, REF_CVT_FORMATS[r.btype]));
  if ([...a, ...b].some((v) => v.kind === 'nan')) return NAN;

  // Infinities: c's and each product's with an infinite factor.
  const infinite: boolean[] = c.kind === 'inf' ? [c.negative] : [];
  for (let i = 0; i < k; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.kind !== 'inf' && y.kind !== 'inf') continue;
    if ((x.kind === 'finite' && isZero(x.q)) || (y.kind === 'finite' && isZero(y.q))) return NAN;
    infinite.push((x as { negative: boolean }).negative !== (y as { negative: boolean }).negative);
  }
  if (infinite.includes(true) && infinite.includes(false)) return NAN;
  if (infinite.length > 0) return infinite[0] ? 0xff800000n : 0x7f800000n;

  const fin = (v: RefCvtValue) => signed(v as RefCvtValue & { kind: 'finite' });
  const negZero = (v: RefCvtValue) => v.kind === 'finite' && isZero(v.q) && v.negative;
  // Each term: its value, exponent, and whether it is a −0.
  const terms: { value: Rational; exponent: number; negativeZero: boolean }[] = [];
  const cq = fin(c);
  terms.push({
    value: cq,
    exponent: isZero(cq) ? -126 : Math.max(log2Floor(cq), -126),
    negativeZero: negZero(c),
  });
  if (r.kind === 'mxf8f6f4') {
    const s = mul(fin(sa[0]!), fin(sb[0]!));
    for (let i = 0; i < k; i++) {
      const x = fin(a[i]!);
      const y = fin(b[i]!);
      const value = mul(mul(x, y), s);
      const zero = isZero(x) || isZero(y);
      terms.push({
        value,
        exponent: zero
          ? -126
          : Math.max(log2Floor(x), leastNormalExponent(r.atype)) +
            Math.max(log2Floor(y), leastNormalExponent(r.btype)) +
            log2Floor(s),
        negativeZero:
          zero &&
          (a[i] as { negative: boolean }).negative !== (b[i] as { negative: boolean }).negative,
      });
    }
  } else {
    for (let g = 0; g < k / 16; g++) {
      let sum = ZERO;
      let allNegativeZero = true;
      for (let i = g * 16; i < g * 16 + 16; i++) {
        sum = add(sum, mul(fin(a[i]!), fin(b[i]!)));
        const productNegative =
          (a[i] as { negative: boolean }).negative !== (b[i] as { negative: boolean }).negative;
        const productZero = isZero(fin(a[i]!)) || isZero(fin(b[i]!));
        if (!(productZero && productNegative)) allNegativeZero = false;
      }
      const j = Math.floor((g * 16) / chunk);
      const value = mul(sum, mul(fin(sa[j]!), fin(sb[j]!)));
      terms.push({
        value,
        exponent: isZero(value) ? -126 : log2Floor(value),
        negativeZero: isZero(value) && allNegativeZero,
      });
    }
  }
  const E = Math.max(...terms.map((t) => t.exponent));
  const quantum = pow2(E - n);
  const S = terms.reduce((s, t) => add(s, truncateTo(t.value, quantum)), ZERO);
  if (isZero(S)) return terms.every((t) => t.negativeZero) ? 0x80000000n : 0n;
  const negative = sign(S) < 0;
  const max = valueAt(F32.maxPattern, F32);
  const index = compare(abs(S), max) > 0 ? F32.maxPattern : floorIndex(abs(S), F32);
  return patternAt(negative ? -index : index, F32);
}
