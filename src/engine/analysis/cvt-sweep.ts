/**
 * A cvt form over many inputs at once, on the fast path (cvt-fast.ts): every pattern of a
 * source of 16 bits or fewer (all 65,536 .f16 or .bf16 values), or up to 2^20 evenly spaced
 * values of an .f32 or .f64 source between two bounds. What it gives is what a person asks of
 * a quantisation: where each destination value's inputs lie (the value table of the form), how
 * many inputs overflowed, saturated, flushed or became NaN, the largest error, and the result
 * and error over the inputs for a plot. Element 0 of the form is swept (d's upper bits, from
 * a); every other source operand is zero. The sweep runs in chunks so that its host can report
 * progress and stop it between them.
 */
import { findCvtForm, type CvtForm, type CvtSourceName } from '../../catalog/cvt-forms.ts';
import type { ElementFormatName } from '../../catalog/cvt-types.ts';
import { compileFast } from '../fast/index.ts';
import type { RegisterArray } from '../fast/path.ts';
import { elementWidth, floatFormatOf } from '../element-format.ts';
import { classify, toDouble, valueTable } from '../formats.ts';
import type { FloatClass } from '../trace.ts';
import type { SweepProgress } from './approx-sweep.ts';

/** The most values a range sweep converts: 2^20 (a million). */
export const CVT_SWEEP_MAX_VALUES = 1 << 20;
/** Columns of the plot's data: each holds the least and greatest result and error in it. */
export const CVT_SWEEP_BINS = 512;

export type CvtSweepInputs =
  /** Every pattern of the source element (16 bits or fewer). */
  | { readonly kind: 'every-pattern' }
  /**
   * `count` values evenly spaced from `from` to `to` (both included), each rounded to the
   * source format by round-to-nearest-even (.f32), or as they are (.f64).
   */
  | { readonly kind: 'range'; readonly from: number; readonly to: number; readonly count: number };

export interface CvtSweepRequest {
  readonly form: string;
  readonly inputs: CvtSweepInputs;
  /** The rbits register of an .rs form (a 32-bit word; the same for every input). */
  readonly rbits?: number;
}

/** The inputs that went to one destination value. */
export interface CvtSweepBucket {
  /** The destination element's bits. */
  readonly bits: number;
  readonly value: number;
  readonly count: number;
  /** The least and greatest input (by value) that went there. */
  readonly lo: number;
  readonly hi: number;
}

export interface CvtSweep {
  readonly form: string;
  readonly source: ElementFormatName;
  readonly dest: ElementFormatName;
  readonly inputs: CvtSweepInputs;
  /** Inputs converted (fewer than asked when cancelled). */
  readonly count: number;
  /** Results by class. */
  readonly classes: Readonly<Record<'nan' | 'infinity' | 'zero' | 'subnormal' | 'normal', number>>;
  /** Finite inputs beyond the destination's MAX_NORM that gave ±MAX_NORM (.satfinite, .rz …). */
  readonly saturated: number;
  /** Finite inputs whose result is infinite or NaN. */
  readonly overflowed: number;
  /** Nonzero finite inputs whose result is a zero. */
  readonly flushedToZero: number;
  /** Inputs whose result has the same value. */
  readonly exact: number;
  /** Per destination value the inputs that went there, by value; null past 16 destination bits. */
  readonly buckets: readonly CvtSweepBucket[] | null;
  /** The largest |result − input| over finite results of finite inputs, and where. */
  readonly worst: {
    readonly input: number;
    readonly result: number;
    readonly error: number;
  } | null;
  /** Plot data: CVT_SWEEP_BINS columns over the input range (range sweeps only). */
  readonly plot: {
    readonly from: number;
    readonly to: number;
    readonly resultMin: Float64Array;
    readonly resultMax: Float64Array;
    readonly errorMin: Float64Array;
    readonly errorMax: Float64Array;
  } | null;
  readonly cancelled: boolean;
}

/** A sweep under way: `advance` converts the next inputs, `result` gives what is done so far. */
export interface CvtSweepRun {
  readonly total: number;
  readonly finished: boolean;
  advance(count: number): SweepProgress;
  result(cancelled: boolean): CvtSweep;
}

export class CvtSweepError extends Error {
  readonly code = 'sweep';
}

const MIN_NORMAL_F64 = 2 ** -1022;
const f32 = new Float32Array(1);
const f32Bits = new Uint32Array(f32.buffer);

