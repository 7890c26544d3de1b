/**
 * The trace checker's harness: one vector through the engine (evaluate, its result as the JSON
 * scripts read) and through the model (trace-model.ts), compared field by field
 * (trace-compare.ts). The model is independent of the engine; only this file calls both.
 */
import type { Form } from '../../src/catalog/forms.ts';
import { evaluate } from '../../src/engine/index.ts';
import type { Vector } from './corner-groups.ts';
import { compareTrace, describeDisagreement, type Disagreement } from './trace-compare.ts';
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
