/**
 * Exact enclosures of tanh(x), 2^x and 2^r (r rational) for the approximate forms' traces: a
 * pair of dyadic rationals lo <= value <= hi, as tight as a requested number of bits. The
 * engine's approximate results are decided in doubles; what the spec's error bound allows, and
 * the value a trace prints, are decided from these, exactly.
 *
 * Everything is BigInt fixed point with p fractional bits, every truncation directed (floor for
 * lower bounds, ceiling for upper ones) and every series tail bounded:
 *
 *   ln 2   = 2 atanh(1/3) = Σ_{k>=0} 2 / ((2k+1) 3^(2k+1))
 *   e^y    = Σ y^n / n!                       (0 <= y <= 1)
 *   2^f    = e^(f ln 2)                        (0 <= f < 1), and 2^x = 2^floor(x) 2^frac(x)
 *   tanh x = E / (E + 2), E = e^(2x) - 1       (0 < 2x < 1: E = 2x Σ (2x)^n / (n+1)!, relative)
 *   tanh x = 1 - 2 / (e^(2x) + 1)              (1/2 <= x < 32: e^(2x) = 2^k e^(2x - k ln 2))
 *   1 - 2^(1 - floor(2.88 x)) < tanh x < 1     (x >= 32: 2 e^(-2x) < 2^(1 - 2.885 x))
 */

/** A dyadic rational m × 2^e (m signed). */
export interface Dy {
  readonly m: bigint;
  readonly e: number;
}

export interface Enclosure {
  readonly lo: Dy;
  readonly hi: Dy;
}

export const dy = (m: bigint, e = 0): Dy => ({ m, e });

/** Bits of |n| (0 for 0): in hex, a quarter of the digits toString(2) would make. */
function bitLength(n: bigint): number {
  const magnitude = n < 0n ? -n : n;
  if (magnitude < 0x100000000n) return 32 - Math.clz32(Number(magnitude));
  const hex = magnitude.toString(16);
  return (hex.length - 1) * 4 + 32 - Math.clz32(parseInt(hex[0]!, 16));
}

/** The pair at a common exponent (the smaller one). */
function aligned(x: Dy, y: Dy): [bigint, bigint, number] {
  const e = Math.min(x.e, y.e);
  return [x.m << BigInt(x.e - e), y.m << BigInt(y.e - e), e];
}

export function dyAdd(x: Dy, y: Dy): Dy {
  const [a, b, e] = aligned(x, y);
  return { m: a + b, e };
}

export function dySub(x: Dy, y: Dy): Dy {
  const [a, b, e] = aligned(x, y);
  return { m: a - b, e };
}

export function dyMul(x: Dy, y: Dy): Dy {
  return { m: x.m * y.m, e: x.e + y.e };
}

export function dyCompare(x: Dy, y: Dy): -1 | 0 | 1 {
  if (x.m === 0n || y.m === 0n || x.m < 0n !== y.m < 0n) {
    const sx = x.m > 0n ? 1 : x.m < 0n ? -1 : 0;
    const sy = y.m > 0n ? 1 : y.m < 0n ? -1 : 0;
    return sx < sy ? -1 : sx > sy ? 1 : 0;
  }
  // Same sign, both nonzero. Far apart in exponent, the leading bits tell without aligning.
  if (Math.abs(x.e - y.e) > 4096) {
    const lx = bitLength(x.m) + x.e;
    const ly = bitLength(y.m) + y.e;
    if (lx !== ly) return lx < ly !== x.m < 0n ? -1 : 1;
  }
  const [a, b] = aligned(x, y);
  return a < b ? -1 : a > b ? 1 : 0;
}

function floorDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  return n % d !== 0n && n < 0n !== d < 0n ? q - 1n : q;
}

function ceilDiv(n: bigint, d: bigint): bigint {
  return -floorDiv(-n, d);
}

const ln2Cache = new Map<number, readonly [bigint, bigint]>();