/** The value of a destination element's bits (up to 32 of them). */
function valueReader(format: Exclude<ElementFormatName, 'f64'>): (bits: number) => number {
  const f = floatFormatOf(format);
  if (f.width <= 16) {
    const table = valueTable(f);
    return (bits) => table[bits]!;
  }
  // .tf32 (1-8-10) is .f32 with the 13 low mantissa bits cut off.
  const shift = format === 'tf32' ? 2 ** 13 : format === 'f32' ? 1 : null;
  if (shift !== null)
    return (bits) => {
      f32Bits[0] = bits * shift;
      return f32[0]!;
    };
  return (bits) => toDouble(bits, f);
}

function classGroup(cls: FloatClass): keyof CvtSweep['classes'] {
  return cls === 'qnan' || cls === 'snan' ? 'nan' : cls;
}

/** Why the sweep cannot be run as asked, or null. */
export function cvtSweepProblem(form: CvtForm, inputs: CvtSweepInputs): string | null {
  const src = form.elements[0]!.source.format;
  const width = elementWidth(src);
  if (inputs.kind === 'every-pattern')
    return width <= 16
      ? null
      : `.${src} has ${width}-bit values: sweep a range of them (at most ${CVT_SWEEP_MAX_VALUES.toLocaleString('en-US')})`;
  if (src !== 'f32' && src !== 'f64')
    return `a range sweep reads .f32 or .f64 values; ${form.text} reads .${src} (sweep every pattern)`;
  const { from, to, count } = inputs;
  if (!Number.isFinite(from) || !Number.isFinite(to)) return 'the range needs finite bounds';
  if (!(from < to))
    return `the range's lower bound (${from}) must be below its upper bound (${to})`;
  if (!Number.isInteger(count) || count < 2 || count > CVT_SWEEP_MAX_VALUES)
    return `the number of values must be 2 … ${CVT_SWEEP_MAX_VALUES.toLocaleString('en-US')}; got ${count}`;
  return null;
}

