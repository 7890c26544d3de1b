/**
 * What-if for a tensor-core form: the same output element, on the same registers, on other
 * targets — each its architecture's model (tensor-cores.md) — as data read off each trace: the
 * model, d, how far d is from the current target's d (in ulps of d's format at the current d,
 * decision compare-ulp), and what the cuts did (the products cut to zero, the loss in ulps).
 */
import type { Form } from '../../catalog/instruction.ts';
import { dyadicOfBits, FORMATS, isNaNBits, isInfBits } from '../format.ts';
import { evaluate, type Registers } from '../pipeline.ts';
import { tensorCoreFamily } from '../semantics/tensor-core.ts';
import type { EvalResult, Step } from '../steps.ts';
import { difference, inUlps, ulpExponentAt } from './ulp.ts';

/** The tensor cores' semantics, which this module's matrix forms need wherever it runs. */
const TENSOR_CORE = { 'tensor-core': tensorCoreFamily } as const;

type StepOf<K extends Step['kind']> = Extract<Step, { readonly kind: K }>;

/** The targets the what-if offers first: Ampere, Ada, Hopper, Blackwell. */
export const WHAT_IF_TARGETS: readonly string[] = ['sm_80', 'sm_89', 'sm_90', 'sm_100'];

export interface MatrixTargetOutcome {
  readonly target: string;
  /** The model's step (architecture, n, halves, rounding, sources). */
  readonly model: StepOf<'tensor-model'>;
  /** d's element, hex of its format's width. */
  readonly d: string;
  /**
   * d − the reference target's d in ulps of d's format at the reference d; null where either is
   * NaN or infinite (then `sameBits` says whether they agree).
   */
  readonly ulpsFromReference: number | null;
  readonly sameBits: boolean;
  /** The products (their indices) the cuts took to zero: a nonzero term whose kept part is 0. */
  readonly cutToZero: readonly number[];
  /** The products the cuts shortened (lost anything), zero ones included. */
  readonly cut: readonly number[];
  /** The alignment bits n of the fused steps (null for the f64 chain). */
  readonly alignmentBits: number | null;
}

export type MatrixTargetAnswer =
  | ({ readonly ok: true } & MatrixTargetOutcome)
  | { readonly ok: false; readonly target: string; readonly error: string };

function stepsOf(steps: readonly Step[], kind: Step['kind'], out: Step[] = []): Step[] {
  for (const s of steps) {
    if (s.kind === kind) out.push(s);
    if (s.kind === 'fused' || s.kind === 'fma') stepsOf(s.steps, kind, out);
  }
  return out;
}

const isZeroText = (decimal: string) => /^-?0$/.test(decimal);

/** What one evaluation's trace says about its model and its cuts. */
function outcomeOf(form: Form, result: EvalResult, target: string, reference: string | null) {
  const element = result.elements[0]!;
  const model = element.steps.find((s): s is StepOf<'tensor-model'> => s.kind === 'tensor-model')!;
  const aligned = stepsOf(element.steps, 'align') as StepOf<'align'>[];
  const cutToZero: number[] = [];
  const cut: number[] = [];
  for (const step of aligned)
    for (const t of step.terms) {
      if (t.source !== 'product') continue;
      const lost = !isZeroText(t.cut.decimal);
      if (lost) cut.push(t.index);
      if (lost && isZeroText(t.kept.decimal)) cutToZero.push(t.index);
    }
  const format = FORMATS[form.elements[0]!.dest.format];
  const bits = BigInt(element.result);
  const special = (b: bigint) => isNaNBits(b, format) || isInfBits(b, format);
  let ulps: number | null = null;
  if (reference !== null) {
    const ref = BigInt(reference);
    if (!special(bits) && !special(ref)) {
      const r = dyadicOfBits(ref, format);
      ulps = inUlps(difference(dyadicOfBits(bits, format), r), ulpExponentAt(r, format));
    }
  }
  return {
    target,
    model,
    d: element.result,
    ulpsFromReference: ulps,
    sameBits: reference !== null && BigInt(reference) === bits,
    cutToZero,
    cut,
    alignmentBits: model.fused?.alignmentBits ?? null,
  };
}

/**
 * The element on each of `targets`, compared with its value on `reference` (the page's target);
 * a target no model covers answers with the engine's reason.
 */
export function matrixOnTargets(
  form: Form,
  registers: Registers,
  reference: string,
  targets: readonly string[] = WHAT_IF_TARGETS,
): MatrixTargetAnswer[] {
  let referenceD: string | null = null;
  try {
    referenceD = evaluate(form, registers, { target: reference }, TENSOR_CORE).elements[0]!.result;
  } catch {
    referenceD = null;
  }
  return targets.map((target) => {
    try {
      const result = evaluate(form, registers, { target }, TENSOR_CORE);
      return { ok: true as const, ...outcomeOf(form, result, target, referenceD) };
    } catch (err) {
      return {
        ok: false as const,
        target,
        error: err instanceof Error ? err.message : String(err),
      };
    }
  });
}
