/**
 * One output element of `mma` / `wgmma`: d = c + Σ_{i<k} a_i·b_i, as the published,
 * hardware-validated models compute it (../shared/spec/beyond/tensor-cores.md; the PTX ISA says
 * only D = A × B + C, "the accumulation order, rounding and handling of subnormal inputs are
 * unspecified"). The model of each architecture is data (catalog/tensor-core-models.ts):
 *
 *   read:      a_i, b_i, c as their formats' values; tf32: the .b32 register with its low 13
 *              bits ignored ("will truncate lower 13 bits of the 32-bit input data")
 *   f64:       d = c; for i in 0 … k−1: d = fma(a_i, b_i, d)        // IEEE, rounded each time
 *   halves:    (Ampere, Ada: f16/bf16 k = 16, tf32 k = 8, fp8 k = 32 on Ada)
 *              d = fused(fused(c, a_0…a_(k/2−1), b_…), a_(k/2)…a_(k−1), b_…)
 *   otherwise: d = fused(c, a, b)
 *
 *   fused(c, a, b):
 *     specials:  any NaN operand, or a_i·b_i = ∞ × 0, or +∞ and −∞ among the terms
 *                    → canonical NaN (0x7FFFFFFF, 0x7FFF)
 *                else an infinite term → that infinity
 *     terms:     t_c = s_c × 2^e_c     (c's own format: 1 ≤ s < 2, a subnormal s < 1 at emin)
 *                t_i = (s_a·s_b) × 2^(e_a + e_b)            (exact, s_a·s_b in [1, 4))
 *                a zero at 2^−126
 *     E          = max of the exponents
 *     t'_j       = trunc(t_j / 2^(E−n)) × 2^(E−n)           (toward zero: no guard, round, sticky)
 *     S          = Σ t'_j                                    (exact)
 *     d          = round(S): f32 toward zero (23 fraction bits; 13 for FP8 on Ada mma and
 *                  Hopper wgmma), f16 to nearest even; subnormals kept
 *     S = 0      → −0 if every term is a −0, else +0         (decision mma-zero-sign)
 *                  sm_90 mma (measured): +0 always            (decision mma-zero-sign-sm90)
 *     overflow   → f32 truncated: the largest finite value     (decision mma-f32-overflow)
 *                  sm_90 mma (measured): ±∞                    (decision mma-f32-overflow-sm90)
 *
 * sm_90 m8n8k4 and FP8 mma.sync were measured to compute otherwise (a sequence of f32 additions;
 * not settled for FP8): they keep the model and name 'mma-sm90-differing-forms'.
 *
 * n is the architecture's (23 Volta, 24 Turing/Ampere/Ada, 25 Hopper/Blackwell), 13 for FP8
 * inputs where the model says so. Every rounding goes through roundToFormat (round.ts). The
 * code below follows the pseudo-code branch by branch and records each step in the account.
 */
import type { ElementFormatName } from '../../catalog/cvt-types.ts';
import type { AccumulatorType, MatrixForm, MatrixInputType } from '../../catalog/mma-forms-data.ts';
import {
  F64_CHAIN_DEFAULT_ROUNDING,
  FINAL_ROUNDING,
  tensorCoreModelFor,
  ZERO_TERM_EXPONENT,
  type InputFormats,
  type MatrixInstruction,
  type TensorArchitecture,
  type TensorCoreModel,
} from '../../catalog/tensor-core-models.ts';
import type { RoundingMode } from '../../catalog/types.ts';
import type { DecisionId } from '../decisions.ts';
import {
  classifyElement,
  decodeElement,
  elementWidth,
  encodeElement,
  exactValueOfElement,
  F64,
  hexOf,
} from '../element-format.ts';
import { add, exactValueOfDyadic, ilog2, isZero, multiply, ZERO, type Dyadic } from '../exact.ts';
import { FLOAT_FORMATS, FORMATS, type AnyFloatFormat } from '../formats.ts';
import { dyadicMagnitude, roundToFormat, type ExactMagnitude } from '../round.ts';
import type { ExactValue } from '../trace.ts';
import type { Value } from '../values.ts';
import type {
  Alignment,
  BitString,
  DotProductAccount,
  ElementReading,
  ElementRef,
  FinalRounding,
  FmaLinkAccount,
  FusedStepAccount,
  ModelAccount,
  DotOperandName,
  ResultGeometryName,
  SpecialsDecision,
  TermAccount,
} from './dot-product-account.ts';

export type * from './dot-product-account.ts';

/** What the element is computed for: the model, the instruction and the formats. */
export interface DotProductSetup {
  readonly model: TensorCoreModel;
  readonly instruction: MatrixInstruction;
  readonly atype: MatrixInputType;
  readonly btype: MatrixInputType;
  readonly ctype: AccumulatorType;
  readonly dtype: AccumulatorType;
  /** f64 only: the written rounding modifier (null or absent: .rn). */
  readonly rounding?: RoundingMode | null;
  /** False for a form only ptxas documents (decision 'mma-ptxas-only-forms'). */
  readonly documented?: boolean;
}

