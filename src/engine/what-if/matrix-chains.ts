/**
 * What-if for a tensor-core element: what a CUDA-core loop gives for the same d = c + Σ a_i·b_i
 * (decision compare-cuda-core-chain), as data beside the tensor core's d and the exact value:
 *
 *   acc = c                                   (c exactly in the chain's format: f32 or f64)
 *   for i in 0 … k−1: acc = fma.rn(a_i, b_i, acc)   (a_i, b_i exactly; the exact a_i·b_i + acc
 *                                                     rounded once to nearest even: rounded-sum.ts)
 *
 * in f32 (what a float loop of fmaf gives) and in f64; each chain's result in its own format,
 * that value rounded to d's format, and its distance from the tensor core's d and from the exact
 * value in ulps of d's format at d (decision compare-ulp). An f64 form has no f32 chain: its
 * elements are f64 values. A block-scaled form's loop first dequantizes: a_i·SF_A and b_i·SF_B,
 * each rounded to nearest even into the chain's format (exact unless it leaves the format's
 * range), are the fma's operands.
 */
import type { Form } from '../../catalog/instruction.ts';
import { isZero } from '../exact.ts';
import {
  bitsView,
  encodeValue,
  FORMATS,
  valueOfBits,
  type BitsView,
  type Format,
} from '../format.ts';
import { evaluate, type Registers } from '../pipeline.ts';
import { multiplyValues } from '../semantics/arithmetic.ts';
import { ieeeRule } from '../semantics/context.ts';
import { roundedSum } from '../semantics/rounded-sum.ts';
import { tensorCoreFamily } from '../semantics/tensor-core.ts';
import type { Step } from '../steps.ts';
import type { Value } from '../value.ts';
import { carryValue } from './carry-values.ts';
import { exactOfElement, operandValues, valueOfView } from './reference-values.ts';
import { difference, inUlps, ulpExponentAt } from './ulp.ts';

/** The tensor cores' semantics, which this module's matrix forms need wherever it runs. */
const TENSOR_CORE = { 'tensor-core': tensorCoreFamily } as const;

type StepOf<K extends Step['kind']> = Extract<Step, { readonly kind: K }>;

export type ChainFormat = 'f32' | 'f64';

export interface CudaCoreChain {
  readonly ok: true;
  readonly format: ChainFormat;
  /** acc after each fma, in the chain's format, and whether that fma rounded. */
  readonly links: readonly { readonly result: BitsView; readonly rounded: boolean }[];
  /** The last acc, in the chain's format. */
  readonly result: BitsView;
  /** That value in d's format, rounded to nearest even (what the loop stores into d). */
  readonly inResultFormat: BitsView;
  /** result − the tensor core's d, in ulps of d's format at d; null where either is not finite. */
  readonly ulpsFromTensorCore: number | null;
  /** result − the exact value, in the same ulps; null where either is not finite. */
  readonly ulpsFromExact: number | null;
  /** result and d are the same value (a NaN beside a NaN counts as the same). */
  readonly sameAsTensorCore: boolean;
}

export type CudaCoreChainAnswer =
  | CudaCoreChain
  | { readonly ok: false; readonly format: ChainFormat; readonly reason: 'f64-elements' };

export interface MatrixChains {
  /** The tensor core's d on the target, and its model step. */
  readonly tensorCore: {
    readonly d: BitsView;
    readonly model: StepOf<'tensor-model'>;
    /** d − the exact value in ulps of d's format at d; null where either is not finite. */
    readonly ulpsFromExact: number | null;
  };
  /**
   * c + Σ a_i·b_i exactly (decision compare-exact); for a block-scaled form
   * c + Σ (a_i·SF_A)·(b_i·SF_B), each product scaled by its chunk's scales.
   */
  readonly exact: Value;
  /** The form is block-scaled: `exact` holds the scaled products. */
  readonly blockScaled: boolean;
  readonly k: number;
  readonly f32: CudaCoreChainAnswer;
  readonly f64: CudaCoreChainAnswer;
}

/**
 * The words the chain's links cite: fma.rn is IEEE 754's fusedMultiplyAdd rounded to nearest
 * even (decision compare-cuda-core-chain).
 */
const CHAIN_RULES = {
  exact: ieeeRule(
    '5.4.1',
    'fusedMultiplyAdd(x, y, z) computes (x × y) + z as if with unbounded range and precision, rounding only once to the destination format',
  ),
  round: ieeeRule(
    '4.3.1',
    'roundTiesToEven: the floating-point number nearest to the infinitely precise result; of two equally near, the one with an even least significant digit',
  ),
};

