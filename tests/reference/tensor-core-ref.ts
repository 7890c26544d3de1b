/**
 * The reference model of one mma / wgmma output element, d = c + Σ a_i·b_i, written from the
 * model descriptions of ../shared/spec/beyond/tensor-cores.md (Fasi et al. 2021; MMA-Sim, Xie et
 * al. 2025; Khattak & Mikaitis 2025) and the mma decisions of src/engine/decisions.ts, without
 * the engine's code. Deliberately simple: values are exact rationals, exponents are found by
 * comparing with powers of two, every rounding is a neighbour search over the result format's
 * patterns (cvt-formats.ts), and the architectures' parameters are this file's own table.
 *
 *   specials: a NaN operand, a product ∞ × 0, or +∞ and −∞ among the terms → canonical NaN;
 *             otherwise an infinite term → that infinity
 *   terms:    c = s·2^e in its format (1 ≤ s < 2, or s < 1 at the least exponent), each product
 *             (s_a·s_b)·2^(e_a+e_b) exactly; a zero at 2^-126
 *   E = the largest exponent; each term truncated toward zero to a multiple of 2^(E−n)
 *   S = the exact sum of the truncated terms; d = S rounded once: f32 toward zero (23 fraction
 *   bits, 13 for FP8 on Ada mma and Hopper wgmma), f16 to nearest even
 *   S = 0: −0 when every term is a −0, else +0
 *   measured on an H200 (hw/captures/sm_90/h200/mma), Hopper mma except m8n8k4 (f16, k = 4)
 *   and FP8: S = 0 gives +0 always, and an f32 result past the largest finite value is ±∞
 *   Ampere, Ada: k split in halves, the first half's d is the second half's c
 *   f64: d = c, then d = fma(a_i, b_i, d) for each i, rounded in the instruction's mode
 *   measured on an H200, Hopper mma m8n8k4 (f16 inputs) is a sequence of f32 additions, each
 *   exact then rounded to nearest even (p_i = a_i·b_i exactly): an .f32 result
 *   ((((+0 + p0) + p1) + p2) + p3) + c; an .f16 result (c + (p0 + p1)) + (p2 + p3), then
 *   rounded to f16 to nearest even; NaN, ∞ and zero signs as IEEE 754 adds in round to nearest
 *
 * Each step also says what decided it (the specials' reason and elements) and its parameters,
 * for the trace checker (trace-model-matrix.ts).
 */
import {
  decodeCvt,
  floorIndex,
  REF_CVT_FORMATS,
  valueAt,
  type RefCvtFormat,
  type RefCvtFormatName,
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
  sub,
  ZERO,
  type Rational,
} from './rational.ts';

export type RefArchitecture =
  'volta' | 'turing' | 'ampere' | 'ada' | 'hopper' | 'blackwell' | 'rtx-blackwell';
export type RefInput = 'f16' | 'bf16' | 'tf32' | 'f64' | 'e4m3' | 'e5m2' | 'e3m2' | 'e2m3' | 'e2m1';
export type RefAccumulator = 'f16' | 'f32' | 'f64';
export type RefMode = 'rn' | 'rz' | 'rm' | 'rp';

export interface RefSetup {
  readonly architecture: RefArchitecture;
  readonly instruction: 'mma' | 'wgmma';
  readonly atype: RefInput;
  readonly btype: RefInput;
  readonly ctype: RefAccumulator;
  readonly dtype: RefAccumulator;
  /** f64: the rounding mode of the chain (default rn). */
  readonly mode?: RefMode;
}

/** tensor-cores.md's table: the architecture of each target. */
const TARGET_ARCHITECTURE: readonly (readonly [RefArchitecture, readonly string[]])[] = [
  ['volta', ['sm_70', 'sm_72']],
  ['turing', ['sm_75']],
  ['ampere', ['sm_80', 'sm_86', 'sm_87']],
  ['ada', ['sm_89']],
  ['hopper', ['sm_90', 'sm_90a']],
  [
    'blackwell',
    ['100', '101', '103', '110'].flatMap((n) => ['', 'a', 'f'].map((v) => `sm_${n}${v}`)),
  ],
  ['rtx-blackwell', ['120', '121'].flatMap((n) => ['', 'a', 'f'].map((v) => `sm_${n}${v}`))],
];