/**
 * A's row and B's column (k elements each) and C's element, as bit patterns of their formats:
 * each element's own width (e2m1 4 bits, e2m3 6, e4m3 8, f16 16, f64 64), except tf32, which is
 * the whole .b32 register.
 */
export interface DotProductOperands {
  readonly a: readonly bigint[];
  readonly b: readonly bigint[];
  readonly c: bigint;
}

export interface DotProductResult {
  /** d's bit pattern in its format. */
  readonly d: bigint;
  readonly account: DotProductAccount;
}

/** Input the element cannot be computed for, with where it is. */
export class DotProductInputError extends Error {
  constructor(
    readonly code: 'form' | 'target' | 'operand',
    message: string,
    readonly operand?: DotOperandName,
    readonly index?: number,
  ) {
    super(message);
  }
}

// --- Reading the inputs ---------------------------------------------------------------------

/** Low bits of a tf32 register that the instruction ignores. */
const TF32_IGNORED_BITS = 13;

/** Bits a pattern of the format may have: the element's width, or tf32's .b32 register. */
function inputWidth(format: ElementFormatName): number {
  return format === 'tf32' ? 32 : elementWidth(format);
}

interface Element {
  readonly ref: ElementRef;
  readonly format: ElementFormatName;
  /** The element's own pattern (tf32: the register's upper 19 bits). */
  readonly bits: bigint;
  readonly value: Value;
  /** The account's view of it (null when no account is kept). */
  readonly reading: ElementReading | null;
}

function readElement(
  bits: bigint,
  format: ElementFormatName,
  operand: DotOperandName,
  index: number,
  traced: boolean,
): Element {
  const width = inputWidth(format);
  if (typeof bits !== 'bigint' || bits < 0n || bits >= 1n << BigInt(width))
    throw new DotProductInputError(
      'operand',
      `${operand}[${index}] must be a ${width}-bit pattern of .${format}; got ${String(bits)}`,
      operand,
      index,
    );
  const own = format === 'tf32' ? bits >> BigInt(TF32_IGNORED_BITS) : bits;
  const value = decodeElement(own, format);
  if (!traced) return { ref: { operand, index }, format, bits: own, value, reading: null };
  const reading: ElementReading = {
    operand,
    index,
    format,
    bits: hexOf(own, elementWidth(format)),
    ...(format === 'tf32'
      ? {
          register: {
            bits: hexOf(bits, 32),
            ignored: (bits & ((1n << BigInt(TF32_IGNORED_BITS)) - 1n))
              .toString(2)
              .padStart(TF32_IGNORED_BITS, '0'),
          },
        }
      : {}),
    class: classifyElement(own, format),
    value: exactValueOfElement(own, format),
  };
  return { ref: { operand, index }, format, bits: own, value, reading };
}

// --- The plan: which branch of the pseudo-code the model takes ------------------------------

type Plan =
  | {
      readonly kind: 'fused';
      readonly n: number;
      readonly halves: boolean;
      readonly result: ResultGeometry;
      /** An exact-zero sum: −0 when every term is −0 ('ieee'), or +0 always (measured). */
      readonly zeroSum: 'ieee' | 'positive';
      /** An .f32 result past the largest finite value: truncated to it, or ±∞ (measured). */
      readonly f32Overflow: 'largest-finite' | 'infinity';
      readonly decisions: readonly DecisionId[];
    }
  | { readonly kind: 'fma-chain'; readonly mode: RoundingMode };

/** The format a fused step rounds to, and how its patterns become d's. */
interface ResultGeometry {
  readonly name: ResultGeometryName;
  readonly format: AnyFloatFormat;
  readonly mode: RoundingMode;
  /** d's format (f32 for e8m13). */
  readonly dtype: 'f16' | 'f32';
  /** A pattern of `format` times 2^shift is d's pattern. */
  readonly shift: number;
}

/** f32's exponent range with `fractionBits` fraction bits: "e8m13" (tensor-cores.md). */
function f32Geometry(fractionBits: number): ResultGeometry {
  if (fractionBits === FORMATS.f32.manBits)
    return { name: 'f32', format: FORMATS.f32, mode: FINAL_ROUNDING.f32, dtype: 'f32', shift: 0 };
  const f32 = FORMATS.f32;
  const width = 1 + f32.expBits + fractionBits;
  const expMask = (2 ** f32.expBits - 1) * 2 ** fractionBits;
  const format: AnyFloatFormat = {
    name: `e8m${fractionBits}`,
    width,
    expBits: f32.expBits,
    manBits: fractionBits,
    bias: f32.bias,
    emin: f32.emin,
    emax: f32.emax,
    signMask: 2 ** (width - 1),
    expMask,
    manMask: 2 ** fractionBits - 1,
    infBits: expMask,
    maxBits: expMask - 1,
    quietBit: 2 ** (fractionBits - 1),
    canonicalNaN: 2 ** (width - 1) - 1,
    signed: true,
    hasInfinity: true,
    nan: 'exponent-all-ones',
    hasSubnormals: true,
  };
  return {
    name: `e8m${fractionBits}`,
    format,
    mode: FINAL_ROUNDING.f32,
    dtype: 'f32',
    shift: f32.manBits - fractionBits,
  };
}

