import { useEffect, useId, useMemo, useState } from 'react';
import type { CvtForm } from '../catalog/index.ts';
import {
  CVT_SWEEP_MAX_VALUES,
  cvtSweepProblem,
  formatInfo,
  parseSweepBound,
  type CvtSweep,
  type CvtSweepInputs,
  type CvtSweepRequest,
} from '../engine/index.ts';
import { useCvtForm } from '../state/any-form.ts';
import { valueWidth } from '../state/cvt-element-view.ts';
import { defaultSweepRange, rangeSource, type SweepRange } from '../state/panel-url.ts';
import { useStore } from '../state/store.ts';
import { CvtSweepPlot } from './CvtSweepPlot.tsx';
import { useCvtSweep, type CvtSweepControl } from './use-cvt-sweep.ts';
import { SweepProgress } from './SweepProgress.tsx';
import './corner-cases.css';
import './cvt.css';

const count = (n: number) => n.toLocaleString('en-US');

/** A number as it reads in the summary: up to 6 significant digits. */
function short(x: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'NaN' : x > 0 ? '+inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const abs = Math.abs(x);
  return abs >= 1e-4 && abs < 1e7 ? String(Number(x.toPrecision(6))) : x.toExponential(4);
}

/**
 * The current cvt form over many inputs at once, in the worker with progress: every pattern of
 * a source of 16 bits or fewer (all 65,536 .f16 values), or up to a million .f32/.f64 values
 * between two bounds. What it shows: where the inputs go (for each destination value, the
 * inputs that became it), how many saturated, overflowed or became zero, the largest error, and
 * for a range a plot of result and error against the input.
 */
export default function CvtSweepPanel() {
  const form = useCvtForm();
  return form ? <Sweep key={form.text} form={form} /> : null;
}

function Sweep({ form }: { form: CvtForm }) {
  const element = form.elements[0]!;
  const src = element.source.format;
  const patterns = valueWidth(src) <= 16;
  const rbits = useStore((s) => s.cvtRegisters.rbits);
  const usesRbits = form.operands.some((o) => o.name === 'rbits');
  // The range swept: the one the person ran (or a link gave: panel-url.ts), else the default.
  const storedRange = useStore((s) => s.sweepRange);
  const setSweepRange = useStore((s) => s.setSweepRange);
  const source = rangeSource(form);
  const defaultRange = useMemo(() => defaultSweepRange(form), [form]);
  const range = storedRange ?? defaultRange;
  const inputs: CvtSweepInputs = patterns ? { kind: 'every-pattern' } : { kind: 'range', ...range };
  const problem = cvtSweepProblem(form, inputs);
  const request: CvtSweepRequest | null = problem
    ? null
    : { form: form.text, inputs, ...(usesRbits ? { rbits: Number(rbits & 0xffffffffn) } : {}) };
  const sweep = useCvtSweep(request);
  const headingId = useId();
  // The fields no longer say the range of the result shown (edited, or in error).
  const [stale, setStale] = useState(false);
  return (
    <section className="cvt-sweep" aria-labelledby={headingId} data-testid="cvt-sweep">
      <h3 id={headingId}>Every input at once</h3>
      <p className="muted">
        Element 0 of <code>{form.text}</code> ({element.source.operand} → d[{element.dest.slot.hi}:
        {element.dest.slot.lo}]) over{' '}
        {patterns
          ? `every .${src} pattern (${count(2 ** valueWidth(src))})`
          : `evenly spaced .${src} values`}
        , on the engine&apos;s fast path in the worker
        {usesRbits
          ? `, with the random bits of rbits (0x${rbits.toString(16).padStart(8, '0')})`
          : ''}
        .
      </p>
      {!patterns && source && (
        <RangeForm
          form={form}
          source={source}
          value={range}
          onSweep={setSweepRange}
          onStale={setStale}
        />
      )}
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <SweepStatus {...sweep} />
      {sweep.state.status === 'done' && stale && (
        <p className="note" role="status" data-testid="sweep-stale">
          The result below is for the range swept last, {range.from} to {range.to} (
          {count(range.count)} values): the fields above say otherwise until you press Sweep.
        </p>
      )}
      {sweep.state.status === 'done' && (
        <SweepResult sweep={sweep.state.sweep} form={form} stale={stale} />
      )}
    </section>
  );
}

