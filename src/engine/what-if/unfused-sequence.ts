/**
 * The unfused variant of an fma: the PTX sequence that rounds the product first, then adds.
 *
 *   half:   mul{.rnd}{.ftz}.T t, a, b;     add{.rnd}{.ftz}{.sat}.T d, t, c;
 *   mixed:  cvt.f32.T ta, a;  cvt.f32.T tb, b;  mul{.rnd}.f32 t, ta, tb;  add{.rnd}{.sat}.f32 d, t, c;
 *
 * The half sequence is two catalog forms, each evaluated by the pipeline (pipeline.ts). The mixed
 * one is single-precision arithmetic, which the catalog does not hold: the conversions are exact,
 * and the product and the sum are the pipeline's own rules called in binary32 — IEEE 754's rules
 * for product + addend (sumOutcome), one rounding each (roundToFormat), the overflow rule and
 * .sat (nvidia-rules.ts). Where no such sequence exists (.relu and .oob belong to the fma itself;
 * PTX has no bf16 mul or add with a rounding other than .rn) the plan says why, as data.
 */
import { findForm } from '../../catalog/all-forms.ts';
import type { FormatName } from '../../catalog/formats.ts';
import type { Form, SourceName } from '../../catalog/instruction.ts';
import { hasModifier } from '../../catalog/instruction.ts';
import { exactValueOfDyadic, ilog2, isZero } from '../exact.ts';
import { bitsView, FORMATS, hexOf, valueOfBits, type BitsView } from '../format.ts';
import { overflowResult, saturate } from '../nvidia-rules.ts';
import type { EngineOptions } from '../options.ts';
import { evaluate, resolveForm, type Registers } from '../pipeline.ts';
import { roundDyadic } from '../rounding.ts';
import { multiplyValues, sumOutcome, type SumOutcome } from '../semantics/arithmetic.ts';
import type { EvalResult, RoundStep } from '../steps.ts';
import type { ExactValue, Value } from '../value.ts';
import { operandValues, valueOfView } from './reference-values.ts';
import { difference } from './ulp.ts';

/** Why an fma has no unfused sequence. */
export type UnfusedRefusal =
  | { readonly kind: 'not-fma'; readonly form: string }
  /** .oob or .relu: the fma's own; no mul or add takes it. */
  | { readonly kind: 'modifier'; readonly form: string; readonly modifier: 'oob' | 'relu' }
  /** The sequence would need an instruction PTX does not have (mul.rz.bf16). */
  | { readonly kind: 'no-such-form'; readonly form: string; readonly missing: string };

export type UnfusedPlan =
  | {
      readonly ok: true;
      /** The PTX lines the variant stands for. */
      readonly lines: readonly string[];
      /** 'half': two catalog forms, mul and add; 'single': the binary32 sequence of a mixed fma. */
      readonly precision: 'half' | 'single';
      readonly mul?: Form;
      readonly add?: Form;
    }
  | { readonly ok: false; readonly refusal: UnfusedRefusal };

/** What an fma form's unfused sequence is, or why it has none. */
export function unfusedPlan(formOrText: Form | string): UnfusedPlan {
  const form = resolveForm(formOrText);
  const refuse = (refusal: UnfusedRefusal): UnfusedPlan => ({ ok: false, refusal });
  if (form.operation !== 'fma') return refuse({ kind: 'not-fma', form: form.text });
  for (const modifier of ['oob', 'relu'] as const)
    if (hasModifier(form, modifier)) return refuse({ kind: 'modifier', form: form.text, modifier });
  const rnd = `.${form.rounding ?? 'rn'}`;
  const sat = hasModifier(form, 'sat') ? '.sat' : '';
  if (form.family === 'mixed') {
    const t = form.elements[0]!.inputs[0]!.format;
    return {
      ok: true,
      precision: 'single',
      lines: [
        `cvt.f32.${t} ta, a;`,
        `cvt.f32.${t} tb, b;`,
        `mul${rnd}.f32 t, ta, tb;`,
        `add${rnd}${sat}.f32 d, t, c;`,
      ],
    };
  }
  const ftz = hasModifier(form, 'ftz') ? '.ftz' : '';
  const mulText = `mul${rnd}${ftz}.${form.type}`;
  const addText = `add${rnd}${ftz}${sat}.${form.type}`;
  const mul = findForm(mulText);
  const add = findForm(addText);
  if (!mul || !add)
    return refuse({ kind: 'no-such-form', form: form.text, missing: !mul ? mulText : addText });
  return {
    ok: true,
    precision: 'half',
    lines: [`${mulText} t, a, b;`, `${addText} d, t, c;`],
    mul,
    add,
  };
}

