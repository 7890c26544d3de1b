import { useEffect, useId, useMemo, useState } from 'react';
import type { Form } from '../catalog/instruction.ts';
import {
  SWEEP_MAX_VALUES,
  sweepProblem,
  sweptSource,
  type Sweep,
  type SweepInputs,
} from '../engine/analysis/index.ts';
import { FORMATS, hexOf, maxNormBits, toDouble } from '../engine/format.ts';
import { sweepProblemWords } from '../present/sweep-problem-words.ts';
import { useMeasured, type MeasuredState } from '../state/measured-tables.ts';
import type { SweepRange } from '../state/panel-state.ts';
import { defaultSweepRange, rangeSource, readSweepBound } from '../state/panel-url.ts';
import { useStore } from '../state/store.ts';
import { useForm } from '../state/form.ts';
import type { SweepRequest } from '../worker/api.ts';
import { AllowedValues } from './ApproxAllowed.tsx';
import { ErrorPlot, isBounded } from './ErrorPlot.tsx';
import { SweepPlot } from './SweepPlot.tsx';
import { SweepProgress } from './SweepProgress.tsx';
import { useSweep, type SweepControl } from './use-sweep.ts';
import './approx-plot.css';
import './corner-cases.css';
import './sweep.css';

const count = (n: number) => n.toLocaleString('en-US');

/** A number as it reads in the summary: up to 6 significant digits. */
function short(x: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'NaN' : x > 0 ? '+inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const abs = Math.abs(x);
  return abs >= 1e-4 && abs < 1e7 ? String(Number(x.toPrecision(6))) : x.toExponential(4);
}

/**
 * The current form over many inputs at once, in the worker with progress, for every form whose
 * elements take one input (cvt, tanh, ex2, neg, abs): every pattern of a source of 16 bits or
 * fewer (all 65,536 .f16 values), or up to a million .f32/.f64 values between two bounds. For an
 * approximation (tanh, ex2) it is the error plot: the error of every input against the spec's
 * bound — of the results measured on a GPU where the target has them, else of the model's — and
 * for the current input the set of results the bound allows. For the others: where the inputs
 * go (for each destination value, the inputs that became it), how many saturated, overflowed or
 * became zero, the largest error, and for a range a plot of result and error against the input.
 */
export default function SweepPanel() {
  const form = useForm();
  return <SweepOf key={form.text} form={form} />;
}

function SweepOf({ form }: { form: Form }) {
  const element = form.elements[0]!;
  const src = sweptSource(form);
  const patterns = FORMATS[src].width <= 16;
  const rbits = useStore((s) => s.registers.rbits);
  const usesRbits = form.registers.some((r) => r.name === 'rbits');
  const target = useStore((s) => s.target);
  const measured = useMeasured(target, form);
  // The range swept: the one the person ran (or a link gave: panel-url.ts), else the default.
  const storedRange = useStore((s) => s.sweepRange);
  const setSweepRange = useStore((s) => s.setSweepRange);
  const source = rangeSource(form);
  const defaultRange = useMemo(() => defaultSweepRange(form), [form]);
  const range = storedRange ?? defaultRange;
  const inputs: SweepInputs = patterns ? { kind: 'every-pattern' } : { kind: 'range', ...range };
  const problem = sweepProblem(form, inputs);
  // An approximation on a measured target waits for the GPU's tables, then sweeps with them.
  const waiting = measured.status === 'loading';
  const tables = measured.status === 'ready' ? measured.set.tables : undefined;
  const request: SweepRequest | null =
    problem || waiting
      ? null
      : {
          form: form.text,
          inputs,
          ...(usesRbits ? { rbits: hexOf(rbits, 32) } : {}),
          ...(tables ? { approxTables: tables } : {}),
        };
  const key = request
    ? JSON.stringify([request.form, inputs, request.rbits ?? null, tables ? target : null])
    : null;
  const sweep = useSweep(request, key);
  const headingId = useId();
  // The fields no longer say the range of the result shown (edited, or in error).
  const [stale, setStale] = useState(false);
  const bounded = form.errorBound !== undefined;
  const verb = form.operation === 'convert' ? 'converted' : 'evaluated';
  return (
    <section className="sweep" aria-labelledby={headingId} data-testid="sweep">
      <h3 id={headingId}>Every input at once</h3>
      <p className="muted">
        Element 0 of <code>{form.text}</code> ({element.inputs[0]!.operand} → d[
        {element.dest.slot.hi}:{element.dest.slot.lo}]) over{' '}
        {patterns
          ? `every .${src} pattern (${count(2 ** FORMATS[src].width)})`
          : `evenly spaced .${src} values`}
        , on the engine&apos;s fast path in the worker
        {usesRbits ? `, with the random bits of rbits (${hexOf(rbits, 32)})` : ''}.
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
          {sweepProblemWords(problem)}
        </p>
      )}
      <SweepStatus {...sweep} verb={verb} />
      {sweep.state.status === 'done' && stale && (
        <p className="note" role="status" data-testid="sweep-stale">
          The result below is for the range swept last, {range.from} to {range.to} (
          {count(range.count)} values): the fields above say otherwise until you press Sweep.
        </p>
      )}
      {bounded ? (
        <ApproxSection
          form={form}
          sweep={sweep.state.status === 'done' ? sweep.state.sweep : null}
          measured={measured}
          target={target}
        />
      ) : (
        sweep.state.status === 'done' && (
          <SweepResult sweep={sweep.state.sweep} form={form} stale={stale} />
        )
      )}
    </section>
  );
}