type RangeDraft = Readonly<Record<'from' | 'to' | 'count', string>>;

const draftOf = (r: SweepRange): RangeDraft => ({
  from: Object.is(r.from, -0) ? '-0' : String(r.from),
  to: Object.is(r.to, -0) ? '-0' : String(r.to),
  count: String(r.count),
});

/**
 * The fields' range, or the first thing wrong with it, each bound read by the one rule
 * (parseSweepBound: `0x…`/`0b…` are the source format's bits), and what a bound given as bits
 * is.
 */
function readDraft(
  form: CvtForm,
  source: 'f32' | 'f64',
  draft: RangeDraft,
): {
  range: SweepRange | null;
  problem: string | null;
  notes: Partial<Record<'from' | 'to', string>>;
} {
  const notes: Partial<Record<'from' | 'to', string>> = {};
  const bounds: Partial<Record<'from' | 'to', number>> = {};
  for (const key of ['from', 'to'] as const) {
    const bound = parseSweepBound(draft[key], source);
    if (!bound.ok) return { range: null, problem: `${key}: ${bound.message}`, notes };
    bounds[key] = bound.value;
    if (bound.bits)
      notes[key] =
        `${key} ${draft[key].trim()}: the .${source} bits ${bound.bits} = ${String(bound.value)}`;
  }
  const countText = draft.count.trim();
  if (!/^\d+$/.test(countText))
    return {
      range: null,
      problem: `values: '${countText}' is not a whole number of values`,
      notes,
    };
  const range = { from: bounds.from!, to: bounds.to!, count: Number(countText) };
  const problem = cvtSweepProblem(form, { kind: 'range', ...range });
  return problem ? { range: null, problem, notes } : { range, problem: null, notes };
}

function RangeForm({
  form,
  source,
  value,
  onSweep,
  onStale,
}: {
  form: CvtForm;
  source: 'f32' | 'f64';
  value: SweepRange;
  onSweep: (v: SweepRange) => void;
  /** Whether the fields say something other than the range swept (edited, or in error). */
  onStale: (stale: boolean) => void;
}) {
  const [draft, setDraft] = useState(() => draftOf(value));
  // A range set from elsewhere (a link, Back) replaces the fields.
  const [valueSeen, setValueSeen] = useState(value);
  if (valueSeen !== value) {
    setValueSeen(value);
    setDraft(draftOf(value));
  }
  const { range, problem, notes } = readDraft(form, source, draft);
  const stale =
    range === null ||
    !Object.is(range.from, value.from) ||
    !Object.is(range.to, value.to) ||
    range.count !== value.count;
  useEffect(() => onStale(stale), [stale, onStale]);
  const field = (key: 'from' | 'to' | 'count', label: string, mode: 'decimal' | 'numeric') => (
    <label>
      {label}
      <input
        className="mono"
        value={draft[key]}
        inputMode={mode}
        aria-invalid={problem?.startsWith(`${key}:`) ?? false}
        data-testid={`sweep-${key}`}
        onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
      />
    </label>
  );
  return (
    <form
      className="cvt-sweep-range"
      onSubmit={(e) => {
        e.preventDefault();
        if (range) onSweep(range);
      }}
    >
      {field('from', 'from', 'decimal')}
      {field('to', 'to', 'decimal')}
      {field('count', `values (at most ${count(CVT_SWEEP_MAX_VALUES)})`, 'numeric')}
      <button type="submit" disabled={range === null} data-testid="sweep-run">
        Sweep
      </button>
      {problem && (
        <span className="field-error" role="status" data-testid="sweep-range-error">
          {problem}
        </span>
      )}
      {(['from', 'to'] as const).map(
        (key) =>
          notes[key] && (
            <span key={key} className="field-note" data-testid={`sweep-${key}-note`}>
              {notes[key]}
            </span>
          ),
      )}
    </form>
  );
}

