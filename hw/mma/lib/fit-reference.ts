/**
 * A small, exact, parametrised reference of one mma output element, d = c + Σ a_i·b_i, written
 * from the published models' description (../shared/spec/beyond/tensor-cores.md) with every
 * choice those models vary as a parameter, so that hw/mma/fit.ts can ask which choices
 * reproduce a capture. Exact dyadic arithmetic on bigints; no engine code.
 *
 *   read:     each element as ±m·2^e; tf32: the register's low 13 bits truncated or rounded
 *             (RNE) away; subnormal inputs kept or flushed to a zero of their sign
 *   specials: any NaN, ∞ × 0, +∞ with −∞ → the canonical NaN; else an infinite term → it
 *   groups:   k in chained groups of `group` products: acc = c; acc = step(acc, group) …
 *   step:     terms: c (unless c is added afterwards) and each product, at its exponent
 *             (e_a + e_b of the significands, or floor(log2 |p|)); E = the largest;
 *             each term cut to n bits below 2^E (truncated, or rounded to nearest even, or
 *             truncated with a sticky bit); S = Σ cut terms, exact;
 *             c afterwards: S + c, exact;
 *             round S once to the step's format (RZ or RNE; an RZ overflow to the largest
 *             finite value or to ∞)
 *   zero:     an exact-zero S is +0, or −0 when every term is −0
 *   chain:    (alternative) d = c; d = fma(a_i, b_i, d) in f32 with RNE, in order; the last
 *             result rounded to f16 (RNE) for an f16 result
 */

export interface Dyadic {
  readonly neg: boolean;
  readonly m: bigint;
  readonly e: number;
}

export type Val =
  | { readonly kind: 'nan' }
  | { readonly kind: 'inf'; readonly neg: boolean }
  | { readonly kind: 'fin'; readonly x: Dyadic; readonly sexp: number };

export type FitFormat = 'f16' | 'bf16' | 'tf32' | 'f32' | 'e4m3' | 'e5m2';

interface FormatSpec {
  readonly expBits: number;
  readonly fracBits: number;
  readonly bias: number;
  /** e4m3: no infinity, only S.1111.111 is NaN. */
  readonly fn: boolean;
}

const SPECS: { readonly [F in FitFormat]: FormatSpec } = {
  f16: { expBits: 5, fracBits: 10, bias: 15, fn: false },
  bf16: { expBits: 8, fracBits: 7, bias: 127, fn: false },
  tf32: { expBits: 8, fracBits: 10, bias: 127, fn: false },
  f32: { expBits: 8, fracBits: 23, bias: 127, fn: false },
  e4m3: { expBits: 4, fracBits: 3, bias: 7, fn: true },
  e5m2: { expBits: 5, fracBits: 2, bias: 15, fn: false },
};

export function emin(f: FitFormat): number {
  return 1 - SPECS[f].bias;
}

export interface ReadOptions {
  /** tf32: the low 13 bits of the register truncated ('trunc') or rounded to nearest even. */
  readonly tf32: 'trunc' | 'rne';
  /** Subnormal inputs kept, or read as a zero of their sign. */
  readonly subnormals: 'keep' | 'flush';
}

/** The pattern of format f as a value (tf32: the .b32 register). */
export function decode(bits: number, f: FitFormat, opts: ReadOptions): Val {
  let pattern = bits >>> 0;
  if (f === 'tf32') {
    const low = pattern & 0x1fff;
    pattern >>>= 13;
    const exponentField = (pattern >>> 10) & 0xff;
    if (opts.tf32 === 'rne' && exponentField !== 0xff) {
      if (low > 0x1000 || (low === 0x1000 && (pattern & 1) === 1)) pattern += 1;
    }
  }
  const s = SPECS[f];
  const neg = ((pattern >>> (s.expBits + s.fracBits)) & 1) === 1;
  const field = (pattern >>> s.fracBits) & ((1 << s.expBits) - 1);
  const frac = pattern & ((1 << s.fracBits) - 1);
  const top = (1 << s.expBits) - 1;
  if (s.fn) {
    if (field === top && frac === (1 << s.fracBits) - 1) return { kind: 'nan' };
  } else if (field === top) return frac === 0 ? { kind: 'inf', neg } : { kind: 'nan' };
  const e0 = emin(f);
  if (field === 0) {
    if (frac === 0 || opts.subnormals === 'flush')
      return { kind: 'fin', x: { neg, m: 0n, e: 0 }, sexp: e0 };
    return { kind: 'fin', x: { neg, m: BigInt(frac), e: e0 - s.fracBits }, sexp: e0 };
  }
  const exp = field - s.bias;
  return {
    kind: 'fin',
    x: { neg, m: BigInt(frac + (1 << s.fracBits)), e: exp - s.fracBits },
    sexp: exp,
  };
}