const F16_GEOMETRY: ResultGeometry = {
  name: 'f16',
  format: FORMATS.f16,
  mode: FINAL_ROUNDING.f16,
  dtype: 'f16',
  shift: 0,
};

/** The decision that names the model followed where an architecture's model is not settled. */
const UNSETTLED: Partial<Record<TensorArchitecture, DecisionId>> = {
  hopper: 'mma-fp8-f16-hopper',
  blackwell: 'mma-fp8-blackwell',
};

function planOf(setup: DotProductSetup, k: number): Plan {
  const { model, instruction, atype, btype, dtype } = setup;
  if (atype === 'f64')
    return { kind: 'fma-chain', mode: setup.rounding ?? F64_CHAIN_DEFAULT_ROUNDING };
  const both = (inputs: InputFormats) => inputs.includes(atype) && inputs.includes(btype);
  const reduced = model.reduced.find((r) => both(r.inputs) && r.instructions.includes(instruction));
  const n = reduced?.alignmentBits ?? model.alignmentBits;
  const result =
    dtype === 'f16' ? F16_GEOMETRY : f32Geometry(reduced?.f32FractionBits ?? FORMATS.f32.manBits);
  const halves = model.split.some((s) => both(s.inputs) && s.k === k);
  const unsettled = model.unsettled.some(
    (u) =>
      both(u.inputs) &&
      u.instructions.includes(instruction) &&
      u.results.includes(dtype as 'f16' | 'f32'),
  );
  const decision = unsettled ? UNSETTLED[model.architecture] : undefined;
  const decisions: DecisionId[] = decision ? [decision] : [];
  // What a GPU of the architecture was measured to do (the capture's instruction, mma): its
  // zero sign and overflow, except on the forms it computes otherwise, which keep the model.
  const measured = instruction === 'mma' ? model.measured : undefined;
  const differing = measured?.differing.some(
    (f) =>
      f.instructions.includes(instruction) && both(f.inputs) && (f.k === undefined || f.k === k),
  );
  if (differing) decisions.push('mma-sm90-differing-forms');
  const rules = measured && !differing ? measured : undefined;
  return {
    kind: 'fused',
    n,
    halves,
    result,
    zeroSum: rules?.zeroSum ?? 'ieee',
    f32Overflow: rules?.f32Overflow ?? 'largest-finite',
    decisions,
  };
}

const INPUT_TYPES: readonly string[] = [
  'f16',
  'bf16',
  'tf32',
  'f64',
  'e4m3',
  'e5m2',
  'e3m2',
  'e2m3',
  'e2m1',
] satisfies readonly MatrixInputType[];
const ACCUMULATOR_TYPES: readonly string[] = ['f16', 'f32', 'f64'] satisfies AccumulatorType[];

function checkSetup(setup: DotProductSetup, operands: DotProductOperands): number {
  const { atype, btype, ctype, dtype } = setup;
  for (const t of [atype, btype])
    if (!INPUT_TYPES.includes(t))
      throw new DotProductInputError('form', `.${String(t)} is no mma input type`);
  for (const t of [ctype, dtype])
    if (!ACCUMULATOR_TYPES.includes(t))
      throw new DotProductInputError('form', `.${String(t)} is no mma accumulator type`);
  const f64 = [atype, btype, ctype, dtype].filter((t) => t === 'f64').length;
  if (f64 !== 0 && f64 !== 4)
    throw new DotProductInputError('form', 'f64 mma takes .f64 for A, B, C and D alike');
  if (dtype === 'f16' && ctype !== 'f16')
    throw new DotProductInputError('form', 'an .f16 result takes an .f16 accumulator');
  if (!Array.isArray(operands.a) || !Array.isArray(operands.b))
    throw new DotProductInputError('operand', 'a and b must be lists of bit patterns');
  const k = operands.a.length;
  if (k === 0 || operands.b.length !== k)
    throw new DotProductInputError(
      'operand',
      `a and b need the same number of elements, at least one; got ${k} and ${operands.b.length}`,
      operands.b.length !== k ? 'b' : 'a',
    );
  return k;
}

/**
 * d = c + Σ a_i·b_i under `setup.model`, with the account of every step.
 * Throws DotProductInputError for input it cannot compute (wrong widths, counts or formats).
 */
export function dotProduct(setup: DotProductSetup, operands: DotProductOperands): DotProductResult {
  const { d, account } = evaluateElement(setup, operands, true);
  return { d, account: account! };
}

/** d alone: the same evaluation without the account (for batches). */
export function dotProductBits(setup: DotProductSetup, operands: DotProductOperands): bigint {
  return evaluateElement(setup, operands, false).d;
}