export function startCvtSweep(request: CvtSweepRequest): CvtSweepRun {
  const form = findCvtForm(request.form);
  if (!form) throw new CvtSweepError(`not a catalog cvt form: ${request.form}`);
  const problem = cvtSweepProblem(form, request.inputs);
  if (problem) throw new CvtSweepError(problem);
  const element = form.elements[0]!;
  const src = element.source.format;
  const dst = element.dest.format;
  const operand = element.source.operand as CvtSourceName;
  const inputs = request.inputs;
  const total = inputs.kind === 'every-pattern' ? 2 ** elementWidth(src) : inputs.count;
  const run = compileFast(form.text).batch;

  // Reading inputs: the pattern's value, or the range's value rounded to the source.
  const srcValue =
    src === 'f64' || src === 'f32' ? null : valueReader(src as Exclude<ElementFormatName, 'f64'>);
  const range = inputs.kind === 'range' ? inputs : null;
  const step = range ? (range.to - range.from) / (range.count - 1) : 0;
  const inputOf = (i: number): number => {
    if (!range) return srcValue!(i);
    const x = i === range.count - 1 ? range.to : range.from + i * step;
    return src === 'f32' ? Math.fround(x) : x;
  };

  // Destination values: element 0's bits of d, or d itself for an .f64 destination.
  const wideOut = dst === 'f64';
  const destMask = 2 ** elementWidth(dst) - 1;
  const destShift = 2 ** element.dest.value.lo;
  const destValue = wideOut ? null : valueReader(dst as Exclude<ElementFormatName, 'f64'>);
  const destFormat = wideOut ? null : floatFormatOf(dst as Exclude<ElementFormatName, 'f64'>);
  const maxNorm = destFormat ? destValue!(destFormat.maxBits) : Number.MAX_VALUE;

  const classes = { nan: 0, infinity: 0, zero: 0, subnormal: 0, normal: 0 };
  let saturated = 0;
  let overflowed = 0;
  let flushedToZero = 0;
  let exact = 0;
  let worst: CvtSweep['worst'] = null;
  const bucketed = destFormat !== null && destFormat.width <= 16;
  const bucketCount = bucketed ? 2 ** destFormat!.width : 0;
  const counts = new Uint32Array(bucketCount);
  const lo = new Float64Array(bucketCount).fill(Infinity);
  const hi = new Float64Array(bucketCount).fill(-Infinity);
  const plot = range
    ? {
        from: range.from,
        to: range.to,
        resultMin: new Float64Array(CVT_SWEEP_BINS).fill(NaN),
        resultMax: new Float64Array(CVT_SWEEP_BINS).fill(NaN),
        errorMin: new Float64Array(CVT_SWEEP_BINS).fill(NaN),
        errorMax: new Float64Array(CVT_SWEEP_BINS).fill(NaN),
      }
    : null;

  const CHUNK_MAX = 65536;
  const zeros = new Uint32Array(CHUNK_MAX);
  const rbits = new Uint32Array(CHUNK_MAX).fill((request.rbits ?? 0) >>> 0);
  const sourceWords = src === 'f64' ? new Float64Array(CHUNK_MAX) : new Uint32Array(CHUNK_MAX);
  const out = wideOut ? new Float64Array(CHUNK_MAX) : new Uint32Array(CHUNK_MAX);
  const values = new Float64Array(CHUNK_MAX);
  const registers: Partial<Record<CvtSourceName, RegisterArray>> = {};
  for (const op of form.operands.slice(1))
    registers[op.name as CvtSourceName] = op.name === 'rbits' ? rbits : zeros;
  registers[operand] = sourceWords;
  const srcShift = 2 ** element.source.value.lo;

  let done = 0;
  const advance = (wanted: number): SweepProgress => {
    const n = Math.min(wanted, CHUNK_MAX, total - done);
    for (let k = 0; k < n; k++) {
      const i = done + k;
      const x = inputOf(i);
      values[k] = x;
      if (src === 'f64') sourceWords[k] = x;
      else if (src === 'f32') {
        f32[0] = x;
        sourceWords[k] = f32Bits[0]!;
      } else sourceWords[k] = i * srcShift;
    }
    run(registers, out, n);
    for (let k = 0; k < n; k++) {
      const x = values[k]!;
      let y: number;
      let bits = 0;
      if (wideOut) {
        y = out[k]!;
        const magnitude = Math.abs(y);
        classes[
          y !== y
            ? 'nan'
            : magnitude === Infinity
              ? 'infinity'
              : magnitude === 0
                ? 'zero'
                : magnitude < MIN_NORMAL_F64
                  ? 'subnormal'
                  : 'normal'
        ]++;
      } else {
        bits = Math.floor(out[k]! / destShift) & destMask;
        y = destValue!(bits);
        classes[classGroup(classify(bits, destFormat!))]++;
      }
      if (y === x) exact++;
      if (x === x && Number.isFinite(x)) {
        if (y !== y || !Number.isFinite(y)) overflowed++;
        else {
          if (Math.abs(x) > maxNorm && Math.abs(y) === maxNorm) saturated++;
          if (y === 0 && x !== 0) flushedToZero++;
          const error = y - x;
          if (worst === null || Math.abs(error) > Math.abs(worst.error))
            worst = { input: x, result: y, error };
          if (plot) {
            const bin = Math.min(
              CVT_SWEEP_BINS - 1,
              Math.floor(((x - plot.from) / (plot.to - plot.from)) * CVT_SWEEP_BINS),
            );
            if (!(y >= plot.resultMin[bin]!)) plot.resultMin[bin] = y;
            if (!(y <= plot.resultMax[bin]!)) plot.resultMax[bin] = y;
            if (!(error >= plot.errorMin[bin]!)) plot.errorMin[bin] = error;
            if (!(error <= plot.errorMax[bin]!)) plot.errorMax[bin] = error;
          }
        }
      }
      if (bucketed && y === y && x === x) {
        counts[bits]!++;
        if (x < lo[bits]!) lo[bits] = x;
        if (x > hi[bits]!) hi[bits] = x;
      }
    }
    done += n;
    return { done, total };
  };

  const result = (cancelled: boolean): CvtSweep => {
    let buckets: CvtSweepBucket[] | null = null;
    if (bucketed) {
      buckets = [];
      for (let b = 0; b < bucketCount; b++)
        if (counts[b]! > 0)
          buckets.push({
            bits: b,
            value: destValue!(b),
            count: counts[b]!,
            lo: lo[b]!,
            hi: hi[b]!,
          });
      // By value; -0 before +0.
      buckets.sort((p, q) => p.value - q.value || (Object.is(p.value, -0) ? -1 : 1));
    }
    return {
      form: form.text,
      source: src,
      dest: dst,
      inputs,
      count: done,
      classes: { ...classes },
      saturated,
      overflowed,
      flushedToZero,
      exact,
      buckets,
      worst,
      plot,
      cancelled,
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

/** The whole sweep at once (tests, the benchmark). */
export function cvtSweep(request: CvtSweepRequest): CvtSweep {
  const run = startCvtSweep(request);
  while (!run.finished) run.advance(65536);
  return run.result(false);
}
