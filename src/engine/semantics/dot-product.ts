/**
 * mma and wgmma (9.7.14.5.14, 9.7.15.5.2): one output element, d = c + Σ_{i<k} a_i·b_i. The
 * PTX ISA says only D = A*B+C ("the accumulation order, rounding and handling of subnormal
 * inputs are unspecified"); what the GPU computes is the target's published, hardware-validated
 * model (../shared/spec/beyond/tensor-cores.md, as data in catalog/tensor-core-models.ts):
 *
 *   read:      a_i, b_i, c from their places (pipeline.ts); tf32: the upper 19 bits of its .b32,
 *              the low 13 ignored; FP6 and FP4 in their 8-bit containers
 *   model:     the target's architecture (EngineOptions.target; sm_90 when none is given)
 *   measured:  the rules of the capture that measured the instruction on the architecture's GPU
 *              (sm_90: mma on an H200, wgmma on an H100); where it was measured to add in f32
 *              instead (sm_90 mma m8n8k4): that sequence of additions (measured-sequence.ts)
 *   f64:       d = c; for i in 0 … k−1: d = fma(a_i, b_i, d)       // IEEE, rounded each time
 *   halves:    (Ampere, Ada: f16/bf16 k = 16, tf32 k = 8, Ada's FP8 k = 32)
 *              d = fused(fused(c, a_0…a_(k/2−1), b_…), a_(k/2)…a_(k−1), b_…)
 *   otherwise: d = fused(c, a, b)
 *
 *   fused(c, a, b):
 *     specials:  any NaN operand, or a_i·b_i = ∞ × 0, or +∞ and −∞ among the terms
 *                    → the canonical NaN
 *                else an infinite term → that infinity
 *     terms:     t_c = s_c × 2^e_c     (c's own format: 1 ≤ s < 2, a subnormal s < 1 at emin)
 *                t_i = (s_a·s_b) × 2^(e_a + e_b)            (exact, s_a·s_b in [1, 4))
 *                a zero at 2^−126
 *     E          = max of the exponents
 *     t'_j       = trunc(t_j / 2^(E−n)) × 2^(E−n)           (toward zero: no guard, round, sticky)
 *     S          = Σ t'_j                                    (exact)
 *     S = 0      → −0 if every term is a −0, else +0         (decision mma-zero-sign)
 *                  measured: +0 always                       (decision mma-zero-sign-sm90)
 *     d          = round(S): f32 toward zero (23 fraction bits; 13 for FP8 on Ada mma and Hopper
 *                  wgmma), f16 to nearest even; subnormals kept; past the largest finite value
 *                  f32 gives it (decision mma-f32-overflow; measured: ±∞, decision
 *                  mma-f32-overflow-sm90), f16 gives infinity
 *
 * n is the architecture's (23 Volta, 24 Turing/Ampere/Ada, 25 Hopper/Blackwell), 13 for FP8
 * inputs where the model says so. Every rounding goes through rounding.ts, every IEEE rule of
 * the f64 chain through rounded-sum.ts (sumOutcome); the steps are steps.ts's `tensor-model`,
 * `fused` (its `special`, or `terms`, `align`, `sum`, `round`, `overflow`), `fma` and, for a
 * measured sequence, `sequence-add`.
 */
import type { Form } from '../../catalog/instruction.ts';
import { sectionRules } from '../../catalog/section-rules.ts';
import { DEFAULT_EVAL_TARGET } from '../../catalog/targets.ts';
import {
  F64_CHAIN_DEFAULT_ROUNDING,
  FINAL_ROUNDING,
  TENSOR_CORE_RULES,
  measuredRulesFor,
  tensorCoreModelFor,
  type InputFormats,
  type MeasuredRules,
  type MeasuredSequence,
  type TensorArchitecture,
  type TensorCoreModel,
  type UnsettledCase,
} from '../../catalog/tensor-core-models.ts';
import type { FormatName } from '../../catalog/formats.ts';
import type { IeeeRounding } from '../../catalog/modifiers.ts';
import type { DecisionId } from '../decisions.ts';
import { add, bitLength, exactValueOfDyadic, ilog2, isZero, multiply, ZERO } from '../exact.ts';
import { bitsView, FORMATS, valueOfBits, widen, withSign, type Format } from '../format.ts';
import { overflowResult } from '../nvidia-rules.ts';
import { roundToFormat, roundToFractionBits, type Rounded } from '../rounding.ts';
import type { AlignedTerm, DotElementRef, DotTerm, Step, WeightedBits } from '../steps.ts';
import type { Dyadic, ExactValue, RuleRef, Value } from '../value.ts';
import { multiplyValues } from './arithmetic.ts';
import {
  overflowRule,
  type ElementContext,
  type Input,
  type Outcome,
  type StepBody,
} from './context.ts';
import { measuredSequence } from './measured-sequence.ts';
import { magnitudeOf, roundedSum } from './rounded-sum.ts';

