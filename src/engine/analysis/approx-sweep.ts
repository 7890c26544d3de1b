/**
 * The error of an approximate form's model over every 16-bit input, in units of the spec's
 * error bound (the catalog record's `errorBounds`): what the error plot draws. The sweep runs in
 * chunks so that its host can report progress and stop it between them.
 */
import { findForm, laneFormat, type ErrorBound, type Form } from '../../catalog/index.ts';
import { compileFast } from '../fast/index.ts';
import { FORMATS, toDouble } from '../formats.ts';
import { mathFunction, type ApproxFn } from '../ops/approx.ts';

/** Every 16-bit input pattern. */
export const SWEEP_INPUTS = 65536;

export interface SweepProgress {
  readonly done: number;
  readonly total: number;
}

/** Error of an approximate form's model over every 16-bit input, in units of the spec's bound. */
export interface ApproxSweep {
  readonly form: string;
  readonly boundKind: ErrorBound['kind'];
  readonly boundLog2: number;
  /**
   * Per input bit pattern (index = lane-0 bits): model error / bound; NaN where not finite and
   * where the input is not scored (see `unscored`).
   */
  readonly ratio: Float64Array;
  /**
   * 1 where a relative bound is not scored: the exact value is below the smallest normal (a
   * subnormal result has fewer significant bits than the bound asks for, so usually no value
   * meets it; .ftz forms flush such results to zero, as the spec says). Absolute bounds score
   * every finite input.
   */
  readonly unscored: Uint8Array;
  /** Input value per pattern (for the x axis), NaN for NaN inputs. */
  readonly x: Float64Array;
  readonly worst: { readonly input: number; readonly ratio: number };
  /** True when the sweep was stopped before the last input: the arrays are partly filled. */
  readonly cancelled: boolean;
}

/** The spec's error bound for the form's type: approximate forms have one, exact forms none. */
export function approxErrorBound(form: Form): ErrorBound | null {
  return form.record.errorBounds?.find((b) => b.types.includes(form.type)) ?? null;
}

/** A sweep under way: `advance` scores the next inputs, `result` gives what is done so far. */
export interface ApproxSweepRun {
  readonly finished: boolean;
  advance(count: number): SweepProgress;
  result(cancelled: boolean): ApproxSweep;
}

export function startApproxSweep(formText: string): ApproxSweepRun {
  const form = findForm(formText);
  const bound = form ? approxErrorBound(form) : null;
  if (!form || !bound) throw new Error(`${formText} is not an approximate op`);
  // Forms with an error bound are tanh and ex2, whose exact function the engine knows.
  const fn = form.opcode as ApproxFn;
  const f = FORMATS[laneFormat(form.type)];
  const run = compileFast(form.text).words!;
  const ratio = new Float64Array(SWEEP_INPUTS).fill(NaN);
  const unscored = new Uint8Array(SWEEP_INPUTS);
  const x = new Float64Array(SWEEP_INPUTS);
  const minNormal = toDouble(2 ** f.manBits, f);
  let worst = { input: 0, ratio: 0 };
  let done = 0;

  const score = (i: number) => {
    const xi = toDouble(i, f);
    x[i] = xi;
    const exact = mathFunction(fn, xi);
    const model = toDouble(run(i, 0, 0) & 0xffff, f);
    if (!Number.isFinite(exact) || !Number.isFinite(model)) return;
    const err = Math.abs(model - exact);
    // A relative bound speaks of normal results: below the smallest normal (2^x of a finite
    // x is never 0, even where a double underflows to it) the input is counted apart.
    // For x = -inf the exact value really is 0, and so is the result: scored, error 0.
    const tiny = Math.abs(exact) < minNormal && (exact !== 0 || Number.isFinite(xi));
    if (bound.kind === 'relative' && tiny) {
      unscored[i] = 1;
      return;
    }
    const relative = exact === 0 ? err : err / Math.abs(exact);
    const r = (bound.kind === 'absolute' ? err : relative) / 2 ** bound.log2;
    ratio[i] = r;
    if (r > worst.ratio) worst = { input: i, ratio: r };
  };

  return {
    get finished() {
      return done >= SWEEP_INPUTS;
    },
    advance(count) {
      const end = Math.min(SWEEP_INPUTS, done + count);
      for (let i = done; i < end; i++) score(i);
      done = end;
      return { done, total: SWEEP_INPUTS };
    },
    result: (cancelled) => ({
      form: form.text,
      boundKind: bound.kind,
      boundLog2: bound.log2,
      ratio,
      unscored,
      x,
      worst,
      cancelled,
    }),
  };
}

/** The whole sweep at once. */
export function approxSweep(formText: string): ApproxSweep {
  const sweep = startApproxSweep(formText);
  sweep.advance(SWEEP_INPUTS);
  return sweep.result(false);
}