function evaluateElement(
  setup: DotProductSetup,
  operands: DotProductOperands,
  traced: boolean,
): { d: bigint; account: DotProductAccount | null } {
  const k = checkSetup(setup, operands);
  const a = operands.a.map((bits, i) => readElement(bits, setup.atype, 'a', i, traced));
  const b = operands.b.map((bits, i) => readElement(bits, setup.btype, 'b', i, traced));
  const c = readElement(operands.c, setup.ctype, 'c', 0, traced);
  const plan = planOf(setup, k);
  const decisions = new Set<DecisionId>(plan.kind === 'fused' ? plan.decisions : []);
  if (setup.documented === false) decisions.add('mma-ptxas-only-forms');
  if (setup.atype === 'tf32' || setup.btype === 'tf32') decisions.add('cvt-tf32-layout');

  // f64: the chain of fused multiply-adds.
  let d: bigint;
  let evaluation: DotProductAccount['evaluation'];
  if (plan.kind === 'fma-chain') {
    const chain = fmaChain(a, b, c, plan.mode, decisions, traced);
    d = chain.d;
    evaluation = { kind: 'fma-chain', links: chain.links };
  } else {
    // Halves: the first half's rounded result is the second half's c. Otherwise one fused step.
    const ranges: [number, number][] = plan.halves
      ? [
          [0, k / 2 - 1],
          [k / 2, k - 1],
        ]
      : [[0, k - 1]];
    const steps: FusedStepAccount[] = [];
    let accumulator: StepC = { from: 'operand', format: setup.ctype as 'f16' | 'f32', element: c };
    d = 0n;
    for (const [from, to] of ranges) {
      const step = fusedStep(plan, accumulator, a, b, from, to, decisions, traced);
      if (step.account) steps.push(step.account);
      d = step.d;
      accumulator = {
        from: 'first-half',
        format: plan.result.dtype,
        element: {
          ref: { operand: 'c', index: 0 },
          format: plan.result.dtype,
          bits: d,
          value: decodeElement(d, plan.result.dtype),
          reading: null,
        },
      };
    }
    evaluation = { kind: 'fused', steps };
  }
  if (!traced) return { d, account: null };

  const dFormat = plan.kind === 'fma-chain' ? 'f64' : plan.result.dtype;
  const model: ModelAccount = {
    architecture: setup.model.architecture,
    name: setup.model.name,
    sources: setup.model.sources,
    fused:
      plan.kind === 'fused'
        ? {
            alignmentBits: plan.n,
            halves: plan.halves,
            result: plan.result.name,
            mode: plan.result.mode,
          }
        : null,
    chain: plan.kind === 'fma-chain' ? { mode: plan.mode } : null,
  };
  return {
    d,
    account: {
      model,
      k,
      inputs: { a: a.map((e) => e.reading!), b: b.map((e) => e.reading!), c: c.reading! },
      evaluation,
      d: {
        format: dFormat,
        bits: hexOf(d, elementWidth(dFormat)),
        value: exactValueOfElement(d, dFormat),
      },
      decisions: [...decisions],
    },
  };
}

/** The setup of a form of the data (catalog/mma-forms-data.ts) on a target: its model and formats. */
export function setupOfForm(form: MatrixForm, target: string): DotProductSetup {
  const model = tensorCoreModelFor(target);
  if (!model)
    throw new DotProductInputError('target', `no published tensor-core model covers ${target}`);
  return {
    model,
    instruction: form.instruction,
    atype: form.atype,
    btype: form.btype,
    ctype: form.ctype,
    dtype: form.dtype,
    rounding: form.instruction === 'mma' ? form.rounding : null,
    documented: form.documented,
  };
}

function checkCount(form: MatrixForm, operands: DotProductOperands): void {
  const k = form.shape.k;
  const na = Array.isArray(operands.a) ? operands.a.length : 0;
  const nb = Array.isArray(operands.b) ? operands.b.length : 0;
  if (na !== k || nb !== k)
    throw new DotProductInputError(
      'operand',
      `${form.text} takes k = ${k} elements of a and of b; got ${na} and ${nb}`,
      na !== k ? 'a' : 'b',
    );
}

/**
 * The element of a form of the data on a target: the target's model, the form's formats,
 * k = the form's K.
 */
export function dotProductOfForm(
  form: MatrixForm,
  target: string,
  operands: DotProductOperands,
): DotProductResult {
  const setup = setupOfForm(form, target);
  checkCount(form, operands);
  return dotProduct(setup, operands);
}

/** d alone for a form on a target (for batches). */
export function dotProductBitsOfForm(
  form: MatrixForm,
  target: string,
  operands: DotProductOperands,
): bigint {
  const setup = setupOfForm(form, target);
  checkCount(form, operands);
  return dotProductBits(setup, operands);
}

// --- Specials -------------------------------------------------------------------------------

interface Factor {
  readonly ref: ElementRef;
  readonly value: Value;
}