/** The architecture of a target, or null where the table names none. */
export function refArchitectureOf(target: string): RefArchitecture | null {
  return TARGET_ARCHITECTURE.find(([, targets]) => targets.includes(target))?.[0] ?? null;
}

/** tensor-cores.md's table. */
const N: Record<RefArchitecture, number> = {
  volta: 23,
  turing: 24,
  ampere: 24,
  ada: 24,
  hopper: 25,
  blackwell: 25,
  'rtx-blackwell': 25,
};

const isFp8 = (t: RefInput) => t === 'e4m3' || t === 'e5m2';

/**
 * The measured rules (+0 for a zero sum, ±∞ past the f32 range) hold for Hopper wgmma (an H100)
 * and Hopper mma (an H200), except mma's m8n8k4 and FP8 forms, which the GPU computes otherwise
 * and keep the model.
 */
export function hopperMeasured(s: RefSetup, k: number): boolean {
  if (s.architecture !== 'hopper') return false;
  if (s.instruction === 'wgmma') return true;
  if (isFp8(s.atype) && isFp8(s.btype)) return false;
  return !(s.atype === 'f16' && k === 4);
}

/** The sequence an H200 was measured to compute: Hopper mma m8n8k4 with f16 inputs. */
export function refSequenceOf(s: RefSetup, k: number): RefSequence | null {
  if (s.architecture !== 'hopper' || s.instruction !== 'mma') return null;
  if (s.atype !== 'f16' || k !== 4) return null;
  return s.dtype === 'f16' ? 'pairs-then-c' : 'products-then-c';
}

/** "FP8 inputs keep only n = 13 and an f32 result keeps only 13 fraction bits". */
function fp8Reduced(s: RefSetup): boolean {
  if (!isFp8(s.atype) || !isFp8(s.btype)) return false;
  return (
    (s.architecture === 'ada' && s.instruction === 'mma') ||
    (s.architecture === 'hopper' && s.instruction === 'wgmma')
  );
}

/** Ampere and Ada: f16/bf16 k = 16, tf32 k = 8, and on Ada fp8 k = 32, in two halves. */
function splits(s: RefSetup, k: number): boolean {
  if (s.architecture !== 'ampere' && s.architecture !== 'ada') return false;
  const half = (t: RefInput) => t === 'f16' || t === 'bf16';
  if (half(s.atype) && half(s.btype)) return k === 16;
  if (s.atype === 'tf32' && s.btype === 'tf32') return k === 8;
  if (s.architecture === 'ada' && isFp8(s.atype) && isFp8(s.btype)) return k === 32;
  return false;
}

export interface RefTerm {
  readonly value: Rational;
  /** A zero term whose sign is negative (c = −0, or a product of factors of opposite signs). */
  readonly negativeZero: boolean;
  readonly significand: Rational;
  readonly exponent: number;
  readonly kept: Rational;
  readonly cut: Rational;
}

/** Where an element comes from: A's row, B's column, or C. */
export interface RefElementRef {
  readonly operand: 'a' | 'b' | 'c';
  readonly index: number;
}

/**
 * Why the specials decided, the first that applies: a NaN operand, ∞ × 0, +∞ and −∞ together,
 * an infinite term; with the elements behind it (every NaN, each ∞ × 0 pair, every infinite
 * term: c, then a_i, b_i in order).
 */
export interface RefSpecial {
  readonly reason: 'nan-operand' | 'infinity-times-zero' | 'opposite-infinities' | 'infinite-term';
  readonly elements: readonly RefElementRef[];
}

/** The model's parameters for a setup and k (tensor-cores.md's table). */
export interface RefPlan {
  /** Fractional bits kept relative to 2^E. */
  readonly n: number;
  readonly halves: boolean;
  /** Fraction bits the final rounding keeps (f16 10, f32 23 or 13). */
  readonly fractionBits: number;
  readonly mode: 'rn' | 'rz';
}

