/**
 * What the spec's error bound allows an approximate form to return, decided exactly: every value
 * v of the format with |v - t| <= 2^log2 (absolute) or <= 2^log2 × |t| (relative), t = tanh(x)
 * or 2^x. The function value and the bound (2^-10.987, 2^-9.9: irrational) are enclosed by
 * BigInt bounds (enclosure.ts); the ends of the set are where a format value crosses t ∓ bound,
 * each decided once the enclosures are tight enough to tell, which they always become (t and
 * the bound are never a format value's distance apart exactly), so ever more bits are asked for.
 *
 * Conventions, as the trace documents them: +0 and -0 are two values; with .ftz only zeros and
 * normals are results; an exact value at least the largest finite value plus half an ulp rounds
 * to infinity, and the infinity is then allowed too.
 */
import type { ErrorBound } from '../../catalog/instruction.ts';
import { exactDecimal, type Dyadic } from '../exact.ts';
import { dyadicOfBits, toDouble, type Format } from '../format.ts';
import type { ApproxFn } from '../measured-format.ts';
import type { ApproxEmptyReason } from '../steps.ts';
import {
  decimalDigits,
  dy,
  dyAdd,
  dyCompare,
  dyMul,
  dySub,
  exp2Enclosure,
  tanhEnclosure,
  type Dy,
  type Enclosure,
} from '../enclosure.ts';

/**
 * The values the bound allows: an interval of the value order by its end patterns and its size
 * (+0 and -0 are two values); `overflows`: the exact value rounds to infinity, which is in it.
 * count 0: no value qualifies, for `emptyBecause`, and the ends are the caller's result.
 */
export interface AllowedResults {
  readonly lowest: bigint;
  readonly highest: bigint;
  readonly count: number;
  readonly overflows: boolean;
  readonly emptyBecause?: ApproxEmptyReason;
}

/** AllowedResults with the ends as 16-bit patterns: the search below runs on plain integers. */
interface Allowed {
  readonly lowest: number;
  readonly highest: number;
  readonly count: number;
  readonly overflows: boolean;
  readonly emptyBecause?: ApproxEmptyReason;
}

/** A 16-bit format's figures as numbers (patterns double as value-order indices). */
interface Small {
  readonly format: Format;
  readonly name: string;
  readonly manBits: number;
  readonly emin: number;
  readonly emax: number;
  readonly maxBits: number;
  readonly infBits: number;
  readonly signMask: number;
}

const smalls = new Map<string, Small>();

function small(f: Format): Small {
  let found = smalls.get(f.name);
  if (!found) {
    if (f.width > 16 || f.infBits === null)
      throw new Error(`approx-allowed: ${f.name} is not a 16-bit format with infinity`);
    found = {
      format: f,
      name: f.name,
      manBits: f.manBits,
      emin: f.emin,
      emax: f.emax,
      maxBits: Number(f.maxBits),
      infBits: Number(f.infBits),
      signMask: Number(f.signMask),
    };
    smalls.set(f.name, found);
  }
  return found;
}

const valueTables = new Map<string, Float64Array>();

/** Every positive pattern's value as a double (exact for 16-bit formats), built once. */
function valueTable(f: Small): Float64Array {
  let table = valueTables.get(f.name);
  if (!table) {
    table = new Float64Array(f.maxBits + 1);
    for (let i = 0; i <= f.maxBits; i++) table[i] = toDouble(BigInt(i), f.format);
    valueTables.set(f.name, table);
  }
  return table;
}

function dyadicOf(bits: number, f: Small): Dyadic {
  return dyadicOfBits(BigInt(bits), f.format);
}

/** Bits of enclosure asked for, in turn, until every decision is made. */
const PRECISIONS = [64, 128, 256, 1024] as const;

/** Decimal digits of the trace's mathValue. */
const MATH_DIGITS = 17;

/** Beyond 2^±1000 an ex2 value is written as the power itself. */
const DECIMAL_RANGE_LOG2 = 1000;

/** The bound's exponent, read as the decimal the spec writes ("-10.987" is -10987/1000). */
function rationalOf(n: number): { num: bigint; den: bigint } {
  const text = String(n);
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`error bound exponent ${text} is not a plain decimal`);
  const fraction = match[3] ?? '';
  const magnitude = BigInt(match[2]! + fraction);
  return { num: match[1] ? -magnitude : magnitude, den: 10n ** BigInt(fraction.length) };
}