function bitLength(m: bigint): number {
  return m === 0n ? 0 : m.toString(2).length;
}

/** floor(log2 |x|), x ≠ 0. */
function ilog2(x: Dyadic): number {
  return bitLength(x.m) - 1 + x.e;
}

function add(x: Dyadic, y: Dyadic): Dyadic {
  if (x.m === 0n) return y.m === 0n ? { neg: x.neg && y.neg, m: 0n, e: 0 } : y;
  if (y.m === 0n) return x;
  const e = Math.min(x.e, y.e);
  const sx = (x.neg ? -x.m : x.m) << BigInt(x.e - e);
  const sy = (y.neg ? -y.m : y.m) << BigInt(y.e - e);
  const s = sx + sy;
  return { neg: s < 0n, m: s < 0n ? -s : s, e };
}

const mul = (x: Dyadic, y: Dyadic): Dyadic => ({
  neg: x.neg !== y.neg,
  m: x.m * y.m,
  e: x.e + y.e,
});

/** Result formats a step rounds to. */
export interface RoundFormat {
  readonly fracBits: number;
  readonly emin: number;
  readonly emax: number;
  readonly width: 16 | 32;
  readonly expBits: number;
}

export const F32_OUT: RoundFormat = { fracBits: 23, emin: -126, emax: 127, width: 32, expBits: 8 };
export const F16_OUT: RoundFormat = { fracBits: 10, emin: -14, emax: 15, width: 16, expBits: 5 };

export type RoundMode = 'rz' | 'rne';

/** |x| rounded to an integer count of 2^q: RZ or RNE, with `sticky` saying bits below x are lost. */
function roundAt(m: bigint, e: number, q: number, mode: RoundMode, sticky = false): bigint {
  if (e >= q) return m << BigInt(e - q);
  const drop = BigInt(q - e);
  const kept = m >> drop;
  if (mode === 'rz') return kept;
  const rest = m - (kept << drop);
  const half = 1n << (drop - 1n);
  if (rest > half || (rest === half && (sticky || (kept & 1n) === 1n))) return kept + 1n;
  return kept;
}

/** x rounded to the format: its pattern. `overflow`: what an RZ overflow gives. */
export function roundTo(
  x: Dyadic,
  f: RoundFormat,
  mode: RoundMode,
  overflow: 'max' | 'inf',
  sticky = false,
): number {
  const sign = x.neg ? 2 ** (f.width - 1) : 0;
  const inf = (2 ** f.expBits - 1) * 2 ** f.fracBits;
  if (x.m === 0n) return sign;
  const exp = Math.max(ilog2(x), f.emin);
  const q = exp - f.fracBits;
  let sig = roundAt(x.m, x.e, q, mode, sticky);
  let e = exp;
  if (bitLength(sig) > f.fracBits + 1) {
    sig >>= 1n;
    e += 1;
  }
  if (e > f.emax) return sign + (mode === 'rne' || overflow === 'inf' ? inf : inf - 1);
  if (sig < 1n << BigInt(f.fracBits)) return sign + Number(sig); // subnormal (e = emin)
  return sign + (e - f.emin + 1) * 2 ** f.fracBits + Number(sig - (1n << BigInt(f.fracBits)));
}

export function decodeOut(bits: number, f: RoundFormat): Val {
  const neg = Math.floor(bits / 2 ** (f.width - 1)) % 2 === 1;
  const field = Math.floor(bits / 2 ** f.fracBits) % 2 ** f.expBits;
  const frac = bits % 2 ** f.fracBits;
  if (field === 2 ** f.expBits - 1) return frac === 0 ? { kind: 'inf', neg } : { kind: 'nan' };
  if (field === 0)
    return { kind: 'fin', x: { neg, m: BigInt(frac), e: f.emin - f.fracBits }, sexp: f.emin };
  const exp = field + f.emin - 1;
  return {
    kind: 'fin',
    x: { neg, m: BigInt(frac) + (1n << BigInt(f.fracBits)), e: exp - f.fracBits },
    sexp: exp,
  };
}