const isFiniteZero = (v: Value) => v.kind === 'finite' && isZero(v.x);
const negativeOf = (v: Value) =>
  v.kind === 'finite' ? v.x.negative : v.kind === 'inf' && v.negative;

/**
 * "Any NaN operand, ∞ × 0, or +∞ and −∞ together give the canonical NaN. Otherwise an infinite
 * term gives that infinity." `c` is the accumulator; `pairs` the products' factors.
 */
function specialsOf(c: Factor, pairs: readonly (readonly [Factor, Factor])[]): SpecialsDecision {
  const all = [c, ...pairs.flat()];
  const nan = all.filter((f) => f.value.kind === 'nan');
  if (nan.length > 0)
    return { outcome: 'nan', reason: 'nan-operand', elements: nan.map((f) => f.ref) };
  const infTimesZero = pairs.filter(
    ([x, y]) =>
      (x.value.kind === 'inf' && isFiniteZero(y.value)) ||
      (y.value.kind === 'inf' && isFiniteZero(x.value)),
  );
  if (infTimesZero.length > 0)
    return {
      outcome: 'nan',
      reason: 'infinity-times-zero',
      elements: infTimesZero.flatMap(([x, y]) => [x.ref, y.ref]),
    };
  // The infinite terms and their signs: c itself, or a product with an infinite factor.
  const infinite: { refs: ElementRef[]; negative: boolean }[] = [];
  if (c.value.kind === 'inf') infinite.push({ refs: [c.ref], negative: c.value.negative });
  for (const [x, y] of pairs)
    if (x.value.kind === 'inf' || y.value.kind === 'inf')
      infinite.push({
        refs: [x.ref, y.ref],
        negative: negativeOf(x.value) !== negativeOf(y.value),
      });
  if (infinite.length === 0) return { outcome: 'none', reason: null, elements: [] };
  const negative = infinite[0]!.negative;
  if (infinite.some((t) => t.negative !== negative))
    return {
      outcome: 'nan',
      reason: 'opposite-infinities',
      elements: infinite.flatMap((t) => t.refs),
    };
  return {
    outcome: 'infinity',
    reason: 'infinite-term',
    elements: infinite.flatMap((t) => t.refs),
    negative,
  };
}

// --- A fused step ---------------------------------------------------------------------------

interface StepC {
  readonly from: 'operand' | 'first-half';
  readonly format: 'f16' | 'f32';
  readonly element: Element;
}

interface Term {
  readonly source: 'c' | 'product';
  readonly index: number;
  readonly value: Dyadic;
  /** |significand| (a zero: 0). */
  readonly significand: Dyadic;
  readonly exponent: number;
}

/** x as s × 2^e with e = max(floor(log2|x|), emin): 1 ≤ |s| < 2, or |s| < 1 at emin. */
function splitOf(x: Dyadic, emin: number): { significand: Dyadic; exponent: number } {
  if (isZero(x)) return { significand: ZERO, exponent: ZERO_TERM_EXPONENT };
  const exponent = Math.max(ilog2(x), emin);
  return { significand: { negative: false, mant: x.mant, exp: x.exp - exponent }, exponent };
}

/** The least exponent of a format's significand (the subnormals' exponent). */
function eminOf(format: ElementFormatName): number {
  return format === 'f64' ? F64.emin : FLOAT_FORMATS[format].emin;
}

function finiteOf(v: Value): Dyadic {
  if (v.kind !== 'finite') throw new Error('a special value reached the terms');
  return v.x;
}

function productTerm(index: number, a: Element, b: Element): Term {
  const x = finiteOf(a.value);
  const y = finiteOf(b.value);
  const value = multiply(x, y);
  if (isZero(x) || isZero(y))
    return { source: 'product', index, value, significand: ZERO, exponent: ZERO_TERM_EXPONENT };
  const sa = splitOf(x, eminOf(a.format));
  const sb = splitOf(y, eminOf(b.format));
  return {
    source: 'product',
    index,
    value,
    significand: multiply(sa.significand, sb.significand),
    exponent: sa.exponent + sb.exponent,
  };
}

function cTerm(c: StepC): Term {
  const value = finiteOf(c.element.value);
  const { significand, exponent } = splitOf(value, eminOf(c.format));
  return { source: 'c', index: 0, value, significand, exponent };
}

/** How many zero bits end m (m > 0). */
function trailingZeros(m: bigint): number {
  return (m & -m).toString(2).length - 1;
}

/** Binary digits of |x| with the point in place: "10.0110001" (no trailing zeros after the point). */
function binaryText(x: Dyadic): string {
  if (x.mant === 0n) return '0';
  const tz = trailingZeros(x.mant);
  const mant = x.mant >> BigInt(tz);
  const exp = x.exp + tz;
  if (exp >= 0) return (mant << BigInt(exp)).toString(2);
  const digits = mant.toString(2).padStart(-exp + 1, '0');
  return `${digits.slice(0, digits.length + exp)}.${digits.slice(digits.length + exp)}`;
}

