/**
 * The fast path of add, sub, mul and fma (half and mixed precision): the semantics of
 * semantics/arithmetic.ts and the pipeline's rules (pipeline.ts) on doubles instead of bigints.
 * Every f16/bf16 value and every product of two is exact in a double; a sum is kept exactly as
 * the unevaluated pair (s, err) of TwoSum, which roundPair (round-pair.ts) turns into the
 * correctly rounded value. The batch's .rn forms take a shorter way, proven equal: they round the
 * double sum through binary32 (nearest-binary32.ts) and hand what that cannot decide to the pair.
 * NVIDIA's rules are numeric-rules.ts's (nvidia-rules.ts on numbers, checked against it on every
 * pattern) and, for the sign of an exact zero, nvidia-rules.ts's own. tests/fast-vs-pipeline.test.ts
 * checks every form against the pipeline bit for bit.
 *
 * Written for the JIT: what a form needs is a plain data plan, and module-level functions
 * evaluate any plan. (Closures specialised per form would be faster alone but slower together:
 * once several forms are compiled, the JIT can no longer fold their captured values, and a call
 * through many closures is not inlined.)
 */
import type { Form } from '../../catalog/instruction.ts';
import type { AnyModifier } from '../../catalog/modifiers.ts';
import { exactZeroIsNegative, type TininessReading } from '../nvidia-rules.ts';
import type { EngineOptions } from '../options.ts';
import {
  binary32Rounding,
  NEAREST_TIE,
  nearestBf16OfBinary32,
  nearestBinary32OfTwoTerms,
  nearestF16OfBinary32,
} from './nearest-binary32.ts';
import { NUMERIC_FORMATS, valueTable, type NumericFormat } from './numeric-format.ts';
import {
  canonicalNaN,
  flushSubnormal,
  flushTinyResult,
  oobForcesZero,
  relu,
  saturate,
} from './numeric-rules.ts';
import type { FastBatch, OperationPath } from './path.ts';
import { modeCode, pairIsTiny, roundPair, type ModeCode, type PairRounding } from './round-pair.ts';

const f32Bits = new Uint32Array(1);
const f32Value = new Float32Array(f32Bits.buffer);
function f32ToDouble(bits: number): number {
  f32Bits[0] = bits;
  return f32Value[0]!;
}

/** What a form needs of the rules, as plain data (see the header). */
interface ArithmeticPlan {
  readonly src: NumericFormat;
  readonly dst: NumericFormat;
  /** Each source pattern's value, after .ftz's input flush where the form has .ftz. */
  readonly values: Float32Array;
  readonly mode: ModeCode;
  readonly rounding: PairRounding;
  /** The exact value is product + addend: a·b + c, a·b, a ± b, or convert(a) ± c. */
  readonly product: 0 | 1;
  /** Where the addend comes from (numbers, not strings: compared on every evaluation). */
  readonly addend: typeof NO_ADDEND | typeof ADDEND_B | typeof ADDEND_C | typeof ADDEND_F32_C;
  // Flags as 0 or 1, not booleans: the JIT then tests a small integer instead of any value's
  // truthiness.
  readonly negateAddend: 0 | 1;
  readonly ftz: 0 | 1;
  readonly sat: 0 | 1;
  readonly relu: 0 | 1;
  readonly oob: 0 | 1;
  /** 1 when a rounded result has more to do: .ftz, .sat or .relu. */
  readonly finish: 0 | 1;
  /**
   * 1 for round to nearest: the batch then rounds through binary32 (nearest-binary32.ts, NEAREST_KERNELS),
   * and keeps TwoSum and roundPair for what that cannot decide.
   */
  readonly nearest: 0 | 1;
  readonly reading: TininessReading;
  readonly oobPattern: number;
}

const NO_ADDEND = 0;
const ADDEND_B = 1;
const ADDEND_C = 2;
const ADDEND_F32_C = 3;