export interface RefStep {
  /** The products it adds: a_from … a_to. */
  readonly from: number;
  readonly to: number;
  /** Its c: a pattern of the format named. */
  readonly c: bigint;
  readonly cFormat: RefAccumulator;
  /** null when the specials decided. */
  readonly special: 'nan' | 'inf' | null;
  readonly why: RefSpecial | null;
  readonly E: number | null;
  readonly terms: readonly RefTerm[];
  readonly keptSum: Rational | null;
  readonly exactSum: Rational | null;
  /** The step's result pattern (in d's format). */
  readonly d: bigint;
  /** One ulp of the result's precision at d: 2^ulpExponent (an infinity: at the largest finite). */
  readonly ulpExponent: number;
}

export interface RefLink {
  readonly special: 'nan' | 'inf' | null;
  readonly why: RefSpecial | null;
  /** a·b + acc exactly, or null. */
  readonly exact: Rational | null;
  readonly d: bigint;
}

/** A term of a measured sequence's addition. */
export type RefOperand =
  | { readonly source: 'product'; readonly index: number }
  | { readonly source: 'c' }
  | { readonly source: 'zero' }
  | { readonly source: 'sum'; readonly index: number };

/** One addition of a measured sequence: x + y in f32, rounded to nearest even. */
export interface RefAdd {
  readonly terms: readonly [RefOperand, RefOperand];
  /** The terms' values: a product exactly, c as its format holds it, a sum as its f32 pattern. */
  readonly values: readonly [RefCvtValue, RefCvtValue];
  /** What decided a special result (null: the exact value did). */
  readonly why:
    'nan-operand' | 'infinity-times-zero' | 'opposite-infinities' | 'infinite-term' | null;
  /** x + y exactly, or null. */
  readonly exact: Rational | null;
  /** The f32 pattern. */
  readonly d: bigint;
}

export type RefSequence = 'products-then-c' | 'pairs-then-c';

export interface RefResult {
  readonly d: bigint;
  readonly steps: readonly RefStep[];
  readonly links: readonly RefLink[];
  /** A measured sequence's additions, in order (empty otherwise). */
  readonly adds: readonly RefAdd[];
  /** An .f16 sequence result: the last f32 sum, which is rounded to f16 (null otherwise). */
  readonly last: bigint | null;
}

// --- Values ---------------------------------------------------------------------------------

interface Val {
  readonly v: RefCvtValue;
  readonly format: RefCvtFormatName;
}

function read(bits: bigint, format: RefInput | RefAccumulator): Val {
  // tf32: the .b32 register with its low 13 bits ignored.
  const own = format === 'tf32' ? bits >> 13n : bits;
  return { v: decodeCvt(own, REF_CVT_FORMATS[format]), format };
}

/** The least exponent of a format: 1 − bias. */
function leastExponent(format: RefCvtFormatName): number {
  return 2 - 2 ** (REF_CVT_FORMATS[format].exponentBits - 1);
}

/** floor(log2 |x|) for x ≠ 0, by comparing with powers of two. */
function log2Floor(x: Rational): number {
  const m = abs(x);
  let e = 0;
  while (compare(m, pow2(e)) < 0) e--;
  while (compare(m, pow2(e + 1)) >= 0) e++;
  return e;
}

const ZERO_EXPONENT = -126;

function exponentOf(x: Rational, format: RefCvtFormatName): number {
  return isZero(x) ? ZERO_EXPONENT : Math.max(log2Floor(x), leastExponent(format));
}

const isNegative = (v: RefCvtValue) => v.kind !== 'nan' && v.negative;

// --- Rounding by neighbour search -------------------------------------------------------------

const F = REF_CVT_FORMATS;

function signBit(fmt: RefCvtFormat): bigint {
  return 1n << BigInt(fmt.totalBits - 1);
}

function infinityOf(negative: boolean, fmt: RefCvtFormat): bigint {
  return (negative ? signBit(fmt) : 0n) | (fmt.maxPattern + 1n);
}