/** value − reference in ulps of `f` at the finite value `at`; null where one is not finite. */
function ulpsBetween(value: Value, reference: Value, at: Value, f: Format): number | null {
  if (value.kind !== 'finite' || reference.kind !== 'finite' || at.kind !== 'finite') return null;
  const d = difference(value.x, reference.x);
  return isZero(d) ? 0 : inUlps(d, ulpExponentAt(at.x, f));
}

const sameValue = (x: Value, y: Value) =>
  x.kind === 'nan'
    ? y.kind === 'nan'
    : x.kind === 'inf'
      ? y.kind === 'inf' && x.negative === y.negative
      : y.kind === 'finite' &&
        isZero(difference(x.x, y.x)) &&
        (!isZero(x.x) || x.x.negative === y.x.negative);

/** A block-scaled element's scales: those of the chunk holding element i of A's row and B's column. */
interface BlockScales {
  of(i: number): { readonly a: Value; readonly b: Value };
}

function blockScalesOf(element: { readonly steps: readonly Step[] }): BlockScales | null {
  const step = element.steps.find((s): s is StepOf<'block-scale'> => s.kind === 'block-scale');
  if (!step) return null;
  const scales = step.scales.map((s) => ({ a: valueOfView(s.a), b: valueOfView(s.b) }));
  return { of: (i) => scales[Math.floor(i / step.chunk)]! };
}

/** x·scale rounded to nearest even into f: what a loop that dequantizes before it adds holds. */
function dequantized(x: Value, scale: Value, f: Format): Value {
  return valueOfBits(carryValue(multiplyValues(x, scale), f).bits, f);
}

function chainIn(
  name: ChainFormat,
  a: readonly Value[],
  b: readonly Value[],
  c: Value,
  d: { readonly value: Value; readonly format: Format },
  exact: Value,
  scale: BlockScales | null,
): CudaCoreChainAnswer {
  const f = FORMATS[name];
  let acc = valueOfBits(encodeValue(c, f), f);
  a = scale ? a.map((x, i) => dequantized(x, scale.of(i).a, f)) : a;
  b = scale ? b.map((x, i) => dequantized(x, scale.of(i).b, f)) : b;
  const links: { result: BitsView; rounded: boolean }[] = [];
  for (let i = 0; i < a.length; i++) {
    const { bits, steps } = roundedSum(
      f,
      'rn',
      multiplyValues(a[i]!, b[i]!),
      acc,
      [a[i]!, b[i]!, acc],
      `a[${i}] × b[${i}] + acc`,
      CHAIN_RULES,
      true,
    );
    acc = valueOfBits(bits, f);
    links.push({
      result: bitsView(bits, f),
      rounded: steps.some((s) => s.kind === 'round' && s.inexact),
    });
  }
  const result = encodeValue(acc, f);
  return {
    ok: true,
    format: name,
    links,
    result: bitsView(result, f),
    inResultFormat: bitsView(carryValue(acc, d.format).bits, d.format),
    ulpsFromTensorCore: ulpsBetween(acc, d.value, d.value, d.format),
    ulpsFromExact: ulpsBetween(acc, exact, d.value, d.format),
    sameAsTensorCore: sameValue(acc, d.value),
  };
}

/** The tensor core's element on `target` beside the f32 and f64 CUDA-core chains. */
export function matrixChains(form: Form, registers: Registers, target: string): MatrixChains {
  const result = evaluate(form, registers, { target }, TENSOR_CORE);
  const element = result.elements[0]!;
  const k = form.matrix!.shape.k;
  const inputs = operandValues(element);
  const a = inputs.slice(0, k);
  const b = inputs.slice(k, 2 * k);
  const c = inputs[2 * k]!;
  const format = FORMATS[form.elements[0]!.dest.format];
  const dBits = BigInt(element.result);
  const dValue = valueOfBits(dBits, format);
  const exact = exactOfElement(form, element).value;
  const model = element.steps.find((s): s is StepOf<'tensor-model'> => s.kind === 'tensor-model')!;
  const d = { value: dValue, format };
  const scale = blockScalesOf(element);
  return {
    tensorCore: {
      d: bitsView(dBits, format),
      model,
      ulpsFromExact: ulpsBetween(dValue, exact, dValue, format),
    },
    exact,
    blockScaled: scale !== null,
    k,
    // Every element of the other forms is exact in f32 (tf32 as its 19 bits, f16 and f32 c).
    f32:
      form.matrix!.types.a === 'f64'
        ? { ok: false, format: 'f32', reason: 'f64-elements' }
        : chainIn('f32', a, b, c, d, exact, scale),
    f64: chainIn('f64', a, b, c, d, exact, scale),
  };
}