function toDy(x: Dyadic): Dy {
  return dy(x.negative ? -x.mant : x.mant, x.exp);
}

function enclose(fn: ApproxFn, x: Dyadic, p: number): Enclosure {
  if (fn === 'tanh') return tanhEnclosure(x.negative, x.mant, x.exp, p);
  const num = x.negative ? -x.mant : x.mant;
  return x.exp >= 0
    ? exp2Enclosure(num << BigInt(x.exp), 1n, p)
    : exp2Enclosure(num, 1n << BigInt(-x.exp), p);
}

const magnitudes = new Map<string, Dy[]>();

/** Signed indices of the format's finite values in value order: -maxBits … maxBits, 0 = ±0. */
function valueAt(index: number, f: Small): Dy {
  let table = magnitudes.get(f.name);
  if (!table) magnitudes.set(f.name, (table = []));
  const bits = Math.abs(index);
  const magnitude = (table[bits] ??= toDy(dyadicOf(bits, f)));
  return index < 0 ? dy(-magnitude.m, magnitude.e) : magnitude;
}

function bitsAt(index: number, f: Small): number {
  if (index > f.maxBits) return f.infBits;
  if (index < -f.maxBits) return f.infBits + f.signMask;
  return index < 0 ? f.signMask - index : index;
}

/**
 * The smallest index whose value is >= v (strictly > v when `strictly`); maxBits + 1: none.
 * A search in doubles says where to look; exact comparisons settle it there (a few steps), or
 * over the whole range should the guess be off.
 */
