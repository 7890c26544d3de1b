/**
 * The fast path's former arithmetic API, over the one fast path (fast/index.ts): forms named by
 * text (or by a form object of either catalog), registers as numbers, and the batch over three
 * register arrays, kept for the old engine index (index.ts) and the tests that import it; new
 * code calls compileFast of fast/index.ts.
 */
import { compileFast as compileFastPath } from './fast/index.ts';
import type { RegisterArray } from './fast/path.ts';
import type { EngineOptions } from './options.ts';

/** A form of either catalog, or its text. */
type FormName = { readonly text: string } | string;

const textOf = (form: FormName): string => (typeof form === 'string' ? form : form.text);

/** d of registers a, b, c as numbers (compileFast(form).words of fast/index.ts). */
export function compileFast(
  form: FormName,
  options?: Partial<EngineOptions>,
): (a: number, b: number, c: number) => number {
  const fast = compileFastPath(textOf(form), options);
  if (!fast.words) throw new Error(`${fast.form.text}: a register wider than 32 bits`);
  return fast.words;
}

/** out[i] = d(a[i], b[i], c[i]) for i < count. */
export type FastBatch = (
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  c: ArrayLike<number>,
  out: { [index: number]: number },
  count: number,
) => void;

/** compileFast(form).batch of fast/index.ts over the registers a, b and c. */
export function compileFastBatch(form: FormName, options?: Partial<EngineOptions>): FastBatch {
  const batch = compileFastPath(textOf(form), options).batch;
  return (a, b, c, out, count) =>
    batch(
      { a: a as RegisterArray, b: b as RegisterArray, c: c as RegisterArray },
      out as Uint32Array,
      count,
    );
}
