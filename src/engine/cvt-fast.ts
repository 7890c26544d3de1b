/**
 * The fast path's former cvt API, over the one fast path (fast/index.ts): forms named by text
 * (or by a form object of either catalog), one conversion of bigint registers, and the batch over
 * register arrays. src/cli (batch-line.ts, cvt-batch-line.ts) still calls it; new code calls
 * compileFast of fast/index.ts, whose evaluate and batch these are.
 */
import { compileFast } from './fast/index.ts';
import type { BatchOut, BatchRegisters, FastBatch } from './fast/path.ts';
import type { EngineOptions } from './options.ts';
import type { Registers } from './pipeline.ts';

/** A form of either catalog, or its text. */
type FormName = { readonly text: string } | string;

const textOf = (form: FormName): string => (typeof form === 'string' ? form : form.text);

/** Registers of a batch: 32 bits or fewer in a Uint32Array, .f64 as the bits of a Float64Array. */
export type CvtRegisters = { -readonly [K in keyof BatchRegisters]: BatchRegisters[K] };

/** out[i] = d of the registers' element i (fast/path.ts FastBatch). */
export type CvtFastBatch = (registers: CvtRegisters, out: BatchOut, count: number) => void;

export function compileCvtFastBatch(form: FormName, options?: Partial<EngineOptions>): FastBatch {
  return compileFast(textOf(form), options).batch;
}

/** One conversion of bigint registers (as the pipeline takes them): d as a bigint. */
export function compileCvtFast(
  form: FormName,
  options?: Partial<EngineOptions>,
): (input: Registers) => bigint {
  return compileFast(textOf(form), options).evaluate;
}