function SweepStatus({ state, cancel, restart }: CvtSweepControl) {
  switch (state.status) {
    case 'idle':
      return null;
    case 'running':
      return (
        <SweepProgress
          label="Converting in the worker…"
          done={state.done}
          total={state.total}
          cancel={cancel}
          testIdPrefix="sweep"
        />
      );
    case 'cancelled':
      return (
        <p role="status" data-testid="sweep-cancelled">
          Sweep cancelled.{' '}
          <button type="button" onClick={restart}>
            Sweep again
          </button>
        </p>
      );
    case 'error':
      return (
        <p className="error" role="alert">
          The sweep failed: {state.message}{' '}
          <button type="button" onClick={restart}>
            Try again
          </button>
        </p>
      );
    case 'done':
      return state.ms === null ? null : (
        <p className="muted" role="status" data-testid="sweep-time">
          {count(state.sweep.count)} inputs converted in {Math.round(state.ms)} ms (in the worker,
          progress included).
        </p>
      );
  }
}

function SweepResult({ sweep, form, stale }: { sweep: CvtSweep; form: CvtForm; stale: boolean }) {
  const dst = sweep.dest;
  const max = formatInfo(dst).maxNorm.value;
  const c = sweep.classes;
  return (
    <div className={`cvt-sweep-result${stale ? ' stale' : ''}`}>
      <ul
        className="cvt-sweep-summary"
        data-testid="sweep-summary"
        data-stale={stale ? 'true' : undefined}
      >
        <li>
          <strong>{count(sweep.exact)}</strong> converted exactly (the value is one of .{dst}
          &apos;s)
        </li>
        {sweep.saturated > 0 && (
          <li>
            <strong>{count(sweep.saturated)}</strong> past MAX_NORM ({max}) became ±MAX_NORM
          </li>
        )}
        {sweep.overflowed > 0 && (
          <li>
            <strong>{count(sweep.overflowed)}</strong> finite inputs became{' '}
            {formatInfo(dst).hasInfinity ? 'infinite' : 'NaN'}
          </li>
        )}
        {sweep.flushedToZero > 0 && (
          <li>
            <strong>{count(sweep.flushedToZero)}</strong> nonzero inputs became zero
          </li>
        )}
        <li>
          Results: {count(c.normal)} normal, {count(c.subnormal)} subnormal, {count(c.zero)} zero,{' '}
          {count(c.infinity)} infinite, {count(c.nan)} NaN
        </li>
        {sweep.worst && (
          <li>
            Largest error: <span className="mono">{short(sweep.worst.error)}</span> at input{' '}
            <span className="mono">{short(sweep.worst.input)}</span> (→{' '}
            <span className="mono">{short(sweep.worst.result)}</span>)
          </li>
        )}
      </ul>
      {sweep.plot && <CvtSweepPlot sweep={sweep} form={form} />}
      {sweep.buckets && <Buckets sweep={sweep} />}
    </div>
  );
}

const PAGE = 64;

/** Where the inputs go: per destination value, how many inputs became it and from where to where. */
function Buckets({ sweep }: { sweep: CvtSweep }) {
  const [shown, setShown] = useState(PAGE);
  const width = valueWidth(sweep.dest);
  const buckets = sweep.buckets!;
  const rows = useMemo(() => buckets.slice(0, shown), [buckets, shown]);
  return (
    <div className="cc-scroll" role="region" aria-label="Where the inputs go" tabIndex={0}>
      <table className="cc-table cvt-buckets" data-testid="sweep-buckets">
        <caption>
          Where the inputs go: each .{sweep.dest} result and the inputs that became it (
          {count(buckets.length)} results
          {buckets.length > shown ? `, the first ${shown} shown` : ''})
        </caption>
        <thead>
          <tr>
            <th scope="col">result</th>
            <th scope="col">hex</th>
            <th scope="col">inputs</th>
            <th scope="col">from</th>
            <th scope="col">to</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((b) => (
            <tr key={b.bits} data-testid="sweep-bucket">
              <td className="cc-num">{short(b.value)}</td>
              <td>
                <code>0x{b.bits.toString(16).padStart(Math.ceil(width / 4), '0')}</code>
              </td>
              <td className="cc-num">{count(b.count)}</td>
              <td className="cc-num mono">{short(b.lo)}</td>
              <td className="cc-num mono">{short(b.hi)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {buckets.length > shown && (
        <p>
          <button type="button" onClick={() => setShown(shown + PAGE * 4)}>
            Show more
          </button>
        </p>
      )}
    </div>
  );
}
