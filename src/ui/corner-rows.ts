import type { Form, SourceName } from '../catalog/instruction.ts';
import { readableDecimal } from '../engine/decimal-text.ts';
import type { CaseOutcome, CornerTable, CornerValue } from '../engine/analysis/index.ts';
import type { FloatClass } from '../engine/value.ts';
import { caseWords } from '../present/analysis-words.ts';
import { MATRIX_CASE_WORDS } from '../present/matrix-case-words.ts';
import { exactText } from '../present/numbers.ts';
import type { ResultClass } from '../state/panel-state.ts';

/**
 * Corner-case rows for display: the worker's corner-case table (engine/analysis/corner-cases.ts)
 * reshaped into one flat record per case with the text the cells show and filter on, for every
 * instruction alike. Only formatting happens here; every value was computed by the engine in
 * the worker.
 */

/** A column: one input of the operation (by the register it comes from), or the result d. */
export type Column = SourceName | 'd';

export interface CaseCell {
  /** The case's name ("+min subnormal", "MAX_NORM of .e4m3"); the result has none. */
  readonly name: string;
  readonly hex: string;
  readonly value: string;
  /** As a double, for numeric sorting (NaN for NaN). */
  readonly number: number;
  readonly cls: FloatClass;
}

export interface CaseRow {
  readonly id: string;
  /** The source registers to load into the editors, as hex. */
  readonly registers: Readonly<Partial<Record<SourceName, string>>>;
  readonly cells: Readonly<Partial<Record<Column, CaseCell>>>;
  /** What happened in this case, from the engine's trace (invalid operation, tie, …). */
  readonly outcomes: readonly CaseOutcome[];
  /** Lower-case words of every cell (names, hex, values, classes, marks), for the search box. */
  readonly words: readonly string[];
}

/** The result classes a person filters by (a NaN is a NaN, quiet or signalling): panel-state.ts. */
export type ResultGroup = ResultClass;

export const groupOf = (cls: FloatClass): ResultGroup =>
  cls === 'qnan' || cls === 'snan' ? 'nan' : cls;

/** Rows whose result deserves a mark: NaN, infinity or zero. */
export const isNotable = (cls: FloatClass): boolean => cls !== 'normal' && cls !== 'subnormal';

/** The operation's inputs, by the register each comes from (add a, b; mixed add a, c; cvt a). */
export function inputKeys(form: Form): SourceName[] {
  const keys = form.elements[0]!.inputs.map((p) => p.operand as SourceName);
  // A tensor core's row of A and column of B are one column each.
  return form.matrix ? [...new Set(keys)] : keys;
}

/**
 * A value as a cell shows it: an exact decimal's first digits where it runs long (the least
 * .f32 subnormal has a hundred), so one row cannot push the results out of view.
 */
function valueText(v: CornerValue): string {
  return v.value.kind === 'finite' ? readableDecimal(v.value.decimal).text : exactText(v.value);
}

/**
 * A tensor core's row of A or column of B in one cell: "every element 448" where all are equal,
 * else its first elements up to the last that is not +0 (at most four; the rest "…").
 */
function listCell(inputs: readonly CornerValue[], name: string): CaseCell {
  const first = inputs[0]!;
  const same = inputs.every((v) => v.bits === first.bits);
  const zero = first.bits.replace(/[0-9a-f]/g, '0');
  let last = inputs.length - 1;
  while (last > 0 && inputs[last]!.bits === zero) last--;
  const shown = inputs.slice(0, Math.min(last + 1, 4));
  const more = shown.length < inputs.length ? ', …' : '';
  return {
    name,
    hex: same
      ? `${first.bits} × ${inputs.length}`
      : `${shown.map((v) => v.bits).join(', ')}${more}`,
    value: same ? `every element ${valueText(first)}` : `${shown.map(valueText).join(', ')}${more}`,
    number: first.number,
    cls: first.class,
  };
}

export function caseRows(form: Form, table: CornerTable): CaseRow[] {
  return table.rows.map((r, i) => {
    const cells: Partial<Record<Column, CaseCell>> = {};
    r.inputs.forEach((input, k) => {
      if (form.matrix && input.operand !== 'c') return;
      cells[input.operand] = {
        name: caseWords(input.case, form, k),
        hex: input.value.bits,
        value: valueText(input.value),
        number: input.value.number,
        cls: input.value.class,
      };
    });
    if (form.matrix && r.matrixCase)
      for (const operand of ['a', 'b'] as const)
        cells[operand] = listCell(
          r.inputs.filter((x) => x.operand === operand).map((x) => x.value),
          operand === 'a' ? MATRIX_CASE_WORDS[r.matrixCase] : '',
        );
    cells.d = {
      name: '',
      hex: r.result.bits,
      value: valueText(r.result),
      number: r.result.number,
      cls: r.result.class,
    };
    const words = [
      ...Object.values(cells).map((c) => `${c.name} ${c.hex} ${c.value} ${c.cls}`),
      ...r.outcomes,
    ]
      .join(' ')
      .toLowerCase()
      .split(/\s+/)
      .filter(Boolean);
    return { id: String(i), registers: r.registers, cells, outcomes: r.outcomes, words };
  });
}

/**
 * The query's words as the cells write them: lower case, ∞ as inf and the minus sign (−) as
 * "-", as the value fields read them.
 */
export function queryWords(query: string): string[] {
  return query
    .toLowerCase()
    .replace(/\u2212/g, '-')
    .replace(/∞/g, 'inf')
    .split(/\s+/)
    .filter(Boolean);
}

/** A hex word with at least one digit: it may stand for the start of a longer one. */
const HEX_START = /^0x[0-9a-f]+$/;

/**
 * Every word of the query is a word of the row (so "+inf -inf" finds that pair, and "-0" finds
 * the zero, not -0.00006104); "inf" (or ∞) without a sign is either infinity; a hex word may be
 * the start of one ("0x3c" finds 0x3c00), but
 * "0x" alone is the start of every hex cell and finds nothing.
 */
export function matchesQuery(row: CaseRow, query: string): boolean {
  return queryWords(query).every((w) =>
    row.words.some(
      (t) =>
        t === w ||
        (HEX_START.test(w) && t.startsWith(w)) ||
        (w === 'inf' && (t === '+inf' || t === '-inf')),
    ),
  );
}

/** Why a query found no case, and what the filter reads. */
export function noMatchText(query: string): string {
  const quoted = `“${query.trim()}”`;
  if (queryWords(query).includes('0x'))
    return `No case matches ${quoted}: “0x” needs a hex digit after it (0x7c).`;
  return `No case matches ${quoted}: the filter finds whole words of the cells: names (+inf, nan, +max finite), hex (0x7c00, or its start: 0x7c), classes (subnormal), marks (tie) and values as the table writes them.`;
}

/** Ascending numeric order with -0 before +0 and NaN last. */
export function compareNumbers(x: number, y: number): number {
  const nx = Number.isNaN(x);
  const ny = Number.isNaN(y);
  if (nx || ny) return nx === ny ? 0 : nx ? 1 : -1;
  if (x !== y) return x < y ? -1 : 1;
  if (x === 0) return Object.is(x, -0) === Object.is(y, -0) ? 0 : Object.is(x, -0) ? -1 : 1;
  return 0;
}