/** K × 2^-n as fixed point with exactly n fraction digits. */
function fixedText(kept: bigint, n: number): string {
  const digits = kept.toString(2).padStart(n + 1, '0');
  return `${digits.slice(0, digits.length - n)}.${digits.slice(digits.length - n)}`;
}

const signed = (negative: boolean, mant: bigint, exp: number): Dyadic => ({
  negative: negative && mant !== 0n,
  mant,
  exp,
});

/** |x| cut at 2^q: the multiples of 2^q it holds (K), and the rest (mant × 2^exp, below 2^q). */
function cutAt(x: Dyadic, q: number): { kept: bigint; rest: bigint; restExp: number } {
  if (x.exp >= q) return { kept: x.mant << BigInt(x.exp - q), rest: 0n, restExp: q };
  const drop = BigInt(q - x.exp);
  const kept = x.mant >> drop;
  return { kept, rest: x.mant - (kept << drop), restExp: x.exp };
}

/** The bits of `rest × 2^restExp` below 2^q, first digit weighing 2^(q−1), trailing zeros dropped. */
function cutBitsOf(rest: bigint, restExp: number, q: number): BitString {
  if (rest === 0n) return { bits: '', top: q - 1 };
  const tz = trailingZeros(rest);
  return { bits: (rest >> BigInt(tz)).toString(2).padStart(q - restExp - tz, '0'), top: q - 1 };
}

/** One ulp of the result format at d (at the largest finite value for an infinity). */
function ulpExponentAt(d: Value, f: AnyFloatFormat): number {
  if (d.kind !== 'finite') return f.emax - f.manBits;
  return (isZero(d.x) ? f.emin : Math.max(ilog2(d.x), f.emin)) - f.manBits;
}

const inUlps = (x: Dyadic, ulpExponent: number): ExactValue =>
  exactValueOfDyadic({ ...x, exp: x.exp - ulpExponent });

/**
 * The texts of an exact value that is not shown: without an account the round step is dropped,
 * so its texts (every decimal digit: long for a tiny value) are not written.
 */
const NOT_SHOWN: ExactValue = {
  kind: 'finite',
  negative: false,
  decimal: '',
  binary: '',
  rational: '',
};

/** x for roundToFormat, whose step describes it with `shown` (computed once by the caller). */
function magnitudeFor(x: Dyadic, shown: ExactValue | null): ExactMagnitude {
  return { ...dyadicMagnitude(x), describe: () => shown ?? NOT_SHOWN };
}

/** The texts of |x| from those of x. */
function magnitudeText(v: ExactValue): ExactValue {
  if (!v.negative) return v;
  const unsigned = (t: string) => t.replace(/^-/, '');
  return {
    ...v,
    negative: false,
    decimal: unsigned(v.decimal),
    binary: unsigned(v.binary),
    rational: unsigned(v.rational),
  };
}