function arithmeticPlan(form: Form, options: EngineOptions): ArithmeticPlan {
  const element = form.elements[0]!;
  const src = NUMERIC_FORMATS[element.inputs[0]!.format as 'f16' | 'bf16'];
  const dst = NUMERIC_FORMATS[element.dest.format as 'f16' | 'bf16' | 'f32'];
  const mixed = form.family === 'mixed';
  const op = form.operation;
  const has = (modifier: AnyModifier) => form.modifiers.includes(modifier);
  const ftz = has('ftz');
  const rounding = (form.rounding ?? 'rn') as PairRounding;
  return {
    src,
    dst,
    values: operandValues(src, ftz),
    mode: modeCode(rounding),
    rounding,
    product: op === 'mul' || op === 'fma' ? 1 : 0,
    addend: op === 'mul' ? NO_ADDEND : mixed ? ADDEND_F32_C : op === 'fma' ? ADDEND_C : ADDEND_B,
    negateAddend: op === 'sub' ? 1 : 0,
    ftz: ftz ? 1 : 0,
    sat: has('sat') ? 1 : 0,
    relu: has('relu') ? 1 : 0,
    oob: has('oob') ? 1 : 0,
    finish: ftz || has('sat') || has('relu') ? 1 : 0,
    nearest: rounding === 'rn' ? 1 : 0,
    reading: options.ftzTininess,
    oobPattern: options.oobNanBits,
  };
}

function arithmeticLane(p: ArithmeticPlan, a: number, b: number, c: number): number {
  return arithmeticLaneIn(p, p.src, p.dst, p.values, a, b, c);
}

/**
 * arithmeticLane with the formats and the value table passed apart from the plan: a batch loop
 * that passes module-level constants (the KERNELS loops) lets the JIT fold the formats' fields into
 * the rounding instead of reading them off the plan for every element.
 */
function arithmeticLaneIn(
  p: ArithmeticPlan,
  src: NumericFormat,
  dst: NumericFormat,
  values: Float32Array,
  a: number,
  b: number,
  c: number,
): number {
  if (p.oob !== 0 && oobForcesZero(a, b, src, p.oobPattern)) return 0;
  const product = p.product !== 0 ? values[a]! * values[b]! : values[a]!;
  const source = p.addend;
  const second =
    source === ADDEND_B
      ? values[b]!
      : source === ADDEND_C
        ? values[c]!
        : source === NO_ADDEND
          ? 0
          : f32ToDouble(c);
  const addend = p.negateAddend !== 0 ? -second : second;
  return resultOfTerms(p, dst, product, addend, source === NO_ADDEND ? 1 : 0);
}

/**
 * Every rule after the exact terms: the exact value product + addend (kept exactly by TwoSum) as
 * the form's result — NaN, infinity, an exact zero's sign, the rounding, then .ftz, .sat, .relu.
 * productAlone: the form has no addend (mul), so a zero is a product's zero.
 */
function resultOfTerms(
  p: ArithmeticPlan,
  dst: NumericFormat,
  product: number,
  addend: number,
  productAlone: 0 | 1,
): number {
  const s = product + addend;
  // The common case, kept small so that the JIT inlines it into the batch loop: a finite,
  // nonzero sum, rounded, and neither .ftz, .sat nor .relu.
  if (s !== 0 && Math.abs(s) < Infinity) {
    const err = twoSumError(product, addend, s);
    const d = roundPair(s, err, dst, p.mode);
    return p.finish === 0 ? d : finishRounded(p, dst, d, s, err);
  }
  // NaN, infinity or an exact zero (TwoSum's error is zero when s is).
  const d =
    s !== s
      ? canonicalNaN(dst)
      : s !== 0
        ? dst.infBits + (s < 0 ? dst.signMask : 0)
        : exactZeroSum(p, dst, product, addend, productAlone === 1);
  return p.finish === 0 ? d : clampResult(p, dst, d);
}

/** TwoSum (Knuth): s + err is exactly product + addend, where s is their sum in doubles. */
function twoSumError(product: number, addend: number, s: number): number {
  const bp = s - product;
  return product - (s - bp) + (addend - bp);
}

/** The bits of an exact zero sum (or product, when there is no addend): its sign by the rules. */
function exactZeroSum(
  p: ArithmeticPlan,
  dst: NumericFormat,
  product: number,
  addend: number,
  productAlone: boolean,
): number {
  return exactZeroBits(
    p,
    dst,
    Object.is(product, -0) ? 1 : 0,
    productAlone ? -1 : Object.is(addend, -0) ? 1 : addend === 0 ? 0 : 2,
  );
}

/** A rounded result under .ftz (the tiny result flushed), then .sat or .relu. */
function finishRounded(p: ArithmeticPlan, dst: NumericFormat, d: number, s: number, err: number) {
  const flushed =
    p.ftz !== 0 ? flushTinyResult(d, dst, pairIsTiny(s, err, dst, p.mode, p.reading)) : d;
  return clampResult(p, dst, flushed);
}