/** The pattern of |x| rounded toward zero or to nearest even (x ≠ 0), with x's sign. */
function roundTo(
  x: Rational,
  fmt: RefCvtFormat,
  magnitudeMode: 'rz' | 'rn' | 'away',
  keep = 0,
): bigint {
  const negative = sign(x) < 0;
  const m = abs(x);
  const s = negative ? signBit(fmt) : 0n;
  const max = valueAt(fmt.maxPattern, fmt);
  // The value grid: patterns whose low `keep` bits are zero (e8m13 inside f32).
  const step = 1n << BigInt(keep);
  const maxIndex = (fmt.maxPattern / step) * step;
  const grid = (i: bigint) => (i / step) * step;
  if (compare(m, valueAt(maxIndex, fmt)) > 0) {
    if (magnitudeMode === 'rz') return s | maxIndex;
    if (magnitudeMode === 'away') return infinityOf(negative, fmt);
    // Nearest: past max + half an ulp of max, infinity.
    const ulp = sub(max, valueAt(fmt.maxPattern - 1n, fmt));
    const threshold = add(max, mul(ulp, rational(1n, 2n)));
    return compare(m, threshold) >= 0 ? infinityOf(negative, fmt) : s | fmt.maxPattern;
  }
  const lower = grid(floorIndex(m, fmt));
  if (compare(valueAt(lower, fmt), m) === 0 || magnitudeMode === 'rz') return s | lower;
  const upper = lower + step;
  if (magnitudeMode === 'away')
    return upper > fmt.maxPattern ? infinityOf(negative, fmt) : s | upper;
  const below = sub(m, valueAt(lower, fmt));
  const above = sub(upper > fmt.maxPattern ? pastMaxValue(fmt) : valueAt(upper, fmt), m);
  const c = compare(below, above);
  const up = c > 0 || (c === 0 && (lower / step) % 2n === 1n);
  if (!up) return s | lower;
  return upper > fmt.maxPattern ? infinityOf(negative, fmt) : s | upper;
}

/** The value one step past the largest finite value, as though the exponent range went on. */
function pastMaxValue(fmt: RefCvtFormat): Rational {
  const max = valueAt(fmt.maxPattern, fmt);
  return add(max, sub(max, valueAt(fmt.maxPattern - 1n, fmt)));
}

function zeroOf(negative: boolean, fmt: RefCvtFormat): bigint {
  return negative ? signBit(fmt) : 0n;
}

// --- The model --------------------------------------------------------------------------------

function specialOf(
  c: Val,
  pairs: readonly (readonly [Val, Val])[],
  from: number,
): { nan: boolean; inf: null | boolean; why: RefSpecial | null } {
  const refs = (i: number): RefElementRef[] => [
    { operand: 'a', index: from + i },
    { operand: 'b', index: from + i },
  ];
  const cRef: RefElementRef = { operand: 'c', index: 0 };
  const nans: RefElementRef[] = [];
  if (c.v.kind === 'nan') nans.push(cRef);
  pairs.forEach(([x, y], i) => {
    if (x.v.kind === 'nan') nans.push(refs(i)[0]!);
    if (y.v.kind === 'nan') nans.push(refs(i)[1]!);
  });
  if (nans.length > 0)
    return { nan: true, inf: null, why: { reason: 'nan-operand', elements: nans } };
  const zero = (x: Val) => x.v.kind === 'finite' && isZero(x.v.q);
  const infZero = pairs.flatMap(([x, y], i) =>
    (x.v.kind === 'inf' && zero(y)) || (y.v.kind === 'inf' && zero(x)) ? refs(i) : [],
  );
  if (infZero.length > 0)
    return { nan: true, inf: null, why: { reason: 'infinity-times-zero', elements: infZero } };
  const infinite: { refs: RefElementRef[]; negative: boolean }[] = [];
  if (c.v.kind === 'inf') infinite.push({ refs: [cRef], negative: c.v.negative });
  pairs.forEach(([x, y], i) => {
    if (x.v.kind === 'inf' || y.v.kind === 'inf')
      infinite.push({ refs: refs(i), negative: isNegative(x.v) !== isNegative(y.v) });
  });
  if (infinite.length === 0) return { nan: false, inf: null, why: null };
  const elements = infinite.flatMap((t) => t.refs);
  const signs = new Set(infinite.map((t) => t.negative));
  if (signs.size === 2)
    return { nan: true, inf: null, why: { reason: 'opposite-infinities', elements } };
  return { nan: false, inf: [...signs][0]!, why: { reason: 'infinite-term', elements } };
}