/**
 * An e4m3 / e5m2 pattern as the f16 pattern of the same value: exact, since every FP8 value is
 * an f16 value (an e4m3 subnormal an f16 normal); NaN gives f16's canonical NaN.
 */
export function asF16Pattern(bits: number, format: 'e4m3' | 'e5m2'): number {
  const v = decode(bits, format, { tf32: 'trunc', subnormals: 'keep' });
  if (v.kind === 'nan') return 0x7fff;
  if (v.kind === 'inf') return v.neg ? 0xfc00 : 0x7c00;
  return roundTo(v.x, F16_OUT, 'rne', 'inf');
}

export interface FitParams {
  /**
   * 'aligned': the published fused step; 'fma-chain': f32 FMAs in order from c;
   * 'product-chain': the products added in order in f32 (RNE) from +0, then c added (RNE);
   * 'pair-chain' (k = 4): s01 = p0 + p1, s23 = p2 + p3, d = (c + s01) + s23, each addition
   * in f32 (RNE), the last f32 rounded to the result format (RNE).
   */
  readonly kind: 'aligned' | 'fma-chain' | 'product-chain' | 'pair-chain';
  /** Fraction bits kept below 2^E. */
  readonly n: number;
  /** How a term is cut at 2^(E−n). */
  readonly cut: 'trunc' | 'rne' | 'sticky';
  /** Products per chained step (k: no split). */
  readonly group: number;
  /**
   * c among the aligned terms; or added exactly to the products' cut sum; or 'then-add': the
   * products alone as a fused step with c = +0, rounded to `inter` (format and mode), then c
   * added by an IEEE addition rounded to nearest even in the result format.
   */
  readonly c: 'aligned' | 'after' | 'then-add';
  readonly inter?: { readonly format: 'f16' | 'f32'; readonly mode: RoundMode };
  /** A product's exponent: e_a + e_b of the significands, or floor(log2 |a·b|). */
  readonly productExponent: 'sum' | 'normalised';
  /** The final rounding of an f32 / f16 result. */
  readonly f32: RoundMode;
  readonly f16: RoundMode;
  /** What an RZ overflow gives. */
  readonly overflow: 'max' | 'inf';
  /** f32 fraction bits of an f32 result (23, or 13 for "e8m13"). */
  readonly f32FracBits: number;
  /** An f16 result: rounded from the exact cut sum, or from the sum first rounded to f32 (mode f32). */
  readonly f16Via: 'direct' | 'f32';
  /** The sign of an exact-zero sum: always +0, or −0 when every term is −0. */
  readonly zero: '+0' | 'ieee';
  readonly read: ReadOptions;
  /**
   * Products added exactly in consecutive runs of this many before the alignment (1: none); a
   * run's sum is a term at floor(log2 |sum|).
   */
  readonly preSum?: number;
}

export interface FitForm {
  readonly a: FitFormat;
  readonly b: FitFormat;
  readonly c: 'f16' | 'f32';
  readonly d: 'f16' | 'f32';
}

const ZERO_EXPONENT = -126;

function canonicalNaN(d: 'f16' | 'f32'): number {
  return d === 'f16' ? 0x7fff : 0x7fffffff;
}

function infOf(d: 'f16' | 'f32', neg: boolean): number {
  return d === 'f16' ? (neg ? 0xfc00 : 0x7c00) : neg ? 0xff800000 : 0x7f800000;
}

type Special = { kind: 'nan' } | { kind: 'inf'; neg: boolean } | null;

function specials(c: Val, pairs: readonly (readonly [Val, Val])[]): Special {
  if (c.kind === 'nan' || pairs.some(([x, y]) => x.kind === 'nan' || y.kind === 'nan'))
    return { kind: 'nan' };
  const zero = (v: Val) => v.kind === 'fin' && v.x.m === 0n;
  if (pairs.some(([x, y]) => (x.kind === 'inf' && zero(y)) || (y.kind === 'inf' && zero(x))))
    return { kind: 'nan' };
  const signs: boolean[] = [];
  if (c.kind === 'inf') signs.push(c.neg);
  const negOf = (v: Val) => (v.kind === 'inf' ? v.neg : v.kind === 'fin' ? v.x.neg : false);
  for (const [x, y] of pairs)
    if (x.kind === 'inf' || y.kind === 'inf') signs.push(negOf(x) !== negOf(y));
  if (signs.length === 0) return null;
  if (signs.some((s) => s !== signs[0])) return { kind: 'nan' };
  return { kind: 'inf', neg: signs[0]! };
}