/** .sat or .relu of a result, where the form has one. */
function clampResult(p: ArithmeticPlan, dst: NumericFormat, d: number): number {
  return p.sat !== 0 ? saturate(d, dst) : p.relu !== 0 ? relu(d, dst) : d;
}

/**
 * The bits of an exact zero result. productSign: 1 when the product (or first term) is -0;
 * addend: -1 none (a product alone), 0 a +0 addend, 1 a -0 addend, 2 a nonzero addend.
 */
function exactZeroBits(
  p: ArithmeticPlan,
  dst: NumericFormat,
  productSign: number,
  addend: number,
): number {
  const negative = exactZeroIsNegative(
    addend === -1
      ? { of: 'product', negative: productSign === 1 }
      : {
          of: 'sum',
          bothZeroSameSign: addend !== 2 && productSign === addend,
          termNegative: productSign === 1,
          mode: p.rounding,
        },
  );
  return negative ? dst.signMask : 0;
}

const operandTables = new Map<string, Float32Array>();
/**
 * Each source pattern's value, after .ftz's input flush where the form has one (a cache of a
 * pure function). Every f16 and bf16 value is exact in binary32: a Float32Array holds them in
 * half the memory of doubles, and the table is read for every operand of every evaluation.
 */
function operandValues(f: NumericFormat, ftz: boolean): Float32Array {
  const key = `${f.name}${ftz ? '.ftz' : ''}`;
  let t = operandTables.get(key);
  if (!t) {
    const values = valueTable(f);
    t = new Float32Array(values);
    // .ftz: "flushes subnormal inputs … to sign-preserving zero" (the rule, on every pattern).
    if (ftz) for (let i = 0; i < 65536; i++) t[i] = values[flushSubnormal(i, f)]!;
    operandTables.set(key, t);
  }
  return t;
}

const F16 = NUMERIC_FORMATS.f16;
const BF16 = NUMERIC_FORMATS.bf16;
const F32 = NUMERIC_FORMATS.f32;
/**
 * Elements a kernel call evaluates (and registers a packed batch splits into lanes) at a time:
 * few enough that the JIT compiles a kernel whole after a few calls, instead of replacing its
 * running loop midway (on-stack replacement), whose code measured up to a fifth slower.
 */
const CHUNK = 4096;

/** The workspace of the roundings through binary32, a constant of this module (see nearest-binary32.ts). */
const ROUNDING = binary32Rounding();
/**
 * The operand values of the f16/bf16 forms, constants of this module for NEAREST_KERNELS:
 * the JIT folds a constant table's bounds into the loop instead of reading them off the plan.
 */
const F16_VALUES = operandValues(F16, false);
/** The same for the .ftz forms (subnormal inputs flushed; only f16 has .ftz arithmetic). */
const F16_FTZ_VALUES = operandValues(F16, true);
/** The encoding of f16's smallest normal, 2^-14. */
const MIN_NORMAL_F16 = F16.manMask + 1;
/**
 * Indices of the elements a nearest kernel left to the exact path (at most CHUNK a call, twice
 * that with .oob): a workspace, as kernels run one at a time and never call each other.
 */
const PENDING = new Int32Array(2 * CHUNK);
/** The exact sums of a nearest kernel's chunk, from its terms loop to its rounding loop. */
const SUMS = new Float64Array(CHUNK);
const BF16_VALUES = operandValues(BF16, false);

/**
 * The batch loops of one-lane arithmetic, one per operation and source/destination format: each
 * writes the spec's expression for its terms (a + b, a − b, a × b, a × b + c; the mixed forms
 * convert a and read c as .f32) and hands them to resultOfTerms, the rules that follow. Each is
 * its own function with its formats as constants, so the JIT compiles each with the formats and
 * the shape folded in (one loop taking them as values, or closures made by one factory, share
 * one compiled body that reads them for every element, at about half the speed).
 */
type ArithmeticKernel = (
  p: ArithmeticPlan,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  c: ArrayLike<number>,
  out: { [index: number]: number },
  from: number,
  to: number,
) => void;

/**
 * A nearest kernel: an ArithmeticKernel that leaves some elements to the exact path, listing
 * their indices in PENDING; returns how many. (The caller finishes them: a call after
 * the loop, inside the kernel, is code the JIT may compile before it ever ran, and deoptimize
 * on at every batch.)
 */
type NearestKernel = (...args: Parameters<ArithmeticKernel>) => number;