const valueOf = (x: Val): Rational => (x.v.kind === 'finite' ? x.v.q : ZERO);

function fusedStep(
  setup: RefSetup,
  c: Val,
  cBits: bigint,
  pairs: readonly (readonly [Val, Val])[],
  from: number,
  measured = false,
): RefStep {
  const dFmt = F[setup.dtype];
  const special = specialOf(c, pairs, from);
  const decided = {
    from,
    to: from + pairs.length - 1,
    c: cBits,
    cFormat: c.format as RefAccumulator,
    why: special.why,
    E: null,
    terms: [],
    keptSum: null,
    exactSum: null,
    ulpExponent: 0,
  };
  if (special.nan) return { ...decided, special: 'nan', d: dFmt.nanPattern! };
  if (special.inf !== null) return { ...decided, special: 'inf', d: infinityOf(special.inf, dFmt) };
  const raw = [
    {
      value: valueOf(c),
      negativeZero: isNegative(c.v),
      exponent: exponentOf(valueOf(c), c.format),
    },
    ...pairs.map(([x, y]) => {
      const value = mul(valueOf(x), valueOf(y));
      const exponent = isZero(value)
        ? ZERO_EXPONENT
        : exponentOf(valueOf(x), x.format) + exponentOf(valueOf(y), y.format);
      return { value, negativeZero: isNegative(x.v) !== isNegative(y.v), exponent };
    }),
  ];
  const E = Math.max(...raw.map((t) => t.exponent));
  const n = fp8Reduced(setup) ? 13 : N[setup.architecture];
  const quantum = pow2(E - n);
  const terms: RefTerm[] = raw.map((t) => {
    // Truncation toward zero: floor of the magnitude.
    const units = floor(abs(mul(t.value, pow2(n - E))));
    const kept = mul(rational(sign(t.value) < 0 ? -units : units), quantum);
    return {
      value: t.value,
      negativeZero: isZero(t.value) && t.negativeZero,
      significand: abs(mul(t.value, pow2(-t.exponent))),
      exponent: t.exponent,
      kept,
      cut: sub(t.value, kept),
    };
  });
  const keptSum = terms.reduce((s, t) => add(s, t.kept), ZERO);
  const exactSum = terms.reduce((s, t) => add(s, t.value), ZERO);
  let d: bigint;
  if (isZero(keptSum)) {
    const allNegativeZeros = !measured && raw.every((t) => isZero(t.value) && t.negativeZero);
    d = zeroOf(allNegativeZeros, dFmt);
  } else if (setup.dtype === 'f16') {
    d = roundTo(keptSum, F.f16, 'rn');
  } else if (measured && compare(abs(keptSum), pow2(128)) >= 0) {
    // Past MAX_NORM by a whole ulp, where a rounding overflows (below it truncation gives MAX_NORM).
    d = infinityOf(sign(keptSum) < 0, F.f32);
  } else {
    d = roundTo(keptSum, F.f32, 'rz', fp8Reduced(setup) ? 10 : 0);
  }
  // The result's precision: f16 10 fraction bits, f32 23 (13 where FP8 keeps 13).
  const precision = setup.dtype === 'f16' ? 10 : fp8Reduced(setup) ? 13 : 23;
  const least = leastExponent(setup.dtype);
  const largest = 2 ** (dFmt.exponentBits - 1) - 1;
  const dv = decodeCvt(d, dFmt);
  const at =
    dv.kind !== 'finite' ? largest : isZero(dv.q) ? least : Math.max(log2Floor(dv.q), least);
  return {
    ...decided,
    special: null,
    E,
    terms,
    keptSum,
    exactSum,
    d,
    ulpExponent: at - precision,
  };
}

