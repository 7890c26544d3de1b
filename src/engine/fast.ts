/**
 * The fast path: untraced evaluation for sweeps and batch. Same semantics as the traced path
 * (tests/fast-vs-traced.test.ts checks them bit for bit), but on doubles instead of BigInt:
 * every f16/bf16 product and every input is exact in a double, and a sum is kept exactly as
 * an unevaluated pair (s, err) by TwoSum, which fastRound turns into the correctly rounded value.
 */
import { isMixed, isPacked, laneFormat, type Form } from '../catalog/forms.ts';
import type { RoundingMode } from '../catalog/types.ts';
import { resolveForm } from './evaluate.ts';
import { FORMATS, toDouble, type FloatFormat } from './formats.ts';
import { has } from './lane.ts';
import { resolveOptions, type EngineOptions } from './options.ts';
import { approxResult, type ApproxFn } from './ops/approx.ts';
import { canonicalNaN } from './specialize.ts';

type LaneFn = (a: number, b: number, c: number) => number;

const decodeTables = new Map<string, Float64Array>();
/** Values of all 65,536 patterns of a 16-bit format (a cache of a pure function). */
function decodeTable(f: FloatFormat): Float64Array {
  let t = decodeTables.get(f.name);
  if (!t) {
    t = new Float64Array(65536);
    for (let i = 0; i < 65536; i++) t[i] = toDouble(i, f);
    decodeTables.set(f.name, t);
  }
  return t;
}

const f32Bits = new Uint32Array(1);
const f32Value = new Float32Array(f32Bits.buffer);
function f32ToDouble(bits: number): number {
  f32Bits[0] = bits;
  return f32Value[0]!;
}

/**
 * Correctly round the exact value s + err (|err| <= ulp(s)/2, s = fl(s + err)) to format f.
 * s must be finite and nonzero. Returns the signed encoding.
 */
// Scratch view for reading a double's exponent field (a pure function's workspace, not state).
const f64 = new Float64Array(1);
const f64Words = new Uint32Array(f64.buffer);
const HIGH_WORD = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0; // little-endian: word 1
const POW2_OFFSET = 1100;
const POW2 = Float64Array.from({ length: 2 * POW2_OFFSET }, (_, i) => 2 ** (i - POW2_OFFSET));

export function fastRound(s: number, err: number, f: FloatFormat, mode: RoundingMode): number {
  const negative = s < 0;
  const mag = negative ? -s : s;
  const e = negative ? -err : err;
  // floor(log2(mag)) straight from the exponent field: mag is a normal double here (>= 2^-300).
  f64[0] = mag;
  const E = ((f64Words[HIGH_WORD]! >>> 20) & 0x7ff) - 1023;
  const q = (E > f.emin ? E : f.emin) - f.manBits;
  const scaled = mag * POW2[POW2_OFFSET - q]!;
  const t = Math.floor(scaled);
  const frac = scaled - t;
  const base = (q - f.emin + f.manBits) * (f.manMask + 1) + t;
  let trunc = base;
  // Where the exact value lies between trunc and trunc + 1: 0 exact, 1 below half, 2 tie, 3 above.
  let position: 0 | 1 | 2 | 3;
  if (frac === 0) {
    if (e === 0) position = 0;
    else if (e > 0) position = 1;
    else {
      trunc = base - 1; // just below an encoding: far above the half-way point of the gap below
      position = 3;
    }
  } else if (frac < 0.5) position = 1;
  else if (frac > 0.5) position = 3;
  else position = e > 0 ? 3 : e < 0 ? 1 : 2;

  let up = false;
  if (position !== 0) {
    if (mode === 'rn') up = position === 3 || (position === 2 && trunc % 2 === 1);
    else if (mode === 'rp') up = !negative;
    else if (mode === 'rm') up = negative;
  }
  let enc = trunc + (up ? 1 : 0);
  if (enc >= f.infBits) {
    const toInfinity = mode === 'rn' || (mode === 'rp' && !negative) || (mode === 'rm' && negative);
    enc = toInfinity ? f.infBits : f.maxBits;
  }
  return negative ? enc + f.signMask : enc;
}