const KERNELS: Readonly<Record<string, ArithmeticKernel>> = {
  'add f16': (p, a, b, _c, out, from, to) => {
    const v = p.values;
    for (let i = from; i < to; i++)
      out[i] = resultOfTerms(p, F16, v[a[i]! & 0xffff]!, v[b[i]! & 0xffff]!, 0);
  },
  'sub f16': (p, a, b, _c, out, from, to) => {
    const v = p.values;
    for (let i = from; i < to; i++)
      out[i] = resultOfTerms(p, F16, v[a[i]! & 0xffff]!, -v[b[i]! & 0xffff]!, 0);
  },
  'mul f16': (p, a, b, _c, out, from, to) => {
    const v = p.values;
    for (let i = from; i < to; i++)
      out[i] = resultOfTerms(p, F16, v[a[i]! & 0xffff]! * v[b[i]! & 0xffff]!, 0, 1);
  },
  'fma f16': (p, a, b, c, out, from, to) => {
    const v = p.values;
    for (let i = from; i < to; i++) {
      const x = a[i]! & 0xffff;
      const y = b[i]! & 0xffff;
      out[i] =
        p.oob !== 0 && oobForcesZero(x, y, F16, p.oobPattern)
          ? 0
          : resultOfTerms(p, F16, v[x]! * v[y]!, v[c[i]! & 0xffff]!, 0);
    }
  },
  'add bf16': (p, a, b, _c, out, from, to) => {
    const v = p.values;
    for (let i = from; i < to; i++)
      out[i] = resultOfTerms(p, BF16, v[a[i]! & 0xffff]!, v[b[i]! & 0xffff]!, 0);
  },
  'sub bf16': (p, a, b, _c, out, from, to) => {
    const v = p.values;
    for (let i = from; i < to; i++)
      out[i] = resultOfTerms(p, BF16, v[a[i]! & 0xffff]!, -v[b[i]! & 0xffff]!, 0);
  },
  'mul bf16': (p, a, b, _c, out, from, to) => {
    const v = p.values;
    for (let i = from; i < to; i++)
      out[i] = resultOfTerms(p, BF16, v[a[i]! & 0xffff]! * v[b[i]! & 0xffff]!, 0, 1);
  },
  'fma bf16': (p, a, b, c, out, from, to) => {
    const v = p.values;
    for (let i = from; i < to; i++) {
      const x = a[i]! & 0xffff;
      const y = b[i]! & 0xffff;
      out[i] =
        p.oob !== 0 && oobForcesZero(x, y, BF16, p.oobPattern)
          ? 0
          : resultOfTerms(p, BF16, v[x]! * v[y]!, v[c[i]! & 0xffff]!, 0);
    }
  },
  'add f16>f32': (p, a, _b, c, out, from, to) => {
    const v = p.values;
    for (let i = from; i < to; i++)
      out[i] = resultOfTerms(p, F32, v[a[i]! & 0xffff]!, f32ToDouble(c[i]!), 0);
  },
  'sub f16>f32': (p, a, _b, c, out, from, to) => {
    const v = p.values;
    for (let i = from; i < to; i++)
      out[i] = resultOfTerms(p, F32, v[a[i]! & 0xffff]!, -f32ToDouble(c[i]!), 0);
  },
  'fma f16>f32': (p, a, b, c, out, from, to) => {
    const v = p.values;
    for (let i = from; i < to; i++)
      out[i] = resultOfTerms(
        p,
        F32,
        v[a[i]! & 0xffff]! * v[b[i]! & 0xffff]!,
        f32ToDouble(c[i]!),
        0,
      );
  },
  'add bf16>f32': (p, a, _b, c, out, from, to) => {
    const v = p.values;
    for (let i = from; i < to; i++)
      out[i] = resultOfTerms(p, F32, v[a[i]! & 0xffff]!, f32ToDouble(c[i]!), 0);
  },
  'sub bf16>f32': (p, a, _b, c, out, from, to) => {
    const v = p.values;
    for (let i = from; i < to; i++)
      out[i] = resultOfTerms(p, F32, v[a[i]! & 0xffff]!, -f32ToDouble(c[i]!), 0);
  },
  'fma bf16>f32': (p, a, b, c, out, from, to) => {
    const v = p.values;
    for (let i = from; i < to; i++)
      out[i] = resultOfTerms(
        p,
        F32,
        v[a[i]! & 0xffff]! * v[b[i]! & 0xffff]!,
        f32ToDouble(c[i]!),
        0,
      );
  },
};

