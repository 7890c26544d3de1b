/**
 * Judging a measured result of an approximate form (one with an error bound in its catalog
 * record: tanh.approx, ex2.approx) against the spec rather than against the model:
 *  - equal to the model: the engine's value (correctly rounded, or the spec's corner-case
 *    result) is what the GPU returned;
 *  - within the bound: the result is one the spec allows for this input, that is the
 *    corner-case table's result where the table covers the input (any NaN where it says NaN),
 *    else a value in the engine's allowed set for the exact value (allowedResults: every
 *    representable value within the bound, decided exactly; under .ftz no subnormal).
 * The two are independent. Where the bound is relative and the exact value is subnormal, the
 * allowed set may be empty (a subnormal has fewer significant bits than the bound asks for):
 * no result can meet the bound there, the error plot leaves such inputs unscored, and they are
 * counted apart from the results outside a bound that some value meets.
 */
import type { ErrorBound } from '../../src/catalog/index.ts';
import type { Form } from '../../src/catalog/forms.ts';
import { laneFormat } from '../../src/catalog/forms.ts';
import {
  FORMATS,
  allowedResults,
  approxErrorBound,
  isNaNBits,
  isSubnormalBits,
  resolveOptions,
  valueTable,
  type EngineOptions,
  type FloatFormat,
} from '../../src/engine/index.ts';
import { approxResult, type ApproxFn } from '../../src/engine/ops/approx.ts';

/** True when the form's result is approximate: its record gives an error bound for its type. */
export function isApproximate(form: Form): boolean {
  return approxErrorBound(form) !== null;
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
  const bound = approxErrorBound(form);
  if (!bound) throw new Error(`${form.text} has no error bound: not an approximate form`);
  const fn = form.opcode as ApproxFn;
  const f = FORMATS[laneFormat(form.type)];
  const ftz = form.modifiers.includes('ftz');
  const { approxTables: _measured, ...rest } = resolveOptions(options);
  const modelOptions = resolveOptions(rest);
  // What the model gives and the spec allows depends on the lane's input only: worked out once
  // per input pattern and lane semantics (an x2 form's lanes are its one-lane form's).
  const known = specsOf(form, bound);
  const spec = (x: number): LaneSpec => {
    let s = known.get(x);
    if (!s) {
      const r = approxResult(fn, form.record, form.type, ftz, x, modelOptions);
      if (r.source === 'corner-case') {
        s = {
          model: r.result,
          noValueAllowed: false,
          allowed: { kind: 'corner-case', result: r.result },
        };
      } else {
        const a = allowedResults(fn, r.x, f, bound, ftz);
        s = {
          model: r.result,
          noValueAllowed: a.count === 0,
          allowed: { kind: 'interval', lowest: a.lowest, highest: a.highest, count: a.count },
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
        ? v === s.allowed.result || (isNaNBits(v, f) && isNaNBits(s.allowed.result, f))
        : inInterval(v, s.allowed, f, ftz);
    return { ...s, withinBound };
  };
}

type LaneSpec = Omit<ApproxJudgement, 'withinBound'>;
const specCache = new Map<string, Map<number, LaneSpec>>();

/** The per-input cache of the lane semantics of a form: its function, format, .ftz, bound, corner tables. */
function specsOf(form: Form, bound: ErrorBound): Map<number, LaneSpec> {
  const record = form.record;
  const tables = (record.cornerCases ?? [])
    .map((t, i) => (t.types.includes(form.type) ? i : -1))
    .filter((i) => i >= 0);
  const key = [
    record.opcode,
    laneFormat(form.type),
    form.modifiers.includes('ftz'),
    record.errorBounds?.indexOf(bound),
    tables.join(','),
  ].join('|');
  let specs = specCache.get(key);
  if (!specs) specCache.set(key, (specs = new Map()));
  return specs;
}

/**
 * Membership in an allowed interval, which is an interval of the value order given by its end
 * patterns; under .ftz a subnormal is never a result. An interval that holds a zero crosses
 * zero (allowedResults), so both zeros are in it.
 */
function inInterval(
  v: number,
  allowed: { readonly lowest: number; readonly highest: number; readonly count: number },
  f: FloatFormat,
  ftz: boolean,
): boolean {
  if (allowed.count === 0 || isNaNBits(v, f)) return false;
  if (ftz && isSubnormalBits(v, f)) return false;
  const values = valueTable(f);
  const x = values[v]!;
  return values[allowed.lowest]! <= x && x <= values[allowed.highest]!;
}
