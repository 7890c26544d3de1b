/**
 * The engine's expectations for the cvt forms of the capture plan (cvt-plan.ts): results and
 * row hashes from the engine's fast path (compileFast(form).batch) on inputs filled in bulk,
 * in the harness's order and encoding. expected.ts does the same for the arithmetic.
 */
// Every family's semantics, provided before anything evaluates (engine/family-semantics.ts).
import '../../src/engine/all-families.ts';
import { compileFast } from '../../src/engine/fast/index.ts';
import type { EngineOptions } from '../../src/engine/options.ts';
import { hashWords } from './hash.ts';
import { ROW_LENGTH } from './plan.ts';
import {
  cvtInputArrays,
  fillCvtInputs,
  type CvtInputArrays,
  type CvtSectionName,
  type CvtShape,
} from './cvt-plan.ts';

export type CvtResults = Uint16Array | Uint32Array | BigUint64Array;

/** A result array of the destination's width (64-bit results as BigUint64Array). */
export function cvtResultArray(shape: CvtShape, length: number): CvtResults {
  return shape.resultBits === 16
    ? new Uint16Array(length)
    : shape.resultBits === 32
      ? new Uint32Array(length)
      : new BigUint64Array(length);
}

/**
 * The words the row hash mixes in for these results: 16-bit results zero-extended, 32-bit ones
 * as they are, a 64-bit result as its low word then its high word (little-endian memory order,
 * which hw/cvt-harness.cuh follows).
 */
export function resultWords(results: CvtResults): Uint16Array | Uint32Array {
  return results instanceof BigUint64Array
    ? new Uint32Array(results.buffer, results.byteOffset, results.length * 2)
    : results;
}

/** Evaluates `count` inputs into `out` (from index 0) through the batch path. */
function evaluator(
  shape: CvtShape,
  options?: Partial<EngineOptions>,
): (inputs: CvtInputArrays, out: CvtResults, count: number) => void {
  const { batch } = compileFast(shape.form, options);
  return (inputs, out, count) => {
    const registers = {
      a: shape.aBits === 64 ? inputs.aF64 : inputs.aWords,
      ...(shape.hasB ? { b: inputs.b } : {}),
    };
    // A 64-bit d is written as the bits of a double.
    batch(
      registers,
      out instanceof BigUint64Array ? new Float64Array(out.buffer, out.byteOffset, count) : out,
      count,
    );
  };
}

/** Engine results for inputs [first, first + count) of a section, in the harness's order. */
export function cvtExpectedResults(
  shape: CvtShape,
  generator: CvtSectionName,
  first: number,
  count: number,
  seed: number,
  options?: Partial<EngineOptions>,
): CvtResults {
  const evaluate = evaluator(shape, options);
  const out = cvtResultArray(shape, count);
  const inputs = cvtInputArrays(Math.min(count, ROW_LENGTH));
  for (let done = 0; done < count; done += ROW_LENGTH) {
    const n = Math.min(ROW_LENGTH, count - done);
    fillCvtInputs(shape, generator, first + done, n, seed, inputs);
    evaluate(inputs, out.subarray(done, done + n), n);
  }
  return out;
}

/** A row number's hash, computed as the GPU does (compiled and allocated once). */
export function cvtRowHasher(
  shape: CvtShape,
  generator: CvtSectionName,
  seed: number,
  options?: Partial<EngineOptions>,
): (row: number) => [number, number] {
  const evaluate = evaluator(shape, options);
  const inputs = cvtInputArrays(ROW_LENGTH);
  const out = cvtResultArray(shape, ROW_LENGTH);
  const words = resultWords(out);
  return (row) => {
    fillCvtInputs(shape, generator, row * ROW_LENGTH, ROW_LENGTH, seed, inputs);
    evaluate(inputs, out, ROW_LENGTH);
    return hashWords(words);
  };
}