/** An element of the dot product: its place in A's row, B's column or C, and its value. */
interface Element {
  readonly ref: DotElementRef;
  readonly bits: bigint;
  readonly format: Format;
  readonly value: Value;
}

/** Which branch of the pseudo-code the target's model takes for the form. */
type Plan =
  | {
      readonly kind: 'fused';
      readonly n: number;
      readonly halves: boolean;
      /** d's format, the fraction bits the final rounding keeps, and its mode. */
      readonly result: { readonly format: Format; readonly fractionBits: number };
      readonly mode: IeeeRounding;
      /**
       * The decision naming the model followed where the published models are not settled (or a
       * capture settled them), or where the architecture's GPU was measured to compute otherwise
       * (mma-sm90-differing-forms).
       */
      readonly modelDecision: DecisionId | null;
      /** An exact-zero sum: −0 when every term is −0 ('ieee'), or +0 always (measured). */
      readonly zeroSum: 'ieee' | 'positive';
      /** An .f32 result past the largest finite value: the mode's result, or ±∞ (measured). */
      readonly f32Overflow: 'mode' | 'infinity';
    }
  | { readonly kind: 'fma-chain'; readonly mode: IeeeRounding }
  | {
      readonly kind: 'sequence';
      readonly sequence: MeasuredSequence;
      readonly measured: MeasuredRules;
      readonly result: Format;
    };

/**
 * The decision that names the model followed where an architecture's model is not settled by
 * the published sources (or was settled by a capture: the decision records the measurement).
 */
const UNSETTLED: Partial<Record<TensorArchitecture, DecisionId>> = {
  hopper: 'mma-fp8-f16-hopper',
  blackwell: 'mma-fp8-blackwell',
};

/** The target's model, or null where tensor-cores.md names none (the pipeline refuses those). */
export function modelOfTarget(target: string | undefined): TensorCoreModel | null {
  return tensorCoreModelFor(target ?? DEFAULT_EVAL_TARGET) ?? null;
}

function planOf(form: Form, model: TensorCoreModel): Plan {
  const m = form.matrix!;
  const { a, b, d } = m.types;
  if (a === 'f64') return { kind: 'fma-chain', mode: ieeeMode(form.rounding) };
  const both = (inputs: InputFormats) => inputs.includes(a) && inputs.includes(b);
  // What a GPU of the architecture was measured to do for this instruction (one capture's rules).
  const measured = measuredRulesFor(model, m.instruction);
  // A sequence of f32 additions the GPU was measured to compute for the form.
  const sequence = measured?.sequences.find(
    (q) =>
      q.instructions.includes(m.instruction) &&
      both(q.inputs) &&
      q.k === m.shape.k &&
      q.result === d,
  );
  if (measured && sequence) return { kind: 'sequence', sequence, measured, result: FORMATS[d] };
  const reduced = model.reduced.find(
    (r) => both(r.inputs) && r.instructions.includes(m.instruction),
  );
  const dFormat = FORMATS[d];
  const fractionBits =
    d === 'f32' ? (reduced?.f32FractionBits ?? dFormat.manBits) : dFormat.manBits;
  const concerns = (u: UnsettledCase) =>
    both(u.inputs) &&
    u.instructions.includes(m.instruction) &&
    (u.results as readonly FormatName[]).includes(d);
  const unsettled = model.unsettled.some(concerns);
  // An unsettled case the GPU's capture settles: the model, with the decision that records it.
  const settled = measured?.settles.some(concerns) ?? false;
  // What a GPU of the architecture was measured to do (tensor-core-models.ts measured): its
  // zero sign and .f32 overflow, except on the forms it computes otherwise, which keep the
  // model and name the decision that says so.
  const differing =
    measured?.differing.some(
      (f) =>
        f.instructions.includes(m.instruction) &&
        both(f.inputs) &&
        (f.k === undefined || f.k === m.shape.k),
    ) ?? false;
  const rules = measured && !differing ? measured : undefined;
  return {
    kind: 'fused',
    n: reduced?.alignmentBits ?? model.alignmentBits,
    halves: model.split.some((s) => both(s.inputs) && s.k === m.shape.k),
    result: { format: dFormat, fractionBits },
    mode: d === 'f16' ? FINAL_ROUNDING.f16 : FINAL_ROUNDING.f32,
    modelDecision: differing
      ? 'mma-sm90-differing-forms'
      : unsettled || settled
        ? (UNSETTLED[model.architecture] ?? null)
        : null,
    zeroSum: rules?.zeroSum ?? 'ieee',
    f32Overflow: rules?.f32Overflow ?? 'mode',
  };
}