/**
 * The batch loops of the .rn forms (plan.nearest), one per operation and format as
 * KERNELS. Each writes its terms' exact sum for a chunk (SUMS: the spec's expression, as in
 * KERNELS) and hands the chunk to a rounding loop through binary32 (below; two short loops keep
 * fewer values live than one long one, measured faster). The rounding flags what it cannot
 * decide — a tie the exact value may lie beside (fma; for add, sub and mul double rounding is
 * innocuous and the tie stands), an exact zero, whose sign is a rule of its own, under .ftz a
 * result that may be tiny — and the loop lists those elements for finishPending to evaluate on
 * the exact path after it.
 */
const NEAREST_KERNELS: Readonly<Record<string, NearestKernel>> = {
  'add f16': (p, a, b, c, out, from, to) => {
    const v = F16_VALUES;
    const sums = SUMS;
    for (let i = from; i < to; i++) sums[i - from] = v[a[i]! & 0xffff]! + v[b[i]! & 0xffff]!;
    return roundF16Sums(out, from, to);
  },
  'sub f16': (p, a, b, c, out, from, to) => {
    const v = F16_VALUES;
    const sums = SUMS;
    for (let i = from; i < to; i++) sums[i - from] = v[a[i]! & 0xffff]! - v[b[i]! & 0xffff]!;
    return roundF16Sums(out, from, to);
  },
  'mul f16': (p, a, b, c, out, from, to) => {
    const v = F16_VALUES;
    const sums = SUMS;
    for (let i = from; i < to; i++) sums[i - from] = v[a[i]! & 0xffff]! * v[b[i]! & 0xffff]!;
    return roundF16Products(out, from, to);
  },
  'fma f16': (p, a, b, c, out, from, to) => {
    const v = F16_VALUES;
    const sums = SUMS;
    for (let i = from; i < to; i++)
      sums[i - from] = v[a[i]! & 0xffff]! * v[b[i]! & 0xffff]! + v[c[i]! & 0xffff]!;
    const np = roundF16Fma(out, from, to);
    return p.oob === 0 ? np : withOob(p, a, b, F16, from, to, np);
  },
  // The .ftz forms: flushed inputs, and results that may be tiny listed for .ftz's flush.
  'add f16 ftz': (p, a, b, c, out, from, to) => {
    const v = F16_FTZ_VALUES;
    const sums = SUMS;
    for (let i = from; i < to; i++) sums[i - from] = v[a[i]! & 0xffff]! + v[b[i]! & 0xffff]!;
    return roundF16Ftz(out, from, to);
  },
  'sub f16 ftz': (p, a, b, c, out, from, to) => {
    const v = F16_FTZ_VALUES;
    const sums = SUMS;
    for (let i = from; i < to; i++) sums[i - from] = v[a[i]! & 0xffff]! - v[b[i]! & 0xffff]!;
    return roundF16Ftz(out, from, to);
  },
  'mul f16 ftz': (p, a, b, c, out, from, to) => {
    const v = F16_FTZ_VALUES;
    const sums = SUMS;
    for (let i = from; i < to; i++) sums[i - from] = v[a[i]! & 0xffff]! * v[b[i]! & 0xffff]!;
    return roundF16Ftz(out, from, to);
  },
  'fma f16 ftz': (p, a, b, c, out, from, to) => {
    const v = F16_FTZ_VALUES;
    const sums = SUMS;
    for (let i = from; i < to; i++)
      sums[i - from] = v[a[i]! & 0xffff]! * v[b[i]! & 0xffff]! + v[c[i]! & 0xffff]!;
    return roundF16FmaFtz(out, from, to);
  },
  'add bf16': (p, a, b, c, out, from, to) => {
    const v = BF16_VALUES;
    const sums = SUMS;
    for (let i = from; i < to; i++) sums[i - from] = v[a[i]! & 0xffff]! + v[b[i]! & 0xffff]!;
    return roundBf16(out, from, to);
  },
  'sub bf16': (p, a, b, c, out, from, to) => {
    const v = BF16_VALUES;
    const sums = SUMS;
    for (let i = from; i < to; i++) sums[i - from] = v[a[i]! & 0xffff]! - v[b[i]! & 0xffff]!;
    return roundBf16(out, from, to);
  },
  'mul bf16': (p, a, b, c, out, from, to) => {
    const v = BF16_VALUES;
    const sums = SUMS;
    for (let i = from; i < to; i++) sums[i - from] = v[a[i]! & 0xffff]! * v[b[i]! & 0xffff]!;
    return roundBf16(out, from, to);
  },
  'fma bf16': (p, a, b, c, out, from, to) => {
    const v = BF16_VALUES;
    const sums = SUMS;
    for (let i = from; i < to; i++)
      sums[i - from] = v[a[i]! & 0xffff]! * v[b[i]! & 0xffff]! + v[c[i]! & 0xffff]!;
    const np = roundBf16Fma(out, from, to);
    return p.oob === 0 ? np : withOob(p, a, b, BF16, from, to, np);
  },
  'add f16>f32': (p, a, b, c, out, from, to) => {
    const v = F16_VALUES;
    const sums = SUMS;
    for (let i = from; i < to; i++) sums[i - from] = v[a[i]! & 0xffff]! + f32ToDouble(c[i]!);
    return roundBinary32(out, from, to);
  },
  'sub f16>f32': (p, a, b, c, out, from, to) => {
    const v = F16_VALUES;
    const sums = SUMS;
    for (let i = from; i < to; i++) sums[i - from] = v[a[i]! & 0xffff]! - f32ToDouble(c[i]!);
    return roundBinary32(out, from, to);
  },
  'fma f16>f32': (p, a, b, c, out, from, to) => {
    const v = F16_VALUES;
    const sums = SUMS;
    for (let i = from; i < to; i++)
      sums[i - from] = v[a[i]! & 0xffff]! * v[b[i]! & 0xffff]! + f32ToDouble(c[i]!);
    return roundBinary32(out, from, to);
  },
  'add bf16>f32': (p, a, b, c, out, from, to) => {
    const v = BF16_VALUES;
    const sums = SUMS;
    for (let i = from; i < to; i++) sums[i - from] = v[a[i]! & 0xffff]! + f32ToDouble(c[i]!);
    return roundBinary32(out, from, to);
  },
  'sub bf16>f32': (p, a, b, c, out, from, to) => {
    const v = BF16_VALUES;
    const sums = SUMS;
    for (let i = from; i < to; i++) sums[i - from] = v[a[i]! & 0xffff]! - f32ToDouble(c[i]!);
    return roundBinary32(out, from, to);
  },
  'fma bf16>f32': (p, a, b, c, out, from, to) => {
    const v = BF16_VALUES;
    const sums = SUMS;
    for (let i = from; i < to; i++)
      sums[i - from] = v[a[i]! & 0xffff]! * v[b[i]! & 0xffff]! + f32ToDouble(c[i]!);
    return roundBinary32(out, from, to);
  },
};

