/**
 * ptxf eval of a matrix form: the exact value and what a CUDA-core loop of fma.rn gives in f32
 * and in f64 beside the tensor core's d, as the page's what-if shows them
 * (engine/what-if/matrix-chains.ts, in the words of present/matrix-what-if-words.ts).
 */
import type { Form } from '../catalog/instruction.ts';
import type { Registers } from '../engine/pipeline.ts';
import {
  matrixChains,
  type CudaCoreChainAnswer,
  type MatrixChains,
} from '../engine/what-if/matrix-chains.ts';
import { chainSentence, exactLine } from '../present/matrix-what-if-words.ts';

/** The chains of a matrix form's element on the target; null for the other forms. */
export function loopsOf(form: Form, registers: Registers, target: string): MatrixChains | null {
  return form.family === 'matrix' ? matrixChains(form, registers, target) : null;
}

/** The lines under the reference values. */
export function loopLines(x: MatrixChains): string[] {
  return [
    `  what if: ${exactLine(x)}`,
    `    ${chainSentence(x, 'f32')}`,
    `    ${chainSentence(x, 'f64')}`,
  ];
}

function chainJson(c: CudaCoreChainAnswer) {
  if (!c.ok) return { ok: false, reason: c.reason };
  return {
    ok: true,
    result: c.result.bits,
    inResultFormat: c.inResultFormat.bits,
    rounded: c.links.filter((l) => l.rounded).length,
    ulpsFromTensorCore: c.ulpsFromTensorCore,
    ulpsFromExact: c.ulpsFromExact,
  };
}

/** For --json: each loop's result, d's format's value of it, and its distances in ulps of d. */
export function loopsJson(x: MatrixChains) {
  return { f32: chainJson(x.f32), f64: chainJson(x.f64) };
}