function ieeeMode(rounding: string | null): IeeeRounding {
  return rounding === 'rz' || rounding === 'rm' || rounding === 'rp'
    ? rounding
    : F64_CHAIN_DEFAULT_ROUNDING;
}

/** A rule of the model, in its words, cited with the architecture's name. */
function modelRule(model: TensorCoreModel, text: string): RuleRef {
  return { source: 'tensor-core-model', section: model.name, text };
}

/** Where a traced evaluation records its steps; null when only d is wanted. */
type Sink = ElementContext['recordRule'] | null;

/**
 * A matrix form's one output element on the target: the pseudo-code above, branch by branch.
 * `sink` receives the steps (the pipeline's ctx.recordRule); without one only d is computed,
 * by the same numbers.
 */
function dotProductElement(
  form: Form,
  inputs: readonly Input[],
  target: string | undefined,
  sink: Sink,
): bigint {
  const k = form.matrix!.shape.k;
  const model = modelOfTarget(target);
  if (!model) throw new Error(`no tensor-core model for ${target ?? DEFAULT_EVAL_TARGET}`);
  const element = (input: Input, ref: DotElementRef): Element => ({
    ref,
    bits: input.bits,
    format: input.format,
    value: valueOfBits(input.bits, input.format),
  });
  const a = inputs.slice(0, k).map((x, index) => element(x, { operand: 'a', index }));
  const b = inputs.slice(k, 2 * k).map((x, index) => element(x, { operand: 'b', index }));
  const c = element(inputs[2 * k]!, { operand: 'c', index: 0 });
  const plan = planOf(form, model);

  sink?.(
    {
      kind: 'tensor-model',
      target: target ?? DEFAULT_EVAL_TARGET,
      architecture: model.architecture,
      name: model.name,
      sources: model.sources,
      fused:
        plan.kind === 'fused'
          ? {
              alignmentBits: plan.n,
              halves: plan.halves,
              result: {
                format: plan.result.format.name,
                fractionBits: plan.result.fractionBits,
                mode: plan.mode,
              },
            }
          : null,
      chain: plan.kind === 'fma-chain' ? { mode: plan.mode } : null,
      sequence:
        plan.kind === 'sequence'
          ? {
              kind: plan.sequence.sequence,
              result: plan.result.name,
              measuredOn: plan.measured.on,
              capture: plan.measured.capture,
            }
          : null,
    },
    modelRule(
      model,
      plan.kind === 'fused'
        ? TENSOR_CORE_RULES.model
        : plan.kind === 'sequence'
          ? TENSOR_CORE_RULES.sequence[plan.sequence.sequence]
          : TENSOR_CORE_RULES.chain,
    ),
    target === undefined ? 'mma-default-target' : undefined,
  );

  // A measured sequence of f32 additions.
  if (plan.kind === 'sequence') {
    const { steps, bits } = measuredSequence(
      model,
      plan.sequence.sequence,
      a,
      b,
      c,
      plan.result,
      (text) => modelRule(model, text),
      sink !== null,
    );
    for (const { rule, decision, ...body } of steps) sink?.(body, rule, decision);
    return bits;
  }

  // f64: the chain of fused multiply-adds.
  if (plan.kind === 'fma-chain') {
    let d = c;
    for (let i = 0; i < k; i++) {
      const link = fmaLink(form, plan.mode, a[i]!, b[i]!, d, i, sink !== null);
      if (link.step) sink?.(link.step, modelRule(model, TENSOR_CORE_RULES.chain));
      d = {
        ref: c.ref,
        bits: link.bits,
        format: c.format,
        value: valueOfBits(link.bits, c.format),
      };
    }
    return d.bits;
  }

  // Halves: the first half's rounded result is the second half's c. Otherwise one fused step.
  const ranges: [number, number][] = plan.halves
    ? [
        [0, k / 2 - 1],
        [k / 2, k - 1],
      ]
    : [[0, k - 1]];
  let accumulator = c;
  let cFrom: 'operand' | 'first-half' = 'operand';
  const dFormat = plan.result.format;
  for (const [part, [from, to]] of ranges.entries()) {
    const pairs = a.slice(from, to + 1).map((x, j) => [x, b[from + j]!] as const);
    const { steps, bits } = fusedStep(model, plan, accumulator, pairs, from, sink !== null);
    sink?.(
      {
        kind: 'fused',
        part,
        parts: ranges.length,
        products: { from, to },
        c: bitsView(accumulator.bits, accumulator.format),
        cFrom,
        steps,
        result: bitsView(bits, dFormat),
      },
      modelRule(model, plan.halves ? TENSOR_CORE_RULES.halves : TENSOR_CORE_RULES.model),
      plan.modelDecision ?? undefined,
    );
    accumulator = { ref: c.ref, bits, format: dFormat, value: valueOfBits(bits, dFormat) };
    cFrom = 'first-half';
  }
  return accumulator.bits;
}

