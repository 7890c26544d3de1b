/**
 * The values the spec's error bound allows tanh.approx / ex2.approx to return, and the function
 * value to 17 significant digits, for the trace checker: from the definition, candidate by
 * candidate. A value v of the format is allowed when |v - t| <= 2^log2 (absolute bound) or
 * <= 2^log2 × |t| (relative), t = tanh(x) or 2^x; each such comparison is decided from
 * enclosures of t and of 2^log2 (transcendental.ts), made tighter until they decide it. The
 * allowed values form an interval of the value order, found by binary search with that
 * predicate. Conventions (docs/trace.md): ±0 are two values, .ftz results are zeros and
 * normals, and an exact value at or past the largest finite value plus half an ulp also allows
 * the infinity of its sign.
 */
import { add, compare, mul, neg, pow2, rational, sub, type Rational } from './rational.ts';
import { decode, type RefFormat } from './ref-formats.ts';
import { exp2Enclosure, expBounds, tanhEnclosure, type Enclosure } from './transcendental.ts';

const PRECISIONS = [96, 256, 1024] as const;

/** The bound's exponent as the decimal the catalog writes: -10.987 is -10987/1000. */
export function decimalRational(n: number): Rational {
  const [int, frac = ''] = String(Math.abs(n)).split('.');
  const q = rational(BigInt(int! + frac), 10n ** BigInt(frac.length));
  return n < 0 ? neg(q) : q;
}

function abs(q: Rational): Rational {
  return q.num < 0n ? neg(q) : q;
}

/** tanh on a positive x, tight at every size (the reference's own is loose beyond 5). */
function tanhPositive(x: Rational, p: number): Enclosure {
  if (compare(x, rational(5n)) < 0) return tanhEnclosure(x, p);
  if (compare(x, rational(50n)) >= 0) {
    // 1 - tanh x = 2 / (e^(2x) + 1) < 2 e^(-100) < 2^-143.
    return [sub(rational(1n), pow2(-143)), rational(1n)];
  }
  const one = 1n << BigInt(p);
  const twoX = mul(x, rational(2n));
  const [eLo, eHi] = expBounds(
    (twoX.num * one) / twoX.den,
    (twoX.num * one + twoX.den - 1n) / twoX.den,
    p,
  );
  // tanh = (E - 1) / (E + 1), increasing in E; the quotients floored and ceiled to p bits.
  const lo = ((eLo - one) * one) / (eLo + one);
  const hi = ((eHi - one) * one + eHi + one - 1n) / (eHi + one);
  return [rational(lo, one), rational(hi, one)];
}

/** The enclosures last asked for (refModel, refAllowed and checkMathValue share an input's). */
const recent = new Map<string, Enclosure>();

/** An enclosure of f(x) at precision p, for x ≠ 0 (finite, and moderate for ex2). */
export function functionEnclosure(fn: 'tanh' | 'ex2', x: Rational, p: number): Enclosure {
  const key = `${fn}:${x.num}/${x.den}:${p}`;
  const found = recent.get(key);
  if (found) return found;
  if (recent.size > 64) recent.clear();
  let enclosure: Enclosure;
  if (fn === 'ex2') enclosure = exp2Enclosure(x, p);
  else {
    const [lo, hi] = tanhPositive(abs(x), p);
    enclosure = x.num < 0n ? [neg(hi), neg(lo)] : [lo, hi];
  }
  recent.set(key, enclosure);
  return enclosure;
}

const boundCache = new Map<string, Enclosure>();

/** 2^log2 for the catalog's bound exponent, enclosed. */
function boundEnclosure(log2: number, p: number): Enclosure {
  const key = `${log2}:${p}`;
  let found = boundCache.get(key);
  if (!found) boundCache.set(key, (found = exp2Enclosure(decimalRational(log2), p)));
  return found;
}

/** Decides a predicate on t from ever tighter enclosures: each enclosure says true, false or null. */
function decide(
  enclosures: (p: number) => Enclosure,
  test: (e: Enclosure, p: number) => boolean | null,
  what: string,
): boolean {
  for (const p of PRECISIONS) {
    const answer = test(enclosures(p), p);
    if (answer !== null) return answer;
  }
  throw new Error(`approx reference: could not decide ${what}`);
}

/** Signed index of the format's finite values in value order (0 is ±0). */
function valueAt(index: number, fmt: RefFormat): Rational {
  const bits = index < 0 ? fmt.signMask - index : index;
  return decode(bits, fmt);
}

function patternOf(index: number, fmt: RefFormat, zeroNegative: boolean): number {
  if (index > fmt.maxFiniteBits) return fmt.infBits;
  if (index < -fmt.maxFiniteBits) return fmt.signMask + fmt.infBits;
  if (index === 0) return zeroNegative ? fmt.signMask : 0;
  return index < 0 ? fmt.signMask - index : index;
}

export interface RefAllowed {
  readonly lowest: number;
  readonly highest: number;
  readonly count: number;
  readonly overflows: boolean;
  readonly emptyBecause?: string;
}

