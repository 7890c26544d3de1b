/**
 * Judging a measured result of an approximate form (one with an error bound in the catalog:
 * tanh.approx, ex2.approx) against the spec rather than against the model:
 *  - equal to the model: the engine's value (correctly rounded, or the spec's corner-case
 *    result) is what the GPU returned;
 *  - within the bound: the result is one the spec allows for this input, that is the
 *    corner-case table's result where the table covers the input (any NaN where it says NaN),
 *    else a value in the engine's allowed set for the exact value (semantics/approx.ts
 *    approxAllowed: every representable value within the bound, decided exactly; under .ftz no
 *    subnormal).
 * The two are independent. Where the bound is relative and the exact value is subnormal, the
 * allowed set may be empty (a subnormal has fewer significant bits than the bound asks for):
 * no result can meet the bound there, the error plot leaves such inputs unscored, and they are
 * counted apart from the results outside a bound that some value meets.
 */
// Every family's semantics, provided before anything evaluates (engine/family-semantics.ts).
import '../../src/engine/all-families.ts';
import type { Form } from '../../src/catalog/instruction.ts';
import { compileFast } from '../../src/engine/fast/index.ts';
import {
  isNaNWord,
  isSubnormalWord,
  NUMERIC_FORMATS,
  valueTable,
  type NumericFormat,
} from '../../src/engine/fast/numeric-format.ts';
import { FORMATS } from '../../src/engine/format.ts';
import { flushSubnormal } from '../../src/engine/nvidia-rules.ts';
import { resolveOptions, type EngineOptions } from '../../src/engine/options.ts';
import { approxAllowed, cornerCaseRow } from '../../src/engine/semantics/approx.ts';

/** True when the form's result is approximate: the catalog gives it an error bound. */
export function isApproximate(form: Form): boolean {
  return form.errorBound !== undefined;
}

export interface ApproxJudgement {
  /** The model's result for this input (corner case or correctly rounded). */
  readonly model: number;
  readonly withinBound: boolean;
  /** The bound allows no value for this input (the allowed interval is empty). */
  readonly noValueAllowed: boolean;
  /** What the spec allows: the corner-case result, or the allowed interval (count 0: none). */
  readonly allowed:
    | { readonly kind: 'corner-case'; readonly result: number }
    | {
        readonly kind: 'interval';
        readonly lowest: number;
        readonly highest: number;
        readonly count: number;
      };
}

/** A function judging one lane: input bits x, measured result bits v. */
export type ApproxJudge = (x: number, v: number) => ApproxJudgement;

/**
 * The judge of an approximate form's lanes. The model is the engine's without measured tables
 * (`approxTables` is dropped from the options): the bound speaks of the exact value.
 */
export function approxJudge(form: Form, options?: Partial<EngineOptions>): ApproxJudge {
  if (!isApproximate(form))
    throw new Error(`${form.text} has no error bound: not an approximate form`);
  const name = form.elements[0]!.dest.format as 'f16' | 'bf16';
  const f = FORMATS[name];
  const numeric = NUMERIC_FORMATS[name];
  const ftz = form.modifiers.includes('ftz');
  const { approxTables: _measured, ...model } = resolveOptions(options);
  // Lane 0 of the form (an x2 form's lanes are its one-lane form's).
  const modelOf = compileFast(form, model).words!;
  // What the model gives and the spec allows depends on the lane's input only: worked out once
  // per input pattern and lane semantics.
  const known = specsOf(form);
  const spec = (x: number): LaneSpec => {
    let s = known.get(x);
    if (!s) {
      const input = ftz ? flushSubnormal(BigInt(x), f) : BigInt(x);
      const result = modelOf(x, 0, 0) & 0xffff;
      if (cornerCaseRow(form, input, f)) {
        s = { model: result, noValueAllowed: false, allowed: { kind: 'corner-case', result } };
      } else {
        const a = approxAllowed(form, input, f, BigInt(result)).allowed;
        s = {
          model: result,
          noValueAllowed: a.count === 0,
          allowed: {
            kind: 'interval',
            lowest: Number(a.lowest),
            highest: Number(a.highest),
            count: a.count,
          },
        };
      }
      known.set(x, s);
    }
    return s;
  };
  return (x, v) => {
    const s = spec(x);
    const withinBound =
      s.allowed.kind === 'corner-case'
        ? v === s.allowed.result || (isNaNWord(v, numeric) && isNaNWord(s.allowed.result, numeric))
        : inInterval(v, s.allowed, numeric, ftz);
    return { ...s, withinBound };
  };
}

type LaneSpec = Omit<ApproxJudgement, 'withinBound'>;
const specCache = new Map<string, Map<number, LaneSpec>>();

/** The per-input cache of the lane semantics of a form: its function, format, .ftz, bound, corner tables. */
function specsOf(form: Form): Map<number, LaneSpec> {
  const key = JSON.stringify([
    form.operation,
    form.elements[0]!.dest.format,
    form.modifiers.includes('ftz'),
    form.errorBound,
    form.cornerCases ?? [],
  ]);
  let specs = specCache.get(key);
  if (!specs) specCache.set(key, (specs = new Map()));
  return specs;
}

/**
 * Membership in an allowed interval, which is an interval of the value order given by its end
 * patterns; under .ftz a subnormal is never a result. An interval that holds a zero crosses
 * zero (approxAllowed), so both zeros are in it.
 */
function inInterval(
  v: number,
  allowed: { readonly lowest: number; readonly highest: number; readonly count: number },
  f: NumericFormat,
  ftz: boolean,
): boolean {
  if (allowed.count === 0 || isNaNWord(v, f)) return false;
  if (ftz && isSubnormalWord(v, f)) return false;
  const values = valueTable(f);
  const x = values[v]!;
  return values[allowed.lowest]! <= x && x <= values[allowed.highest]!;
}