/** The dot product's semantics in the pipeline: its steps, and d as the value it decided. */
export function dotProduct(ctx: ElementContext, inputs: readonly Input[]): Outcome {
  const bits = dotProductElement(ctx.form, inputs, ctx.options.target, ctx.recordRule);
  return { kind: 'value', value: { bits } };
}

/**
 * d alone, by the same numbers and without the steps (batches, sweeps): `inputs` as the
 * pipeline reads them, a_0 … a_(k−1), b_0 … b_(k−1), c.
 */
export function dotProductBits(form: Form, inputs: readonly Input[], target?: string): bigint {
  return dotProductElement(form, inputs, target, null);
}

// --- Specials ---------------------------------------------------------------------------------

const isFiniteZero = (v: Value) => v.kind === 'finite' && isZero(v.x);
const negativeOf = (v: Value) =>
  v.kind === 'finite' ? v.x.negative : v.kind === 'inf' && v.negative;

type Specials =
  | { readonly case: 'nan-operand' | 'invalid'; readonly detail?: string }
  | { readonly case: 'infinity'; readonly negative: boolean };

/**
 * "Any NaN operand, ∞ × 0, or +∞ and −∞ together give the canonical NaN. Otherwise an infinite
 * term gives that infinity." The first reason that applies, with the elements behind it; null
 * when every term is finite.
 */