function fmaLink(
  a: Val,
  b: Val,
  acc: Val,
  mode: RefMode,
  index: number,
  format: 'f32' | 'f64' = 'f64',
): RefLink {
  const f = F[format];
  const special = specialOf(acc, [[a, b]], index);
  const why = special.why;
  if (special.nan) return { special: 'nan', why, exact: null, d: f.nanPattern! };
  if (special.inf !== null)
    return { special: 'inf', why, exact: null, d: infinityOf(special.inf, f) };
  const product = mul(valueOf(a), valueOf(b));
  const exact = add(product, valueOf(acc));
  if (isZero(exact)) {
    const productNegative = isNegative(a.v) !== isNegative(b.v);
    const bothZero = isZero(product) && isZero(valueOf(acc));
    const negative =
      bothZero && productNegative === isNegative(acc.v) ? productNegative : mode === 'rm';
    return { special: null, why: null, exact, d: zeroOf(negative, f) };
  }
  const negative = sign(exact) < 0;
  const away = (mode === 'rp' && !negative) || (mode === 'rm' && negative);
  const magnitudeMode = mode === 'rn' ? 'rn' : away ? 'away' : 'rz';
  return { special: null, why: null, exact, d: roundTo(exact, f, magnitudeMode) };
}

/** One term of an addition: its value, and whether a NaN among the inputs behind it made it. */
interface SeqTerm {
  readonly operand: RefOperand;
  readonly value: RefCvtValue;
  readonly fromNaN: boolean;
}

/** x·y exactly as a value: NaN for a NaN or ∞ × 0, ±∞ for an infinite factor. */
function productValue(x: Val, y: Val): RefCvtValue {
  if (x.v.kind === 'nan' || y.v.kind === 'nan') return { kind: 'nan' };
  const negative = isNegative(x.v) !== isNegative(y.v);
  if (x.v.kind === 'inf' || y.v.kind === 'inf') {
    const zero = (v: RefCvtValue) => v.kind === 'finite' && isZero(v.q);
    if (zero(x.v) || zero(y.v)) return { kind: 'nan' };
    return { kind: 'inf', negative };
  }
  return { kind: 'finite', q: mul(valueOf(x), valueOf(y)), negative };
}

/** x + y in f32, IEEE 754 in round to nearest even. */
function addF32(x: SeqTerm, y: SeqTerm): Omit<RefAdd, 'terms'> {
  const values = [x.value, y.value] as const;
  const f = F.f32;
  if (x.fromNaN || y.fromNaN) return { values, why: 'nan-operand', exact: null, d: f.nanPattern! };
  if (x.value.kind === 'nan' || y.value.kind === 'nan')
    return { values, why: 'infinity-times-zero', exact: null, d: f.nanPattern! };
  const infinities = values.flatMap((v) => (v.kind === 'inf' ? [v.negative] : []));
  if (infinities.length === 2 && infinities[0] !== infinities[1])
    return { values, why: 'opposite-infinities', exact: null, d: f.nanPattern! };
  if (infinities.length > 0)
    return { values, why: 'infinite-term', exact: null, d: infinityOf(infinities[0]!, f) };
  const [qx, qy] = values.map((v) => (v.kind === 'finite' ? v.q : ZERO));
  const exact = add(qx!, qy!);
  if (isZero(exact)) {
    const bothNegativeZeros = values.every((v) => v.kind === 'finite' && isZero(v.q) && v.negative);
    return { values, why: null, exact, d: zeroOf(bothNegativeZeros, f) };
  }
  return { values, why: null, exact, d: roundTo(exact, f, 'rn') };
}

