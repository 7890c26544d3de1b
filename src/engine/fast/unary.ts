/**
 * The fast path of the one-input forms of the arithmetic (neg, abs, tanh.approx, ex2.approx, on
 * .f16/.bf16 and their x2 forms): a table of the element's result for each of the 65,536 input
 * patterns, each entry worked out on its first use (-1 until then) by the rule functions in the
 * pipeline's order (pipeline.ts):
 *
 *   .ftz on the input     nvidia-rules flushSubnormal
 *   the operation         neg/abs: semantics/negabs.ts negAbsRule
 *                         tanh/ex2: a measured table's result (EngineOptions.approxTables), else
 *                         the spec's corner-case row (semantics/approx.ts cornerCaseRow), else the
 *                         model, the correctly rounded value (decision approx-model)
 *   .ftz on the result    nvidia-rules flushSubnormal (a decided value is flushed where subnormal)
 *
 * The model's value is semantics/approx.ts correctlyRounded on numbers (mathFunction's double
 * rounded once by roundPair): a table of tanh lines in `ptxf batch` evaluates thousands of
 * entries, and the bigint rounding would cost it more than the rest of the batch.
 * tests/fast-vs-pipeline.test.ts checks every entry of every such form against the pipeline.
 *
 * A batch with a few thousand lines evaluates those inputs, not all 65,536; it evaluates the
 * entries its registers need first (nothing once the table is full), then reads the table in a
 * loop without a check.
 */
import type { Form } from '../../catalog/instruction.ts';
import { FORMATS } from '../format.ts';
import { flushSubnormal } from '../nvidia-rules.ts';
import type { EngineOptions } from '../options.ts';
import { approxTableKey, cornerCaseRow, mathFunction } from '../semantics/approx.ts';
import { negAbsRule } from '../semantics/negabs.ts';
import { NUMERIC_FORMATS, valueTable, type NumericFormat } from './numeric-format.ts';
import { canonicalNaN } from './numeric-rules.ts';
import type { FastBatch, OperationPath } from './path.ts';
import { modeCode, roundPair } from './round-pair.ts';

interface ResultTable {
  readonly results: Int32Array;
  /** Entries not evaluated yet; at 0 a batch reads the table without checking. */
  missing: number;
}

// Result tables, one per form and source of approximations (the model, or a measured table set,
// keyed by identity): a cache of a pure function.
const modelTables = new Map<string, ResultTable>();
const measuredTables = new WeakMap<object, Map<string, ResultTable>>();

function tableOf(form: Form, options: EngineOptions): ResultTable {
  const measured = form.operation === 'tanh' || form.operation === 'ex2' ? options.approxTables : 0;
  const cache = measured
    ? (measuredTables.get(measured) ?? measuredTables.set(measured, new Map()).get(measured)!)
    : modelTables;
  let table = cache.get(form.text);
  if (!table) {
    table = { results: new Int32Array(65536).fill(-1), missing: 65536 };
    cache.set(form.text, table);
  }
  return table;
}

const RN = modeCode('rn');

/** semantics/approx.ts correctlyRounded on numbers: the double of mathFunction, rounded once. */
function correctlyRoundedWord(fn: 'tanh' | 'ex2', x: number, f: NumericFormat): number {
  const y = mathFunction(fn, valueTable(f)[x]!);
  if (Number.isNaN(y)) return canonicalNaN(f);
  if (!Number.isFinite(y)) return f.infBits + (y < 0 ? f.signMask : 0);
  if (y === 0) return Object.is(y, -0) ? f.signMask : 0;
  return roundPair(y, 0, f, RN);
}

/** The element's result for input pattern x, by the rules in the pipeline's order (see above). */
function entryFunction(form: Form, options: EngineOptions): (x: number) => number {
  const name = form.elements[0]!.dest.format as 'f16' | 'bf16';
  const format = FORMATS[name];
  const ftz = form.modifiers.includes('ftz');
  const flush = (bits: bigint): bigint => (ftz ? flushSubnormal(bits, format) : bits);
  const op = form.operation;
  if (op === 'neg' || op === 'abs')
    return (x) => Number(flush(negAbsRule(op, flush(BigInt(x)), format)));
  if (op !== 'tanh' && op !== 'ex2') throw new Error(`${form.text}: not a one-input operation`);
  const measured = options.approxTables?.[approxTableKey(op, format)];
  const numeric = NUMERIC_FORMATS[name];
  return (x) => {
    const input = flush(BigInt(x));
    const corner = cornerCaseRow(form, input, format);
    const value = measured
      ? BigInt(measured.results[Number(input)]!)
      : corner
        ? corner.result
        : BigInt(correctlyRoundedWord(op, Number(input), numeric));
    return Number(flush(value));
  };
}

/** neg, abs, tanh.approx, ex2.approx of one form: its result table (see above). */
export function unaryPath(form: Form, options: EngineOptions): OperationPath {
  const table = tableOf(form, options);
  const results = table.results;
  const compute = entryFunction(form, options);
  const result = (x: number): number => {
    const known = results[x]!;
    if (known >= 0) return known;
    table.missing--;
    return (results[x] = compute(x));
  };
  if (form.elements.length === 1)
    return {
      words: (a) => result(a & 0xffff),
      batch: ((registers, out, count) => {
        const a = registers.a!;
        if (table.missing > 0) for (let i = 0; i < count; i++) result(a[i]! & 0xffff);
        for (let i = 0; i < count; i++) out[i] = results[a[i]! & 0xffff]!;
      }) satisfies FastBatch,
    };
  return {
    words: (a) => (result(a & 0xffff) | (result(a >>> 16) << 16)) >>> 0,
    batch: (registers, out, count) => {
      const a = registers.a!;
      if (table.missing > 0)
        for (let i = 0; i < count; i++) {
          result(a[i]! & 0xffff);
          result(a[i]! >>> 16);
        }
      for (let i = 0; i < count; i++) {
        const x = a[i]!;
        out[i] = (results[x & 0xffff]! | (results[x >>> 16]! << 16)) >>> 0;
      }
    },
  };
}