function specialsOf(
  c: Element,
  pairs: readonly (readonly [Element, Element])[],
): (Specials & { readonly elements: DotElementRef[] }) | null {
  const all = [c, ...pairs.flat()];
  const nan = all.filter((x) => x.value.kind === 'nan');
  if (nan.length > 0) return { case: 'nan-operand', elements: nan.map((x) => x.ref) };
  const infTimesZero = pairs.filter(
    ([x, y]) =>
      (x.value.kind === 'inf' && isFiniteZero(y.value)) ||
      (y.value.kind === 'inf' && isFiniteZero(x.value)),
  );
  if (infTimesZero.length > 0)
    return {
      case: 'invalid',
      detail: '0 × ∞',
      elements: infTimesZero.flatMap(([x, y]) => [x.ref, y.ref]),
    };
  // The infinite terms and their signs: c itself, or a product with an infinite factor.
  const infinite: { refs: DotElementRef[]; negative: boolean }[] = [];
  if (c.value.kind === 'inf') infinite.push({ refs: [c.ref], negative: c.value.negative });
  for (const [x, y] of pairs)
    if (x.value.kind === 'inf' || y.value.kind === 'inf')
      infinite.push({
        refs: [x.ref, y.ref],
        negative: negativeOf(x.value) !== negativeOf(y.value),
      });
  if (infinite.length === 0) return null;
  const elements = infinite.flatMap((t) => t.refs);
  const negative = infinite[0]!.negative;
  if (infinite.some((t) => t.negative !== negative))
    return { case: 'invalid', detail: '∞ − ∞', elements };
  return { case: 'infinity', negative, elements };
}

// --- A fused step -------------------------------------------------------------------------------

interface Term {
  readonly source: 'c' | 'product';
  readonly index: number;
  readonly value: Dyadic;
  /** |significand| (a zero: 0). */
  readonly significand: Dyadic;
  readonly exponent: number;
}

/** Exponent at which a zero term stands (tensor-cores.md step 2). */
const ZERO_EXPONENT = -126;

/** x as s × 2^e with e = max(floor(log2|x|), emin): 1 ≤ |s| < 2, or |s| < 1 at emin. */
function splitOf(x: Dyadic, emin: number): { significand: Dyadic; exponent: number } {
  if (isZero(x)) return { significand: ZERO, exponent: ZERO_EXPONENT };
  const exponent = Math.max(ilog2(x), emin);
  return { significand: { negative: false, mant: x.mant, exp: x.exp - exponent }, exponent };
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
    return { source: 'product', index, value, significand: ZERO, exponent: ZERO_EXPONENT };
  const sa = splitOf(x, a.format.emin);
  const sb = splitOf(y, b.format.emin);
  return {
    source: 'product',
    index,
    value,
    significand: multiply(sa.significand, sb.significand),
    exponent: sa.exponent + sb.exponent,
  };
}

function cTerm(c: Element): Term {
  const value = finiteOf(c.value);
  return { source: 'c', index: 0, value, ...splitOf(value, c.format.emin) };
}

