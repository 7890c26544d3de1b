/**
 * The reference model of block quantization (issue 26, item 1), written from the issue's
 * definitions without the engine's code: exact rationals (rational.ts), every binary32 rounding
 * a neighbour search (neighbour-round.ts), every cvt the independent cvt reference
 * (cvt-slowfloat.ts). Where the engine computes a rule through a PTX detour (ocp's floor(log2)
 * through cvt.rz of amax), this model takes the definition itself, so the two meet only if the
 * detour is right.
 *
 *   amax  = max |x_i|
 *   ocp   e = clamp(floor(log2 amax) − emax_elem, −127, 127); e = −127 for amax = 0
 *   rp/rz e from cvt.{rp,rz}.satfinite.ue8m0x2.f32 of RN(amax / max_elem)
 *   MX    x_i' = RN(x_i × 2^−e); elements cvt.rn.satfinite.<elem>x2.f32 (or .rs …x4 with rbits)
 *   NVFP4 g = RN(tensorAmax / 2688), 1 where that is 0; s = cvt.rn.satfinite.e4m3x2.f32 of
 *         RN(RN(amax / 6) / g); q = RN(s × g); x_i' = RN(x_i / q), or ±0 (x_i's sign) where q = 0
 *   decoded = element × 2^e (MX) or element × s × g (NVFP4), exactly; error = decoded − x_i
 */
import { REF_CVT_FORMATS, decodeCvt, type RefCvtFormatName } from './cvt-formats.ts';
import { refCvtEvaluate } from './cvt-slowfloat.ts';
import { roundRational } from './neighbour-round.ts';
import {
  abs,
  add,
  compare,
  div,
  isZero,
  mul,
  pow2,
  rational,
  sub,
  type Rational,
} from './rational.ts';
import { REF_FORMATS, classOf, decode } from './ref-formats.ts';

/** The table: element format, block size, max_elem, emax_elem. */
export const REF_SCHEMES = {
  'mxfp8-e4m3': { element: 'e4m3', block: 32, maxElem: rational(448n), emaxElem: 8 },
  'mxfp8-e5m2': { element: 'e5m2', block: 32, maxElem: rational(57344n), emaxElem: 15 },
  'mxfp6-e3m2': { element: 'e3m2', block: 32, maxElem: rational(28n), emaxElem: 4 },
  'mxfp6-e2m3': { element: 'e2m3', block: 32, maxElem: rational(15n, 2n), emaxElem: 2 },
  mxfp4: { element: 'e2m1', block: 32, maxElem: rational(6n), emaxElem: 2 },
  nvfp4: { element: 'e2m1', block: 16, maxElem: rational(6n), emaxElem: 2 },
} as const;
export type RefScheme = keyof typeof REF_SCHEMES;
type RefElement = (typeof REF_SCHEMES)[RefScheme]['element'];

export interface RefBlockRequest {
  readonly scheme: RefScheme;
  readonly scaleRule: 'ocp' | 'rp' | 'rz' | 'nvfp4';
  readonly values: readonly number[];
  readonly tensorAmax?: number;
  /** .rs: one rbits word per cvt of four elements; absent for .rn. */
  readonly rbits?: readonly number[];
}

export interface RefBlockResult {
  /** The scale's bits: UE8M0 (MX) or the e4m3 pattern (NVFP4). */
  readonly scale: number;
  /** NVFP4's global scale (binary32 bits); null for MX. */
  readonly global: number | null;
  /** The binary32 value each element cvt converts. */
  readonly scaled: readonly number[];
  /** The stored elements' bits. */
  readonly elements: readonly number[];
  /** element × factor, exactly. */
  readonly decoded: readonly Rational[];
  readonly errors: readonly Rational[];
  /** .rn only: the rounded |x_i'| lies beyond MAX_NORM, so .satfinite clamps it. */
  readonly saturated: readonly boolean[];
  readonly flushedToZero: readonly boolean[];
}

