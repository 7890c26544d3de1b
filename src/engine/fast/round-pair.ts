/**
 * The one rounding (rounding.ts roundToFormat) for the fast path: the exact value held as an
 * unevaluated pair of doubles s + err (a double alone where err is 0), rounded to a format of at
 * most 32 bits in .rn, .rz, .rm or .rp, and its tininess (IEEE 754 §7.5). The mode travels as a
 * small integer (comparing integers is cheaper than comparing strings).
 *
 * round-pair.test.ts checks roundPair and pairIsTiny against roundToFormat bit
 * for bit on the values where rounding is hard, in every format of at most 32 bits.
 */
import type { TininessReading } from '../nvidia-rules.ts';
import type { NumericFormat } from './numeric-format.ts';

/**
 * What the rounding needs of a format: its exponent range and its patterns as numbers. A
 * NumericFormat is one; so is a rounding geometry (cvt's, convert.ts), a format whose patterns
 * are positions in the order of values.
 */
export type RoundingGeometry = Pick<
  NumericFormat,
  'emin' | 'emax' | 'bias' | 'manBits' | 'manMask' | 'maxBits' | 'infBits' | 'signMask'
>;

export type ModeCode = 0 | 1 | 2 | 3;
const RN = 0;
const RM = 2;
const RP = 3;
/** The directed and nearest roundings an exact value rounds to here. */
export type PairRounding = 'rn' | 'rz' | 'rm' | 'rp';
const MODE_CODES: Readonly<Record<PairRounding, ModeCode>> = { rn: 0, rz: 1, rm: 2, rp: 3 };
export function modeCode(mode: PairRounding): ModeCode {
  return MODE_CODES[mode];
}

// Scratch view for reading a double's exponent field (a pure function's workspace, not state).
const f64 = new Float64Array(1);
const f64Words = new Uint32Array(f64.buffer);
// Typed arrays use the platform's byte order; every platform Node and the browsers run on is
// little-endian (the high word of a double is word 1). Fixed indices let the JIT fold them.
if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1)
  throw new Error('the engine needs a little-endian platform');
const POW2_OFFSET = 1100;
const POW2 = Float64Array.from({ length: 2 * POW2_OFFSET }, (_, i) => 2 ** (i - POW2_OFFSET));

/** floor(log2 |x|) of a normal double, straight from its exponent field. */
function exponentOf(mag: number): number {
  f64[0] = mag;
  return ((f64Words[1]! >>> 20) & 0x7ff) - 1023;
}

/**
 * Where the exact value s + err lies between the multiples of the quantum 2^q, packed as
 * trunc × 4 + position: `trunc` is the number of whole quanta below |s + err| and `position`
 * says where in the gap it is — 0 exact, 1 below half, 2 half way, 3 above half. Needs
 * |err| <= ulp(s)/2 (s = fl(s + err)) and s a nonzero normal double; `e` is err with the sign of
 * the magnitude (err × sign(s)). Packed into one number so the fast path allocates nothing.
 */
function quantaOf(mag: number, e: number, q: number): number {
  const scaled = mag * POW2[POW2_OFFSET - q]!;
  const t = Math.floor(scaled);
  const frac = scaled - t;
  if (frac === 0) {
    if (e === 0) return t * 4;
    if (e > 0) return t * 4 + 1;
    // Just below a multiple of the quantum: far above the half-way point of the gap below.
    return t * 4 - 1;
  }
  if (frac < 0.5) return t * 4 + 1;
  if (frac > 0.5) return t * 4 + 3;
  return t * 4 + (e > 0 ? 3 : e < 0 ? 1 : 2);
}

function roundsUp(
  mode: ModeCode,
  negative: boolean,
  position: 0 | 1 | 2 | 3,
  truncOdd: boolean,
): boolean {
  if (position === 0) return false;
  if (mode === RN) return position === 3 || (position === 2 && truncOdd);
  return mode === RP ? !negative : mode === RM ? negative : false;
}

/**
 * roundToFormat for the exact value s + err (|err| <= ulp(s)/2, s = fl(s + err); s finite and
 * nonzero; |s·err| not below 2^-1074, which holds for every sum and product of f16/bf16/f32
 * values): the signed encoding of the correctly rounded value of format f.
 *
 * The magnitude is scaled so that the quantum of its binade (or of the subnormal range) is 1;
 * rounding to an integer is then the whole job, and the floating-point unit does round-to-
 * nearest-even itself (y + 1.5·2^52 − 1.5·2^52). err only matters where |s| is exactly half way
 * (round to nearest) or exactly an integer (the directed modes), and only by its sign. No branch
 * depends on the data except those rare cases: on random operands a mispredicted branch costs
 * more than the rounding.
 */
export function roundPair(s: number, err: number, f: RoundingGeometry, mode: ModeCode): number {
  // Kept small, each mode's work in a function of its own, so that the JIT inlines the one a
  // loop uses (a call that never ran is not inlined and costs nothing).
  return mode === RN ? roundPairNearest(s, err, f) : roundPairDirected(s, err, f, mode);
}

/** roundPair to nearest, ties to even. */
function roundPairNearest(s: number, err: number, f: RoundingGeometry): number {
  f64[0] = s;
  const hi = f64Words[1]! | 0;
  // Exponent of |s|, not below the subnormal range's.
  const E = maxInt(((hi >>> 20) & 0x7ff) - 1023, f.emin);
  const y = Math.abs(s) * POW2[POW2_OFFSET + f.manBits - E]!;
  let t = y + ROUND_TO_INTEGER - ROUND_TO_INTEGER;
  // Exactly half way: err decides (rare: only a sum whose error TwoSum kept).
  if (Math.abs(y - t) === 0.5 && err !== 0) t = hairAbove(s, err) ? Math.ceil(y) : Math.floor(y);
  return packPair(minInt(E, f.emax + 1), t, hi >>> 31, f, RN);
}

