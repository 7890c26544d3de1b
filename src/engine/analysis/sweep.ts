/**
 * A single-input form (cvt, tanh, ex2, neg, abs) over many inputs at once, on the fast path:
 * every pattern of a source of 16 bits or fewer, or up to 2^20 evenly spaced values of an .f32
 * or .f64 source. Each input's result is compared with the operation's exact value — the input
 * itself for a conversion, tanh(x) or 2^x (in double precision) for the approximations, −x and
 * |x| for neg and abs — and the sweep gives what a person asks of it: how many inputs overflowed,
 * saturated, became zero or NaN, which destination value each input went to (per destination
 * value: how many, from where to where, the largest error), the largest error, and for the
 * approximations the error in units of the spec's bound for every input (what the error plot
 * draws). Element 0 of the form is swept; every other source bit is zero.
 *
 * With measured tables (EngineOptions.approxTables) tanh and ex2 give the measured results, and
 * the sweep scores those. It runs in chunks, so that its host can report progress and stop it
 * between them.
 */
import { findForm } from '../../catalog/all-forms.ts';
import type { ErrorBound, Form } from '../../catalog/instruction.ts';
import { FORMATS, formatHex, toDouble, type FormatName } from '../format.ts';
import type { EngineOptions } from '../options.ts';
import { approxTableKey, mathFunction } from '../semantics/approx.ts';
import { BATCH_CHUNK, compileElementBatch, valueReader } from './sweep-batch.ts';
import {
  SweepError,
  sweepProblem,
  SWEEP_PLOT_BINS,
  sweptSource,
  type SweepInputs,
  type SweepRequest,
} from './sweep-request.ts';

export interface SweepProgress {
  readonly done: number;
  readonly total: number;
}

/** Results by class (a NaN is a NaN, quiet or signalling). */
export type ResultClasses = Readonly<
  Record<'nan' | 'infinity' | 'zero' | 'subnormal' | 'normal', number>
>;

/** The inputs that went to one destination value. */
export interface SweepBucket {
  /** The destination element's pattern, lower-case hex. */
  readonly bits: string;
  readonly value: number;
  readonly count: number;
  /** The least and greatest input (by value) that went there. */
  readonly lo: number;
  readonly hi: number;
  /** The largest |result − exact| of its inputs; null where none is finite. */
  readonly maxError: number | null;
}

/** Every input of an every-pattern sweep, indexed by the source pattern. */
export interface SweepPerInput {
  /** The input's value (NaN for a NaN). */
  readonly x: Float64Array;
  /** The result's value. */
  readonly result: Float64Array;
  /** result − exact; NaN where either is not finite. */
  readonly error: Float64Array;
  /**
   * With a bound: |error| ÷ the bound (a relative bound: ÷ |exact| as well); NaN where not
   * finite and where not scored.
   */
  readonly ratio: Float64Array | null;
  /**
   * With a relative bound: 1 where the input is not scored, its exact value being below the
   * least normal (a subnormal result has fewer significant bits than the bound asks for; .ftz
   * forms flush such results to zero, as the spec says). An absolute bound scores every input.
   */
  readonly unscored: Uint8Array | null;
}

/** A range sweep's plot: per column of the input range, the least and greatest result and error. */
export interface SweepPlot {
  readonly from: number;
  readonly to: number;
  readonly resultMin: Float64Array;
  readonly resultMax: Float64Array;
  readonly errorMin: Float64Array;
  readonly errorMax: Float64Array;
}

export interface Sweep {
  readonly form: string;
  readonly source: FormatName;
  readonly dest: FormatName;
  readonly inputs: SweepInputs;
  /** The spec's error bound (tanh, ex2), which `ratio` is in units of; null for exact operations. */
  readonly bound: ErrorBound | null;
  /** Where the measured results come from, when measured tables gave them; else null. */
  readonly measuredOn: string | null;
  /** Inputs asked for, and inputs done (fewer when cancelled). */
  readonly total: number;
  readonly count: number;
  readonly cancelled: boolean;
  readonly classes: ResultClasses;
  /** Inputs whose result has the exact value. */
  readonly exact: number;
  /** Finite inputs whose exact value lies beyond the destination's MAX_NORM and gave ±MAX_NORM. */
  readonly saturated: number;
  /** Finite inputs whose result is infinite or NaN. */
  readonly overflowed: number;
  /** Finite inputs with a nonzero exact value whose result is a zero. */
  readonly flushedToZero: number;
  /**
   * The worst input: the largest ratio where there is a bound, else the largest |error|; the
   * first such input. null where no input was scored.
   */
  readonly worst: {
    /** The input's index: its pattern (every-pattern sweeps), or its place in the range. */
    readonly index: number;
    readonly input: number;
    readonly result: number;
    readonly error: number;
    readonly ratio: number | null;
  } | null;
  /** Per destination value (16 bits or fewer), by value (-0 before +0); else null. */
  readonly buckets: readonly SweepBucket[] | null;
  /** Every-pattern sweeps. */
  readonly perInput: SweepPerInput | null;
  /** Range sweeps. */
  readonly plot: SweepPlot | null;
}