const F32 = REF_FORMATS.f32;
const SIGN = 0x80000000;

const valueOfF32 = (bits: number): Rational => decode(bits >>> 0, F32);
/** RN to binary32; an exact zero takes the given sign (a nonzero value keeps its own). */
const rn = (x: Rational, negativeZero = false): number =>
  roundRational(x, 'rn', F32, negativeZero) >>> 0;
const isNegativeBits = (bits: number) => bits >>> 31 === 1;

function floorLog2(m: Rational): number {
  let e = m.num.toString(2).length - m.den.toString(2).length;
  while (compare(pow2(e), m) > 0) e--;
  while (compare(pow2(e + 1), m) <= 0) e++;
  return e;
}

/** Where each element sits in the destination register (the Semantics block), a first. */
const SLOTS: Record<string, readonly (readonly [number, number])[]> = {
  x2_8: [
    [15, 8],
    [7, 0],
  ],
  x2_6: [
    [13, 8],
    [5, 0],
  ],
  x2_4: [
    [7, 4],
    [3, 0],
  ],
  x4_8: [
    [31, 24],
    [23, 16],
    [15, 8],
    [7, 0],
  ],
  x4_6: [
    [29, 24],
    [21, 16],
    [13, 8],
    [5, 0],
  ],
  x4_4: [
    [15, 12],
    [11, 8],
    [7, 4],
    [3, 0],
  ],
};

function slotsOf(element: RefElement, count: 2 | 4) {
  const width = element === 'e2m1' ? 4 : element === 'e4m3' || element === 'e5m2' ? 8 : 6;
  return SLOTS[`x${count}_${width}`]!;
}

/** The elements' bits from .rn x2 (or .rs x4) conversions of the scaled values. */
function convertElements(
  element: RefElement,
  scaled: readonly number[],
  rbits?: readonly number[],
) {
  const count = rbits ? 4 : 2;
  const form = rbits ? `cvt.rs.satfinite.${element}x4.f32` : `cvt.rn.satfinite.${element}x2.f32`;
  const slots = slotsOf(element, count);
  const out: number[] = [];
  for (let k = 0; k < scaled.length; k += count) {
    const [a, b, e, f] = scaled.slice(k, k + count).map((x) => BigInt(x));
    const d = refCvtEvaluate(form, {
      a: a!,
      b: b!,
      ...(rbits ? { e: e!, f: f!, rbits: BigInt(rbits[k / count]!) } : {}),
    });
    for (const [hi, lo] of slots)
      out.push(Number((d >> BigInt(lo)) & ((1n << BigInt(hi - lo + 1)) - 1n)));
  }
  return out;
}

/** .rn rounds |x| past MAX_NORM: beyond the midpoint to the next step, or on it with MAX odd. */
function roundsPastMax(x: Rational, element: RefElement): boolean {
  const fmt = REF_CVT_FORMATS[element as RefCvtFormatName];
  const top = decodeCvt(fmt.maxPattern, fmt);
  const below = decodeCvt(fmt.maxPattern - 1n, fmt);
  if (top.kind !== 'finite' || below.kind !== 'finite') throw new Error('no MAX_NORM');
  const midpoint = add(top.q, mul(sub(top.q, below.q), rational(1n, 2n)));
  const c = compare(abs(x), midpoint);
  return c > 0 || (c === 0 && fmt.maxPattern % 2n === 1n);
}

