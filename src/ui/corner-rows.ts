import type { Form } from '../catalog/index.ts';
import type { CaseOutcome } from '../engine/analysis/case-outcomes.ts';
import type { FloatClass } from '../engine/trace.ts';
import type { ResultClass } from '../state/panel-url.ts';
import { formatBits } from '../state/url-codec.ts';
import type { CornerTable, OperandKey } from '../worker/api.ts';

/**
 * Corner-case rows for display: the worker's corner-case table reshaped into one flat record
 * per case with the text the cells show and filter on. Only formatting happens here; every
 * value was computed by the engine in the worker.
 */

export type Column = OperandKey | 'd';

export interface CaseCell {
  /** The special value's name ("+min subnormal"); the result has none. */
  readonly name: string;
  readonly hex: string;
  readonly value: string;
  /** As a double, for numeric sorting (NaN for NaN). */
  readonly number: number;
  readonly cls: FloatClass;
}

export interface CaseRow {
  readonly id: string;
  /** Register bits to load into the editors. */
  readonly regs: Readonly<Partial<Record<OperandKey, number>>>;
  readonly cells: Readonly<Partial<Record<Column, CaseCell>>>;
  /** What happened in this case, from the engine's trace (invalid operation, tie, …). */
  readonly outcomes: readonly CaseOutcome[];
  /** Lower-case words of every cell (names, hex, values, classes, marks), for the search box. */
  readonly words: readonly string[];
}

/** How a mark reads in the table (short) and in the filter (with what it means). */
export const OUTCOME_LABELS: Readonly<Record<CaseOutcome, { mark: string; filter: string }>> = {
  invalid: { mark: 'invalid', filter: 'invalid operation (∞ − ∞, 0 × ∞)' },
  'nan-input': { mark: 'NaN in', filter: 'a NaN input' },
  overflow: { mark: 'overflow', filter: 'overflow' },
  underflow: { mark: 'underflow', filter: 'underflow (tiny and inexact)' },
  subnormal: { mark: 'subnormal', filter: 'subnormal result' },
  tie: { mark: 'tie', filter: 'a tie, rounded to even' },
  flush: { mark: 'flushed', filter: 'flushed to zero (.ftz)' },
  clamp: { mark: 'clamped', filter: 'clamped (.sat or .relu)' },
  oob: { mark: 'OOB → +0', filter: 'OOB-NaN made it +0 (.oob)' },
};

/** The result classes a person filters by (a NaN is a NaN, quiet or signalling): panel-url.ts. */
export type ResultGroup = ResultClass;

export const groupOf = (cls: FloatClass): ResultGroup =>
  cls === 'qnan' || cls === 'snan' ? 'nan' : cls;

/** Rows whose result deserves a mark: NaN, infinity or zero. */
export const isNotable = (cls: FloatClass): boolean => cls !== 'normal' && cls !== 'subnormal';

/** The input operands of the form, in order (d is the result). */
export function inputKeys(form: Form): OperandKey[] {
  return form.operands.map((o) => o.name).filter((n): n is OperandKey => n !== 'd');
}

export function caseRows(form: Form, table: CornerTable): CaseRow[] {
  const width = (name: Column) => form.operands.find((o) => o.name === name)?.bits ?? 16;
  const keys = inputKeys(form);
  return table.rows.map((r, i) => {
    const cells: Partial<Record<Column, CaseCell>> = {};
    const regs: Partial<Record<OperandKey, number>> = {};
    for (const k of keys) {
      const bits = r[k];
      const info = r.inputs[k];
      if (bits === undefined || !info) continue;
      regs[k] = bits;
      cells[k] = {
        name: r.names[k] ?? '',
        hex: formatBits(bits, width(k)),
        value: info.value,
        number: info.number,
        cls: info.class,
      };
    }
    cells.d = {
      name: '',
      hex: formatBits(r.d, width('d')),
      value: r.result.value,
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
    return { id: String(i), regs, cells, outcomes: r.outcomes, words };
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
 * the zero, not -0.00006104); a hex word may be the start of one ("0x3c" finds 0x3c00), but
 * "0x" alone is the start of every hex cell and finds nothing.
 */
export function matchesQuery(row: CaseRow, query: string): boolean {
  return queryWords(query).every((w) =>
    row.words.some((t) => t === w || (HEX_START.test(w) && t.startsWith(w))),
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