/** One binary32 instruction of a mixed fma's sequence: how its value was decided. */
export interface Binary32Stage {
  /** IEEE 754's rule that decided it (semantics/arithmetic.ts sumOutcome). */
  readonly case: SumOutcome['case'];
  /** The one rounding of the exact value ('exact' only). */
  readonly round?: RoundStep;
  /** Past MAX_NORM: what the overflow rule gave. */
  readonly overflow?: 'infinity' | 'max-norm';
  readonly result: BitsView;
}

/**
 * Why the sequence gives another value than the fma, per element (data; src/present words it).
 * 'product-rounding': mul rounded a × b to t, losing `lost` (t − a × b); `cancellation`: c cancels
 * most of the product, so that rounding error is a large part of what is left.
 */
export type UnfusedWhy =
  | { readonly kind: 'same' }
  | { readonly kind: 'nan-product' }
  | { readonly kind: 'product-overflow' }
  | {
      readonly kind: 'product-rounding';
      readonly format: FormatName;
      readonly lost: ExactValue;
      readonly cancellation: boolean;
    }
  /** The product was exact, yet the results differ (the add's rounding alone). */
  | { readonly kind: 'other' };

export interface UnfusedEvaluation {
  readonly lines: readonly string[];
  readonly precision: 'half' | 'single';
  /** The destination register (the fma's width and type) and its elements, in the fma's layout. */
  readonly d: string;
  readonly dBits: number;
  readonly dType: string;
  readonly elements: readonly BitsView[];
  /** The rounded product t: its register and elements (an f32 for the mixed forms). */
  readonly product: {
    readonly register: string;
    readonly format: FormatName;
    readonly elements: readonly BitsView[];
  };
  /** Half forms: the traced evaluations of the two instructions. */
  readonly traces?: { readonly mul: EvalResult; readonly add: EvalResult };
  /** Mixed forms: the binary32 product and sum, and .sat where it changed the sum. */
  readonly binary32?: {
    readonly product: Binary32Stage;
    readonly sum: Binary32Stage;
    readonly saturate?: { readonly before: BitsView; readonly after: BitsView };
  };
  /** Per element of the fma: why the sequence's result differs from the fma's. */
  readonly why: readonly UnfusedWhy[];
}

const mask = (bits: number) => (1n << BigInt(bits)) - 1n;

function registerField(registers: Registers, name: SourceName, hi: number, lo: number): bigint {
  return ((registers[name] ?? 0n) >> BigInt(lo)) & mask(hi - lo + 1);
}

/** One binary32 step: the rule's value, or its exact value rounded once (overflow settled). */
function binary32Stage(outcome: SumOutcome, mode: NonNullable<Form['rounding']>): Binary32Stage {
  const f32 = FORMATS.f32;
  if (outcome.case !== 'exact') return { case: outcome.case, result: bitsView(outcome.bits, f32) };
  const r = roundDyadic(outcome.x, f32, mode);
  if (r.overflow) {
    const { bits, to } = overflowResult(f32, outcome.x.negative, r.awayFromZero);
    return {
      case: 'exact',
      round: r.step,
      overflow: to === 'infinity' ? 'infinity' : 'max-norm',
      result: bitsView(bits, f32),
    };
  }
  return { case: 'exact', round: r.step, result: bitsView(r.bits!, f32) };
}

