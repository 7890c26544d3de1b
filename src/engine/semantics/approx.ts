/**
 * tanh.approx and ex2.approx (9.7.4.9, 9.7.4.10):  d = tanh(a);  d = 2 ^ a;
 *
 * The spec fixes only the corner-case tables and a maximum error. An input of the table gives
 * the table's result; any other gives the correctly rounded value (decision approx-model) — or a
 * measured hardware table's result when one is supplied (EngineOptions.approxTables) — and the
 * step lists the whole set of values the error bound allows. (.ftz has flushed a subnormal input
 * in the pipeline; a subnormal result is flushed there too, under decision approx-ftz-result.)
 */
import type { CornerInput, CornerResult, Form } from '../../catalog/instruction.ts';
import { dyadicOfDouble } from '../double.ts';
import {
  bitsView,
  classify,
  formatHex,
  isNegative,
  toDouble,
  withSign,
  type Format,
} from '../format.ts';
import { FLOAT_FORMATS } from '../formats.ts';
import { canonicalNaN, overflowResult } from '../nvidia-rules.ts';
import { exactApproxOfBits, type ApproxFn } from '../ops/approx-allowed.ts';
import type { EngineOptions } from '../options.ts';
import { roundDyadic } from '../rounding.ts';
import type { ElementContext, Input, Outcome } from './context.ts';

/** The exact function, evaluated in double precision (error < 1 ulp of a double). */
export function mathFunction(fn: ApproxFn, x: number): number {
  return fn === 'tanh' ? Math.tanh(x) : Math.pow(2, x);
}

/** The correctly rounded (.rn) value of the function at the input pattern. */
export function correctlyRounded(fn: ApproxFn, bits: bigint, f: Format): bigint {
  const y = mathFunction(fn, toDouble(bits, f));
  if (Number.isNaN(y)) return canonicalNaN(f);
  if (!Number.isFinite(y)) return withSign(f.infBits!, y < 0, f);
  if (y === 0) return withSign(0n, Object.is(y, -0), f);
  const r = roundDyadic(dyadicOfDouble(y), f, 'rn');
  return r.bits ?? overflowResult(f, y < 0, r.awayFromZero).bits;
}

function cornerInputOf(bits: bigint, f: Format): CornerInput | null {
  const neg = isNegative(bits, f);
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
      return null;
  }
}

function cornerResultBits(result: CornerResult, f: Format, input: bigint): bigint {
  const one = BigInt(f.bias) << BigInt(f.manBits);
  switch (result) {
    case '+0.0':
      return 0n;
    case '-0.0':
      return f.signMask;
    case '+1.0':
      return one;
    case '-1.0':
      return one | f.signMask;
    case '+inf':
      return f.infBits!;
    case 'nan':
      return canonicalNaN(f);
    case 'input':
      return input;
  }
}

/** The row of the form's corner-case table for this input, if it is one. */
export function cornerCaseRow(form: Form, bits: bigint, f: Format) {
  const input = cornerInputOf(bits, f);
  for (const table of form.cornerCases ?? []) {
    const row = table.rows.find((r) => r.input === input);
    if (row) return { table, row, result: cornerResultBits(row.result, f, bits) };
  }
  return null;
}

export type ApproxTableKey = `${ApproxFn}.${'f16' | 'bf16'}`;

export function approxTableKey(fn: ApproxFn, f: Format): ApproxTableKey {
  return `${fn}.${f.name as 'f16' | 'bf16'}`;
}

/**
 * The value for input x: a measured table's (when given), else the spec's corner-case table's,
 * else the model's.
 */
export function approxValue(
  form: Form,
  x: bigint,
  f: Format,
  options: EngineOptions,
): { value: bigint; source: 'corner-case' | 'measured' | 'model' } {
  const fn = form.operation as ApproxFn;
  const measured = options.approxTables?.[approxTableKey(fn, f)];
  if (measured) return { value: BigInt(measured.results[Number(x)]!), source: 'measured' };
  const corner = cornerCaseRow(form, x, f);
  if (corner) return { value: corner.result, source: 'corner-case' };
  return { value: correctlyRounded(fn, x, f), source: 'model' };
}

/**
 * The exact value of the form's function at input x (after .ftz's input flush) and the values
 * its error bound allows there (ops/approx-allowed.ts; under .ftz no subnormal), with `result`
 * filling the ends of an empty set.
 */
export function approxAllowed(form: Form, x: bigint, f: Format, result: bigint) {
  return exactApproxOfBits(
    form.operation as ApproxFn,
    Number(x),
    FLOAT_FORMATS[f.name as 'f16' | 'bf16'],
    { types: [], ...form.errorBound! },
    form.modifiers.includes('ftz'),
    Number(result),
  );
}

export function approx(ctx: ElementContext, inputs: readonly Input[]): Outcome {
  const { form, options } = ctx;
  const fn = form.operation as ApproxFn;
  const { bits: x, format: f } = inputs[0]!;
  const { value, source } = approxValue(form, x, f, options);
  const corner = cornerCaseRow(form, x, f);
  if (corner) {
    // A corner-case input is the spec's table's, also where a measured table supplies the
    // result (the step then says what was measured, if that differs).
    const measured =
      source === 'measured' && value !== corner.result ? `; measured ${formatHex(value, f)}` : '';
    ctx.record(
      {
        kind: 'special',
        case: 'corner-case',
        detail: `${corner.row.input} → ${corner.row.result}${measured}`,
        result: bitsView(corner.result, f),
      },
      corner.table.title,
      corner.row.result === 'nan' ? 'canonical-nan' : undefined,
    );
  } else {
    const bound = form.errorBound!;
    const measured = options.approxTables?.[approxTableKey(fn, f)];
    const { mathValue, allowed } = approxAllowed(form, x, f, value);
    ctx.record(
      {
        kind: 'approx',
        fn,
        input: bitsView(x, f),
        mathValue,
        model: source === 'measured' ? 'measured' : 'correctly-rounded',
        ...(measured
          ? {
              measuredOn: measured.measuredOn,
              modelResult: bitsView(correctlyRounded(fn, x, f), f),
            }
          : {}),
        result: bitsView(value, f),
        bound: { kind: bound.kind, log2: bound.log2 },
        allowed: {
          lowest: formatHex(BigInt(allowed.lowest), f),
          highest: formatHex(BigInt(allowed.highest), f),
          count: allowed.count,
          overflows: allowed.overflows,
          ...(allowed.emptyBecause ? { emptyBecause: allowed.emptyBecause } : {}),
        },
      },
      bound.text,
      'approx-model',
    );
  }
  return { kind: 'value', value: { bits: value }, flushDecision: 'approx-ftz-result' };
}
