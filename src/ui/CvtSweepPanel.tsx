import { useId, useMemo, useState } from 'react';
import type { CvtForm } from '../catalog/index.ts';
import {
  CVT_SWEEP_MAX_VALUES,
  cvtSweepProblem,
  formatInfo,
  type CvtSweep,
  type CvtSweepInputs,
  type CvtSweepRequest,
} from '../engine/index.ts';
import { useCvtForm } from '../state/any-form.ts';
import { valueWidth } from '../state/cvt-element-view.ts';
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

/** The range a sweep of an .f32/.f64 source starts with: a little past the destination's MAX_NORM. */
function defaultRange(form: CvtForm): { from: number; to: number } {
  const max = Number(formatInfo(form.elements[0]!.dest.format).maxNorm.value);
  const top = max <= 1e6 ? Number((max * 1.125).toPrecision(3)) : 4;
  return form.elements[0]!.dest.format === 'ue8m0' ? { from: 0, to: 4 } : { from: -top, to: top };
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
  const [range, setRange] = useState(() => ({
    ...defaultRange(form),
    count: CVT_SWEEP_MAX_VALUES,
  }));
  const inputs: CvtSweepInputs = patterns ? { kind: 'every-pattern' } : { kind: 'range', ...range };
  const problem = cvtSweepProblem(form, inputs);
  const request: CvtSweepRequest | null = problem
    ? null
    : { form: form.text, inputs, ...(usesRbits ? { rbits: Number(rbits & 0xffffffffn) } : {}) };
  const sweep = useCvtSweep(request);
  const headingId = useId();
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
      {!patterns && <RangeForm form={form} value={range} onSweep={setRange} />}
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <SweepStatus {...sweep} />
      {sweep.state.status === 'done' && <SweepResult sweep={sweep.state.sweep} form={form} />}
    </section>
  );
}

function RangeForm({
  form,
  value,
  onSweep,
}: {
  form: CvtForm;
  value: { from: number; to: number; count: number };
  onSweep: (v: { from: number; to: number; count: number }) => void;
}) {
  const [draft, setDraft] = useState({
    from: String(value.from),
    to: String(value.to),
    count: String(value.count),
  });
  const parsed = { from: Number(draft.from), to: Number(draft.to), count: Number(draft.count) };
  const invalid =
    draft.from.trim() === '' || draft.to.trim() === '' || draft.count.trim() === ''
      ? 'every field needs a number'
      : cvtSweepProblem(form, { kind: 'range', ...parsed });
  return (
    <form
      className="cvt-sweep-range"
      onSubmit={(e) => {
        e.preventDefault();
        if (!invalid) onSweep(parsed);
      }}
    >
      <label>
        from
        <input
          className="mono"
          value={draft.from}
          inputMode="decimal"
          data-testid="sweep-from"
          onChange={(e) => setDraft({ ...draft, from: e.target.value })}
        />
      </label>
      <label>
        to
        <input
          className="mono"
          value={draft.to}
          inputMode="decimal"
          data-testid="sweep-to"
          onChange={(e) => setDraft({ ...draft, to: e.target.value })}
        />
      </label>
      <label>
        values (at most {count(CVT_SWEEP_MAX_VALUES)})
        <input
          className="mono"
          value={draft.count}
          inputMode="numeric"
          data-testid="sweep-count"
          onChange={(e) => setDraft({ ...draft, count: e.target.value })}
        />
      </label>
      <button type="submit" disabled={invalid !== null} data-testid="sweep-run">
        Sweep
      </button>
      {invalid && (
        <span className="field-error" role="status">
          {invalid}
        </span>
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

function SweepResult({ sweep, form }: { sweep: CvtSweep; form: CvtForm }) {
  const dst = sweep.dest;
  const max = formatInfo(dst).maxNorm.value;
  const c = sweep.classes;
  return (
    <>
      <ul className="cvt-sweep-summary" data-testid="sweep-summary">
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
    </>
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
