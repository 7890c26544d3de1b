/**
 * The trace checker's harness: one vector through the engine's pipeline (evaluate, its result as
 * the JSON scripts read) and through the model (trace-model.ts), compared field by field
 * (trace-compare.ts). The model is independent of the engine; only this file calls both.
 */
import { evaluate } from '../../src/engine/pipeline.ts';
import { compareTrace, describeDisagreement, type Disagreement } from './trace-compare.ts';
import { situationsOf } from './trace-coverage.ts';
import type { ModelRegisters, TraceVector } from './trace-expect.ts';
import { DEFAULT_TRACE_OPTIONS, expectedTrace, type ExpectedResult } from './trace-model.ts';

export type { TraceVector } from './trace-expect.ts';

export interface Checked {
  readonly expected: ExpectedResult;
  readonly disagreements: readonly Disagreement[];
}

/** The engine's result for a vector, as JSON (what `ptxf eval --json` and batch print). */
export function engineTrace(
  form: string,
  registers: ModelRegisters,
  options?: TraceVector['options'],
): unknown {
  return JSON.parse(JSON.stringify(evaluate(form, registers, options)));
}

export function checkTraceVector(v: TraceVector): Checked {
  const options = { ...DEFAULT_TRACE_OPTIONS, ...v.options };
  const expected = expectedTrace(v.form, v.registers, options);
  const actual = engineTrace(v.form, v.registers, v.options);
  return { expected, disagreements: compareTrace(expected, actual) };
}

export function describeVector(v: TraceVector): string {
  const registers = Object.entries(v.registers)
    .map(([name, bits]) => `${name}=0x${bits!.toString(16)}`)
    .join(' ');
  const options = v.options ? ` options=${JSON.stringify(v.options)}` : '';
  return `${v.form} ${registers}${options} [${v.group}]`;
}

export function describeChecked(v: TraceVector, checked: Checked, limit = 4): string {
  return `${describeVector(v)}\n    ${checked.disagreements.slice(0, limit).map(describeDisagreement).join('\n    ')}`;
}

/** A bijection of 16-bit patterns (odd multiplier), so lane 1 of an x2 form meets every value. */
const permuted = (v: number): number => (v * 40503 + 12345) % 0x10000;

/** Every `stride`-th 16-bit input of a one-operand arithmetic form (x2: lane 1 a permutation). */
export function* everyInput(form: string, stride: number): Generator<TraceVector> {
  const packed = form.endsWith('x2');
  for (let v = 0; v < 0x10000; v += stride) {
    const a = packed ? v + permuted(v) * 0x10000 : v;
    yield { form, group: 'every input', registers: { a: BigInt(a) } };
  }
}

/**
 * What a suite's checks saw: the vectors checked, those with a disagreement, and how often each
 * situation of trace-coverage.ts was reached (for the suite's "reached every situation" test).
 */
export class TraceTally {
  readonly seen = new Map<string, number>();
  vectors = 0;
  disagreeing = 0;

  /** Checks each vector and counts it; returns the first four disagreements, described. */
  check(vectors: Iterable<TraceVector>): string[] {
    const problems: string[] = [];
    for (const vector of vectors) {
      const result = checkTraceVector(vector);
      this.vectors++;
      for (const s of situationsOf(result.expected)) this.seen.set(s, (this.seen.get(s) ?? 0) + 1);
      if (result.disagreements.length > 0) {
        this.disagreeing++;
        if (problems.length < 4) problems.push(describeChecked(vector, result));
      }
    }
    return problems;
  }
}
