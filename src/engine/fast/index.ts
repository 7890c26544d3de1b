/**
 * The fast path: untraced evaluation of any form, for sweeps, batches and the GPU harness's
 * expected results. The same semantics as the pipeline (pipeline.ts), bit for bit, on numbers
 * instead of bigints where the registers allow, through one specialised path per operation:
 *
 *   add sub mul fma        arithmetic.ts  doubles, TwoSum and one rounding; .rn through binary32
 *   neg abs tanh ex2       unary.ts       a table of the 65,536 results, each entry on first use
 *   min max                minmax.ts      the spec's pseudo-code on numbers
 *   convert (cvt)          convert.ts     doubles and one rounding; .rn from .f32 through binary32
 *   dot-product (mma)      dot-product.ts the pipeline's untraced dot product (evaluateBits)
 *
 * Each applies NVIDIA's rules through nvidia-rules.ts or its view on numbers (numeric-rules.ts,
 * checked against it on every pattern of every format of at most 16 bits), and rounds through
 * round-pair.ts and nearest-binary32.ts (checked against rounding.ts). tests/fast-vs-pipeline.test.ts
 * and the reference suites (tests/engine-vs-reference*, tests/cvt-vs-reference*) check every form.
 *
 *   const fast = compileFast('add.rn.f16x2');
 *   fast.evaluate({ a: 0x3c003c00n, b: 0x40004000n })     // d as a bigint, any form
 *   fast.words?.(0x3c003c00, 0x40004000, 0)               // d as a number (registers a, b, c ≤ 32 bits)
 *   fast.batch({ a, b }, out, count)                      // out[i] = d of the registers' set i
 */
import type { Form, Operation } from '../../catalog/instruction.ts';
import { resolveOptions, type EngineOptions } from '../options.ts';
import { resolveForm, type Registers } from '../pipeline.ts';
import { arithmeticPath } from './arithmetic.ts';
import { convertPath } from './convert.ts';
import { dotProductPath } from './dot-product.ts';
import { minMaxPath } from './minmax.ts';
import type { FastBatch, OperationPath, WordEvaluator } from './path.ts';
import { unaryPath } from './unary.ts';

export type { BatchOut, BatchRegisters, FastBatch, RegisterArray, WordEvaluator } from './path.ts';

export interface FastPath {
  readonly form: Form;
  /**
   * d of one set of registers, as the pipeline's evaluate takes them (each register read at its
   * width, as the hardware reads it): the pipeline's d, bit for bit, for any form.
   */
  readonly evaluate: (registers: Registers) => bigint;
  /**
   * d of registers a, b, c held as numbers, for the forms whose registers are d and a, b, c of at
   * most 32 bits (every arithmetic form; cvt from one or two such registers); null for the others.
   */
  readonly words: WordEvaluator | null;
  /** Many sets of registers at once: out[i] = d of set i (path.ts BatchRegisters, BatchOut). */
  readonly batch: FastBatch;
}

const PATHS: Readonly<Record<Operation, (form: Form, options: EngineOptions) => OperationPath>> = {
  add: arithmeticPath,
  sub: arithmeticPath,
  mul: arithmeticPath,
  fma: arithmeticPath,
  neg: unaryPath,
  abs: unaryPath,
  tanh: unaryPath,
  ex2: unaryPath,
  min: minMaxPath,
  max: minMaxPath,
  convert: convertPath,
  'dot-product': dotProductPath,
};

const WORD = 0xffffffffn;

/** The fast path of a form (a Form of the catalog, or its text). */
export function compileFast(formOrText: Form | string, options?: Partial<EngineOptions>): FastPath {
  const form = resolveForm(formOrText);
  const path = PATHS[form.operation](form, resolveOptions(options));
  const words = path.words;
  const evaluate =
    path.evaluate ??
    ((registers: Registers) =>
      BigInt(
        words!(
          Number((registers.a ?? 0n) & WORD),
          Number((registers.b ?? 0n) & WORD),
          Number((registers.c ?? 0n) & WORD),
        ),
      ));
  return { form, evaluate, words, batch: path.batch };
}