/** A sweep under way: `advance` takes the next inputs, `result` gives what is done so far. */
export interface SweepRun {
  readonly total: number;
  readonly finished: boolean;
  advance(count: number): SweepProgress;
  result(cancelled: boolean): Sweep;
}

type ExactFunction = (x: number) => number;

function exactFunction(form: Form): ExactFunction {
  switch (form.operation) {
    case 'tanh':
    case 'ex2': {
      const fn = form.operation;
      return (x) => mathFunction(fn, x);
    }
    case 'neg':
      return (x) => -x;
    case 'abs':
      return (x) => Math.abs(x);
    default:
      return (x) => x;
  }
}

function classOf(y: number, leastNormal: number, subnormals: boolean): keyof ResultClasses {
  if (y !== y) return 'nan';
  const m = Math.abs(y);
  if (m === Infinity) return 'infinity';
  if (m === 0) return 'zero';
  return subnormals && m < leastNormal ? 'subnormal' : 'normal';
}

const f32Value = new Float32Array(1);
const f32Word = new Uint32Array(f32Value.buffer);

export function startSweep(request: SweepRequest, options?: Partial<EngineOptions>): SweepRun {
  const form = findForm(request.form);
  if (!form) throw new SweepError({ code: 'unknown-form', form: String(request.form) });
  const problem = sweepProblem(form, request.inputs, request.rbits);
  if (problem) throw new SweepError(problem);
  const src = FORMATS[sweptSource(form)];
  const dst = FORMATS[form.elements[0]!.dest.format];
  const inputs = request.inputs;
  const range = inputs.kind === 'range' ? inputs : null;
  const total = range ? range.count : 2 ** src.width;
  const batch = compileElementBatch(form, options, request.rbits ?? 0n);
  const exactOf = exactFunction(form);
  const bound = form.errorBound ?? null;
  const boundWidth = bound ? 2 ** bound.log2 : 1;
  const measured =
    form.operation === 'tanh' || form.operation === 'ex2'
      ? options?.approxTables?.[approxTableKey(form.operation, dst)]
      : undefined;

  // The inputs: a pattern's value, or the range's value rounded to the source.
  const srcValue = range ? null : valueReader(src);
  const step = range ? (range.to - range.from) / (range.count - 1) : 0;
  const inputOf = (i: number): number => {
    if (!range) return srcValue!(i);
    const x = i === range.count - 1 ? range.to : range.from + i * step;
    return src.name === 'f32' ? Math.fround(x) : x;
  };

  const leastNormal = toDouble(dst.hasSubnormals ? 1n << BigInt(dst.manBits) : 0n, dst);
  const maxNorm = toDouble(dst.maxBits, dst);
  const classes = { nan: 0, infinity: 0, zero: 0, subnormal: 0, normal: 0 };
  let exact = 0;
  let saturated = 0;
  let overflowed = 0;
  let flushedToZero = 0;
  let worst: Sweep['worst'] = null;
  let worstScore = -1;

  const bucketed = dst.width <= 16;
  const bucketCount = bucketed ? 2 ** dst.width : 0;
  const counts = new Uint32Array(bucketCount);
  const lo = new Float64Array(bucketCount).fill(Infinity);
  const hi = new Float64Array(bucketCount).fill(-Infinity);
  const bucketError = new Float64Array(bucketCount).fill(-1);

  const perInput: SweepPerInput | null = range
    ? null
    : {
        x: new Float64Array(total).fill(NaN),
        result: new Float64Array(total).fill(NaN),
        error: new Float64Array(total).fill(NaN),
        ratio: bound ? new Float64Array(total).fill(NaN) : null,
        unscored: bound ? new Uint8Array(total) : null,
      };
  const plot: SweepPlot | null = range
    ? {
        from: range.from,
        to: range.to,
        resultMin: new Float64Array(SWEEP_PLOT_BINS).fill(NaN),
        resultMax: new Float64Array(SWEEP_PLOT_BINS).fill(NaN),
        errorMin: new Float64Array(SWEEP_PLOT_BINS).fill(NaN),
        errorMax: new Float64Array(SWEEP_PLOT_BINS).fill(NaN),
      }
    : null;
  const values = new Float64Array(BATCH_CHUNK);

  /** One input's result, scored. */
  const score = (i: number, x: number, y: number, bits: number) => {
    classes[classOf(y, leastNormal, dst.hasSubnormals)]++;
    const e = exactOf(x);
    if (y === e) exact++;
    if (perInput) {
      perInput.x[i] = x;
      perInput.result[i] = y;
    }
    const finiteInput = Number.isFinite(x);
    if (finiteInput && !Number.isFinite(y)) overflowed++;
    if (finiteInput && Number.isFinite(y)) {
      if (Math.abs(e) > maxNorm && Math.abs(y) === maxNorm) saturated++;
      if (y === 0 && e !== 0) flushedToZero++;
    }
    if (bucketed && y === y && x === x) {
      counts[bits]!++;
      if (x < lo[bits]!) lo[bits] = x;
      if (x > hi[bits]!) hi[bits] = x;
    }
    // Errors: where the input, the exact value and the result are all finite — and for an
    // infinite input whose exact value is finite (tanh(±inf) = ±1, 2^-inf = 0).
    if (!Number.isFinite(y) || !Number.isFinite(e) || x !== x) return;
    const error = y - e;
    if (perInput) perInput.error[i] = error;
    if (bucketed && Math.abs(error) > bucketError[bits]!) bucketError[bits] = Math.abs(error);
    let ratio: number | null = null;
    if (bound) {
      // A relative bound speaks of normal results: below the least normal (2^x of a finite x
      // is never 0, even where a double underflows to it) the input is counted apart. For
      // x = -inf the exact value really is 0, and so is the result: scored, error 0.
      const tiny = Math.abs(e) < leastNormal && (e !== 0 || finiteInput);
      if (bound.kind === 'relative' && tiny) {
        if (perInput) perInput.unscored![i] = 1;
        return;
      }
      const relative = e === 0 ? Math.abs(error) : Math.abs(error) / Math.abs(e);
      ratio = (bound.kind === 'absolute' ? Math.abs(error) : relative) / boundWidth;
      if (perInput) perInput.ratio![i] = ratio;
    }
    const scoreOf = ratio ?? Math.abs(error);
    if (scoreOf > worstScore) {
      worstScore = scoreOf;
      worst = { index: i, input: x, result: y, error, ratio };
    }
    if (plot && finiteInput) {
      const bin = Math.min(
        SWEEP_PLOT_BINS - 1,
        Math.floor(((x - plot.from) / (plot.to - plot.from)) * SWEEP_PLOT_BINS),
      );
      if (!(y >= plot.resultMin[bin]!)) plot.resultMin[bin] = y;
      if (!(y <= plot.resultMax[bin]!)) plot.resultMax[bin] = y;
      if (!(error >= plot.errorMin[bin]!)) plot.errorMin[bin] = error;
      if (!(error <= plot.errorMax[bin]!)) plot.errorMax[bin] = error;
    }
  };

  let done = 0;
  const advanceChunk = (n: number) => {
    const source = batch.source;
    for (let k = 0; k < n; k++) {
      const i = done + k;
      const x = inputOf(i);
      values[k] = x;
      if (src.name === 'f64') source[k] = x;
      else if (src.name === 'f32' && range) {
        f32Value[0] = x;
        source[k] = f32Word[0]!;
      } else source[k] = i;
    }
    batch.run(n);
    const bits = batch.resultBits;
    for (let k = 0; k < n; k++)
      score(done + k, values[k]!, batch.resultValues[k]!, bits ? bits[k]! : 0);
    done += n;
  };

  const advance = (wanted: number): SweepProgress => {
    let left = Math.max(0, Math.min(wanted, total - done));
    while (left > 0) {
      const n = Math.min(left, BATCH_CHUNK);
      advanceChunk(n);
      left -= n;
    }
    return { done, total };
  };

  const result = (cancelled: boolean): Sweep => {
    let buckets: SweepBucket[] | null = null;
    if (bucketed) {
      const destValue = valueReader(dst);
      const list: SweepBucket[] = [];
      for (let b = 0; b < bucketCount; b++)
        if (counts[b]! > 0)
          list.push({
            bits: formatHex(BigInt(b), dst),
            value: destValue(b),
            count: counts[b]!,
            lo: lo[b]!,
            hi: hi[b]!,
            maxError: bucketError[b]! < 0 ? null : bucketError[b]!,
          });
      // By value; -0 before +0.
      buckets = list.sort((p, q) => p.value - q.value || (Object.is(p.value, -0) ? -1 : 1));
    }
    return {
      form: form.text,
      source: src.name,
      dest: dst.name,
      inputs,
      bound,
      measuredOn: measured?.measuredOn ?? null,
      total,
      count: done,
      cancelled,
      classes: { ...classes },
      exact,
      saturated,
      overflowed,
      flushedToZero,
      worst,
      buckets,
      perInput,
      plot,
    };
  };

  return {
    total,
    get finished() {
      return done >= total;
    },
    advance,
    result,
  };
}

/** The whole sweep at once. */
export function sweep(request: SweepRequest, options?: Partial<EngineOptions>): Sweep {
  const run = startSweep(request, options);
  run.advance(run.total);
  return run.result(false);
}