/** An approximation's sweep: the error against the spec's bound, and the current input's allowed set. */
function ApproxSection({
  form,
  sweep,
  measured,
  target,
}: {
  form: Form;
  sweep: Sweep | null;
  measured: MeasuredState;
  target: string;
}) {
  const bound = form.errorBound!;
  const headingId = useId();
  const format = form.elements[0]!.dest.format;
  const ready = measured.status === 'ready' ? measured.set : null;
  return (
    <section className="approx-plot" aria-labelledby={headingId} data-testid="approx-plot">
      <h3 id={headingId}>
        {ready ? `Error of the ${ready.device}'s results` : 'Error of the model'} over every input
      </h3>
      <p className="muted">
        Spec bound for {form.text}: {bound.kind} error at most 2<sup>{bound.log2}</sup> (≈{' '}
        {short(2 ** bound.log2)}). “{bound.text}”
      </p>
      <MeasuredStatus state={measured} target={target} />
      {sweep && isBounded(sweep) && (
        <ErrorPlot
          sweep={sweep}
          form={form}
          format={format}
          measured={ready ? { device: ready.device, measuredOn: ready.measuredOn } : null}
        />
      )}
      <AllowedValues form={form} />
    </section>
  );
}

/** Where the measured tables are being fetched, or could not be. */
function MeasuredStatus({ state, target }: { state: MeasuredState; target: string }) {
  if (state.status === 'loading')
    return (
      <p role="status" className="muted" data-testid="measured-loading">
        Loading the results measured for {target}…
      </p>
    );
  if (state.status === 'error')
    return (
      <p className="notice warn" role="alert" data-testid="measured-error">
        The results measured for {target} could not be loaded ({state.message}); the plot and the
        result show the model.
      </p>
    );
  return null;
}

type RangeDraft = Readonly<Record<'from' | 'to' | 'count', string>>;

const draftOf = (r: SweepRange): RangeDraft => ({
  from: Object.is(r.from, -0) ? '-0' : String(r.from),
  to: Object.is(r.to, -0) ? '-0' : String(r.to),
  count: String(r.count),
});

/**
 * The fields' range, or the first thing wrong with it, each bound read by the one rule
 * (readSweepBound: `0x…`/`0b…` are the source format's bits), and what a bound given as bits
 * is.
 */
function readDraft(
  form: Form,
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
    const bound = readSweepBound(draft[key], source);
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
  const problem = sweepProblem(form, { kind: 'range', ...range });
  return problem
    ? { range: null, problem: sweepProblemWords(problem), notes }
    : { range, problem: null, notes };
}

function RangeForm({
  form,
  source,
  value,
  onSweep,
  onStale,
}: {
  form: Form;
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
      className="sweep-range"
      onSubmit={(e) => {
        e.preventDefault();
        if (range) onSweep(range);
      }}
    >
      {field('from', 'from', 'decimal')}
      {field('to', 'to', 'decimal')}
      {field('count', `values (at most ${count(SWEEP_MAX_VALUES)})`, 'numeric')}
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

function SweepStatus({ state, cancel, restart, verb }: SweepControl & { verb: string }) {
  switch (state.status) {
    case 'idle':
      return null;
    case 'running':
      return (
        <SweepProgress
          label="Sweeping in the worker…"
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
          <button type="button" onClick={restart} data-testid="sweep-restart">
            Sweep again
          </button>
        </p>
      );
    case 'error':
      return (
        <p className="notice warn" role="alert" data-testid="sweep-error">
          The sweep failed: {state.message}.{' '}
          <button type="button" onClick={restart}>
            Try again
          </button>
        </p>
      );
    case 'done':
      return state.ms === null ? null : (
        <p className="muted" role="status" data-testid="sweep-time">
          {count(state.sweep.count)} inputs {verb} in {Math.round(state.ms)} ms (in the worker,
          progress included).
        </p>
      );
  }
}

function SweepResult({ sweep, form, stale }: { sweep: Sweep; form: Form; stale: boolean }) {
  const dst = FORMATS[sweep.dest];
  const max = short(toDouble(maxNormBits(dst), dst));
  const c = sweep.classes;
  return (
    <div className={`sweep-result${stale ? ' stale' : ''}`}>
      <ul
        className="sweep-summary"
        data-testid="sweep-summary"
        data-stale={stale ? 'true' : undefined}
      >
        <li>
          <strong>{count(sweep.exact)}</strong>{' '}
          {form.operation === 'convert' ? 'converted' : 'computed'} exactly (the value is one of .
          {sweep.dest}&apos;s)
        </li>
        {sweep.saturated > 0 && (
          <li>
            <strong>{count(sweep.saturated)}</strong> past MAX_NORM ({max}) became ±MAX_NORM
          </li>
        )}
        {sweep.overflowed > 0 && (
          <li>
            <strong>{count(sweep.overflowed)}</strong> finite inputs became{' '}
            {dst.hasInfinity ? 'infinite' : 'NaN'}
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
      {sweep.plot && <SweepPlot sweep={sweep} form={form} />}
      {sweep.buckets && <Buckets sweep={sweep} />}
    </div>
  );
}

const PAGE = 64;

/** Where the inputs go: per destination value, how many inputs became it and from where to where. */
function Buckets({ sweep }: { sweep: Sweep }) {
  const [shown, setShown] = useState(PAGE);
  const buckets = sweep.buckets!;
  const rows = useMemo(() => buckets.slice(0, shown), [buckets, shown]);
  return (
    <div className="cc-scroll" role="region" aria-label="Where the inputs go" tabIndex={0}>
      <table className="cc-table sweep-buckets" data-testid="sweep-buckets">
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
                <code>{b.bits}</code>
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
