/**
 * The trace checker's harness: one vector through the engine (evaluate, its result as the JSON
 * scripts read) and through the model (trace-model.ts), compared field by field
 * (trace-compare.ts). The model is independent of the engine; only this file calls both.
 */
import type { Form } from '../../src/catalog/forms.ts';
import { evaluate } from '../../src/engine/index.ts';
import type { Vector } from './corner-groups.ts';
import { compareTrace, describeDisagreement, type Disagreement } from './trace-compare.ts';
import { situationsOf } from './trace-coverage.ts';
import {
  DEFAULT_TRACE_OPTIONS,
  expectedTrace,
  type ExpectedResult,
  type OobMarks,
  type TraceOptions,
} from './trace-model.ts';

export interface Checked {
  readonly expected: ExpectedResult;
  readonly disagreements: readonly Disagreement[];
}

/** The engine's result for a vector, as JSON (what `ptxf eval --json` and batch print). */
export function engineTrace(
  form: Form,
  registers: { a: number; b: number; c: number },
  oob?: OobMarks,
  options?: Partial<TraceOptions>,
): unknown {
  const has = (n: string) => form.operands.some((o) => o.name === n);
  const input = {
    a: registers.a,
    ...(has('b') ? { b: registers.b } : {}),
    ...(has('c') ? { c: registers.c } : {}),
    ...(oob ? { oob } : {}),
  };
  return JSON.parse(JSON.stringify(evaluate(form, input, options)));
}

export function checkTraceVector(v: Vector): Checked {
  const options = { ...DEFAULT_TRACE_OPTIONS, ...v.options };
  const expected = expectedTrace(v.form.text, v.registers, v.oob, options);
  const actual = engineTrace(v.form, v.registers, v.oob, v.options);
  return { expected, disagreements: compareTrace(expected, actual) };
}

export function describeVector(v: Vector): string {
  const hex = (n: number) => `0x${n.toString(16)}`;
  const { a, b, c } = v.registers;
  const extra = `${v.oob ? ` oob=${JSON.stringify(v.oob)}` : ''}${v.options ? ` options=${JSON.stringify(v.options)}` : ''}`;
  return `${v.form.text} a=${hex(a)} b=${hex(b)} c=${hex(c)}${extra} [${v.group}]`;
}

export function describeChecked(v: Vector, checked: Checked, limit = 4): string {
  return `${describeVector(v)}\n    ${checked.disagreements.slice(0, limit).map(describeDisagreement).join('\n    ')}`;
}

/** A bijection of 16-bit patterns (odd multiplier), so lane 1 of an x2 form meets every value. */
const permuted = (v: number): number => (v * 40503 + 12345) % 0x10000;

/** Every `stride`-th 16-bit input of a unary form (x2 forms: lane 1 a permutation of lane 0). */
export function* everyInput(form: Form, stride: number): Generator<Vector> {
  const packed = form.operands[1]!.lanes === 2;
  for (let v = 0; v < 0x10000; v += stride) {
    const a = packed ? v + permuted(v) * 0x10000 : v;
    yield { form, group: 'every input', registers: { a, b: 0, c: 0 } };
  }
}

/** Checks vectors: the first disagreements described, and the situations reached added to `seen`. */
export function checkAll(vectors: Iterable<Vector>, seen: Set<string>): string[] {
  const problems: string[] = [];
  for (const vector of vectors) {
    const result = checkTraceVector(vector);
    for (const situation of situationsOf(result.expected)) seen.add(situation);
    if (result.disagreements.length > 0 && problems.length < 4)
      problems.push(describeChecked(vector, result));
  }
  return problems;
}