/** A measured sequence's additions and d (see the top). */
function refSequence(
  kind: RefSequence,
  as: readonly Val[],
  bs: readonly Val[],
  cv: Val,
  dtype: RefAccumulator,
): RefResult {
  const adds: RefAdd[] = [];
  const product = (i: number): SeqTerm => ({
    operand: { source: 'product', index: i },
    value: productValue(as[i]!, bs[i]!),
    fromNaN: as[i]!.v.kind === 'nan' || bs[i]!.v.kind === 'nan',
  });
  const c: SeqTerm = { operand: { source: 'c' }, value: cv.v, fromNaN: cv.v.kind === 'nan' };
  const plus = (x: SeqTerm, y: SeqTerm): SeqTerm => {
    const r = addF32(x, y);
    adds.push({ terms: [x.operand, y.operand], ...r });
    const value = decodeCvt(r.d, F.f32);
    return {
      operand: { source: 'sum', index: adds.length - 1 },
      value,
      fromNaN: value.kind === 'nan',
    };
  };
  if (kind === 'products-then-c') {
    let acc: SeqTerm = {
      operand: { source: 'zero' },
      value: { kind: 'finite', q: ZERO, negative: false },
      fromNaN: false,
    };
    for (let i = 0; i < as.length; i++) acc = plus(acc, product(i));
    plus(acc, c);
    return { d: adds[adds.length - 1]!.d, steps: [], links: [], adds, last: null };
  }
  const s01 = plus(product(0), product(1));
  const s23 = plus(product(2), product(3));
  const u = plus(plus(c, s01), s23);
  const last = adds[adds.length - 1]!.d;
  const v = u.value;
  const f16 = F[dtype];
  const d =
    v.kind === 'nan'
      ? f16.nanPattern!
      : v.kind === 'inf'
        ? infinityOf(v.negative, f16)
        : isZero(v.q)
          ? zeroOf(v.negative, f16)
          : roundTo(v.q, f16, 'rn');
  return { d, steps: [], links: [], adds, last };
}

/**
 * A CUDA-core loop in f32 or f64: acc = c, then acc = fma.rn(a_i, b_i, acc) for each i in order,
 * each the exact a_i·b_i + acc rounded once to nearest even (NaN for a NaN, ∞ × 0 or ∞ − ∞, an
 * exact zero +0 unless both terms are −0). Elements read as the tensor core reads them (tf32's
 * low 13 bits ignored); null where an element is not exact in the chain's format (f64 in f32).
 * Its result pattern, and each link's.
 */
/** A block-scaled form's scale bytes (UE8M0, or UE4M3 read without its sign bit), one per chunk. */
export interface RefChainScales {
  readonly stype: 'ue8m0' | 'ue4m3';
  readonly chunk: number;
  readonly a: readonly bigint[];
  readonly b: readonly bigint[];
}

export function refCudaCoreChain(
  setup: Pick<RefSetup, 'atype' | 'btype' | 'ctype'>,
  a: readonly bigint[],
  b: readonly bigint[],
  c: bigint,
  format: 'f32' | 'f64',
  scales?: RefChainScales,
): { d: bigint; links: bigint[] } | null {
  if (format === 'f32' && (setup.atype === 'f64' || setup.ctype === 'f64')) return null;
  let acc: Val = { ...read(c, setup.ctype), format };
  const links: bigint[] = [];
  // A block-scaled loop's operands: x · its chunk's scale, rounded to nearest even into the
  // chain's format — an fma with −0 for acc, which keeps a zero product's sign.
  const minusZero: Val = { v: decodeCvt(1n << BigInt(F[format].totalBits - 1), F[format]), format };
  const scaled = (x: Val, scale: bigint | undefined, i: number): Val => {
    if (!scales || scale === undefined) return x;
    const s: Val =
      scales.stype === 'ue8m0'
        ? { v: decodeCvt(scale, F.ue8m0), format: 'ue8m0' }
        : { v: decodeCvt(scale & 0x7fn, F.e4m3), format: 'e4m3' };
    return { v: decodeCvt(fmaLink(x, s, minusZero, 'rn', i, format).d, F[format]), format };
  };
  for (let i = 0; i < a.length; i++) {
    const chunk = scales ? Math.floor(i / scales.chunk) : 0;
    const ai = scaled(read(a[i]!, setup.atype), scales?.a[chunk], i);
    const bi = scaled(read(b[i]!, setup.btype), scales?.b[chunk], i);
    const link = fmaLink(ai, bi, acc, 'rn', i, format);
    links.push(link.d);
    acc = { v: decodeCvt(link.d, F[format]), format };
  }
  return { d: links.length > 0 ? links[links.length - 1]! : encodeIn(acc.v, format), links };
}