interface Term {
  readonly x: Dyadic;
  readonly exponent: number;
}

function cutTerm(t: Dyadic, q: number, cut: FitParams['cut']): Dyadic {
  if (t.m === 0n) return t;
  if (cut === 'sticky') {
    // n bits truncated, and one more bit below set when anything was cut.
    const kept = roundAt(t.m, t.e, q, 'rz');
    const lost = t.e < q && kept << BigInt(q - t.e) !== t.m;
    return { neg: t.neg, m: (kept << 1n) | (lost ? 1n : 0n), e: q - 1 };
  }
  return { neg: t.neg, m: roundAt(t.m, t.e, q, cut === 'trunc' ? 'rz' : 'rne'), e: q };
}

/** One fused step: acc + Σ products, rounded to `out`. */
function fusedStep(
  p: FitParams,
  acc: Val,
  pairs: readonly (readonly [Val, Val])[],
  outType: 'f16' | 'f32',
): Val | { bits: number } {
  const special = specials(acc, pairs);
  if (special)
    return { bits: special.kind === 'nan' ? canonicalNaN(outType) : infOf(outType, special.neg) };
  const finite = (v: Val) => v as Extract<Val, { kind: 'fin' }>;
  const products: Term[] = pairs.map(([x, y]) => {
    const fx = finite(x);
    const fy = finite(y);
    const v = mul(fx.x, fy.x);
    if (v.m === 0n) return { x: v, exponent: ZERO_EXPONENT };
    if (p.productExponent === 'normalised') return { x: v, exponent: ilog2(v) };
    return { x: v, exponent: fx.sexp + fy.sexp };
  });
  const runs = p.preSum ?? 1;
  if (runs > 1) {
    const summed: Term[] = [];
    for (let i = 0; i < products.length; i += runs) {
      let x: Dyadic = { neg: false, m: 0n, e: 0 };
      for (const t of products.slice(i, i + runs)) x = add(x, t.x);
      summed.push({ x, exponent: x.m === 0n ? ZERO_EXPONENT : ilog2(x) });
    }
    products.splice(0, products.length, ...summed);
  }
  const c = finite(acc);
  const cTerm: Term = { x: c.x, exponent: c.x.m === 0n ? ZERO_EXPONENT : c.sexp };
  const aligned = p.c === 'aligned' ? [cTerm, ...products] : products;
  const E = Math.max(...aligned.map((t) => t.exponent));
  const q = E - p.n;
  let sum: Dyadic = { neg: false, m: 0n, e: 0 };
  for (const t of aligned) {
    const cut = cutTerm(t.x, q, p.cut);
    sum = add(sum, cut);
  }
  if (p.c === 'after') sum = add(sum, c.x);
  const allTerms = [cTerm, ...products];
  const out = outType === 'f16' ? F16_OUT : { ...F32_OUT, fracBits: p.f32FracBits };
  if (sum.m === 0n) {
    const negZero = p.zero === 'ieee' && allTerms.every((t) => t.x.neg && t.x.m === 0n);
    return { bits: negZero ? 2 ** (out.width - 1) : 0 };
  }
  if (outType === 'f16' && p.f16Via === 'f32') {
    const viaBits = roundTo(sum, F32_OUT, p.f32, p.overflow);
    const via = decodeOut(viaBits, F32_OUT);
    if (via.kind !== 'fin')
      return { bits: via.kind === 'inf' ? infOf('f16', via.neg) : canonicalNaN('f16') };
    return { bits: roundTo(via.x, F16_OUT, p.f16, p.overflow) };
  }
  const mode = outType === 'f16' ? p.f16 : p.f32;
  const bits = roundTo(sum, out, mode, p.overflow);
  // e8m13: the pattern's 13 fraction bits are f32's top 13.
  return { bits: outType === 'f32' ? bits * 2 ** (23 - p.f32FracBits) : bits };
}