/** ln 2 as [lo, hi] × 2^-p. */
function ln2Fixed(p: number): readonly [bigint, bigint] {
  const cached = ln2Cache.get(p);
  if (cached) return cached;
  const two = 2n << BigInt(p);
  let lo = 0n;
  let hi = 0n;
  // After K terms the rest is below 2/(3^(2K+1)) × 9/8 < 2^-p once 3^(2K+1) >= 2^(p+2).
  const terms = Math.ceil((p + 2) / 3) + 1;
  let power = 3n;
  for (let k = 0; k < terms; k++) {
    const den = BigInt(2 * k + 1) * power;
    lo += two / den;
    hi += ceilDiv(two, den);
    power *= 9n;
  }
  const bounds = [lo, hi + 1n] as const;
  ln2Cache.set(p, bounds);
  return bounds;
}

/**
 * Σ_{n>=0} y^n / (n + shift)! × shift! ... for shift 0 that is e^y; for shift 1 it is
 * (e^y - 1) / y. y in [ylo, yhi] × 2^-p with 0 <= ylo <= yhi <= 2^p. Returns [lo, hi] × 2^-p.
 * Every term is at most half the one before (y <= 1 <= (n + 1 + shift) / 2), so the rest after
 * a term is at most that term.
 */
function seriesFixed(ylo: bigint, yhi: bigint, p: number, shift: 0 | 1): [bigint, bigint] {
  const one = 1n << BigInt(p);
  let lo = 0n;
  for (let n = 0, term = one; term > 0n; n++) {
    lo += term;
    term = (term * ylo) / (BigInt(n + 1 + shift) * one);
  }
  let hi = 0n;
  for (let n = 0, term = one; ; n++) {
    hi += term;
    if (n >= 1 && term <= 1n) {
      hi += term; // the rest of the series
      break;
    }
    term = ceilDiv(term * yhi, BigInt(n + 1 + shift) * one);
  }
  return [lo, hi];
}

/** 2^f for f in [flo, fhi] × 2^-p, 0 <= flo <= fhi < 2^p: [lo, hi] × 2^-p. */
function exp2FractionFixed(flo: bigint, fhi: bigint, p: number): [bigint, bigint] {
  const [l2lo, l2hi] = ln2Fixed(p);
  const one = 1n << BigInt(p);
  return seriesFixed((flo * l2lo) / one, ceilDiv(fhi * l2hi, one), p, 0);
}

/**
 * 2^x for x = num / den (den > 0). `num / den` must be small enough for floor(x) to be a safe
 * integer; the caller handles the far ranges. Exact (lo = hi) for an integer x.
 */
export function exp2Enclosure(num: bigint, den: bigint, p: number): Enclosure {
  const n = floorDiv(num, den);
  const fracNum = num - n * den; // 0 <= fracNum < den
  const scale = Number(n);
  if (fracNum === 0n) {
    const exact = dy(1n, scale);
    return { lo: exact, hi: exact };
  }
  const one = 1n << BigInt(p);
  const [lo, hi] = exp2FractionFixed((fracNum * one) / den, ceilDiv(fracNum * one, den), p);
  return { lo: dy(lo, scale - p), hi: dy(hi, scale - p) };
}

/** tanh(x) for a dyadic x = (negative ? -1 : 1) × mant × 2^exp, x ≠ 0. */
export function tanhEnclosure(negative: boolean, mant: bigint, exp: number, p: number): Enclosure {
  const magnitude = tanhOfPositive(mant, exp, p);
  if (!negative) return magnitude;
  return { lo: dy(-magnitude.hi.m, magnitude.hi.e), hi: dy(-magnitude.lo.m, magnitude.lo.e) };
}

