/**
 * The reference model of float-to-float `cvt` (PTX ISA 9.7.9.21), written from the spec text
 * and the decision list (src/engine/decisions.ts, the cvt-… entries) without the engine's code:
 * it shares only the catalog (catalog-forms.ts: a form's types, modifiers and rounding). Values are
 * exact rationals; every rounding is a neighbour search over the destination's values
 * (cvt-formats.ts): the two values around x, then the mode picks one. The element layout and the
 * random bits of .rs are this file's own tables, from the Semantics block and the decision.
 */
import { convertForm, cvtTypes } from './catalog-forms.ts';
import {
  decodeCvt,
  floorIndex,
  pastMax,
  patternAt,
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
  neg,
  ONE,
  pow2,
  rational,
  sign,
  sub,
  type Rational,
} from './rational.ts';

export interface RefCvtRegisters {
  readonly a: bigint;
  readonly b?: bigint;
  readonly e?: bigint;
  readonly f?: bigint;
  readonly rbits?: bigint;
}

export interface RefCvtOptions {
  readonly ftzTininess: 'after-rounding' | 'before-rounding';
}

export type Slot = readonly [hi: number, lo: number];

/** Where the values of a type sit in its register, a first (the Semantics block). */
export function slotsOf(type: string): Slot[] {
  switch (type) {
    case 'f16x2':
    case 'bf16x2':
      return [
        [31, 16],
        [15, 0],
      ];
    case 'e4m3x2':
    case 'e5m2x2':
    case 'ue8m0x2':
      return [
        [15, 8],
        [7, 0],
      ];
    case 'e2m1x2':
      return [
        [7, 4],
        [3, 0],
      ];
    case 'e2m3x2':
    case 'e3m2x2':
      return [
        [13, 8],
        [5, 0],
      ];
    case 'e2m1x4':
      return [
        [15, 12],
        [11, 8],
        [7, 4],
        [3, 0],
      ];
    case 'e4m3x4':
    case 'e5m2x4':
      return [
        [31, 24],
        [23, 16],
        [15, 8],
        [7, 0],
      ];
    case 'e2m3x4':
    case 'e3m2x4':
      return [
        [29, 24],
        [21, 16],
        [13, 8],
        [5, 0],
      ];
    case 'tf32':
      return [[31, 13]];
    case 'f64':
      return [[63, 0]];
    case 'f32':
      return [[31, 0]];
    default:
      return [[15, 0]];
  }
}

/** The format of one value of a type. */
export function formatOf(type: string): RefCvtFormat {
  return REF_CVT_FORMATS[type.replace(/x[24]$/, '') as RefCvtFormatName];
}

/** The random bits of element i under .rs (decision cvt-rs-rbits). */
export function rbitsSlot(dtype: string, i: number): Slot {
  if (dtype === 'f16x2') return i === 0 ? [28, 16] : [12, 0];
  if (dtype === 'bf16x2') return i === 0 ? [31, 16] : [15, 0];
  if (dtype === 'e2m1x4')
    return (
      [
        [31, 24],
        [15, 8],
        [23, 16],
        [7, 0],
      ] as const
    )[i]!;
  return [31 - 8 * i, 24 - 8 * i];
}

const bitsOf = (reg: bigint, [hi, lo]: Slot) =>
  (reg >> BigInt(lo)) & ((1n << BigInt(hi - lo + 1)) - 1n);

function signPattern(fmt: RefCvtFormat): bigint {
  return fmt.signed ? 1n << BigInt(fmt.totalBits - 1) : 0n;
}

/**
 * The pattern of a nonzero value of the format, or null when it is none: found by search in the
 * value order, or for .f32/.f64 read from the platform's own binary32/binary64 encoding of the
 * same value (2^31 and 2^63 patterns are long to search) — checked by decoding it back. An f32
 * with fewer fraction bits (a tensor core's e8m13 result) is searched.
 */