function fusedStep(
  plan: Extract<Plan, { kind: 'fused' }>,
  c: StepC,
  a: readonly Element[],
  b: readonly Element[],
  from: number,
  to: number,
  decisions: Set<DecisionId>,
  traced: boolean,
): { d: bigint; account: FusedStepAccount | null } {
  const geometry = plan.result;
  const dFormat = FORMATS[geometry.dtype];
  const stepC = () => ({
    from: c.from,
    format: c.format,
    bits: hexOf(c.element.bits, elementWidth(c.format)),
    value: valueText(c.element.value),
  });
  const indices = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const pairs = indices.map((i) => [a[i]!, b[i]!] as const);
  const products = { from, to };

  // Specials first.
  const specials = specialsOf(
    c.element,
    pairs.map(([x, y]) => [x, y]),
  );
  if (specials.outcome !== 'none') {
    const bits =
      specials.outcome === 'nan'
        ? dFormat.canonicalNaN
        : dFormat.infBits + (specials.negative ? dFormat.signMask : 0);
    if (specials.outcome === 'nan') decisions.add('canonical-nan');
    const d = BigInt(bits);
    if (!traced) return { d, account: null };
    return {
      d,
      account: {
        products,
        c: stepC(),
        specials,
        alignment: null,
        result: { bits: hexOf(d, dFormat.width), value: exactValueOfElement(d, geometry.dtype) },
      },
    };
  }

  // Every term as significand × 2^exponent; E the largest exponent.
  const terms: Term[] = [cTerm(c), ...pairs.map(([x, y], j) => productTerm(indices[j]!, x, y))];
  const E = Math.max(...terms.map((t) => t.exponent));
  const q = E - plan.n;

  // Each term cut to n fractional bits relative to 2^E, toward zero; the cut terms added exactly.
  const cuts = terms.map((t) => cutAt(t.value, q));
  const keptTotal = cuts.reduce(
    (sum, cut, j) => sum + (terms[j]!.value.negative ? -cut.kept : cut.kept),
    0n,
  );
  const keptSum = signed(keptTotal < 0n, keptTotal < 0n ? -keptTotal : keptTotal, q);
  const exactSum = terms.reduce((sum, t) => add(sum, t.value), ZERO);

  // Normalise and round once (or a zero sum's sign).
  const keptText = traced ? exactValueOfDyadic(keptSum) : null;
  const rounding = finalRounding(keptSum, keptText, terms, plan, decisions);
  const d = BigInt(rounding.resultBits);
  if (!traced) return { d, account: null };
  const dValue = decodeElement(d, geometry.dtype);
  const ulpExponent = ulpExponentAt(dValue, geometry.format);
  const lost = add(exactSum, { ...keptSum, negative: !keptSum.negative });

  const termAccounts: TermAccount[] = terms.map((t, j) => {
    const cut = cuts[j]!;
    const restValue = signed(t.value.negative, cut.rest, cut.restExp);
    return {
      source: t.source,
      index: t.index,
      zero: isZero(t.value),
      negative: t.value.negative,
      significand: exactValueOfDyadic(t.significand),
      significandBits: binaryText(t.significand),
      exponent: t.exponent,
      value: exactValueOfDyadic(t.value),
      shift: E - t.exponent,
      keptBits: fixedText(cut.kept, plan.n),
      kept: exactValueOfDyadic(signed(t.value.negative, cut.kept, q)),
      cutBits: cutBitsOf(cut.rest, cut.restExp, q),
      cut: exactValueOfDyadic(restValue),
      cutUlps: inUlps(restValue, ulpExponent),
    };
  });
  const alignment: Alignment = {
    n: plan.n,
    E,
    atE: terms.flatMap((t, j) => (t.exponent === E ? [j] : [])),
    terms: termAccounts,
    keptSum: keptText!,
    exactSum: exactValueOfDyadic(exactSum),
    lost: exactValueOfDyadic(lost),
    lostUlps: inUlps(lost, ulpExponent),
    normalisation: isZero(keptSum)
      ? { exponent: null, shift: null }
      : { exponent: ilog2(keptSum), shift: ilog2(keptSum) - E },
    rounding: rounding.account,
    ulpExponent,
  };
  return {
    d,
    account: {
      products,
      c: stepC(),
      specials,
      alignment,
      result: { bits: hexOf(d, dFormat.width), value: exactValueOfElement(d, geometry.dtype) },
    },
  };
}

/**
 * The cut sum rounded once to the result geometry (roundToFormat), or a zero sum's sign: −0 when
 * every term is a zero with its sign bit set, +0 otherwise (decision 'mma-zero-sign'); +0
 * always where the GPU was measured so (decision 'mma-zero-sign-sm90'). An .f32 sum past the
 * largest finite value truncates to it (decision 'mma-f32-overflow'), or is ±∞ where the GPU
 * was measured so (decision 'mma-f32-overflow-sm90').
 */
function finalRounding(
  sum: Dyadic,
  sumText: ExactValue | null,
  terms: readonly Term[],
  plan: Extract<Plan, { kind: 'fused' }>,
  decisions: Set<DecisionId>,
): { resultBits: number; account: FinalRounding } {
  const geometry = plan.result;
  const dFormat = FORMATS[geometry.dtype];
  if (isZero(sum)) {
    decisions.add(plan.zeroSum === 'positive' ? 'mma-zero-sign-sm90' : 'mma-zero-sign');
    const allNegativeZeros =
      plan.zeroSum === 'ieee' && terms.every((t) => isZero(t.value) && t.value.negative);
    const resultBits = allNegativeZeros ? dFormat.signMask : 0;
    return {
      resultBits,
      account: {
        geometry: geometry.name,
        mode: geometry.mode,
        step: null,
        zero: { negative: allNegativeZeros, allTermsNegativeZeros: allNegativeZeros },
        overflow: false,
        result: hexOf(BigInt(resultBits), dFormat.width),
      },
    };
  }
  const rounded = roundToFormat(magnitudeFor(sum, sumText), geometry.format, geometry.mode);
  const toInfinity =
    rounded.overflow && geometry.dtype === 'f32' && plan.f32Overflow === 'infinity';
  if (rounded.overflow && geometry.dtype === 'f32')
    decisions.add(toInfinity ? 'mma-f32-overflow-sm90' : 'mma-f32-overflow');
  // A pattern of the geometry is d's pattern shifted: e8m13's sign, exponent and 13 fraction
  // bits are the top 22 bits of the f32 pattern.
  const resultBits = toInfinity
    ? dFormat.infBits + (sum.negative ? dFormat.signMask : 0)
    : rounded.bits * 2 ** geometry.shift;
  return {
    resultBits,
    account: {
      geometry: geometry.name,
      mode: geometry.mode,
      step: rounded.step,
      zero: null,
      overflow: rounded.overflow,
      result: hexOf(BigInt(resultBits), dFormat.width),
    },
  };
}

