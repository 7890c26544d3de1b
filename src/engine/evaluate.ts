/**
 * The traced evaluator: splits registers into lanes (lane 0 = bits [0:15], lane 1 = [16:31]),
 * runs the instruction's per-lane semantics, and packs the result — the `for (i = 0; i < 2; i++)`
 * loop of every x2 pseudo-code.
 */
import { findForm, type Form } from '../catalog/forms.ts';
import type { Opcode } from '../catalog/types.ts';
import { FORMATS } from './formats.ts';
import type { DecisionId } from './decisions.ts';
import type { LaneInput, LaneSemantics, SourceName } from './lane.ts';
import { resolveOptions, type EngineOptions } from './options.ts';
import { approxLane } from './ops/approx.ts';
import { arithmeticLane } from './ops/arithmetic.ts';
import { minMaxLane } from './ops/minmax.ts';
import { negAbsLane } from './ops/negabs.ts';
import type { EvalResult, LaneTrace } from './trace.ts';

export type OobMarks = Partial<Record<SourceName, boolean | readonly [boolean, boolean]>>;

export interface EvalInput {
  readonly a: number;
  readonly b?: number;
  readonly c?: number;
  readonly oob?: OobMarks;
}

export const LANE_SEMANTICS: Readonly<Record<Opcode, LaneSemantics>> = {
  add: arithmeticLane,
  sub: arithmeticLane,
  mul: arithmeticLane,
  fma: arithmeticLane,
  neg: negAbsLane,
  abs: negAbsLane,
  min: minMaxLane,
  max: minMaxLane,
  tanh: approxLane,
  ex2: approxLane,
};

export class EngineError extends Error {
  constructor(
    readonly code: 'form' | 'operand',
    message: string,
  ) {
    super(message);
  }
}

export function resolveForm(form: Form | string): Form {
  if (typeof form !== 'string') return form;
  const found = findForm(form);
  if (!found) throw new EngineError('form', `not a catalog form: ${form}`);
  return found;
}

/** A message when the operands do not fit the form's registers, else null. */
export function operandProblem(form: Form, input: EvalInput): string | null {
  for (const op of form.operands.slice(1)) {
    const v = input[op.name as SourceName];
    if (v === undefined) return `${form.text} needs operand ${op.name}`;
    if (!Number.isInteger(v) || v < 0 || v >= 2 ** op.bits)
      return `operand ${op.name} must be a ${op.bits}-bit pattern; got ${v}`;
    // OOB-NaN is a tensor element of a 16-bit type: a .f32 register cannot hold one.
    const name = op.name as SourceName;
    if (op.format === 'f32' && (isMarked(input.oob, name, 0) || isMarked(input.oob, name, 1))) {
      return `operand ${op.name} is .f32: only 16-bit (.f16/.bf16) lanes can be marked OOB-NaN`;
    }
  }
  return null;
}

function laneCount(form: Form): number {
  return Math.max(...form.operands.map((o) => o.lanes));
}

function isMarked(marks: OobMarks | undefined, name: SourceName, lane: number): boolean {
  const m = marks?.[name];
  if (m === undefined) return false;
  return typeof m === 'boolean' ? m : Boolean(m[lane]);
}

export function laneInputs(form: Form, input: EvalInput, options: EngineOptions): LaneInput[] {
  const lanes = laneCount(form);
  const result: LaneInput[] = [];
  for (let lane = 0; lane < lanes; lane++) {
    const bits = { a: 0, b: 0, c: 0 };
    for (const op of form.operands.slice(1)) {
      const name = op.name as SourceName;
      const reg = input[name] ?? 0;
      const v = op.lanes === 2 ? Math.floor(reg / 2 ** (16 * lane)) % 65536 : reg;
      bits[name] = isMarked(input.oob, name, lane) ? options.oobNanBits : v;
    }
    result.push({ lane, ...bits });
  }
  return result;
}

export function evaluate(
  formOrText: Form | string,
  input: EvalInput,
  options?: Partial<EngineOptions>,
): EvalResult {
  const form = resolveForm(formOrText);
  const problem = operandProblem(form, input);
  if (problem) throw new EngineError('operand', problem);
  const opts = resolveOptions(options);
  const semantics = LANE_SEMANTICS[form.opcode];
  const lanes: LaneTrace[] = laneInputs(form, input, opts).map((li) => {
    const out = semantics({ form, options: opts }, li);
    return { lane: li.lane, steps: out.steps, result: out.result };
  });
  const dOperand = form.operands[0]!;
  const d = lanes.reduce((acc, l) => acc + l.result * 2 ** (16 * l.lane), 0);
  // A form the spec does not list is evaluated under a decision whatever its operands.
  const decisions = new Set<DecisionId>(form.documented ? [] : ['ptxas-only-forms']);
  for (const l of lanes) for (const s of l.steps) if (s.decision) decisions.add(s.decision);
  return {
    form: form.text,
    d,
    dFormat: FORMATS[dOperand.format].name,
    dBits: dOperand.bits,
    lanes,
    decisions: [...decisions],
  };
}