// The rounding loops of the nearest kernels: the chunk's exact sums (SUMS) rounded through
// binary32 into out, the flagged elements' indices listed in PENDING; each returns how many.
// One function per destination and kind of sum, so that each compiles with its rounding's
// constants folded in. The list is appended to without a branch: a branch taken once in many
// thousand elements is one the JIT compiles before it ever ran, and deoptimizes on. Each loop
// stores the sum in the binary32 scratch itself (what nearestF16ViaBinary32 does) and rounds its
// bits: one call less to inline, measured 3% faster on add/mul.rn.f16.

/** f16 sums and differences (mostly normal results: the normal range is tried first). */
function roundF16Sums(out: { [index: number]: number }, from: number, to: number): number {
  let np = 0;
  for (let i = from; i < to; i++) {
    ROUNDING.value[0] = SUMS[i - from]!;
    const d = nearestF16OfBinary32(ROUNDING.bits[0]!, 0, 1, ROUNDING);
    out[i] = d;
    PENDING[np] = i;
    np += flagged(d);
  }
  return np;
}

/** f16 products (results over the whole range: the tables alone). */
function roundF16Products(out: { [index: number]: number }, from: number, to: number): number {
  let np = 0;
  for (let i = from; i < to; i++) {
    ROUNDING.value[0] = SUMS[i - from]!;
    const d = nearestF16OfBinary32(ROUNDING.bits[0]!, 0, 0, ROUNDING);
    out[i] = d;
    PENDING[np] = i;
    np += flagged(d);
  }
  return np;
}

/** f16 fma results: a tie of fround is flagged (double rounding is not innocuous here). */
function roundF16Fma(out: { [index: number]: number }, from: number, to: number): number {
  let np = 0;
  for (let i = from; i < to; i++) {
    ROUNDING.value[0] = SUMS[i - from]!;
    const d = nearestF16OfBinary32(ROUNDING.bits[0]!, 1, 0, ROUNDING);
    out[i] = d;
    PENDING[np] = i;
    np += flagged(d);
  }
  return np;
}