/**
 * The allowed set for input x (a finite nonzero value; not a corner case) of fn in fmt, with
 * `bound` and `ftz`; an empty set gives `model` as its ends, as the trace does.
 */
export function refAllowed(
  fn: 'tanh' | 'ex2',
  x: Rational,
  fmt: RefFormat,
  bound: { readonly kind: 'absolute' | 'relative'; readonly log2: number },
  ftz: boolean,
  model: number,
): RefAllowed {
  const qmin = 1 - fmt.bias - fmt.fractionBits;
  const emax = fmt.bias;
  if (fn === 'ex2' && compare(x, rational(BigInt(emax + 3))) >= 0) {
    // t >= 2^(emax+3): every finite value is off by more than 3/4 of t.
    return { lowest: fmt.infBits, highest: fmt.infBits, count: 1, overflows: true };
  }
  if (fn === 'ex2' && compare(x, rational(BigInt(qmin - 3))) < 0) {
    // t (1 + bound) < 2^(qmin-2): no nonzero value is near, and 0 is off by all of t.
    return empty(model, 'below-smallest-subnormal');
  }
  const t = (p: number) => functionEnclosure(fn, x, p);
  const c = (p: number) => boundEnclosure(bound.log2, p);
  const positive = decide(
    t,
    ([lo, hi]) => (lo.num > 0n ? true : hi.num < 0n ? false : null),
    'sign',
  );

  /** The window's ends t - w and t + w, each enclosed, at precision p. */
  const windows = new Map<number, { low: Enclosure; high: Enclosure }>();
  const windowAt = (p: number) => {
    let found = windows.get(p);
    if (!found) {
      const [tLo, tHi] = t(p);
      const [cLo, cHi] = c(p);
      const [wLo, wHi] =
        bound.kind === 'absolute'
          ? [cLo, cHi]
          : positive
            ? [mul(cLo, tLo), mul(cHi, tHi)]
            : [mul(cLo, neg(tHi)), mul(cHi, neg(tLo))];
      found = { low: [sub(tLo, wHi), sub(tHi, wLo)], high: [add(tLo, wLo), add(tHi, wHi)] };
      windows.set(p, found);
    }
    return found;
  };

  /** v >= t - w (low) or v <= t + w (high), decided. */
  const within = (v: Rational, side: 'low' | 'high'): boolean =>
    decide(
      t,
      (_enclosure, p) => {
        const { low, high } = windowAt(p);
        if (side === 'low') {
          // v >= t - w for every t, w in the enclosures / for none.
          if (compare(v, low[1]) >= 0) return true;
          if (compare(v, low[0]) < 0) return false;
          return null;
        }
        if (compare(v, high[0]) <= 0) return true;
        if (compare(v, high[1]) > 0) return false;
        return null;
      },
      `v ${side === 'low' ? '>=' : '<='} t ${side === 'low' ? '-' : '+'} w`,
    );

  const M = fmt.maxFiniteBits;
  // first: the least index with value >= t - w (M + 1: none); last: the greatest with <= t + w.
  let lo = -M;
  let hi = M + 1;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (within(valueAt(mid, fmt), 'low')) hi = mid;
    else lo = mid + 1;
  }
  let first = lo;
  lo = -M - 1;
  hi = M;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (within(valueAt(mid, fmt), 'high')) lo = mid;
    else hi = mid - 1;
  }
  let last = lo;
  const normal = 2 ** fmt.fractionBits;
  const finiteCount = (from: number, to: number, noSubnormals: boolean): number => {
    let n = 0;
    if (from > to) return 0;
    // Count index by index only near zero; elsewhere in bulk.
    n = to - from + 1 + (from <= 0 && to >= 0 ? 1 : 0);
    if (noSubnormals) {
      for (let i = Math.max(from, -(normal - 1)); i <= Math.min(to, normal - 1); i++)
        if (i !== 0) n--;
    }
    return n;
  };
  let count = finiteCount(first, last, ftz);
  if (ftz && count > 0) {
    // The ends move off subnormals: up from the low end, down from the high end.
    while (first !== 0 && Math.abs(first) < normal) first++;
    while (last !== 0 && Math.abs(last) < normal) last--;
  }
  // |t| >= largest finite + half an ulp: it rounds to the infinity, which joins the set.
  const max = valueAt(M, fmt);
  const threshold = add(max, mul(sub(max, valueAt(M - 1, fmt)), rational(1n, 2n)));
  const overflows = decide(
    t,
    ([tLo, tHi]) => {
      const a = compare(abs(tLo), threshold) >= 0;
      return a === compare(abs(tHi), threshold) >= 0 ? a : null;
    },
    'overflow',
  );
  if (overflows) {
    if (positive) last = M + 1;
    else first = -M - 1;
    count += 1;
  }
  if (count === 0) {
    let reason: string;
    if (ftz && refAllowed(fn, x, fmt, bound, false, model).count > 0)
      reason = 'ftz-removes-subnormals';
    else {
      const smallest = pow2(qmin);
      reason = decide(
        t,
        ([tLo, tHi]) => {
          const a = compare(abs(tLo), smallest) < 0;
          return a === compare(abs(tHi), smallest) < 0 ? a : null;
        },
        'below the smallest subnormal',
      )
        ? 'below-smallest-subnormal'
        : 'subnormal-spacing';
    }
    return empty(model, reason);
  }
  return {
    lowest: patternOf(first, fmt, true),
    highest: patternOf(last, fmt, false),
    count,
    overflows,
  };
}