export function exactPattern(q: Rational, fmt: RefCvtFormat): bigint | null {
  let pattern: bigint;
  const native = fmt.name === 'f32' ? 32 : fmt.name === 'f64' ? 64 : null;
  // A narrower f32 (a tensor core's 13 fraction bits) is searched like the small formats.
  if (native !== null && fmt.totalBits >= native) {
    if (fmt.totalBits !== native) return null; // the wide f32 of tininess
    const k = q.den.toString(2).length - 1; // den is a power of two
    const x = Number(q.num) * 2 ** -k;
    const view = new DataView(new ArrayBuffer(8));
    if (fmt.name === 'f32') {
      view.setFloat32(0, x);
      pattern = BigInt(view.getUint32(0));
    } else {
      view.setFloat64(0, x);
      pattern = view.getBigUint64(0);
    }
  } else {
    const least = fmt.signed ? null : valueAt(0n, fmt);
    if (compare(abs(q), valueAt(fmt.maxPattern, fmt)) > 0) return null;
    if (least && compare(q, least) < 0) return null;
    pattern = patternAt(floorIndex(q, fmt), fmt);
  }
  const back = decodeCvt(pattern, fmt);
  return back.kind === 'finite' && compare(back.q, q) === 0 ? pattern : null;
}

/** The pattern of a value of the format (a signed zero keeps its sign). */
function patternOf(q: Rational, negative: boolean, fmt: RefCvtFormat): bigint {
  if (isZero(q)) return negative ? signPattern(fmt) : 0n;
  const pattern = exactPattern(q, fmt);
  if (pattern === null) throw new Error(`${fmt.name} has no value ${q.num}/${q.den}`);
  return pattern;
}

const maxPattern = (negative: boolean, fmt: RefCvtFormat) =>
  negative && fmt.signed ? signPattern(fmt) | fmt.maxPattern : fmt.maxPattern;

/** A value rounded to the destination: exact, or past MAX_NORM (then only its sign counts). */
type Rounded = { readonly q: Rational } | { readonly pastMax: true };

/** The rounding of x (nonzero) to fmt in a float mode, by neighbour search. */
function roundTo(
  x: Rational,
  fmt: RefCvtFormat,
  mode: string,
  random: { value: bigint; count: number } | null,
): Rounded {
  const negative = sign(x) < 0;
  const m = abs(x);
  // A value of the destination needs no rounding (and f32/f64 have 2^31, 2^63 patterns to search).
  if (exactPattern(m, fmt) !== null) return { q: x };
  const max = valueAt(fmt.maxPattern, fmt);
  const least = fmt.signed ? rational(0n) : valueAt(0n, fmt);
  // The neighbours of |x| by magnitude: toward zero and away from it (past MAX_NORM, the value
  // one step further; below ue8m0's least value 2^-127, nothing: zero stands in for it).
  let towardZero: Rational;
  let away: Rational | 'past';
  let towardIndex: bigint;
  if (compare(m, max) > 0 && mode === 'rs') {
    // Past MAX_NORM, .rs takes the carry as with an unbounded exponent: from the bits of |x|
    // below its own last kept bit (decision cvt-rs-rbits); toward zero stops at MAX_NORM.
    const ulp = pow2(floorLog2(m) - fmt.fractionBits);
    const scaled = mul(m, rational(ulp.den, ulp.num));
    const fraction = sub(scaled, rational(floor(scaled)));
    const top = floor(mul(fraction, pow2(random!.count)));
    if (top + random!.value >= 1n << BigInt(random!.count)) return { pastMax: true };
    return { q: negative ? neg(max) : max };
  }
  if (compare(m, max) > 0) {
    towardZero = max;
    towardIndex = fmt.maxPattern;
    away = 'past';
  } else if (compare(m, least) < 0) {
    towardZero = rational(0n);
    towardIndex = -1n;
    away = least;
  } else {
    towardIndex = floorIndex(m, fmt);
    towardZero = valueAt(towardIndex, fmt);
    if (compare(towardZero, m) === 0) return { q: negative ? neg(m) : m };
    away = towardIndex === fmt.maxPattern ? 'past' : valueAt(towardIndex + 1n, fmt);
  }
  const awayValue = away === 'past' ? pastMax(fmt) : away;
  const gap = sub(awayValue, towardZero);
  const below = sub(m, towardZero); // how far past the toward-zero neighbour
  let goAway: boolean;
  switch (mode) {
    case 'rz':
      goAway = false;
      break;
    case 'rp':
      goAway = !negative;
      break;
    case 'rm':
      goAway = negative;
      break;
    case 'rn': {
      const c = compare(mul(below, rational(2n)), gap);
      // A tie goes to the neighbour whose pattern is even (past MAX_NORM: the pattern after it).
      const towardEven = towardIndex < 0n || towardIndex % 2n === 0n;
      goAway = c > 0 || (c === 0 && !towardEven);
      break;
    }
    case 'rna':
      goAway = compare(mul(below, rational(2n)), gap) >= 0;
      break;
    case 'rs': {
      // The discarded part as a fraction of the gap; its top bits plus the random bits.
      const fraction = mul(below, rational(gap.den, gap.num));
      const top = floor(mul(fraction, pow2(random!.count)));
      goAway = top + random!.value >= 1n << BigInt(random!.count);
      break;
    }
    default:
      throw new Error(`mode ${mode}`);
  }
  if (!goAway) return { q: negative ? neg(towardZero) : towardZero };
  if (away === 'past') return { pastMax: true };
  return { q: negative ? neg(away) : away };
}