/**
 * f16 results of the .ftz forms' add, sub and mul: also listed where the result may be tiny (a
 * magnitude from the smallest subnormal up to the smallest normal, 2^-14, which a value a hair
 * below may round up to). The exact path flushes it with the tininess the decision reads; a
 * larger result is not tiny under either reading, and stands.
 */
function roundF16Ftz(out: { [index: number]: number }, from: number, to: number): number {
  let np = 0;
  for (let i = from; i < to; i++) {
    ROUNDING.value[0] = SUMS[i - from]!;
    const d = nearestF16OfBinary32(ROUNDING.bits[0]!, 0, 0, ROUNDING);
    out[i] = d;
    PENDING[np] = i;
    np += flagged(d) | mayBeTiny(d);
  }
  return np;
}

/** f16 results of the .ftz forms' fma: ties and results that may be tiny listed. */
function roundF16FmaFtz(out: { [index: number]: number }, from: number, to: number): number {
  let np = 0;
  for (let i = from; i < to; i++) {
    ROUNDING.value[0] = SUMS[i - from]!;
    const d = nearestF16OfBinary32(ROUNDING.bits[0]!, 1, 0, ROUNDING);
    out[i] = d;
    PENDING[np] = i;
    np += flagged(d) | mayBeTiny(d);
  }
  return np;
}

/** 1 when an f16 result's magnitude is nonzero and at most the smallest normal's, else 0. */
function mayBeTiny(d: number): number {
  return +(((d & 0x7fff) - 1) >>> 0 < MIN_NORMAL_F16);
}

/** bf16 sums, differences and products. */
function roundBf16(out: { [index: number]: number }, from: number, to: number): number {
  let np = 0;
  for (let i = from; i < to; i++) {
    const s = SUMS[i - from]!;
    ROUNDING.value[0] = s;
    const d = nearestBf16OfBinary32(ROUNDING.bits[0]!, 0, +(s === 0), ROUNDING);
    out[i] = d;
    PENDING[np] = i;
    np += flagged(d);
  }
  return np;
}

/** bf16 fma results, ties flagged. */
function roundBf16Fma(out: { [index: number]: number }, from: number, to: number): number {
  let np = 0;
  for (let i = from; i < to; i++) {
    const s = SUMS[i - from]!;
    ROUNDING.value[0] = s;
    const d = nearestBf16OfBinary32(ROUNDING.bits[0]!, 1, +(s === 0), ROUNDING);
    out[i] = d;
    PENDING[np] = i;
    np += flagged(d);
  }
  return np;
}

/** The mixed forms' binary32 results (a NaN or a zero is listed). */
function roundBinary32(out: { [index: number]: number }, from: number, to: number): number {
  let np = 0;
  for (let i = from; i < to; i++) {
    const d = nearestBinary32OfTwoTerms(SUMS[i - from]!, ROUNDING);
    out[i] = d;
    PENDING[np] = i;
    np += +(d < 0);
  }
  return np;
}

/** 1 when the rounding through binary32 flagged its result (a tie or an exact zero), else 0. */
function flagged(d: number): number {
  return (NEAREST_TIE - 1 - d) >>> 31;
}

/**
 * .oob: an OOB-NaN multiplicand makes the result zero. The elements with one join the list for
 * the exact path, which applies the rule (an element listed twice is evaluated twice, alike;
 * PENDING holds two chunks' worth). Appended without a branch, as the loops above.
 */
function withOob(
  p: ArithmeticPlan,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  f: NumericFormat,
  from: number,
  to: number,
  np: number,
): number {
  let n = np;
  for (let i = from; i < to; i++) {
    PENDING[n] = i;
    n += +oobForcesZero(a[i]! & 0xffff, b[i]! & 0xffff, f, p.oobPattern);
  }
  return n;
}

/**
 * A nearest kernel, then .sat or .relu over what it stored (outside the loop, which then has one
 * shape for every form), then the elements it left, evaluated on the exact path.
 */
function nearestThenExact(kernel: NearestKernel): ArithmeticKernel {
  return (p, a, b, c, out, from, to) => {
    const pending = kernel(p, a, b, c, out, from, to);
    if (p.finish !== 0) for (let i = from; i < to; i++) out[i] = clampResult(p, p.dst, out[i]!);
    finishPending(p, a, b, c, out, PENDING, pending);
  };
}

/**
 * Evaluate the listed elements on the exact path (arithmeticLane: TwoSum and roundPair, every
 * rule in order), overwriting what the nearest kernel stored for them.
 */
