// The corner-case table: sortable, filterable and paged, a row loads its case into the editors.
import {
  columnFilteringFeature,
  createColumnHelper,
  createFilteredRowModel,
  createPaginatedRowModel,
  createSortedRowModel,
  FlexRender,
  globalFilteringFeature,
  rowPaginationFeature,
  rowSortingFeature,
  sortFn_text,
  tableFeatures,
  useTable,
  type ColumnDef,
  type ColumnFiltersState,
  type Header,
  type Row,
} from '@tanstack/react-table';
import { memo, useCallback, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { SourceName } from '../catalog/instruction.ts';
import { CASE_OUTCOMES, type CaseOutcome } from '../engine/analysis/index.ts';
import type { OutcomeWords } from '../present/analysis-words.ts';
import {
  compareNumbers,
  groupOf,
  isNotable,
  matchesQuery,
  noMatchText,
  type CaseCell,
  type CaseRow,
  type Column,
  type ResultGroup,
} from './corner-rows.ts';
import { bringIntoViewOnNarrow, useNarrow } from './narrow.ts';
import { useStore } from '../state/store.ts';

const features = tableFeatures({
  columnFilteringFeature,
  globalFilteringFeature,
  rowSortingFeature,
  rowPaginationFeature,
  filteredRowModel: createFilteredRowModel(),
  sortedRowModel: createSortedRowModel(),
  paginatedRowModel: createPaginatedRowModel(),
  sortFns: { text: sortFn_text },
});
type Features = typeof features;

/** Binary ops fit one page (225 rows); fma's 1,350 cases are paged so the DOM stays small. */
const PAGE_SIZE = 250;

const helper = createColumnHelper<Features, CaseRow>();

const GROUPS: readonly { id: ResultGroup | ''; label: string }[] = [
  { id: '', label: 'any class' },
  { id: 'nan', label: 'NaN' },
  { id: 'infinity', label: 'infinity' },
  { id: 'zero', label: 'zero' },
  { id: 'subnormal', label: 'subnormal' },
  { id: 'normal', label: 'normal' },
];

type TitleMap = Readonly<Partial<Record<Column, string>>>;
type OutcomeLabels = Readonly<Record<CaseOutcome, OutcomeWords>>;

/** The decimal value beside a special value's name, where the name does not already say it. */
const informative = (c: CaseCell): boolean =>
  Number.isFinite(c.number) && !/^[+-]?[01]$/.test(c.name);

function cellOf(row: CaseRow, col: Column): CaseCell | undefined {
  return row.cells[col];
}

/**
 * Value and hex columns for one operand; the result also gets its class. An operand's name
 * ("+min subnormal", "sNaN") already says its class, and three more columns pushed fma's result
 * off a 1280 px screen; the search box still finds operands by class.
 */
function columnsFor(col: Column, titles: TitleMap): ColumnDef<Features, CaseRow, unknown> {
  return helper.group({
    id: col,
    header: titles[col] ?? col,
    columns: helper.columns([
      helper.accessor((r) => cellOf(r, col)?.number ?? NaN, {
        id: `${col}-value`,
        header: 'value',
        sortFn: (x: Row<Features, CaseRow>, y: Row<Features, CaseRow>, id: string) =>
          compareNumbers(x.getValue<number>(id), y.getValue<number>(id)),
        // Numbers read naturally from smallest to largest (NaN last).
        sortDescFirst: false,
        cell: (info) => {
          const c = cellOf(info.row.original, col);
          if (!c) return null;
          if (!c.name) return <span className="cc-value">{c.value}</span>;
          return (
            <>
              <span className="cc-name">{c.name}</span>
              {informative(c) && <span className="cc-value cc-aside"> {c.value}</span>}
            </>
          );
        },
      }),
      helper.accessor((r) => cellOf(r, col)?.hex ?? '', {
        id: `${col}-hex`,
        header: 'hex',
        sortFn: 'text',
        cell: (info) => <code>{info.getValue()}</code>,
      }),
      ...(col === 'd' ? [resultClassColumn()] : []),
    ]),
  });
}

/** The result's class, which the class filter selects on. */
function resultClassColumn() {
  const col = 'd';
  return helper.accessor((r) => cellOf(r, col)?.cls ?? '', {
    id: 'd-class',
    header: 'class',
    sortFn: 'text',
    filterFn: (row: Row<Features, CaseRow>, _id: string, group: ResultGroup) => {
      const cls = cellOf(row.original, col)?.cls;
      return cls !== undefined && groupOf(cls) === group;
    },
    cell: (info) => {
      const cls = cellOf(info.row.original, col)?.cls;
      return cls && isNotable(cls) ? (
        <span className={`cc-mark cc-${groupOf(cls)}`}>{cls}</span>
      ) : (
        cls
      );
    },
  });
}

/** What happened in each case: the marks from the engine's trace, filterable. */
function outcomesColumn(labels: OutcomeLabels): ColumnDef<Features, CaseRow, unknown> {
  return helper.accessor((r) => r.outcomes.join(' '), {
    id: 'outcomes',
    header: 'what happened',
    sortFn: 'text',
    filterFn: (row: Row<Features, CaseRow>, _id: string, outcome: CaseOutcome) =>
      row.original.outcomes.includes(outcome),
    cell: (info) => (
      <span className="cc-outcomes">
        {info.row.original.outcomes.map((o) => (
          <span key={o} className={`cc-outcome cc-outcome-${o}`}>
            {labels[o].mark}
          </span>
        ))}
      </span>
    ),
  }) as ColumnDef<Features, CaseRow, unknown>;
}

export interface CornerCaseTableProps {
  readonly formText: string;
  /** The operation's inputs, by the register each comes from. */
  readonly keys: readonly SourceName[];
  readonly rows: readonly CaseRow[];
  readonly onLoad: (row: CaseRow) => void;
  /** Whether a row is the case now loaded in the editors. */
  readonly isCurrent: (row: CaseRow) => boolean;
  /** Column headings: each input's, and the result's. */
  readonly titles: TitleMap;
  /** What the rows are. */
  readonly help: string;
  /** Each outcome's mark in the table and words in the filter (src/present). */
  readonly outcomeLabels: OutcomeLabels;
}

export function CornerCaseTable(props: CornerCaseTableProps) {
  const { formText, keys, rows, onLoad } = props;
  const titleSig = JSON.stringify(props.titles);
  const labelSig = JSON.stringify(props.outcomeLabels);
  // The filters live in the store: they are part of the share link (panel-url.ts).
  const filters = useStore((s) => s.cornerFilters);
  const setFilters = useStore((s) => s.setCornerFilters);
  const query = filters.query;
  const columnFilters: ColumnFiltersState = useMemo(
    () => [
      ...(filters.resultClass ? [{ id: 'd-class', value: filters.resultClass }] : []),
      ...(filters.happened ? [{ id: 'outcomes', value: filters.happened }] : []),
    ],
    [filters.resultClass, filters.happened],
  );
  const [focusRow, setFocusRow] = useState(0);
  const narrow = useNarrow();
  const searchId = useId();
  const classId = useId();
  const captionId = useId();
  const helpId = useId();

  const keySig = keys.join(',');
  const labels = useMemo(() => JSON.parse(labelSig) as OutcomeLabels, [labelSig]);
  const columns = useMemo(() => {
    const t = JSON.parse(titleSig) as TitleMap;
    const inputs = (keySig.split(',') as SourceName[]).map((k) => columnsFor(k, t));
    // On a narrow screen the result and what happened come first, so a case's result is in
    // view without a column kept over the others (which hid part of them); the inputs follow.
    return narrow
      ? [columnsFor('d', t), outcomesColumn(labels), ...inputs]
      : [...inputs, columnsFor('d', t), outcomesColumn(labels)];
  }, [keySig, titleSig, labels, narrow]);
  const data = useMemo(() => [...rows], [rows]);

  const table = useTable({
    features,
    columns,
    data,
    state: { globalFilter: query, columnFilters },
    globalFilterFn: (row: Row<Features, CaseRow>, _id: string, q: string) =>
      matchesQuery(row.original, q ?? ''),
    getRowId: (r) => r.id,
    initialState: { pagination: { pageIndex: 0, pageSize: PAGE_SIZE } },
  });

  const resultGroup = filters.resultClass ?? '';
  const outcome = filters.happened ?? '';
  const outcomeCounts = useMemo(() => {
    const counts = new Map<CaseOutcome, number>();
    for (const r of rows) for (const o of r.outcomes) counts.set(o, (counts.get(o) ?? 0) + 1);
    return counts;
  }, [rows]);
  const outcomeId = useId();
  const pageRows = table.getRowModel().rows;
  const shownCount = table.getFilteredRowModel().rows.length;
  const pageCount = table.getPageCount();
  const pageIndex = table.state.pagination.pageIndex;
  const activeRow = Math.min(focusRow, Math.max(0, pageRows.length - 1));

  const isCurrent = props.isCurrent;

  // Rows are memoized: their handlers stay the same objects and read the latest props here.
  const latest = useRef({ onLoad, count: pageRows.length });
  latest.current = { onLoad, count: pageRows.length };
  const onActivate = useCallback((tr: HTMLTableRowElement, row: CaseRow) => {
    setFocusRow(positionOf(tr));
    loadAndShow(latest.current.onLoad, row);
  }, []);
  const onFocusRow = useCallback((tr: HTMLTableRowElement) => setFocusRow(positionOf(tr)), []);
  const onRowKey = useCallback((e: KeyboardEvent<HTMLTableRowElement>, row: CaseRow) => {
    const index = positionOf(e.currentTarget);
    const last = latest.current.count - 1;
    const moves: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      Home: 0,
      End: last,
      PageDown: index + 10,
      PageUp: index - 10,
    };
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      loadAndShow(latest.current.onLoad, row);
      return;
    }
    const to = moves[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = Math.max(0, Math.min(last, to));
    setFocusRow(next);
    const body = e.currentTarget.parentElement;
    (body?.children[next] as HTMLElement | undefined)?.focus();
  }, []);

  return (
    <div className="cc-table-block">
      <div className="cc-filters">
        <label htmlFor={searchId}>Filter</label>
        <input
          id={searchId}
          type="search"
          value={query}
          placeholder="e.g. +inf -inf, nan, 0x7c00"
          onChange={(e) => {
            setFilters({ ...filters, query: e.target.value });
            setFocusRow(0);
          }}
          data-testid="corner-filter"
        />
        <label htmlFor={classId}>Result class</label>
        <select
          id={classId}
          value={resultGroup}
          onChange={(e) => {
            setFilters({ ...filters, resultClass: (e.target.value || null) as ResultGroup | null });
            setFocusRow(0);
          }}
          data-testid="corner-class-filter"
        >
          {GROUPS.map((g) => (
            <option key={g.id} value={g.id}>
              {g.label}
            </option>
          ))}
        </select>
        <label htmlFor={outcomeId}>What happened</label>
        <select
          id={outcomeId}
          value={outcome}
          onChange={(e) => {
            setFilters({ ...filters, happened: (e.target.value || null) as CaseOutcome | null });
            setFocusRow(0);
          }}
          data-testid="corner-outcome-filter"
        >
          <option value="">any case</option>
          {CASE_OUTCOMES
            // A mark a link asked for that no case of this form has stays choosable (0).
            .filter((o) => outcomeCounts.has(o) || o === outcome)
            .map((o) => (
              <option key={o} value={o}>
                {labels[o].filter} ({outcomeCounts.get(o) ?? 0})
              </option>
            ))}
        </select>
        <span className="muted" role="status" data-testid="corner-count">
          {shownCount} of {rows.length} cases
        </span>
      </div>
      <p className="muted cc-help" id={helpId}>
        {props.help} &ldquo;What happened&rdquo; is read off each case&apos;s trace. Sort by a
        column header; press Enter on a row (or click it) to load the case into the editors.
      </p>
      <div
        className="cc-scroll"
        role="region"
        aria-labelledby={captionId}
        aria-describedby={helpId}
        tabIndex={0}
      >
        <table className="cc-table" data-testid="corner-table">
          <caption id={captionId}>
            <code>{formText}</code> over the special values
          </caption>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) =>
                  header.subHeaders.length > 0 ? (
                    <th key={header.id} scope="colgroup" colSpan={header.colSpan}>
                      {header.isPlaceholder ? null : String(header.column.columnDef.header)}
                    </th>
                  ) : (
                    <SortHeader key={header.id} header={header} />
                  ),
                )}
              </tr>
            ))}
          </thead>
          <tbody>
            {pageRows.map((row, i) => (
              <CaseRowView
                key={row.id}
                row={row}
                keys={keySig}
                active={i === activeRow}
                here={isCurrent(row.original)}
                onActivate={onActivate}
                onKey={onRowKey}
                onFocusRow={onFocusRow}
              />
            ))}
          </tbody>
        </table>
        {pageRows.length === 0 && (
          <p className="muted cc-empty" data-testid="corner-empty">
            {query.trim() === '' ? 'No case matches the filters.' : noMatchText(query)}
          </p>
        )}
      </div>
      {pageCount > 1 && (
        <nav className="cc-pager" aria-label="Corner-case pages">
          <button
            type="button"
            onClick={() => table.previousPage()}
            disabled={!table.getCanPreviousPage()}
          >
            Previous
          </button>
          <span>
            Page {pageIndex + 1} of {pageCount}
          </span>
          <button type="button" onClick={() => table.nextPage()} disabled={!table.getCanNextPage()}>
            Next
          </button>
        </nav>
      )}
    </div>
  );
}