/** How many zero bits end m (m > 0). */
function trailingZeros(m: bigint): number {
  return bitLength(m & -m) - 1;
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

/** |x| cut at 2^q: the multiples of 2^q it holds (kept), and the rest (rest × 2^restExp, below 2^q). */
export function cutAt(x: Dyadic, q: number): { kept: bigint; rest: bigint; restExp: number } {
  if (x.exp >= q) return { kept: x.mant << BigInt(x.exp - q), rest: 0n, restExp: q };
  const drop = BigInt(q - x.exp);
  const kept = x.mant >> drop;
  return { kept, rest: x.mant - (kept << drop), restExp: x.exp };
}

/** The bits of `rest × 2^restExp` below 2^q, first digit weighing 2^(q−1), trailing zeros dropped. */
function cutBitsOf(rest: bigint, restExp: number, q: number): WeightedBits {
  if (rest === 0n) return { bits: '', top: q - 1 };
  const tz = trailingZeros(rest);
  return { bits: (rest >> BigInt(tz)).toString(2).padStart(q - restExp - tz, '0'), top: q - 1 };
}

/** One ulp of the result at d, with `fractionBits` fraction bits (at the largest finite value for an infinity). */
function ulpExponentAt(bits: bigint, f: Format, fractionBits: number): number {
  const d = valueOfBits(bits, f);
  if (d.kind !== 'finite') return f.emax - fractionBits;
  return (isZero(d.x) ? f.emin : Math.max(ilog2(d.x), f.emin)) - fractionBits;
}

const inUlps = (x: Dyadic, ulpExponent: number): ExactValue =>
  exactValueOfDyadic({ ...x, exp: x.exp - ulpExponent });

function fusedStep(
  model: TensorCoreModel,
  plan: Extract<Plan, { kind: 'fused' }>,
  c: Element,
  pairs: readonly (readonly [Element, Element])[],
  from: number,
  traced: boolean,
): { steps: Step[]; bits: bigint } {
  const f = plan.result.format;
  const steps: Step[] = [];
  const rule = (text: string) => modelRule(model, text);

  // Specials first.
  const special = specialsOf(c, pairs);
  if (special) {
    const bits =
      special.case === 'infinity' ? withSign(f.infBits!, special.negative, f) : f.canonicalNaN!;
    if (!traced) return { steps, bits };
    steps.push({
      kind: 'special',
      case: special.case,
      ...(special.case === 'invalid' ? { detail: special.detail! } : {}),
      elements: special.elements,
      result: bitsView(bits, f),
      rule: rule(TENSOR_CORE_RULES.specials),
      ...(special.case === 'infinity' ? {} : { decision: 'canonical-nan' as const }),
    });
    return { steps, bits };
  }

  // Every term as significand × 2^exponent; E the largest exponent.
  const terms: Term[] = [cTerm(c), ...pairs.map(([x, y], j) => productTerm(from + j, x, y))];
  const E = Math.max(...terms.map((t) => t.exponent));

  // Each term cut to n fractional bits relative to 2^E, toward zero; the cut terms added exactly.
  const q = E - plan.n;
  const cuts = terms.map((t) => cutAt(t.value, q));
  const keptTotal = cuts.reduce(
    (sum, cut, j) => sum + (terms[j]!.value.negative ? -cut.kept : cut.kept),
    0n,
  );
  const kept = signed(keptTotal < 0n, keptTotal < 0n ? -keptTotal : keptTotal, q);

  // Normalise and round once, or a zero sum's sign.
  const final = finalRounding(model, plan, kept, terms, traced);
  if (!traced) return { steps, bits: final.bits };
  const exact = terms.reduce((sum, t) => add(sum, t.value), ZERO);
  const ulpExponent = ulpExponentAt(final.bits, f, plan.result.fractionBits);
  steps.push({
    kind: 'terms',
    terms: terms.map((t): DotTerm => ({
      source: t.source,
      index: t.index,
      value: exactValueOfDyadic(t.value),
      zero: isZero(t.value),
      significand: exactValueOfDyadic(t.significand),
      significandBits: binaryText(t.significand),
      exponent: t.exponent,
    })),
    largestExponent: E,
    atLargest: terms.flatMap((t, j) => (t.exponent === E ? [j] : [])),
    rule: rule(TENSOR_CORE_RULES.terms),
  });
  const reduced = plan.n !== model.alignmentBits ? ` (${TENSOR_CORE_RULES.reduced})` : '';
  steps.push({
    kind: 'align',
    alignmentBits: plan.n,
    quantumExponent: q,
    terms: terms.map((t, j): AlignedTerm => {
      const cut = cuts[j]!;
      const lost = signed(t.value.negative, cut.rest, cut.restExp);
      return {
        source: t.source,
        index: t.index,
        shift: E - t.exponent,
        keptBits: fixedText(cut.kept, plan.n),
        kept: exactValueOfDyadic(signed(t.value.negative, cut.kept, q)),
        cutBits: cutBitsOf(cut.rest, cut.restExp, q),
        cut: exactValueOfDyadic(lost),
        cutUlps: inUlps(lost, ulpExponent),
      };
    }),
    ulpExponent,
    rule: rule(TENSOR_CORE_RULES.align + reduced),
  });
  const lost = add(exact, { ...kept, negative: !kept.negative });
  steps.push({
    kind: 'sum',
    kept: exactValueOfDyadic(kept),
    exact: exactValueOfDyadic(exact),
    lost: exactValueOfDyadic(lost),
    lostUlps: inUlps(lost, ulpExponent),
    ulpExponent,
    normalisation: isZero(kept) ? null : { exponent: ilog2(kept), shift: ilog2(kept) - E },
    rule: rule(TENSOR_CORE_RULES.sum),
  });
  steps.push(...final.steps);
  return { steps, bits: final.bits };
}

/**
 * The cut sum rounded once to d's format (with the model's fraction bits), what an overflow
 * gives, or a zero sum's sign: −0 when every term is a zero with its sign bit set, +0
 * otherwise (decision mma-zero-sign); +0 always where the GPU was measured so (decision
 * mma-zero-sign-sm90). An .f32 overflow gives what the mode gives (decision mma-f32-overflow),
 * or ±∞ where the GPU was measured so (decision mma-f32-overflow-sm90).
 */
function finalRounding(
  model: TensorCoreModel,
  plan: Extract<Plan, { kind: 'fused' }>,
  sum: Dyadic,
  terms: readonly Term[],
  traced: boolean,
): { steps: Step[]; bits: bigint } {
  const f = plan.result.format;
  if (isZero(sum)) {
    const negative =
      plan.zeroSum === 'ieee' && terms.every((t) => isZero(t.value) && t.value.negative);
    const bits = withSign(0n, negative, f);
    return {
      bits,
      steps: [
        {
          kind: 'special',
          case: 'exact-zero',
          result: bitsView(bits, f),
          rule: modelRule(model, TENSOR_CORE_RULES.zero),
          decision: plan.zeroSum === 'positive' ? 'mma-zero-sign-sm90' : 'mma-zero-sign',
        },
      ],
    };
  }
  const reducedBits = plan.result.fractionBits < f.manBits;
  const magnitude = magnitudeOf(sum, traced);
  const r: Rounded & { readonly narrow?: Format } = reducedBits
    ? roundToFractionBits(magnitude, f, plan.result.fractionBits, plan.mode)
    : roundToFormat(magnitude, f, plan.mode);
  const words =
    (f.name === 'f16' ? TENSOR_CORE_RULES.round.f16 : TENSOR_CORE_RULES.round.f32) +
    (reducedBits ? ` (${TENSOR_CORE_RULES.reduced})` : '');
  const steps: Step[] = [{ ...r.step, rule: modelRule(model, words) }];
  if (!r.overflow) return { steps, bits: r.bits! };
  const grid = r.narrow ?? f;
  const toInfinity = f.name === 'f32' && plan.f32Overflow === 'infinity';
  const o = overflowResult(grid, sum.negative, r.awayFromZero || toInfinity);
  const bits = r.narrow ? widen(o.bits, r.narrow, f) : o.bits;
  steps.push({
    kind: 'overflow',
    mode: plan.mode,
    to: o.to,
    result: bitsView(bits, f),
    rule: overflowRule,
    ...(f.name === 'f32'
      ? {
          decision: toInfinity ? ('mma-f32-overflow-sm90' as const) : ('mma-f32-overflow' as const),
        }
      : {}),
  });
  return { steps, bits };
}

// --- f64: a chain of fused multiply-adds ----------------------------------------------------

const F64_FMA_WORDS =
  'Precision of the element-wise multiplication and addition operation is identical to that of .f64 precision fused multiply-add';

/** One link d = fma(a_i, b_i, d), by IEEE 754's rules and the one rounding (rounded-sum.ts). */
function fmaLink(
  form: Form,
  mode: IeeeRounding,
  a: Element,
  b: Element,
  d: Element,
  index: number,
  traced: boolean,
): { step: StepBody | null; bits: bigint } {
  const f = FORMATS.f64;
  const { bits, steps } = roundedSum(
    f,
    mode,
    multiplyValues(a.value, b.value),
    d.value,
    [a.value, b.value, d.value],
    `a[${index}] × b[${index}] + d`,
    {
      exact: { source: 'ptx', section: form.section.section, text: F64_FMA_WORDS },
      round: {
        source: 'ptx',
        section: form.section.section,
        text: sectionRules('matrix').rounding[mode],
      },
    },
    traced,
  );
  if (!traced) return { bits, step: null };
  return {
    bits,
    step: {
      kind: 'fma',
      index,
      a: bitsView(a.bits, a.format),
      b: bitsView(b.bits, b.format),
      accumulator: bitsView(d.bits, d.format),
      steps,
      result: bitsView(bits, f),
    },
  };
}

/** For the pipeline: the target's model exists (a message when it does not). */
export function targetProblem(target: string | undefined): string | null {
  return modelOfTarget(target)
    ? null
    : `no published tensor-core model covers ${target}; tensor-cores.md models sm_70 to sm_121 (not sm_88)`;
}