function finishPending(
  p: ArithmeticPlan,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  c: ArrayLike<number>,
  out: { [index: number]: number },
  pending: Int32Array,
  count: number,
): void {
  // The mixed forms' c is a 32-bit register; every other operand is a 16-bit lane.
  const cMask = p.addend === ADDEND_F32_C ? 0xffffffff : 0xffff;
  for (let k = 0; k < count; k++) {
    const i = pending[k]!;
    out[i] = arithmeticLane(p, a[i]! & 0xffff, b[i]! & 0xffff, (c[i]! & cMask) >>> 0);
  }
}

/**
 * An x2 form's batch through its lane kernel: the registers of a chunk are split into their
 * lower and upper lanes (each lane is the one-lane operation: PTX ISA 9.7.4, "d.x = a.x op b.x"),
 * the kernel runs on each, and the lanes are packed back, lane 0 in the low half. Only the
 * registers the form reads are split (an x2 form's registers are all 32 bits).
 */
function packedBatch(kernel: ArithmeticKernel, plan: ArithmeticPlan): FastBatch {
  let lanes: Uint32Array[] | null = null;
  return (registers, out, count) => {
    lanes ??= Array.from({ length: 8 }, () => new Uint32Array(CHUNK));
    const [aLo, aHi, bLo, bHi, cLo, cHi, dLo, dHi] = lanes as [
      Uint32Array,
      Uint32Array,
      Uint32Array,
      Uint32Array,
      Uint32Array,
      Uint32Array,
      Uint32Array,
      Uint32Array,
    ];
    const a = registers.a!;
    const b = registers.b;
    const c = registers.c;
    for (let from = 0; from < count; from += CHUNK) {
      const n = Math.min(CHUNK, count - from);
      splitLanes(a, from, n, aLo, aHi);
      if (b) splitLanes(b, from, n, bLo, bHi);
      if (c) splitLanes(c, from, n, cLo, cHi);
      kernel(plan, aLo, bLo, cLo, dLo, 0, n);
      kernel(plan, aHi, bHi, cHi, dHi, 0, n);
      for (let i = 0; i < n; i++) out[from + i] = (dLo[i]! | (dHi[i]! << 16)) >>> 0;
    }
  };
}

/** Registers [from, from + n) split into their lower and upper 16-bit lanes. */
function splitLanes(
  registers: ArrayLike<number>,
  from: number,
  n: number,
  lo: Uint32Array,
  hi: Uint32Array,
): void {
  for (let i = 0; i < n; i++) {
    const x = registers[from + i]!;
    lo[i] = x & 0xffff;
    hi[i] = x >>> 16;
  }
}

/** An empty register array: the kernels read only the registers their operation has. */
const NO_REGISTER = new Uint32Array(0);

/**
 * add, sub, mul and fma of one form: d of registers as numbers, and the batch (the form's
 * kernel: its .rn loop through binary32 with the exact path after it, or its exact loop).
 */
export function arithmeticPath(form: Form, options: EngineOptions): OperationPath {
  const plan = arithmeticPlan(form, options);
  const formats = plan.src === plan.dst ? plan.src.name : `${plan.src.name}>${plan.dst.name}`;
  const key = `${form.operation} ${formats}${plan.ftz !== 0 ? ' ftz' : ''}`;
  const kernel = plan.nearest !== 0 ? nearestThenExact(NEAREST_KERNELS[key]!) : KERNELS[key]!;
  if (form.elements.length > 1)
    return {
      words: (a, b, c) =>
        (arithmeticLane(plan, a & 0xffff, b & 0xffff, c & 0xffff) |
          (arithmeticLane(plan, a >>> 16, b >>> 16, c >>> 16) << 16)) >>>
        0,
      batch: packedBatch(kernel, plan),
    };
  // The mixed forms' c is a 32-bit register; every other operand is a 16-bit one.
  const cMask = plan.addend === ADDEND_F32_C ? 0xffffffff : 0xffff;
  return {
    words: (a, b, c) => arithmeticLane(plan, a & 0xffff, b & 0xffff, (c & cMask) >>> 0),
    batch: (registers, out, count) => {
      const a = registers.a!;
      const b = registers.b ?? NO_REGISTER;
      const c = registers.c ?? NO_REGISTER;
      for (let from = 0; from < count; from += CHUNK)
        kernel(plan, a, b, c, out, from, Math.min(from + CHUNK, count));
    },
  };
}