function firstAbove(v: Dy, f: Small, strictly: boolean): number {
  const M = f.maxBits;
  const above = (i: number): boolean => {
    if (i > M) return true;
    if (i < -M) return false;
    const c = dyCompare(valueAt(i, f), v);
    return strictly ? c > 0 : c >= 0;
  };
  let i = guessFirstAbove(approximate(v), f);
  for (let step = 0; step < 8; step++) {
    if (!above(i)) i++;
    else if (i > -M && above(i - 1)) i--;
    else return i;
  }
  let lo = -M;
  let hi = M + 1;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (above(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The double nearest a dyadic (±Infinity or ±0 beyond a double's range). */
function approximate(x: Dy): number {
  const bits = x.m === 0n ? 0 : (x.m < 0n ? -x.m : x.m).toString(16).length * 4;
  const shift = Math.max(0, bits - 64);
  return Number(x.m >> BigInt(shift)) * 2 ** (x.e + shift);
}

/** The smallest index whose value (as a double) is >= v. */
function guessFirstAbove(v: number, f: Small): number {
  const values = valueTable(f);
  const at = (i: number) => (i < 0 ? -values[-i]! : values[i]!);
  let lo = -f.maxBits;
  let hi = f.maxBits + 1;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (at(mid) >= v) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The smallest index whose value is >= v (maxBits + 1: none). */
function firstAtLeast(v: Dy, f: Small): number {
  return firstAbove(v, f, false);
}

/** The largest index whose value is <= v (-maxBits - 1: none). */
function lastAtMost(v: Dy, f: Small): number {
  return firstAbove(v, f, true) - 1;
}

/** Under .ftz, subnormals are not results: move an end past them, toward zero or up to normal. */
function skipSubnormalUp(index: number, f: Small, ftz: boolean): number {
  const normal = 2 ** f.manBits;
  if (!ftz || index === 0 || Math.abs(index) >= normal) return index;
  return index > 0 ? normal : 0;
}

function skipSubnormalDown(index: number, f: Small, ftz: boolean): number {
  const normal = 2 ** f.manBits;
  if (!ftz || index === 0 || Math.abs(index) >= normal) return index;
  return index > 0 ? 0 : -normal;
}

interface Ends {
  /** Indices of the least and greatest allowed finite values (first > last: none). */
  readonly first: number;
  readonly last: number;
}

/** The ends for t ∓ w in the intervals L and H, or null while an end is still undecided. */
function ends(low: Enclosure, high: Enclosure, f: Small, ftz: boolean): Ends | null {
  const first = skipSubnormalUp(firstAtLeast(low.lo, f), f, ftz);
  if (first !== skipSubnormalUp(firstAtLeast(low.hi, f), f, ftz)) return null;
  const last = skipSubnormalDown(lastAtMost(high.hi, f), f, ftz);
  if (last !== skipSubnormalDown(lastAtMost(high.lo, f), f, ftz)) return null;
  return { first, last };
}

/** Finite values with index in [first, last], ±0 counted twice, subnormals left out under .ftz. */
function countBetween(first: number, last: number, f: Small, ftz: boolean): number {
  if (first > last) return 0;
  let count = last - first + 1 + (first <= 0 && last >= 0 ? 1 : 0);
  if (ftz) {
    const normal = 2 ** f.manBits;
    const overlap = (a: number, b: number) =>
      Math.max(0, Math.min(b, last) - Math.max(a, first) + 1);
    count -= overlap(1, normal - 1) + overlap(-(normal - 1), -1);
  }
  return count;
}

const boundCache = new Map<string, Enclosure>();

/** 2^log2, enclosed. */
function boundEnclosure(log2: number, p: number): Enclosure {
  const key = `${log2}:${p}`;
  let found = boundCache.get(key);
  if (!found) {
    const { num, den } = rationalOf(log2);
    found = exp2Enclosure(num, den, p);
    boundCache.set(key, found);
  }
  return found;
}

/** |v - t| <= w: the interval ends t - w and t + w, each enclosed. */
function windowOf(t: Enclosure, bound: ErrorBound, p: number): { low: Enclosure; high: Enclosure } {
  const c = boundEnclosure(bound.log2, p);
  let w: Enclosure = c;
  if (bound.kind === 'relative') {
    // |t| enclosed (t never straddles 0 here: t ≠ 0 and the enclosure is far tighter than t).
    const positive = t.lo.m > 0n;
    const absLo = positive ? t.lo : dy(-t.hi.m, t.hi.e);
    const absHi = positive ? t.hi : dy(-t.lo.m, t.lo.e);
    w = { lo: dyMul(c.lo, absLo), hi: dyMul(c.hi, absHi) };
  }
  return {
    low: { lo: dySub(t.lo, w.hi), hi: dySub(t.hi, w.lo) },
    high: { lo: dyAdd(t.lo, w.lo), hi: dyAdd(t.hi, w.hi) },
  };
}

/** Whether |t| is at least the largest finite value plus half an ulp; null: undecided. */
function overflowsAt(t: Enclosure, f: Small): boolean | null {
  const max = valueAt(f.maxBits, f);
  const threshold = dyAdd(max, dy(1n, f.emax - f.manBits - 1));
  const above = (x: Dy) => dyCompare(x.m < 0n ? dy(-x.m, x.e) : x, threshold) >= 0;
  // |t| over the enclosure: both ends have t's sign.
  const lo = above(t.lo);
  return lo === above(t.hi) ? lo : null;
}

export interface ExactApprox {
  readonly mathValue: string;
  readonly allowed: AllowedResults;
}

interface SmallExactApprox {
  readonly mathValue: string;
  readonly allowed: Allowed;
}

const memo = new Map<string, (SmallExactApprox | undefined)[]>();

/**
 * The exact value's text and the allowed set for the 16-bit input `bits` of format f (finite;
 * nonzero for tanh; not a corner case). An empty set's lowest/highest are `result`, the step's.
 * Remembered per input: a pure function of it, met again in the other lane of an x2 form and
 * in every sweep over the inputs.
 */
export function exactApproxOfBits(
  fn: ApproxFn,
  bits: bigint,
  format: Format,
  bound: ErrorBound,
  ftz: boolean,
  result: bigint,
): ExactApprox {
  const f = small(format);
  const key = `${fn}:${f.name}:${ftz}:${bound.kind}:${bound.log2}`;
  let table = memo.get(key);
  if (!table) memo.set(key, (table = []));
  const index = Number(bits);
  const found = (table[index] ??= exactApprox(fn, dyadicOf(index, f), f, bound, ftz, 0));
  const { lowest, highest, ...rest } = found.allowed;
  return {
    mathValue: found.mathValue,
    allowed:
      found.allowed.count > 0
        ? { ...rest, lowest: BigInt(lowest), highest: BigInt(highest) }
        : { ...rest, lowest: result, highest: result },
  };
}

/**
 * The values the spec's bound allows for input `bits` (after any .ftz flush; not a corner case
 * of the form's table), for judging a measured result. An empty set (count 0) has 0 for its
 * ends here; in a trace they are the step's result.
 */
export function allowedResults(
  fn: ApproxFn,
  bits: bigint,
  f: Format,
  bound: ErrorBound,
  ftz: boolean,
): AllowedResults {
  return exactApproxOfBits(fn, bits, f, bound, ftz, 0n).allowed;
}

/** exactApprox for any dyadic x; `modelResult` fills lowest/highest of an empty set. */
function exactApprox(
  fn: ApproxFn,
  x: Dyadic,
  f: Small,
  bound: ErrorBound,
  ftz: boolean,
  modelResult: number,
): SmallExactApprox {
  const qmin = f.emin - f.manBits;
  const xNumber = (x.negative ? -1 : 1) * Number(x.mant) * 2 ** x.exp;
  const power = `2^${exactDecimal(x)}`;
  if (fn === 'ex2') {
    // 2^x >= 2^(emax+2): every finite value is off by more than half of t; only the infinity.
    if (xNumber >= f.emax + 2)
      return {
        mathValue: xNumber > DECIMAL_RANGE_LOG2 ? power : exactDigits(fn, x),
        allowed: { lowest: f.infBits, highest: f.infBits, count: 1, overflows: true },
      };
    // 2^x < 2^(qmin-1): t (1 + bound) is below the smallest subnormal, t (1 - bound) above 0.
    if (xNumber < qmin - 1)
      return {
        mathValue: Math.abs(xNumber) > DECIMAL_RANGE_LOG2 ? power : exactDigits(fn, x),
        allowed: empty(modelResult, 'below-smallest-subnormal'),
      };
  }
  for (const p of PRECISIONS) {
    const t = enclose(fn, x, p);
    const { low, high } = windowOf(t, bound, p);
    const found = ends(low, high, f, ftz);
    const overflows = overflowsAt(t, f);
    if (found === null || overflows === null) continue;
    let { first, last } = found;
    let count = countBetween(first, last, f, ftz);
    if (overflows) {
      // The infinity of t's sign joins the set, next to the largest finite value.
      if (t.lo.m > 0n) last = f.maxBits + 1;
      else first = -f.maxBits - 1;
      count += 1;
    }
    let allowed: Allowed;
    if (count > 0) {
      const lowest = first === 0 ? f.signMask : bitsAt(first, f);
      allowed = { lowest, highest: bitsAt(last, f), count, overflows };
    } else {
      const reason = emptyReason(t, low, high, f, ftz);
      if (reason === null) continue;
      allowed = empty(modelResult, reason);
    }
    const mathValue =
      fn === 'ex2' && Math.abs(xNumber) > DECIMAL_RANGE_LOG2
        ? power
        : (decimalDigits(t, MATH_DIGITS) ?? exactDigits(fn, x));
    return { mathValue, allowed };
  }
  throw new Error(`${fn}(${xNumber}): the enclosures never settled the allowed set`);
}

function empty(modelResult: number, emptyBecause: ApproxEmptyReason): Allowed {
  return { lowest: modelResult, highest: modelResult, count: 0, overflows: false, emptyBecause };
}

/** Why an empty set is empty; null while the enclosure cannot tell yet. */
function emptyReason(
  t: Enclosure,
  low: Enclosure,
  high: Enclosure,
  f: Small,
  ftz: boolean,
): ApproxEmptyReason | null {
  if (ftz) {
    const withSubnormals = ends(low, high, f, false);
    if (withSubnormals === null) return null;
    if (countBetween(withSubnormals.first, withSubnormals.last, f, false) > 0)
      return 'ftz-removes-subnormals';
  }
  // |t| against the smallest subnormal 2^qmin.
  const smallest = dy(1n, f.emin - f.manBits);
  const magnitude = (x: Dy) => (x.m < 0n ? dy(-x.m, x.e) : x);
  const lo = dyCompare(magnitude(t.lo), smallest) < 0;
  const hi = dyCompare(magnitude(t.hi), smallest) < 0;
  if (lo !== hi) return null;
  return lo ? 'below-smallest-subnormal' : 'subnormal-spacing';
}

/** The function value to MATH_DIGITS significant digits, from ever tighter enclosures. */
function exactDigits(fn: ApproxFn, x: Dyadic): string {
  for (const p of PRECISIONS) {
    const text = decimalDigits(enclose(fn, x, p), MATH_DIGITS);
    if (text !== null) return text;
  }
  throw new Error(`${fn}: the enclosures never settled ${MATH_DIGITS} digits`);
}