export function refQuantizeBlock(request: RefBlockRequest): RefBlockResult {
  const scheme = REF_SCHEMES[request.scheme];
  const { values } = request;
  if (values.length !== scheme.block) throw new Error('wrong block length');
  for (const v of values)
    if (classOf(v >>> 0, F32) === 'inf' || classOf(v >>> 0, F32).endsWith('nan'))
      throw new Error('a block holds finite values');
  const xs = values.map(valueOfF32);
  const amax = xs.reduce((m, x) => (compare(abs(x), m) > 0 ? abs(x) : m), rational(0n));

  let scale: number;
  let global: number | null = null;
  let factor: Rational;
  let scaled: number[];
  if (request.scaleRule === 'nvfp4') {
    const dividend = request.tensorAmax === undefined ? amax : valueOfF32(request.tensorAmax);
    const g0 = rn(div(dividend, rational(2688n)));
    global = (g0 & 0x7fffffff) === 0 ? 0x3f800000 : g0;
    const g = valueOfF32(global);
    const t1 = rn(div(amax, rational(6n)));
    const t2 = rn(div(valueOfF32(t1), g));
    scale = Number(
      (refCvtEvaluate('cvt.rn.satfinite.e4m3x2.f32', { a: BigInt(t2), b: BigInt(t2) }) >> 8n) &
        0xffn,
    );
    const s = decodeCvt(BigInt(scale), REF_CVT_FORMATS.e4m3);
    if (s.kind !== 'finite') throw new Error('a NaN block scale');
    const q = rn(mul(s.q, g));
    factor = mul(s.q, g);
    scaled =
      (q & 0x7fffffff) === 0
        ? values.map((v) => (v & SIGN) >>> 0)
        : xs.map((x, i) => rn(div(x, valueOfF32(q)), isNegativeBits(values[i]!)));
  } else {
    let e: number;
    if (request.scaleRule === 'ocp') {
      e = isZero(amax) ? -127 : Math.min(127, Math.max(-127, floorLog2(amax) - scheme.emaxElem));
    } else {
      const q = BigInt(rn(div(amax, scheme.maxElem)));
      const d = refCvtEvaluate(`cvt.${request.scaleRule}.satfinite.ue8m0x2.f32`, { a: q, b: q });
      e = Number((d >> 8n) & 0xffn) - 127;
    }
    scale = e + 127;
    factor = pow2(e);
    scaled = xs.map((x, i) => rn(mul(x, pow2(-e)), isNegativeBits(values[i]!)));
  }

  const elements = convertElements(scheme.element, scaled, request.rbits);
  const fmt = REF_CVT_FORMATS[scheme.element as RefCvtFormatName];
  const decoded = elements.map((bits) => {
    const v = decodeCvt(BigInt(bits), fmt);
    if (v.kind !== 'finite') throw new Error('a NaN element');
    return mul(v.q, factor);
  });
  return {
    scale,
    global,
    scaled,
    elements,
    decoded,
    errors: decoded.map((d, i) => sub(d, xs[i]!)),
    // An infinite x_i' (a quotient that overflowed) is past MAX_NORM as well.
    saturated: scaled.map(
      (s) =>
        request.rbits === undefined &&
        (classOf(s, F32) === 'inf' || roundsPastMax(valueOfF32(s), scheme.element)),
    ),
    flushedToZero: xs.map((x, i) => !isZero(x) && isZero(decoded[i]!)),
  };
}

/** The largest |error| and the root mean square of the errors (as a double). */
export function refErrorSummary(errors: readonly Rational[]): { max: Rational; rms: number } {
  const max = errors.reduce((m, e) => (compare(abs(e), m) > 0 ? abs(e) : m), rational(0n));
  const sumOfSquares = errors.reduce((s, e) => add(s, mul(e, e)), rational(0n));
  const mean = div(sumOfSquares, rational(BigInt(errors.length)));
  return { max, rms: Math.sqrt(ratioToNumber(mean)) };
}

/** num/den as a double (to within one ulp: 64 quotient bits, then one rounding). */
export function ratioToNumber(x: Rational): number {
  if (x.num === 0n) return 0;
  const negative = x.num < 0n;
  const n = negative ? -x.num : x.num;
  const k = 64 - (n.toString(2).length - x.den.toString(2).length);
  const q = k >= 0 ? (n << BigInt(k)) / x.den : n / (x.den << BigInt(-k));
  const half = Math.trunc(-k / 2);
  const v = Number(q) * 2 ** half * 2 ** (-k - half);
  return negative ? -v : v;
}
