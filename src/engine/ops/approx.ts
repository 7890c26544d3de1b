/**
 * tanh.approx and ex2.approx (9.7.4.9, 9.7.4.10):  d = tanh(a);  d = 2 ^ a;
 *
 * The spec fixes only the corner-case tables and a maximum error. Outside the tables the model
 * returns the correctly rounded value (decision 'approx-model') — or a measured hardware table
 * when one is supplied in EngineOptions.approxTables — and the trace gives the whole set of
 * values the error bound allows.
 */
import { laneFormat } from '../../catalog/forms.ts';
import type {
  CornerInput,
  CornerResult,
  ErrorBound,
  InstructionRecord,
} from '../../catalog/instructions.ts';
import type { InstrType } from '../../catalog/types.ts';
import {
  FORMATS,
  classify,
  signOf,
  specialValues,
  valueTable,
  type FloatFormat,
} from '../formats.ts';
import { has, rule, type LaneContext, type LaneInput, type LaneOutput } from '../lane.ts';
import type { EngineOptions } from '../options.ts';
import { modeCode, roundPair } from '../fast/round-pair.ts';
import { flushSubnormal } from '../specialize.ts';
import { tracedFlushInput, tracedFlushSubnormalResult } from '../traced-rules.ts';
import type { Step } from '../trace.ts';
import { inputsStep, resultStep } from './common.ts';
import { exactApproxOfBits, type ApproxFn } from './approx-allowed.ts';

export type { ApproxFn };

/** The exact function, evaluated in double precision (error < 1 ulp of a double). */
export function mathFunction(fn: ApproxFn, x: number): number {
  return fn === 'tanh' ? Math.tanh(x) : Math.pow(2, x);
}

function cornerInputOf(bits: number, f: FloatFormat): CornerInput {
  const neg = signOf(bits, f) === 1;
  switch (classify(bits, f)) {
    case 'qnan':
    case 'snan':
      return 'nan';
    case 'infinity':
      return neg ? '-inf' : '+inf';
    case 'zero':
      return neg ? '-0' : '+0';
    case 'subnormal':
      return neg ? '-subnormal' : '+subnormal';
    default:
      return neg ? ('-normal' as CornerInput) : ('+normal' as CornerInput);
  }
}

function cornerResultBits(result: CornerResult, f: FloatFormat, input: number): number {
  const s = specialValues(f);
  switch (result) {
    case '+0.0':
      return 0;
    case '-0.0':
      return f.signMask;
    case '+1.0':
      return s.one;
    case '-1.0':
      return s.minusOne;
    case '+inf':
      return f.infBits;
    case 'nan':
      return f.canonicalNaN;
    case 'input':
      return input;
  }
}

type CornerTable = NonNullable<InstructionRecord['cornerCases']>[number];
type CornerHit = { readonly table: CornerTable; readonly row: CornerTable['rows'][number] } | null;

/**
 * The spec's corner-case row for a class of input, per record and type (a cache of a pure
 * function: the fast path's tables ask it for every input).
 */
const cornerRows = new WeakMap<InstructionRecord, Map<InstrType, Map<CornerInput, CornerHit>>>();

function cornerRowOf(record: InstructionRecord, type: InstrType, input: CornerInput): CornerHit {
  let byType = cornerRows.get(record);
  if (!byType) cornerRows.set(record, (byType = new Map()));
  let byInput = byType.get(type);
  if (!byInput) byType.set(type, (byInput = new Map()));
  let hit = byInput.get(input);
  if (hit === undefined) {
    hit = null;
    for (const table of record.cornerCases ?? []) {
      if (!table.types.includes(type)) continue;
      const row = table.rows.find((r) => r.input === input);
      if (row) {
        hit = { table, row };
        break;
      }
    }
    byInput.set(input, hit);
  }
  return hit;
}

export function cornerCaseRow(
  record: InstructionRecord,
  type: InstrType,
  bits: number,
  f: FloatFormat,
) {
  const hit = cornerRowOf(record, type, cornerInputOf(bits, f));
  return (
    hit && { table: hit.table, row: hit.row, result: cornerResultBits(hit.row.result, f, bits) }
  );
}

export function errorBoundOf(record: InstructionRecord, type: InstrType): ErrorBound {
  const bound = record.errorBounds?.find((b) => b.types.includes(type));
  if (!bound) throw new Error(`no error bound for ${record.opcode}.${type}`);
  return bound;
}

const RN = modeCode('rn');

