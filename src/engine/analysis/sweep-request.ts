/**
 * What a sweep is asked for, and why a request cannot be swept: a single-input form (cvt,
 * tanh, ex2, neg, abs) over every pattern of a source of 16 bits or fewer, or over up to 2^20
 * evenly spaced values of an .f32 or .f64 source. A request that cannot be swept gets a
 * SweepProblem (data, for the words in src/present), never a crash.
 */
import type { Form, Operation } from '../../catalog/instruction.ts';
import { FORMATS, type FormatName } from '../format.ts';

/** The most values a range sweep takes: 2^20 (a million). */
export const SWEEP_MAX_VALUES = 1 << 20;
/** The widest source whose every pattern a sweep takes. */
export const SWEEP_MAX_PATTERN_BITS = 16;
/** Columns of a range sweep's plot: each holds the least and greatest result and error in it. */
export const SWEEP_PLOT_BINS = 512;

export type SweepInputs =
  /** Every pattern of the source element (16 bits or fewer). */
  | { readonly kind: 'every-pattern' }
  /**
   * `count` values evenly spaced from `from` to `to` (both included), each rounded to the
   * source format by round-to-nearest-even (.f32), or as they are (.f64).
   */
  | { readonly kind: 'range'; readonly from: number; readonly to: number; readonly count: number };

export interface SweepRequest {
  /** The form's canonical text. */
  readonly form: string;
  readonly inputs: SweepInputs;
  /** .rs: the rbits register, the same for every input (zero when left out). */
  readonly rbits?: bigint;
}

/** The operations a sweep takes: one input per element, and a function of it to compare with. */
export const SWEPT_OPERATIONS: readonly Operation[] = ['convert', 'tanh', 'ex2', 'neg', 'abs'];

/** Why a request cannot be swept. */
export type SweepProblem =
  | { readonly code: 'unknown-form'; readonly form: string }
  /** Not a single-input form (add, fma, min, …). */
  | { readonly code: 'not-single-input'; readonly form: string }
  /** Every pattern of a source wider than 16 bits: sweep a range of its values. */
  | {
      readonly code: 'too-many-patterns';
      readonly format: FormatName;
      readonly width: number;
      readonly maxValues: number;
    }
  /** A range sweep of a source that is not .f32 or .f64: sweep every pattern. */
  | { readonly code: 'range-needs-f32-or-f64'; readonly form: string; readonly format: FormatName }
  | { readonly code: 'range-not-finite'; readonly from: number; readonly to: number }
  | { readonly code: 'range-empty'; readonly from: number; readonly to: number }
  | {
      readonly code: 'range-count';
      readonly count: number;
      readonly min: number;
      readonly max: number;
    }
  | { readonly code: 'rbits'; readonly rbits: unknown };

/** A request that cannot be swept, as thrown by startSweep; `problem` says why. */
export class SweepError extends Error {
  readonly code = 'sweep';
  constructor(readonly problem: SweepProblem) {
    super(`cannot sweep: ${problem.code}`);
  }
}

/** The source format of a sweepable form's element 0. */
export function sweptSource(form: Form): FormatName {
  return form.elements[0]!.inputs[0]!.format;
}

/**
 * Whether the form can be swept at all: one input per element, of an operation the sweep runs
 * (the page offers its panel, and links keep its tab, only then).
 */
export function sweepsOneInput(form: Form): boolean {
  return SWEPT_OPERATIONS.includes(form.operation) && form.elements[0]!.inputs.length === 1;
}

/** Why the form cannot be swept over these inputs, or null. */
export function sweepProblem(
  form: Form,
  inputs: SweepInputs,
  rbits?: unknown,
): SweepProblem | null {
  if (!sweepsOneInput(form)) return { code: 'not-single-input', form: form.text };
  if (rbits !== undefined && (typeof rbits !== 'bigint' || rbits < 0n || rbits > 0xffffffffn))
    return { code: 'rbits', rbits };
  const src = FORMATS[sweptSource(form)];
  if (inputs.kind === 'every-pattern')
    return src.width <= SWEEP_MAX_PATTERN_BITS
      ? null
      : {
          code: 'too-many-patterns',
          format: src.name,
          width: src.width,
          maxValues: SWEEP_MAX_VALUES,
        };
  if (src.name !== 'f32' && src.name !== 'f64')
    return { code: 'range-needs-f32-or-f64', form: form.text, format: src.name };
  const { from, to, count } = inputs;
  if (!Number.isFinite(from) || !Number.isFinite(to)) return { code: 'range-not-finite', from, to };
  if (!(from < to)) return { code: 'range-empty', from, to };
  if (!Number.isInteger(count) || count < 2 || count > SWEEP_MAX_VALUES)
    return { code: 'range-count', count, min: 2, max: SWEEP_MAX_VALUES };
  return null;
}