function valueText(v: Value): ExactValue {
  if (v.kind === 'nan')
    return { kind: 'nan', negative: false, decimal: 'NaN', binary: 'NaN', rational: 'NaN' };
  if (v.kind === 'inf') {
    const s = v.negative ? '-inf' : '+inf';
    return { kind: 'inf', negative: v.negative, decimal: s, binary: s, rational: s };
  }
  return exactValueOfDyadic(v.x);
}

// --- f64: a chain of fused multiply-adds -----------------------------------------------------

/**
 * f64's binade at exponent e as a format roundToFormat can count in (f64 patterns do not fit a
 * double): one normal binade, emin = emax = e (clamped to f64's range), 52 fraction bits.
 * Pattern p is p × 2^(emin − 52): the significand of a value of the binade, 2^53 the next power
 * of two (the geometry's "infinity", f64's own at e = 1023), below 2^52 f64's subnormals at
 * e = −1022. Only magnitudes are rounded in it.
 */
function f64Binade(e: number): AnyFloatFormat {
  const emin = Math.min(Math.max(e, F64.emin), F64.emax);
  return {
    name: 'f64-binade',
    width: 54,
    expBits: 1,
    manBits: F64.manBits,
    bias: 1 - emin,
    emin,
    emax: emin,
    signMask: 2 ** 54,
    expMask: 2 ** 52,
    manMask: 2 ** 52 - 1,
    infBits: 2 ** 53,
    maxBits: 2 ** 53 - 1,
    quietBit: 2 ** 51,
    canonicalNaN: 2 ** 53 + 2 ** 51,
    signed: true,
    hasInfinity: true,
    nan: 'exponent-all-ones',
    hasSubnormals: true,
  };
}

/** A mode as it acts on the magnitude of a value of this sign (toward −∞ is away from zero for a negative value). */
function magnitudeMode(mode: RoundingMode, negative: boolean): RoundingMode {
  if (mode === 'rp') return negative ? 'rz' : 'rp';
  if (mode === 'rm') return negative ? 'rp' : 'rz';
  return mode;
}

/** The f64 pattern of ±(p × 2^quantum), or of an infinity where p is f64's own overflow pattern. */
function f64Bits(negative: boolean, p: number, g: AnyFloatFormat): bigint {
  const sign = negative ? F64.signMask : 0n;
  if (g.emin === F64.emax && p === g.infBits) return sign | F64.infBits;
  return encodeElement(
    { kind: 'finite', x: { negative, mant: BigInt(p), exp: g.emin - F64.manBits } },
    'f64',
  );
}

function fmaChain(
  a: readonly Element[],
  b: readonly Element[],
  c: Element,
  mode: RoundingMode,
  decisions: Set<DecisionId>,
  traced: boolean,
): { links: FmaLinkAccount[]; d: bigint } {
  const links: FmaLinkAccount[] = [];
  let accumulator: Factor = c;
  let d = c.bits;
  // Each link's accumulator is the previous link's result (the same texts, written once).
  let before = traced ? { bits: hexOf(d, 64), value: c.reading!.value } : null;
  for (let i = 0; i < a.length; i++) {
    const specials = specialsOf(accumulator, [[a[i]!, b[i]!]]);
    let exact: Dyadic | null = null;
    let exactText: ExactValue | null = null;
    let rounding: FmaLinkAccount['rounding'] = null;
    let zero: FmaLinkAccount['zero'] = null;
    if (specials.outcome === 'nan') {
      decisions.add('canonical-nan');
      d = F64.canonicalNaN;
    } else if (specials.outcome === 'infinity') {
      d = specials.negative ? F64.signMask | F64.infBits : F64.infBits;
    } else {
      const product = multiply(finiteOf(a[i]!.value), finiteOf(b[i]!.value));
      const addend = finiteOf(accumulator.value);
      exact = add(product, addend);
      exactText = traced ? exactValueOfDyadic(exact) : null;
      if (isZero(exact)) {
        // IEEE 754 §6.3: x + (−x) is +0 (−0 toward −∞); a sum of two zeros of one sign keeps it.
        const bothZero = isZero(product) && isZero(addend);
        const negative =
          bothZero && product.negative === addend.negative ? product.negative : mode === 'rm';
        zero = { negative };
        d = negative ? F64.signMask : 0n;
      } else {
        const g = f64Binade(ilog2(exact));
        const magnitude = magnitudeMode(mode, exact.negative);
        const r = roundToFormat(
          magnitudeFor({ ...exact, negative: false }, exactText && magnitudeText(exactText)),
          g,
          magnitude,
        );
        rounding = {
          step: r.step,
          quantumExponent: g.emin - F64.manBits,
          magnitudeMode: magnitude,
        };
        d = f64Bits(exact.negative, r.bits, g);
      }
    }
    const value = decodeElement(d, 'f64');
    accumulator = { ref: { operand: 'c', index: 0 }, value };
    if (!traced) continue;
    const result = { bits: hexOf(d, 64), value: valueText(value) };
    links.push({
      index: i,
      accumulator: before!,
      specials,
      exact: exactText,
      rounding,
      zero,
      result,
    });
    before = result;
  }
  return { links, d };
}