/** roundPair toward zero, +infinity or -infinity. */
function roundPairDirected(s: number, err: number, f: RoundingGeometry, mode: ModeCode): number {
  f64[0] = s;
  const hi = f64Words[1]! | 0;
  const negative = hi >>> 31;
  const E = maxInt(((hi >>> 20) & 0x7ff) - 1023, f.emin);
  const y = Math.abs(s) * POW2[POW2_OFFSET + f.manBits - E]!;
  // err as seen from the magnitude: +1 a hair above |s|, -1 a hair below, 0 exact.
  const e = err === 0 ? 0 : hairAbove(s, err) ? 1 : -1;
  // Toward zero, or away from it (rp for a positive value, rm for a negative one).
  const down = Math.floor(y) - +(e < 0 && Math.floor(y) === y);
  const up = Math.ceil(y) + +(e > 0 && Math.ceil(y) === y);
  const t = awayFromZero(mode, negative) ? up : down;
  // A hair below a power of two belongs to the binade below (finer quanta).
  if (t < f.manMask + 1 && E > f.emin) return roundPairByQuanta(s, err, f, mode);
  return packPair(minInt(E, f.emax + 1), t, negative, f, mode);
}

/** err (nonzero) points away from zero, as s does: the exact magnitude is a hair above |s|. */
function hairAbove(s: number, err: number): boolean {
  return err > 0 === s > 0;
}

/** 1.5·2^52: adding and subtracting it rounds a double below 2^51 to an integer, ties to even. */
const ROUND_TO_INTEGER = 6755399441055744;

/** max(a, b) of two int32 values without a branch. */
function maxInt(a: number, b: number): number {
  const d = a - b;
  return a - (d & (d >> 31));
}

/**
 * min(a, b) of two int32 values without a branch (Math.min works in doubles and may branch; a
 * mispredicted branch on random data costs more than this whole function).
 */
function minInt(a: number, b: number): number {
  const d = a - b;
  return b + (d & (d >> 31));
}

/** 1 when the directed mode rounds a value of this sign away from zero, else 0. */
function awayFromZero(mode: ModeCode, negative: number): number {
  return mode === RP ? 1 - negative : mode === RM ? negative : 0;
}

/**
 * The encoding of significand × 2^(E - manBits) (E >= emin; the significand holds its leading
 * one, or none for a subnormal at E = emin): a carry out of the significand moves into the
 * exponent field. Anything from infinity's encoding up is overflow, which gives infinity or the
 * largest finite value by mode: a minimum picks that without a branch.
 */
function packPair(
  E: number,
  significand: number,
  negative: number,
  f: RoundingGeometry,
  mode: ModeCode,
): number {
  const enc = (E + f.bias - 1) * (f.manMask + 1) + significand;
  const overflow = f.maxBits + (mode === RN ? 1 : awayFromZero(mode, negative));
  return minInt(enc, overflow) + negative * f.signMask;
}

/** roundPair by counting quanta in doubles: every case, including subnormals and overflow. */
function roundPairByQuanta(s: number, err: number, f: RoundingGeometry, mode: ModeCode): number {
  const negative = s < 0;
  const mag = negative ? -s : s;
  const e = negative ? -err : err;
  const E = exponentOf(mag);
  const q = (E > f.emin ? E : f.emin) - f.manBits;
  const packed = quantaOf(mag, e, q);
  const trunc = packed >> 2;
  const position = (packed & 3) as 0 | 1 | 2 | 3;
  // Encodings are monotonic in the magnitude: the quanta below it are the encoding (carries into
  // the exponent field, and into the infinity pattern, fall out naturally).
  const base = trunc + (q - f.emin + f.manBits) * (f.manMask + 1);
  let enc = base + (roundsUp(mode, negative, position, (trunc & 1) === 1) ? 1 : 0);
  if (enc >= f.infBits) {
    const toInfinity = mode === RN || (mode === RP && !negative) || (mode === RM && negative);
    enc = toInfinity ? f.infBits : f.maxBits;
  }
  return negative ? enc + f.signMask : enc;
}

/**
 * Tininess of the exact value s + err (as roundPair takes it), before and after rounding
 * (IEEE 754 §7.5; see tinyAfterRounding).
 */
export function pairIsTiny(
  s: number,
  err: number,
  f: RoundingGeometry,
  mode: ModeCode,
  reading: TininessReading,
): boolean {
  const negative = s < 0;
  const mag = negative ? -s : s;
  const e = negative ? -err : err;
  const minNormal = POW2[POW2_OFFSET + f.emin]!;
  const before = mag < minNormal || (mag === minNormal && e < 0);
  if (!before || reading === 'before-rounding') return before;
  if (mag < minNormal / 2) return true;
  // In [2^(emin-1), 2^emin): rounded to manBits + 1 bits it reaches 2^emin only from all ones.
  const q = f.emin - 1 - f.manBits;
  const packed = quantaOf(mag, e, q);
  if (packed >> 2 !== 2 ** (f.manBits + 1) - 1) return true;
  return !roundsUp(mode, negative, (packed & 3) as 0 | 1 | 2 | 3, true);
}