/** A value's pattern in f32 or f64 (c before any link: every accumulator format is exact there). */
function encodeIn(v: RefCvtValue, format: 'f32' | 'f64'): bigint {
  const f = F[format];
  if (v.kind === 'nan') return f.nanPattern!;
  if (v.kind === 'inf') return infinityOf(v.negative, f);
  return isZero(v.q) ? zeroOf(v.negative, f) : roundTo(v.q, f, 'rn');
}

/** d = c + Σ a_i·b_i under the architecture's model. */
export function refDotProduct(
  setup: RefSetup,
  a: readonly bigint[],
  b: readonly bigint[],
  c: bigint,
): RefResult {
  const k = a.length;
  const as = a.map((x) => read(x, setup.atype));
  const bs = b.map((x) => read(x, setup.btype));
  const cv = read(c, setup.ctype);
  if (setup.atype === 'f64') {
    const links: RefLink[] = [];
    let acc = cv;
    let d = c;
    for (let i = 0; i < k; i++) {
      const link = fmaLink(as[i]!, bs[i]!, acc, setup.mode ?? 'rn', i);
      links.push(link);
      d = link.d;
      acc = { v: decodeCvt(d, F.f64), format: 'f64' };
    }
    return { d, steps: [], links, adds: [], last: null };
  }
  const sequence = refSequenceOf(setup, k);
  if (sequence) return refSequence(sequence, as, bs, cv, setup.dtype);
  const pairs = as.map((x, i) => [x, bs[i]!] as const);
  if (!splits(setup, k)) {
    const step = fusedStep(setup, cv, c, pairs, 0, hopperMeasured(setup, k));
    return { d: step.d, steps: [step], links: [], adds: [], last: null };
  }
  const first = fusedStep(setup, cv, c, pairs.slice(0, k / 2), 0);
  const middle: Val = { v: decodeCvt(first.d, F[setup.dtype]), format: setup.dtype };
  const second = fusedStep(setup, middle, first.d, pairs.slice(k / 2), k / 2);
  return { d: second.d, steps: [first, second], links: [], adds: [], last: null };
}

/** The model's parameters for a setup at k: n, the halves, the final rounding. */
export function refPlan(setup: RefSetup, k: number): RefPlan {
  const reduced = fp8Reduced(setup);
  return {
    n: reduced ? 13 : N[setup.architecture],
    halves: splits(setup, k),
    fractionBits: setup.dtype === 'f16' ? 10 : reduced ? 13 : 23,
    mode: setup.dtype === 'f16' ? 'rn' : 'rz',
  };
}

/**
 * The decision naming the model followed where tensor-cores.md says the published models are
 * not settled (decisions.ts): FP8 inputs with an f16 result on Hopper's wgmma, FP8 on
 * Blackwell's mma; and where an H200 was measured to compute otherwise (Hopper mma: m8n8k4
 * with f16 inputs, and FP8).
 */
export function refUnsettled(
  setup: RefSetup,
  k: number,
): 'mma-fp8-f16-hopper' | 'mma-fp8-blackwell' | 'mma-sm90-differing-forms' | null {
  if (setup.architecture === 'hopper' && setup.instruction === 'mma') {
    const fp8 = isFp8(setup.atype) && isFp8(setup.btype);
    if (fp8 || (setup.atype === 'f16' && k === 4)) return 'mma-sm90-differing-forms';
  }
  if (!isFp8(setup.atype) || !isFp8(setup.btype)) return null;
  if (setup.architecture === 'hopper' && setup.instruction === 'wgmma' && setup.dtype === 'f16')
    return 'mma-fp8-f16-hopper';
  if (setup.architecture === 'blackwell' && setup.instruction === 'mma') return 'mma-fp8-blackwell';
  return null;
}

/** The value of a pattern of an element format (for tests that build inputs from values). */
export function refValueOf(bits: bigint, format: RefInput | RefAccumulator): RefCvtValue {
  return read(bits, format).v;
}