function tanhOfPositive(mant: bigint, exp: number, p: number): Enclosure {
  const leading = bitLength(mant) - 1 + exp; // floor(log2 x)
  const one = 1n << BigInt(p);
  if (leading >= 5) {
    // x >= 32: 1 - tanh x = 2 / (e^(2x) + 1) < 2 e^(-2x) = 2^(1 - 2x log2 e) < 2^(1 - 2.885x).
    const x = Number(mant) * 2 ** exp;
    const k = Math.min(4000, Math.floor(2.88 * x) - 1);
    return { lo: dySub(dy(1n), dy(1n, -k)), hi: dy(1n) };
  }
  if (leading < -2) {
    // 2x < 1/2: E = e^(2x) - 1 = y S with y = 2x and S = Σ y^n / (n+1)! in [1, 2); then
    // tanh x = y S / (y S + 2) = y Q, Q = S / (y S + 2), all relative to y, so tiny x keep
    // their precision.
    const yExp = exp + 1;
    const yFix = (shift: 'floor' | 'ceil') =>
      yExp + p >= 0
        ? mant << BigInt(yExp + p)
        : shift === 'floor'
          ? mant >> BigInt(-(yExp + p))
          : ceilDiv(mant, 1n << BigInt(-(yExp + p)));
    const ylo = yFix('floor');
    const yhi = yFix('ceil');
    const [slo, shi] = seriesFixed(ylo, yhi, p, 1);
    const qlo = (slo * one) / (2n * one + ceilDiv(yhi * shi, one));
    const qhi = ceilDiv(shi * one, 2n * one + (ylo * slo) / one);
    return { lo: dy(mant * qlo, yExp - p), hi: dy(mant * qhi, yExp - p) };
  }
  // 1/4 <= x < 32: e^(2x) = 2^k e^r with k = floor(2x / ln 2) and r = 2x - k ln 2 in [0, 1).
  const [l2lo, l2hi] = ln2Fixed(p);
  // 2x × 2^p, exact for every x with p fractional bits or fewer (16-bit inputs have at most 22).
  if (exp + 1 + p < 0) throw new RangeError('tanhEnclosure: x has more fraction bits than p');
  const y = mant << BigInt(exp + 1 + p);
  const k = y / l2hi;
  const rlo = y - k * l2hi;
  const rhi = y - k * l2lo;
  const [elo, ehi] = seriesFixed(rlo, rhi, p, 0);
  const shift = BigInt(k);
  // tanh x = 1 - 2 / (e^(2x) + 1), increasing in e^(2x).
  const lo = one - ceilDiv(2n * one * one, (elo << shift) + one);
  const hi = one - (2n * one * one) / ((ehi << shift) + one);
  return { lo: dy(lo, -p), hi: dy(hi, -p) };
}

/**
 * The enclosure's value rounded to `digits` significant decimal digits, in the notation of
 * Number.prototype.toPrecision; null when the two ends round differently (ask for more bits).
 */
export function decimalDigits(enclosure: Enclosure, digits: number): string | null {
  const lo = roundDecimal(enclosure.lo, digits);
  const hi = roundDecimal(enclosure.hi, digits);
  return lo === hi ? lo : null;
}

/** x rounded to `digits` significant decimal digits (ties to even), toPrecision's notation. */
export function roundDecimal(x: Dy, digits: number): string {
  if (x.m === 0n) return (0).toPrecision(digits);
  const negative = x.m < 0n;
  const m = negative ? -x.m : x.m;
  // |x| = num / den exactly.
  const num = x.e >= 0 ? m << BigInt(x.e) : m;
  const den = x.e >= 0 ? 1n : 1n << BigInt(-x.e);
  // Decimal exponent k of |x| (10^k <= |x| < 10^(k+1)), estimated, then corrected.
  let k = Math.floor((bitLength(m) - 1 + x.e) * Math.log10(2));
  let scaled: bigint;
  for (;;) {
    const shift = digits - 1 - k;
    const [n, d] =
      shift >= 0 ? [num * 10n ** BigInt(shift), den] : [num, den * 10n ** BigInt(-shift)];
    const q = n / d;
    const r = n - q * d;
    scaled = 2n * r > d || (2n * r === d && (q & 1n) === 1n) ? q + 1n : q;
    if (scaled >= 10n ** BigInt(digits)) k++;
    else if (scaled < 10n ** BigInt(digits - 1)) k--;
    else break;
  }
  const text = scaled.toString();
  const sign = negative ? '-' : '';
  if (k < -6 || k >= digits) {
    const mantissa = digits > 1 ? `${text[0]}.${text.slice(1)}` : text;
    return `${sign}${mantissa}e${k < 0 ? '-' : '+'}${Math.abs(k)}`;
  }
  if (k >= digits - 1) return sign + text;
  if (k >= 0) return `${sign}${text.slice(0, k + 1)}.${text.slice(k + 1)}`;
  return `${sign}0.${'0'.repeat(-k - 1)}${text}`;
}