/** f32 FMA chain: d = c; d = fma(a_i, b_i, d), RNE; f16 result: the last f32 rounded to f16. */
function fmaChain(p: FitParams, f: FitForm, a: Val[], b: Val[], c: Val): number {
  let acc = c;
  for (let i = 0; i < a.length; i++) {
    const special = specials(acc, [[a[i]!, b[i]!]]);
    if (special) {
      acc = special.kind === 'nan' ? { kind: 'nan' } : { kind: 'inf', neg: special.neg };
      continue;
    }
    const fa = a[i] as Extract<Val, { kind: 'fin' }>;
    const fb = b[i] as Extract<Val, { kind: 'fin' }>;
    const fc = acc as Extract<Val, { kind: 'fin' }>;
    const prod = mul(fa.x, fb.x);
    const s = add(prod, fc.x);
    let bits: number;
    if (s.m === 0n) {
      bits = prod.m === 0n && fc.x.m === 0n && prod.neg && fc.x.neg ? 0x80000000 : 0;
    } else bits = roundTo(s, F32_OUT, 'rne', 'inf');
    acc = decodeOut(bits, F32_OUT);
  }
  if (f.d === 'f32') return encodeVal(acc, 'f32');
  if (acc.kind !== 'fin') return encodeVal(acc, 'f16');
  return roundTo(acc.x, F16_OUT, p.f16, 'inf');
}

function encodeVal(v: Val, d: 'f16' | 'f32'): number {
  if (v.kind === 'nan') return canonicalNaN(d);
  if (v.kind === 'inf') return infOf(d, v.neg);
  return roundTo(v.x, d === 'f16' ? F16_OUT : F32_OUT, 'rne', 'inf');
}

/** d's pattern for A's row, B's column (patterns; tf32 registers) and C's element. */
export function fitElement(
  p: FitParams,
  f: FitForm,
  aBits: readonly number[],
  bBits: readonly number[],
  cBits: number,
): number {
  const a = aBits.map((x) => decode(x, f.a, p.read));
  const b = bBits.map((x) => decode(x, f.b, p.read));
  const c = decode(cBits, f.c, { ...p.read, subnormals: 'keep' });
  if (p.kind === 'fma-chain') return fmaChain(p, f, a, b, c);
  if (p.kind === 'product-chain') return productChain(p, f, a, b, c);
  if (p.kind === 'pair-chain') return pairChain(f, a, b, c);
  const k = a.length;
  if (p.c === 'then-add') return thenAdd(p, f, a, b, c);
  let acc: Val = c;
  let bits = 0;
  for (let from = 0; from < k; from += p.group) {
    const pairs: [Val, Val][] = [];
    for (let i = from; i < Math.min(k, from + p.group); i++) pairs.push([a[i]!, b[i]!]);
    const r = fusedStep(p, acc, pairs, f.d);
    bits = (r as { bits: number }).bits;
    acc = decodeOut(bits, f.d === 'f16' ? F16_OUT : F32_OUT);
  }
  return bits;
}

/** The products as a fused step with c = +0, rounded to p.inter; then c added (IEEE, RNE). */
function thenAdd(p: FitParams, f: FitForm, a: Val[], b: Val[], c: Val): number {
  const inter = p.inter ?? { format: 'f32', mode: 'rne' };
  const stepParams: FitParams = {
    ...p,
    c: 'aligned',
    f32: inter.mode,
    f16: inter.mode,
    f32FracBits: 23,
    f16Via: 'direct',
  };
  const zero: Val = { kind: 'fin', x: { neg: false, m: 0n, e: 0 }, sexp: -126 };
  const pairs = a.map((x, i) => [x, b[i]!] as const);
  const r = fusedStep(stepParams, zero, pairs, inter.format) as { bits: number };
  const sumOfProducts = decodeOut(r.bits, inter.format === 'f16' ? F16_OUT : F32_OUT);
  const special = specials(c, [
    [sumOfProducts, { kind: 'fin', x: { neg: false, m: 1n, e: 0 }, sexp: 0 }],
  ]);
  if (special) return special.kind === 'nan' ? canonicalNaN(f.d) : infOf(f.d, special.neg);
  const x = (sumOfProducts as Extract<Val, { kind: 'fin' }>).x;
  const y = (c as Extract<Val, { kind: 'fin' }>).x;
  const s = add(x, y);
  const out = f.d === 'f16' ? F16_OUT : F32_OUT;
  if (s.m === 0n) return x.neg && y.neg && x.m === 0n && y.m === 0n ? 2 ** (out.width - 1) : 0;
  return roundTo(s, out, 'rne', 'inf');
}

