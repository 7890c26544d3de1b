import { useId, useMemo, useState, type MouseEvent } from 'react';
import { findForm } from '../catalog/all-forms.ts';
import type { FormatName } from '../catalog/formats.ts';
import type { SourceName } from '../catalog/instruction.ts';
import { findTarget } from '../catalog/targets.ts';
import { verdictFor } from '../catalog/verdict.ts';
import { readableDecimal } from '../engine/decimal-text.ts';
import {
  valueInFormats,
  type StoredInFormat,
  type ValueInFormats,
} from '../engine/analysis/value-in-formats.ts';
import { useStore } from '../state/store.ts';
import { decodeUrl, encodeUrl } from '../state/url-codec.ts';
import type { UrlState } from '../state/url-state.ts';
import './corner-cases.css';
import './formats.css';

/** Three significant digits: 0.000123 as 1.23e-4; positional from 10^-3 below 10^6. */
function shortNumber(x: number): string {
  if (x === 0) return '0';
  const a = Math.abs(x);
  const text = a >= 1e-3 && a < 1e6 ? String(Number(x.toPrecision(3))) : x.toExponential(2);
  return text.replace(/\.?0+e/, 'e').replace('e+', 'e');
}

/**
 * One value, every format: a value typed once and what each format stores of it — the bits,
 * the value stored, the error against the typed value (absolute, relative, in ulps of the
 * format), what happened (saturated, overflowed, became zero) — each row a link into the cvt
 * instruction that produces it (engine/analysis/value-in-formats.ts does the conversions).
 */
export function EveryFormat() {
  const [text, setText] = useState('0.1');
  const table = useMemo(() => valueInFormats(text), [text]);
  const inputId = useId();
  const headingId = useId();
  return (
    <section className="every-format" aria-labelledby={headingId} data-testid="every-format">
      <h3 id={headingId}>One value, every format</h3>
      <div className="field">
        <label htmlFor={inputId}>A value (1.5, -0, 1e-3, 0x1.8p-3, inf, nan)</label>
        <input
          id={inputId}
          className="mono"
          value={text}
          spellCheck={false}
          autoComplete="off"
          inputMode="decimal"
          aria-invalid={!table.ok}
          aria-describedby={table.ok ? undefined : `${inputId}-err`}
          data-testid="every-format-value"
          onChange={(e) => setText(e.target.value)}
        />
      </div>
      {table.ok ? (
        <Table text={text.trim()} table={table} />
      ) : (
        <p
          id={`${inputId}-err`}
          className="field-error"
          role="status"
          data-testid="every-format-value-error"
        >
          {table.message}
        </p>
      )}
    </section>
  );
}

type Ok = Extract<ValueInFormats, { ok: true }>;

function Table({ text, table }: { text: string; table: Ok }) {
  const captionId = useId();
  return (
    <>
      <p className="muted">
        .f64 holds the value rounded to nearest even; every other format what the cvt its row names
        makes of it (from .f64, or from the .f32 above). Errors are against the value as typed,
        exactly.
      </p>
      <div className="cc-scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
        <table className="cc-table every-format-table">
          <caption id={captionId}>{text} in every format</caption>
          <thead>
            <tr>
              <th scope="col">format</th>
              <th scope="col">bits</th>
              <th scope="col">stored value</th>
              <th scope="col">error</th>
              <th scope="col">relative</th>
              <th scope="col">ulps</th>
              <th scope="col">what happened</th>
              <th scope="col">instruction</th>
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row) => (
              <Row key={row.format} row={row} table={table} />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Row({ row, table }: { row: StoredInFormat; table: Ok }) {
  const stored =
    row.value.kind === 'finite' ? readableDecimal(row.value.decimal).text : row.value.decimal;
  const error = row.error;
  const number = (x: number | null) => (x === null ? '—' : shortNumber(x));
  return (
    <tr data-testid="every-format-row" data-format={row.format}>
      <th scope="row">.{row.format}</th>
      <td>
        <code data-testid="every-format-bits">
          0x{row.bits.toString(16).padStart(Math.ceil(row.width / 4), '0')}
        </code>
      </td>
      <td className="mono" data-testid="every-format-stored">
        {stored}
      </td>
      <td className="mono" data-testid="every-format-abs">
        {error ? number(error.absolute) : '—'}
      </td>
      <td className="mono" data-testid="every-format-rel">
        {error ? number(error.relative) : '—'}
      </td>
      <td className="mono" data-testid="every-format-ulps">
        {error ? number(error.ulps) : '—'}
      </td>
      <td data-testid="every-format-what">{whatHappened(row, table)}</td>
      <td>
        {row.form ? (
          <InstructionLink row={row} />
        ) : (
          <span className="muted">the value, rounded (the source)</span>
        )}
      </td>
    </tr>
  );
}

/** What became of the typed value in this format, in a few words. */
function whatHappened(row: StoredInFormat, table: Ok): string {
  const nan = row.class === 'qnan' || row.class === 'snan';
  const sign = row.value.negative ? '-' : '+';
  if (table.kind === 'nan') return nan ? 'NaN' : `no NaN in .${row.format}: MAX_NORM`;
  if (table.kind === 'inf') {
    if (row.class === 'infinity') return 'infinity';
    return nan ? 'became NaN' : 'saturated to MAX_NORM';
  }
  if (nan) return 'became NaN';
  if (row.class === 'infinity') return `overflowed to ${sign}inf`;
  if (row.outcomes.includes('clamp')) return 'saturated to MAX_NORM';
  const typedZero = table.typed !== null && table.typed.num === 0n;
  if (row.class === 'zero' && !typedZero) return 'became zero';
  if (row.exact) return 'exact';
  // ue8m0 has no round-to-nearest: its row's cvt says which way it rounds.
  const rounding = row.form ? findForm(row.form)?.rounding : 'rn';
  const parts = [rounding && rounding !== 'rn' ? `rounded (.${rounding})` : 'rounded'];
  if (row.outcomes.includes('tie')) parts.push('a tie');
  if (row.class === 'subnormal') parts.push('subnormal');
  return parts.join(', ');
}

/**
 * The row's cvt with the value in its source registers: a link to share (on the current target
 * where the form exists there, else on its least target and PTX ISA version), which a plain
 * click loads in place.
 */
function InstructionLink({ row }: { row: StoredInFormat }) {
  const target = useStore((s) => s.target);
  const ptx = useStore((s) => s.ptx);
  const formatPage = useStore((s) => s.formatPage);
  const applyUrlState = useStore((s) => s.applyUrlState);
  const form = findForm(row.form!)!;
  const verdict = verdictFor(form, findTarget(target)!, ptx);
  const given = row.source!.registers as Readonly<Partial<Record<SourceName, bigint>>>;
  const state: UrlState = {
    instr: form.text,
    target: verdict.valid ? target : verdict.minTarget,
    ptx: verdict.valid ? ptx : verdict.minPtx,
    registers: Object.fromEntries(
      form.registers.slice(1).map((r) => [r.name, given[r.name as SourceName] ?? 0n]),
    ),
    tab: 'format',
    vs: null,
    format: formatPage ?? (row.format as FormatName),
  };
  const href = encodeUrl(state);
  const open = (e: MouseEvent<HTMLAnchorElement>) => {
    // A plain click loads it here; a modified one (new tab, copy) follows the link.
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    applyUrlState(decodeUrl(href).state, 'push');
    document.getElementById('main')?.scrollIntoView({ block: 'start' });
  };
  return (
    <a href={href} onClick={open} className="mono" data-testid="every-format-link">
      {form.text}
    </a>
  );
}