/** floor(log2 m) for m > 0. */
function floorLog2(m: Rational): number {
  let e = m.num.toString(2).length - m.den.toString(2).length;
  while (compare(pow2(e), m) > 0) e--;
  while (compare(pow2(e + 1), m) <= 0) e++;
  return e;
}

/** The rounding of x to an integral value (.rni .rzi .rmi .rpi), exact in the format. */
function roundToInteger(x: Rational, mode: string): Rational {
  const lower = rational(floor(x));
  if (compare(lower, x) === 0) return x;
  const upper = add(lower, ONE);
  switch (mode) {
    case 'rzi':
      return sign(x) < 0 ? upper : lower;
    case 'rmi':
      return lower;
    case 'rpi':
      return upper;
    default: {
      const c = compare(mul(sub(x, lower), rational(2n)), ONE);
      if (c !== 0) return c < 0 ? lower : upper;
      return lower.num % 2n === 0n ? lower : upper;
    }
  }
}

const F32_MIN_NORMAL = pow2(-126);
/** f32's precision with f64's exponent range: "rounded as though the exponent were unbounded". */
const WIDE_F32: RefCvtFormat = {
  ...REF_CVT_FORMATS.f32,
  name: 'f32',
  exponentBits: 11,
  totalBits: 35,
  maxPattern: (0x7fen << 23n) | ((1n << 23n) - 1n),
  nanPattern: null,
};

/**
 * A NaN input's result before .satfinite, .sat and .relu, as an H200 gave it (decision cvt-nan,
 * hw/captures/sm_90/h200): the canonical NaN (null), or a pattern made of the input's sign and
 * its payload read as a binary fraction of the mantissa (0.1… for a quiet NaN) and cut to the
 * destination's mantissa — quieted (the top mantissa bit set) or as it is.
 */
export function measuredNaN(
  atype: string,
  dtype: string,
  written: boolean,
  ftz: boolean,
  rna: boolean,
  bits: bigint,
  src: RefCvtFormat,
  dst: RefCvtFormat,
): bigint | null {
  const pair = `${atype}->${dtype}`;
  let how: 'quiet' | 'as-is' | null = null;
  let input = bits;
  if (pair === 'f64->f64') how = written ? 'quiet' : 'as-is';
  else if (pair === 'f32->f64' && ftz) {
    how = 'quiet';
    input = REF_CVT_FORMATS.f32.nanPattern!; // .ftz gives the canonical .f32 NaN first
  } else if (
    ['f16->f64', 'bf16->f64', 'f32->f64', 'f64->f16', 'f64->bf16', 'f64->f32'].includes(pair)
  )
    how = 'quiet';
  else if (pair === 'f32->f32' && !written && !ftz) how = 'as-is';
  else if (pair === 'bf16->f32' && !ftz) how = 'as-is';
  else if (pair === 'f32->tf32' && rna) how = 'as-is';
  if (how === null) return null;
  const srcFraction = input & ((1n << BigInt(src.fractionBits)) - 1n);
  // payload / 2^srcFractionBits, scaled to the destination's fraction bits and cut.
  const scaled = (srcFraction << BigInt(dst.fractionBits)) >> BigInt(src.fractionBits);
  const quietBit = how === 'quiet' ? 1n << BigInt(dst.fractionBits - 1) : 0n;
  const exponent = ((1n << BigInt(dst.exponentBits)) - 1n) << BigInt(dst.fractionBits);
  const negative = (input >> BigInt(src.totalBits - 1)) & 1n;
  return (negative << BigInt(dst.totalBits - 1)) | exponent | scaled | quietBit;
}