/** acc = +0; acc = RNE_f32(acc + a_i·b_i) in order; d = acc + c (IEEE, RNE; f16: via f32 or direct). */
function productChain(p: FitParams, f: FitForm, a: Val[], b: Val[], c: Val): number {
  let acc: Val = { kind: 'fin', x: { neg: false, m: 0n, e: 0 }, sexp: -126 };
  for (let i = 0; i < a.length; i++) {
    const special = specials(acc, [[a[i]!, b[i]!]]);
    if (special) {
      acc = special.kind === 'nan' ? { kind: 'nan' } : { kind: 'inf', neg: special.neg };
      continue;
    }
    const prod = mul(
      (a[i] as Extract<Val, { kind: 'fin' }>).x,
      (b[i] as Extract<Val, { kind: 'fin' }>).x,
    );
    const x = (acc as Extract<Val, { kind: 'fin' }>).x;
    const s = add(prod, x);
    const bits =
      s.m === 0n
        ? prod.m === 0n && x.m === 0n && prod.neg && x.neg
          ? 0x80000000
          : 0
        : roundTo(s, F32_OUT, 'rne', 'inf');
    acc = decodeOut(bits, F32_OUT);
  }
  const one: Val = { kind: 'fin', x: { neg: false, m: 1n, e: 0 }, sexp: 0 };
  const special = specials(c, [[acc, one]]);
  if (special) return special.kind === 'nan' ? canonicalNaN(f.d) : infOf(f.d, special.neg);
  const x = (acc as Extract<Val, { kind: 'fin' }>).x;
  const y = (c as Extract<Val, { kind: 'fin' }>).x;
  const s = add(x, y);
  const out = f.d === 'f16' ? F16_OUT : F32_OUT;
  if (s.m === 0n) return x.neg && y.neg && x.m === 0n && y.m === 0n ? 2 ** (out.width - 1) : 0;
  if (f.d === 'f16' && p.f16Via === 'f32') {
    const via = decodeOut(roundTo(s, F32_OUT, 'rne', 'inf'), F32_OUT);
    if (via.kind !== 'fin') return encodeVal(via, 'f16');
    return roundTo(via.x, F16_OUT, 'rne', 'inf');
  }
  return roundTo(s, out, 'rne', 'inf');
}

/** IEEE addition in f32, RNE (x + (−x) = +0; −0 + −0 = −0). */
function addF32(x: Val, y: Val): Val {
  const one: Val = { kind: 'fin', x: { neg: false, m: 1n, e: 0 }, sexp: 0 };
  const special = specials(x, [[y, one]]);
  if (special) return special.kind === 'nan' ? { kind: 'nan' } : { kind: 'inf', neg: special.neg };
  const fx = (x as Extract<Val, { kind: 'fin' }>).x;
  const fy = (y as Extract<Val, { kind: 'fin' }>).x;
  const s = add(fx, fy);
  if (s.m === 0n)
    return decodeOut(fx.neg && fy.neg && fx.m === 0n && fy.m === 0n ? 0x80000000 : 0, F32_OUT);
  return decodeOut(roundTo(s, F32_OUT, 'rne', 'inf'), F32_OUT);
}

function productVal(x: Val, y: Val): Val {
  const special = specials({ kind: 'fin', x: { neg: false, m: 0n, e: 0 }, sexp: -126 }, [[x, y]]);
  if (special) return special.kind === 'nan' ? { kind: 'nan' } : { kind: 'inf', neg: special.neg };
  const v = mul((x as Extract<Val, { kind: 'fin' }>).x, (y as Extract<Val, { kind: 'fin' }>).x);
  return { kind: 'fin', x: v, sexp: 0 };
}

function pairChain(f: FitForm, a: Val[], b: Val[], c: Val): number {
  const p = a.map((x, i) => productVal(x, b[i]!));
  const s01 = addF32(p[0]!, p[1]!);
  const s23 = addF32(p[2]!, p[3]!);
  const d = addF32(addF32(c, s01), s23);
  if (d.kind !== 'fin' || f.d === 'f32') return encodeVal(d, f.d);
  return roundTo(d.x, F16_OUT, 'rne', 'inf');
}