/**
 * Load a case into the editors; on a phone, where they and the result lie screens above the
 * table, bring the result into view so the tap shows what it did.
 */
function loadAndShow(onLoad: (row: CaseRow) => void, row: CaseRow): void {
  onLoad(row);
  bringIntoViewOnNarrow('#result');
}

interface CaseRowViewProps {
  readonly row: Row<Features, CaseRow>;
  /** The form's inputs as one string ("a,b"), so the prop compares by value. */
  readonly keys: string;
  readonly active: boolean;
  readonly here: boolean;
  readonly onActivate: (tr: HTMLTableRowElement, row: CaseRow) => void;
  readonly onKey: (e: KeyboardEvent<HTMLTableRowElement>, row: CaseRow) => void;
  readonly onFocusRow: (tr: HTMLTableRowElement) => void;
}

/** A row's position on the page (rows carry no index prop, so a sort re-renders none). */
const positionOf = (tr: HTMLTableRowElement): number =>
  tr.parentElement ? Array.prototype.indexOf.call(tr.parentElement.children, tr) : 0;

/** One case. Memoized: sorting moves rows without rendering their cells again. */
const CaseRowView = memo(function CaseRowView(props: CaseRowViewProps) {
  const { row, keys, active, here, onActivate, onKey, onFocusRow } = props;
  const r = row.original;
  const d = r.cells.d;
  const cls = [
    'cc-row',
    d && isNotable(d.cls) ? `cc-row-${groupOf(d.cls)}` : '',
    here ? 'cc-current' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <tr
      className={cls}
      tabIndex={active ? 0 : -1}
      aria-current={here ? 'true' : undefined}
      data-testid="corner-row"
      data-case={(keys.split(',') as SourceName[]).map((k) => r.cells[k]?.name).join(',')}
      onClick={(e) => onActivate(e.currentTarget, r)}
      onFocus={(e) => onFocusRow(e.currentTarget)}
      onKeyDown={(e) => onKey(e, r)}
    >
      {row.getAllCells().map((cell) => (
        <td
          key={cell.id}
          className={cellClass(cell.column.id)}
          data-col={cell.column.id === 'd-value' ? 'result' : undefined}
        >
          <FlexRender cell={cell} />
        </td>
      ))}
    </tr>
  );
});

/** Value columns read as numbers. */
function cellClass(column: string): string {
  return column.endsWith('-value') ? 'cc-num' : '';
}

/** A leaf header: a button that cycles the sort, with aria-sort on the cell. */
function SortHeader({ header }: { header: Header<Features, CaseRow, unknown> }) {
  const sorted = header.column.getIsSorted();
  const group = header.column.parent?.id ?? '';
  const label = String(header.column.columnDef.header);
  return (
    <th
      scope="col"
      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}
    >
      <button
        type="button"
        className="cc-sort"
        onClick={header.column.getToggleSortingHandler()}
        aria-label={`${group ? `${group} ` : ''}${label}, sort`}
        data-testid={`sort-${header.column.id}`}
      >
        {label}
        <span aria-hidden="true" className="cc-arrow">
          {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
        </span>
      </button>
    </th>
  );
}