const memos = new Map<string, bigint[]>();
/** Results by input pattern, per form and options (a pure function, remembered). */
function memoOf(formText: string, options: RefCvtOptions): bigint[] {
  const key = `${formText}|${options.ftzTininess}`;
  let memo = memos.get(key);
  if (!memo) memos.set(key, (memo = []));
  return memo;
}

export function refCvtEvaluate(
  formText: string,
  registers: RefCvtRegisters,
  options: RefCvtOptions = { ftzTininess: 'after-rounding' },
): bigint {
  const form = convertForm(formText);
  const { dtype, atype } = cvtTypes(form);
  const has = (m: string) => (form.modifiers as readonly string[]).includes(m);
  const mode = form.rounding;
  const src = formatOf(atype);
  const dst = formatOf(dtype);
  const dSlots = slotsOf(dtype);
  const sourcePacked = /x2$/.test(atype);
  const sSlots = slotsOf(atype);
  const operands = ['a', 'b', 'e', 'f'] as const;
  let d = 0n;
  dSlots.forEach((slot, i) => {
    const reg = sourcePacked || dSlots.length === 1 ? registers.a : registers[operands[i]!]!;
    const inBits = bitsOf(reg, sourcePacked ? sSlots[i]! : sSlots[0]!);
    const random = has('rs')
      ? (() => {
          const r = rbitsSlot(dtype, i);
          return { value: bitsOf(registers.rbits ?? 0n, r), count: r[0] - r[1] + 1 };
        })()
      : null;
    // Without random bits every element of a form converts alike: remember each input's result.
    const key = random === null && inBits < 0x10000n ? Number(inBits) : -1;
    const memo = key >= 0 ? memoOf(formText, options) : null;
    const out = memo?.[key] ?? convert(decodeCvt(inBits, src), random, inBits);
    if (memo) memo[key] = out;
    d |= out << BigInt(slot[1]);
  });
  return d;

  function convert(
    input: RefCvtValue,
    random: { value: bigint; count: number } | null,
    inBits: bigint,
  ): bigint {
    let v = input;
    // .ftz: an .f32 subnormal input is a zero of its sign, except into .f16, where the H200
    // converts it as it is (decision cvt-ftz-f16-source).
    const flushesInput = atype === 'f32' && dtype !== 'f16';
    if (has('ftz') && flushesInput && v.kind === 'finite' && !isZero(v.q))
      if (compare(abs(v.q), F32_MIN_NORMAL) < 0)
        v = { kind: 'finite', q: rational(0n), negative: v.negative };
    // ue8m0 has no sign: |x| (decision cvt-ue8m0).
    if (!dst.signed && v.kind !== 'nan')
      v =
        v.kind === 'inf'
          ? { kind: 'inf', negative: false }
          : { kind: 'finite', q: abs(v.q), negative: false };

    // What the conversion gives before the modifiers: a pattern, NaN, or past MAX_NORM.
    let result:
      | { kind: 'nan'; pattern?: bigint }
      | { kind: 'past'; negative: boolean }
      | { kind: 'value'; q: Rational; negative: boolean }
      | { kind: 'inf'; negative: boolean };
    let tiny = false;
    const written = mode !== null && has(mode);
    const nanPattern =
      v.kind === 'nan'
        ? measuredNaN(atype, dtype, written, has('ftz'), mode === 'rna', inBits, src, dst)
        : null;
    const fractionOf = (p: bigint) => p & ((1n << BigInt(dst.fractionBits)) - 1n);
    const signOf = (p: bigint) => ((p >> BigInt(dst.totalBits - 1)) & 1n) === 1n;
    if (v.kind === 'nan')
      result =
        nanPattern === null
          ? { kind: 'nan' }
          : fractionOf(nanPattern) === 0n // a payload cut to nothing: an infinity
            ? { kind: 'inf', negative: signOf(nanPattern) }
            : { kind: 'nan', pattern: nanPattern };
    else if (v.kind === 'inf')
      result = dst.specials === 'ieee' ? v : { kind: 'past', negative: v.negative };
    else if (isZero(v.q))
      result = dst.signed
        ? { kind: 'value', q: v.q, negative: v.negative }
        : { kind: 'value', q: pow2(-127), negative: false };
    else {
      const x = v.q;
      let r: Rounded;
      if (mode === null || (dst.name === 'f64' && !/i$/.test(mode))) r = { q: x };
      else if (/i$/.test(mode)) r = { q: roundToInteger(x, mode) };
      else r = roundTo(x, dst, mode, random);
      if ('pastMax' in r) result = { kind: 'past', negative: sign(x) < 0 };
      else if (isZero(r.q) && !dst.signed)
        result = { kind: 'value', q: pow2(-127), negative: false };
      else result = { kind: 'value', q: r.q, negative: sign(x) < 0 };
      if (dst.name === 'f32') {
        // Tininess (decision ftz-after-rounding): after rounding, rounded to 24 bits with an
        // unbounded exponent; before, the exact value.
        const before = compare(abs(x), F32_MIN_NORMAL) < 0;
        if (options.ftzTininess === 'before-rounding' || mode === null || /i$/.test(mode))
          tiny = before;
        else {
          const wide = roundTo(x, WIDE_F32, mode, random);
          tiny = 'q' in wide && compare(abs(wide.q), F32_MIN_NORMAL) < 0;
        }
      }
    }
    // Past MAX_NORM without .satfinite: infinity or MAX_NORM by the rounding, NaN for ue8m0.
    if (result.kind === 'past' && !has('satfinite')) {
      if (dst.specials !== 'ieee') result = { kind: 'nan' };
      else result = { kind: 'inf', negative: result.negative };
    }
    if (has('ftz') && dst.name === 'f32' && tiny && result.kind === 'value')
      result = { kind: 'value', q: rational(0n), negative: result.negative };
    if (has('satfinite')) {
      // cvt.rna.satfinite.tf32.f32: a NaN becomes the pattern one below it (measured); where
      // that is the infinity, it stays (the form has no .sat or .relu to follow).
      if (result.kind === 'nan' && result.pattern !== undefined && mode === 'rna') {
        const below = result.pattern - 1n;
        if (fractionOf(below) === 0n) return below;
        result = { kind: 'nan', pattern: below };
      } else if (result.kind === 'nan' && dst.nanPattern === null)
        result = { kind: 'value', q: valueAt(dst.maxPattern, dst), negative: false };
      else if (result.kind === 'past' || result.kind === 'inf') {
        const negative = dst.signed && result.negative;
        result = { kind: 'value', q: valueAt(maxPattern(negative, dst), dst), negative };
      }
    }
    if (has('sat')) {
      if (
        result.kind === 'nan' ||
        ((result.kind === 'value' || result.kind === 'inf') && result.negative)
      )
        result = { kind: 'value', q: rational(0n), negative: false };
      else if (result.kind === 'inf' || (result.kind === 'value' && compare(result.q, ONE) > 0))
        result = { kind: 'value', q: ONE, negative: false };
    }
    if (has('relu') && result.kind !== 'nan' && result.kind !== 'past' && result.negative)
      result = { kind: 'value', q: rational(0n), negative: false };
    // .relu: "NaN results are converted to canonical NaN".
    if (has('relu') && result.kind === 'nan') result = { kind: 'nan' };
    switch (result.kind) {
      case 'nan':
        return result.pattern ?? dst.nanPattern!;
      case 'inf':
        return (result.negative ? signPattern(dst) : 0n) | (dst.maxPattern + 1n);
      case 'past':
        throw new Error('past MAX_NORM after the modifiers');
      case 'value':
        return patternOf(result.q, result.negative, dst);
    }
  }
}