function arithmeticFast(form: Form, options: EngineOptions): LaneFn {
  const src = FORMATS[laneFormat(form.type)];
  const mixed = isMixed(form.type);
  const dst = mixed ? FORMATS.f32 : src;
  const mode = form.rounding ?? 'rn';
  const tab = decodeTable(src);
  const ftz = has(form, 'ftz');
  const sat = has(form, 'sat');
  const relu = has(form, 'relu');
  const tinyBefore = options.ftzTininess === 'before-rounding';
  const nan = canonicalNaN(dst);
  const minNormal = 2 ** src.emin;
  const one = dst.bias * 2 ** dst.manBits;
  const dstMinNormal = 2 ** dst.emin;
  const dstSubnormalLimit = 2 ** dst.manBits;
  const op = form.opcode;
  const flush = (x: number) => (ftz && x !== 0 && Math.abs(x) < minNormal ? (x < 0 ? -0 : 0) : x);

  return (a, b, c) => {
    const x = flush(tab[a]!);
    let product: number;
    let addend: number | null;
    if (op === 'mul') {
      product = x * flush(tab[b]!);
      addend = null;
    } else if (op === 'fma') {
      product = x * flush(tab[b]!);
      addend = mixed ? f32ToDouble(c) : flush(tab[c]!);
    } else {
      product = x;
      const y = mixed ? f32ToDouble(c) : flush(tab[b]!);
      addend = op === 'sub' ? -y : y;
    }
    let d: number;
    let tiny = false;
    const s = addend === null ? product : product + addend;
    if (Number.isNaN(s)) d = nan;
    else if (!Number.isFinite(s)) d = s > 0 ? dst.infBits : dst.infBits + dst.signMask;
    else if (s === 0) {
      // TwoSum's error is zero here: the exact sum is zero (IEEE 754 §6.3 for its sign).
      let negative = Object.is(s, -0);
      if (addend !== null && mode === 'rm' && !(Object.is(product, 0) && Object.is(addend, 0)))
        negative = true;
      d = negative ? dst.signMask : 0;
    } else {
      let err = 0;
      if (addend !== null) {
        const bp = s - product;
        err = product - (s - bp) + (addend - bp);
      }
      d = fastRound(s, err, dst, mode);
      const ms = Math.abs(s);
      tiny = ms < dstMinNormal || (ms === dstMinNormal && err !== 0 && err < 0 === s > 0);
    }
    if (ftz) {
      const mag = d >= dst.signMask ? d - dst.signMask : d;
      const flushIt = tinyBefore ? tiny && mag <= dst.infBits : mag > 0 && mag < dstSubnormalLimit;
      if (flushIt && mag !== 0) d = d >= dst.signMask ? dst.signMask : 0;
    }
    if (sat) {
      if (d > dst.infBits || d >= dst.signMask) d = 0;
      else if (d > one) d = one;
    }
    if (relu) {
      const mag = d >= dst.signMask ? d - dst.signMask : d;
      if (mag > dst.infBits) d = nan;
      else if (d >= dst.signMask) d = 0;
    }
    return d;
  };
}