function empty(model: number, emptyBecause: string): RefAllowed {
  return { lowest: model, highest: model, count: 0, overflows: false, emptyBecause };
}

/**
 * Whether `text` is the trace's mathValue for f(x): 17 significant digits in the notation of
 * toPrecision(17), within half a unit of the last digit of the true value; or, for ex2 with
 * |x| > 1000, the power "2^x" written with x's exact decimal. Returns a problem, or null.
 */
export function checkMathValue(
  fn: 'tanh' | 'ex2',
  x: Rational,
  xDecimal: string,
  text: string,
): string | null {
  const beyond = fn === 'ex2' && compare(abs(x), rational(1000n)) > 0;
  if (beyond) return text === `2^${xDecimal}` ? null : `expected 2^${xDecimal}, got ${text}`;
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(text);
  if (!match) return `not a decimal: ${text}`;
  const [, sign, int, frac = '', exp] = match;
  const digits = (int! + frac).replace(/^0+/, '');
  if (digits.length !== 17) return `${digits.length} significant digits, not 17: ${text}`;
  const scale = Number(exp ?? 0) - frac.length;
  const magnitude =
    scale >= 0
      ? rational(BigInt(int! + frac) * 10n ** BigInt(scale))
      : rational(BigInt(int! + frac), 10n ** BigInt(-scale));
  const value = sign ? neg(magnitude) : magnitude;
  // The decimal exponent of the leading digit, and toPrecision's choice of notation.
  const leading = (int! + frac).length - (int! + frac).replace(/^0+/, '').length;
  const k = exp === undefined ? int!.length - 1 - leading : Number(exp) + int!.length - 1;
  if ((exp !== undefined) !== (k < -6 || k >= 17))
    return `notation of toPrecision(17) differs: ${text}`;
  // |value - f(x)| <= half a unit in the 17th digit.
  const half = mul(
    rational(5n),
    k - 17 >= 0 ? rational(10n ** BigInt(k - 17)) : rational(1n, 10n ** BigInt(17 - k)),
  );
  const ok = decide(
    (p) => functionEnclosure(fn, x, p),
    ([lo, hi]) => {
      if (compare(sub(value, lo), half) <= 0 && compare(sub(hi, value), half) <= 0) return true;
      if (compare(sub(value, hi), half) > 0 || compare(sub(lo, value), half) > 0) return false;
      return null;
    },
    'the 17 digits',
  );
  return ok ? null : `${text} is not f(x) to 17 digits`;
}

/** The correctly rounded (nearest-even) value of f(x) in fmt. */
export function refModel(fn: 'tanh' | 'ex2', x: Rational, fmt: RefFormat): number {
  // Far outside the format, skip the enclosure.
  if (fn === 'ex2' && compare(x, rational(BigInt(fmt.bias + 2))) >= 0) return fmt.infBits;
  if (fn === 'ex2' && compare(x, rational(BigInt(-fmt.bias - fmt.fractionBits - 2))) < 0) return 0;
  for (const p of PRECISIONS) {
    const [lo, hi] = functionEnclosure(fn, x, p);
    const a = nearest(lo, fmt);
    if (a === nearest(hi, fmt)) return a;
  }
  throw new Error('approx reference: model never settled');
}

/** Round-to-nearest-even by value search: |q| between two neighbouring magnitudes. */
function nearest(q: Rational, fmt: RefFormat): number {
  const negative = q.num < 0n;
  const sign = negative ? fmt.signMask : 0;
  const m = abs(q);
  const M = fmt.maxFiniteBits;
  const max = valueAt(M, fmt);
  const threshold = add(max, mul(sub(max, valueAt(M - 1, fmt)), rational(1n, 2n)));
  if (compare(m, threshold) >= 0) return sign + fmt.infBits;
  if (compare(m, max) >= 0) return sign + M;
  // The largest magnitude pattern at most m.
  let lo = 0;
  let hi = M;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (compare(valueAt(mid, fmt), m) <= 0) lo = mid;
    else hi = mid - 1;
  }
  if (compare(valueAt(lo, fmt), m) === 0) return sign + lo;
  const c = compare(sub(m, valueAt(lo, fmt)), sub(valueAt(lo + 1, fmt), m));
  return sign + (c < 0 ? lo : c > 0 ? lo + 1 : lo % 2 === 0 ? lo : lo + 1);
}