/** Correctly rounded (RN) value of the function, as bits of `f`. */
export function correctlyRounded(fn: ApproxFn, bits: number, f: FloatFormat): number {
  // valueTable: toDouble of every pattern, built once.
  const y = mathFunction(fn, valueTable(f)[bits]!);
  if (Number.isNaN(y)) return f.canonicalNaN;
  if (!Number.isFinite(y)) return f.infBits + (y < 0 ? f.signMask : 0);
  if (y === 0) return Object.is(y, -0) ? f.signMask : 0;
  // A double is its own exact value: roundPair with no error term rounds it once.
  return roundPair(y, 0, f, RN);
}

export type ApproxTableKey = `${ApproxFn}.${'f16' | 'bf16'}`;
export interface MeasuredTable {
  /** 65,536 result patterns indexed by the input pattern. */
  readonly results: ArrayLike<number>;
  readonly measuredOn: string;
}

/**
 * One lane of tanh.approx / ex2.approx as a rule: .ftz flushes a subnormal input; the value
 * comes from a measured table (when given), else the spec's corner-case table, else the model;
 * .ftz flushes a subnormal result. `x` is the input the value was taken for.
 */
export function approxResult(
  fn: ApproxFn,
  record: InstructionRecord,
  type: InstrType,
  ftz: boolean,
  bits: number,
  options: EngineOptions,
): { result: number; x: number; source: 'corner-case' | 'measured' | 'model' } {
  const f = FORMATS[laneFormat(type)];
  const x = ftz ? flushSubnormal(bits, f) : bits;
  const { value, source } = approxValue(fn, record, type, x, options);
  return { result: ftz ? flushSubnormal(value, f) : value, x, source };
}

function approxValue(
  fn: ApproxFn,
  record: InstructionRecord,
  type: InstrType,
  x: number,
  options: EngineOptions,
): { value: number; source: 'corner-case' | 'measured' | 'model' } {
  const f = FORMATS[laneFormat(type)];
  const measured = options.approxTables && options.approxTables[approxTableKey(fn, f)];
  if (measured) return { value: measured.results[x]!, source: 'measured' };
  const corner = cornerCaseRow(record, type, x, f);
  if (corner) return { value: corner.result, source: 'corner-case' };
  return { value: correctlyRounded(fn, x, f), source: 'model' };
}

export function approxTableKey(fn: ApproxFn, f: FloatFormat): ApproxTableKey {
  return `${fn}.${f.name as 'f16' | 'bf16'}`;
}

export function approxLane(ctx: LaneContext, input: LaneInput): LaneOutput {
  const { form, options } = ctx;
  const fn = form.opcode as ApproxFn;
  const f = FORMATS[laneFormat(form.type)];
  const ftz = has(form, 'ftz');
  const steps: Step[] = [inputsStep(form, input, () => f)];
  const ftzRule = rule(
    form,
    'ex2.approx.ftz.bf16 flushes subnormal inputs and results to sign-preserving zero.',
  );
  if (ftz) tracedFlushInput('a', input.a, f, ftzRule, steps);
  const { result, x, source } = approxResult(fn, form.record, form.type, ftz, input.a, options);
  const { value } = approxValue(fn, form.record, form.type, x, options);
  // A corner-case input is the spec's table's, also where a measured table supplies the result
  // (the step then says what was measured, if that differs).
  const corner = cornerCaseRow(form.record, form.type, x, f);
  if (corner) {
    const measured =
      source === 'measured' && value !== corner.result
        ? `; measured 0x${value.toString(16).padStart(4, '0')}`
        : '';
    steps.push({
      kind: 'special',
      case: 'corner-case',
      detail: `${corner.row.input} → ${corner.row.result}${measured}`,
      format: f.name,
      result: corner.result,
      rule: rule(form, corner.table.title),
      ...(corner.row.result === 'nan' ? { decision: 'canonical-nan' as const } : {}),
    });
  } else {
    const bound = errorBoundOf(form.record, form.type);
    const measured = options.approxTables && options.approxTables[approxTableKey(fn, f)];
    const { mathValue, allowed } = exactApproxOfBits(fn, x, f, bound, ftz, value);
    steps.push({
      kind: 'approx',
      fn,
      format: f.name,
      input: x,
      mathValue,
      model: source === 'measured' ? 'measured' : 'correctly-rounded',
      ...(measured
        ? { measuredOn: measured.measuredOn, modelResult: correctlyRounded(fn, x, f) }
        : {}),
      result: value,
      bound: { kind: bound.kind, log2: bound.log2 },
      allowed,
      rule: rule(form, bound.text),
      decision: 'approx-model',
    });
  }
  if (ftz) tracedFlushSubnormalResult(value, f, ftzRule, steps, 'approx-ftz-result');
  steps.push(resultStep(form, result, f));
  return { result, steps };
}