function minMaxFast(form: Form): LaneFn {
  const f = FORMATS[laneFormat(form.type)];
  const tab = decodeTable(f);
  const isMin = form.opcode === 'min';
  const ftz = has(form, 'ftz');
  const nanMod = has(form, 'NaN');
  const xorsign = has(form, 'xorsign.abs');
  const sm = f.signMask;
  const nan = canonicalNaN(f);
  const isNaN16 = (v: number) => (v & 0x7fff) > f.infBits;
  const subnormalLimit = 2 ** f.manBits;
  const flush = (v: number) =>
    ftz && (v & 0x7fff) !== 0 && (v & 0x7fff) < subnormalLimit ? v & sm : v;
  return (a0, b0) => {
    let a = flush(a0);
    let b = flush(b0);
    let sign = 0;
    if (xorsign) {
      sign = (a ^ b) & sm;
      a &= 0x7fff;
      b &= 0x7fff;
    }
    const aN = isNaN16(a);
    const bN = isNaN16(b);
    let d: number;
    if (aN && bN) d = nan;
    else if (nanMod && (aN || bN)) d = nan;
    else if (aN) d = b;
    else if (bN) d = a;
    else {
      const x = tab[a]!;
      const y = tab[b]!;
      // -0.0 < +0.0: among equal values the one with the sign bit set is the smaller.
      const aLess = x < y || (x === y && a > b);
      d = isMin ? (aLess ? a : b) : aLess ? b : a;
    }
    if (xorsign && !isNaN16(d)) d = (d & 0x7fff) | sign;
    return d;
  };
}

function negAbsFast(form: Form): LaneFn {
  const f = FORMATS[laneFormat(form.type)];
  const ftz = has(form, 'ftz');
  const nan = canonicalNaN(f);
  const neg = form.opcode === 'neg';
  const subnormalLimit = 2 ** f.manBits;
  return (a0) => {
    let a = a0;
    const mag = a & 0x7fff;
    if (ftz && mag !== 0 && mag < subnormalLimit) a &= 0x8000;
    if ((a & 0x7fff) > f.infBits) return nan;
    return neg ? a ^ 0x8000 : a & 0x7fff;
  };
}

// Result tables of the approximate forms: 65,536 lookups each, built once per form and source
// (the model, or a measured table set, keyed by identity). A cache of a pure function.
const modelTables = new Map<string, Uint16Array>();
const measuredTables = new WeakMap<object, Map<string, Uint16Array>>();

function approxFast(form: Form, options: EngineOptions): LaneFn {
  const cache = options.approxTables
    ? (measuredTables.get(options.approxTables) ??
      measuredTables.set(options.approxTables, new Map()).get(options.approxTables)!)
    : modelTables;
  let table = cache.get(form.text);
  if (!table) {
    const built = new Uint16Array(65536);
    const ftz = has(form, 'ftz');
    for (let i = 0; i < 65536; i++) {
      built[i] = approxResult(
        form.opcode as ApproxFn,
        form.record,
        form.type,
        ftz,
        i,
        options,
      ).result;
    }
    cache.set(form.text, built);
    table = built;
  }
  const results = table;
  return (a) => results[a]!;
}

/** Compile a form to a plain function of register bits (a, b, c) → d bits. No .oob marks. */
export function compileFast(
  formOrText: Form | string,
  options?: Partial<EngineOptions>,
): (a: number, b: number, c: number) => number {
  const form = resolveForm(formOrText);
  const opts = resolveOptions(options);
  let lane: LaneFn;
  switch (form.opcode) {
    case 'add':
    case 'sub':
    case 'mul':
    case 'fma':
      lane = arithmeticFast(form, opts);
      break;
    case 'min':
    case 'max':
      lane = minMaxFast(form);
      break;
    case 'neg':
    case 'abs':
      lane = negAbsFast(form);
      break;
    case 'tanh':
    case 'ex2':
      lane = approxFast(form, opts);
      break;
  }
  if (!isPacked(form.type)) {
    // Registers are masked to their widths, as the hardware reads them: a 16-bit operand is the
    // low half of whatever is passed, a 32-bit one (mixed c) the low 32 bits.
    const [ma, mb, mc] = (['a', 'b', 'c'] as const).map((n) => {
      const op = form.operands.find((o) => o.name === n);
      return op && op.bits === 32 ? 0xffffffff : 0xffff;
    }) as [number, number, number];
    return (a, b, c) => lane((a & ma) >>> 0, (b & mb) >>> 0, (c & mc) >>> 0);
  }
  return (a, b, c) =>
    (lane(a & 0xffff, b & 0xffff, c & 0xffff) | (lane(a >>> 16, b >>> 16, c >>> 16) << 16)) >>> 0;
}