/** The mixed sequence in binary32 (see the top). */
function binary32Sequence(form: Form, registers: Registers) {
  const f32 = FORMATS.f32;
  const mode = form.rounding ?? 'rn';
  const [pa, pb, pc] = form.elements[0]!.inputs;
  const read = (p: typeof pa): Value =>
    valueOfBits(
      registerField(registers, p!.operand as SourceName, p!.value.hi, p!.value.lo),
      FORMATS[p!.format],
    );
  const a = read(pa);
  const b = read(pb);
  const product = binary32Stage(sumOutcome(f32, mode, multiplyValues(a, b), null, [a, b]), mode);
  const t = valueOfView(product.result);
  const c = read(pc);
  const sum = binary32Stage(sumOutcome(f32, mode, t, c, [t, c]), mode);
  const sumBits = BigInt(sum.result.bits);
  const saturated = hasModifier(form, 'sat') ? saturate(sumBits, f32) : sumBits;
  return {
    product,
    sum,
    d: saturated,
    ...(saturated !== sumBits
      ? { saturate: { before: sum.result, after: bitsView(saturated, f32) } }
      : {}),
  };
}

/** Why element i of the sequence differs from the fma's (see UnfusedWhy). */
function whyOf(form: Form, fused: EvalResult, i: number, d: BitsView, t: BitsView): UnfusedWhy {
  const element = fused.elements[i]!;
  const fusedBits = element.result;
  if (BigInt(fusedBits) === BigInt(d.bits)) return { kind: 'same' };
  const tv = valueOfView(t);
  if (tv.kind === 'nan') return { kind: 'nan-product' };
  if (tv.kind === 'inf') return { kind: 'product-overflow' };
  const [a, b] = operandValues(element);
  const exactProduct = multiplyValues(a!, b!);
  if (exactProduct.kind !== 'finite') return { kind: 'other' };
  const lost = difference(tv.x, exactProduct.x);
  if (isZero(lost)) return { kind: 'other' };
  const dest = FORMATS[form.elements[i]!.dest.format];
  const fv = valueOfBits(BigInt(fusedBits), dest);
  const cancellation =
    fv.kind === 'finite' &&
    !isZero(fv.x) &&
    !isZero(tv.x) &&
    ilog2(tv.x) - ilog2(fv.x) >= dest.manBits / 2;
  return {
    kind: 'product-rounding',
    format: t.format,
    lost: exactValueOfDyadic(lost),
    cancellation,
  };
}

/**
 * The unfused sequence on the fma's registers, or why there is none. `fused`: the fma's own
 * evaluation on the same registers, where the caller has it.
 */
export function evaluateUnfused(
  formOrText: Form | string,
  registers: Registers,
  options?: Partial<EngineOptions>,
  fused?: EvalResult,
): UnfusedEvaluation | { readonly ok: false; readonly refusal: UnfusedRefusal } {
  const form = resolveForm(formOrText);
  const plan = unfusedPlan(form);
  if (!plan.ok) return plan;
  const fma = fused ?? evaluate(form, registers, options);
  const dRegister = form.registers[0]!;
  let d: bigint;
  let product: UnfusedEvaluation['product'];
  let traced: Pick<UnfusedEvaluation, 'traces' | 'binary32'>;
  if (plan.mul && plan.add) {
    const mul = evaluate(plan.mul, { a: registers.a, b: registers.b }, options);
    const add = evaluate(plan.add, { a: BigInt(mul.d), b: registers.c }, options);
    d = BigInt(add.d);
    product = {
      register: mul.d,
      format: plan.mul.elements[0]!.dest.format,
      elements: mul.elements.map((e) =>
        bitsView(BigInt(e.result), FORMATS[plan.mul!.elements[0]!.dest.format]),
      ),
    };
    traced = { traces: { mul, add } };
  } else {
    const { product: p, sum, d: bits, ...sat } = binary32Sequence(form, registers);
    d = bits;
    product = { register: p.result.bits, format: 'f32', elements: [p.result] };
    traced = { binary32: { product: p, sum, ...sat } };
  }
  const elements = form.elements.map((e) => {
    const f = FORMATS[e.dest.format];
    return bitsView((d >> BigInt(e.dest.value.lo)) & mask(f.width), f);
  });
  return {
    lines: plan.lines,
    precision: plan.precision,
    d: hexOf(d, dRegister.bits),
    dBits: dRegister.bits,
    dType: dRegister.type,
    elements,
    product,
    ...traced,
    why: elements.map((e, i) => whyOf(form, fma, i, e, product.elements[i]!)),
  };
}
