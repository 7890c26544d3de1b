// ApproxPlot — owned by the approx-plot helper; the UI helper leaves this file alone.
import { proxy } from 'comlink';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { laneFormat, type Form, type FormatName } from '../catalog/index.ts';
import {
  FORMATS,
  formatHex as upperHex,
  shortestDecimal,
  type ApproxStep,
} from '../engine/index.ts';
import { laneOf, withLane } from '../state/bit-view.ts';
import { engineClient as engine } from '../state/worker-client.ts';
import { useForm, useStore } from '../state/store.ts';
import type { ApproxSweep, SweepProgress } from '../worker/api.ts';
import {
  columnRanks,
  columnsOf,
  finiteValueOrder,
  shortNumber,
  summarize,
  valuesBetween,
  xTicks,
  yScaleFor,
  visibleErrorRange,
  powerOfTwoLabel,
  type Column,
  type RankRange,
  type ValueOrder,
  type YScale,
} from './approx-plot-model.ts';
import './approx-plot.css';

/**
 * The error of the approximate-op model over all 65,536 inputs, against the spec's bound, and
 * for the current input the set of results the bound allows. The sweep runs in the worker (with
 * progress and cancel); a finished sweep is kept per form, so reopening the tab is instant.
 */

/** A sweep chunk (4,096 inputs) takes well under a second; this long a silence means hung. */
const SWEEP_SILENCE_MS = 5000;
const SWEEP_CHANNEL = 'approx-sweep';
const LIST_LIMIT = 16;

/** Hex as the rest of the app writes it (0x3c00). */
const formatHex = (bits: number, width: number) => upperHex(bits, width).toLowerCase();

const finishedSweeps = new Map<string, ApproxSweep>();
let nextSweepId = 1;

type SweepState =
  | {
      readonly status: 'running';
      readonly id: number;
      readonly done: number;
      readonly total: number;
    }
  | { readonly status: 'done'; readonly sweep: ApproxSweep }
  | { readonly status: 'cancelled' }
  | { readonly status: 'error'; readonly message: string };

function useSweep(formText: string): {
  state: SweepState;
  cancel: () => void;
  restart: () => void;
} {
  const [state, setState] = useState<SweepState>(() => {
    const kept = finishedSweeps.get(formText);
    return kept ? { status: 'done', sweep: kept } : { status: 'running', id: 0, done: 0, total: 1 };
  });
  const [attempt, setAttempt] = useState(0);
  const running = useRef<number | null>(null);

  useEffect(() => {
    const kept = finishedSweeps.get(formText);
    if (kept) {
      setState({ status: 'done', sweep: kept });
      return;
    }
    const id = nextSweepId++;
    let live = true;
    running.current = id;
    setState({ status: 'running', id, done: 0, total: 65536 });
    const onProgress = (p: SweepProgress) => {
      engine.keepAlive(SWEEP_CHANNEL);
      // Progress messages can arrive after the answer itself: only a running sweep shows them.
      if (live && running.current === id)
        setState({ status: 'running', id, done: p.done, total: p.total });
    };
    void engine
      .request(
        SWEEP_CHANNEL,
        (api) => api.approxSweep(id, formText, proxy(onProgress)),
        SWEEP_SILENCE_MS,
      )
      .then((answer) => {
        if (running.current === id) running.current = null;
        if (!live || answer.status === 'superseded') return;
        if (answer.status === 'error') setState({ status: 'error', message: answer.message });
        else if (answer.value.cancelled) setState({ status: 'cancelled' });
        else {
          finishedSweeps.set(formText, answer.value);
          setState({ status: 'done', sweep: answer.value });
        }
      });
    return () => {
      // A new form (or leaving the tab) stops the old sweep in the worker.
      live = false;
      if (running.current === id) engine.notify((api) => api.cancelSweep(id));
    };
  }, [formText, attempt]);

  const cancel = useCallback(() => {
    const id = running.current;
    if (id !== null) engine.notify((api) => api.cancelSweep(id));
  }, []);
  const restart = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, cancel, restart };
}

export default function ApproxPlot() {
  const form = useForm();
  const { state, cancel, restart } = useSweep(form.text);
  const format = laneFormat(form.type);
  const bound = form.record.errorBounds?.find((b) => b.types.includes(form.type));
  const headingId = useId();
  return (
    <section className="approx-plot" aria-labelledby={headingId} data-testid="approx-plot">
      <h3 id={headingId}>Error of the model over every input</h3>
      {bound && (
        <p className="muted">
          Spec bound for {form.text}: {bound.kind} error at most 2<sup>{bound.log2}</sup> (≈{' '}
          {shortNumber(2 ** bound.log2)}). “{bound.text}”
        </p>
      )}
      {state.status === 'running' && (
        <div className="approx-progress">
          <label>
            Computing all 65,536 inputs in the worker…
            <progress max={state.total} value={state.done} data-testid="approx-progress" />
          </label>
          <span aria-hidden="true">{Math.round((100 * state.done) / state.total)} %</span>
          <button type="button" onClick={cancel} data-testid="approx-cancel">
            Cancel
          </button>
        </div>
      )}
      {state.status === 'cancelled' && (
        <p role="status" data-testid="approx-cancelled">
          Sweep cancelled.{' '}
          <button type="button" onClick={restart} data-testid="approx-restart">
            Compute the plot
          </button>
        </p>
      )}
      {state.status === 'error' && (
        <p className="notice warn" role="alert" data-testid="approx-error">
          The sweep failed: {state.message}.{' '}
          <button type="button" onClick={restart}>
            Try again
          </button>
        </p>
      )}
      {state.status === 'done' && <Plot sweep={state.sweep} form={form} format={format} />}
      <AllowedValues form={form} />
    </section>
  );
}

const PLOT_HEIGHT = 260;
/** Height of the grey strip under columns whose inputs are not scored. */
const UNSCORED_STRIP = 6;
const MARGIN = { left: 52, right: 12, top: 12, bottom: 44 } as const;

interface Palette {
  fg: string;
  muted: string;
  border: string;
  within: string;
  over: string;
  marker: string;
  panel: string;
}

function readPalette(el: Element): Palette {
  const css = getComputedStyle(el);
  const v = (name: string) => css.getPropertyValue(name).trim() || 'currentColor';
  return {
    fg: v('--fg'),
    muted: v('--muted'),
    border: v('--border'),
    within: v('--accent'),
    over: v('--bad'),
    marker: v('--focus'),
    panel: v('--panel'),
  };
}

/** Redraw when the theme changes, whether picked in the app or followed from the system. */
function useThemeVersion(): number {
  const theme = useStore((s) => s.theme);
  const [systemFlips, setSystemFlips] = useState(0);
  useEffect(() => {
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const flip = () => setSystemFlips((n) => n + 1);
    query.addEventListener('change', flip);
    return () => query.removeEventListener('change', flip);
  }, []);
  return useMemo(
    () => systemFlips * 3 + ['system', 'light', 'dark'].indexOf(theme),
    [theme, systemFlips],
  );
}

function useWidth(ref: React.RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

function Plot({ sweep, form, format }: { sweep: ApproxSweep; form: Form; format: FormatName }) {
  const frame = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const width = useWidth(frame);
  const themeVersion = useThemeVersion();
  const a = useStore((s) => s.operands.a);
  const setOperand = useStore((s) => s.setOperand);
  const lanes = form.operands.find((o) => o.name === 'a')?.lanes === 2 ? 2 : 1;
  const inputs = useMemo(
    () => Array.from({ length: lanes }, (_, i) => laneOf(a, lanes, i)),
    [a, lanes],
  );
  const order = useMemo(() => finiteValueOrder(FORMATS[format]), [format]);
  const summary = useMemo(() => summarize(sweep.ratio, sweep.unscored), [sweep]);
  const scale = useMemo(() => yScaleFor(sweep.worst.ratio), [sweep]);
  const plotWidth = Math.max(1, Math.floor(width - MARGIN.left - MARGIN.right));
  const [zoomed, setZoomed] = useState(true);
  const visible = useMemo(() => visibleErrorRange(sweep.ratio, order), [sweep, order]);
  const view = useMemo(
    () => (zoomed ? visible : { from: 0, to: order.count }),
    [zoomed, visible, order],
  );
  const columns = useMemo(
    () => columnsOf(sweep.ratio, order, plotWidth, view, sweep.unscored),
    [sweep, order, plotWidth, view],
  );
  const [cursor, setCursor] = useState<number | null>(null);
  const at = cursor === null ? null : Math.min(cursor, columns.length - 1);
  const summaryId = useId();
  const theme = useStore((s) => s.theme);
  // How long the last draw took, and under which theme (read by the e2e test).
  const [drawn, setDrawn] = useState<{ ms: number; theme: string } | null>(null);

  useEffect(() => {
    const el = canvas.current;
    if (!el || width === 0) return;
    const started = performance.now();
    draw(el, width, {
      columns,
      scale,
      order,
      view,
      format,
      inputs,
      lanes,
      cursor: at,
      palette: readPalette(el),
    });
    setDrawn({ ms: performance.now() - started, theme });
  }, [columns, scale, order, view, format, inputs, lanes, width, themeVersion, theme, at]);

  // Clicking a column loads its worst input into operand a (lane 0 of an x2 register); from the
  // keyboard, arrows move a column cursor and Enter loads its worst input.
  const loadColumn = (c: number) => {
    const column = columns[c];
    if (column && !Number.isNaN(column.worst))
      setOperand('a', withLane(a, lanes, 0, column.worstInput));
  };
  const onClick = (e: React.MouseEvent<HTMLCanvasElement>) => {
    const x = e.clientX - e.currentTarget.getBoundingClientRect().left - MARGIN.left;
    setCursor(null);
    loadColumn(Math.floor(x));
  };
  const onKeyDown = (e: React.KeyboardEvent<HTMLCanvasElement>) => {
    const last = columns.length - 1;
    const now = at ?? 0;
    const step = e.shiftKey ? 10 : 1;
    const moves: Record<string, number> = {
      ArrowLeft: now - step,
      ArrowRight: now + step,
      Home: 0,
      End: last,
    };
    if (e.key in moves) {
      e.preventDefault();
      setCursor(Math.max(0, Math.min(last, moves[e.key]!)));
    } else if ((e.key === 'Enter' || e.key === ' ') && at !== null) {
      e.preventDefault();
      loadColumn(at);
    }
  };
  const cursorText = at === null ? null : describeColumn(at);
  function describeColumn(c: number): string {
    const { from, to } = columnRanks(c, columns.length, view);
    const lo = shortestDecimal(order.bitsAt(from), FORMATS[format]);
    const hi = shortestDecimal(order.bitsAt(to - 1), FORMATS[format]);
    const column = columns[c]!;
    const range = from === to - 1 ? `input ${lo}` : `inputs ${lo} … ${hi}`;
    if (Number.isNaN(column.worst))
      return `Column ${c + 1} of ${columns.length}: ${range}; ${column.unscored ? 'not scored' : 'nothing plotted'}.`;
    return `Column ${c + 1} of ${columns.length}: ${range}; largest error ${column.worst.toPrecision(3)} × the bound, at ${formatHex(column.worstInput, 16)}. Enter loads it into a.`;
  }
  const f = FORMATS[format];
  const worstHex = formatHex(sweep.worst.input, 16);
  const unit = sweep.boundKind === 'absolute' ? 'absolute' : 'relative';
  return (
    <>
      <div className="approx-frame" ref={frame}>
        <canvas
          ref={canvas}
          role="slider"
          tabIndex={0}
          aria-label={`Error of ${form.text} over all finite inputs, in units of the spec bound: a column cursor (arrow keys; Enter loads the column's worst input)`}
          aria-describedby={summaryId}
          aria-valuemin={1}
          aria-valuemax={columns.length}
          aria-valuenow={(at ?? 0) + 1}
          aria-valuetext={cursorText ?? 'no column chosen; press an arrow key'}
          onClick={onClick}
          onKeyDown={onKeyDown}
          data-testid="approx-canvas"
          data-draw-ms={drawn?.ms.toFixed(2)}
          data-theme-drawn={drawn?.theme}
        />
      </div>
      {cursorText && (
        <p className="muted approx-cursor" data-testid="approx-cursor">
          {cursorText}
        </p>
      )}
      <ul className="approx-legend" aria-label="Legend">
        <li>
          <span className="swatch within" aria-hidden="true" /> error within the bound (column
          maximum)
        </li>
        <li>
          <span className="swatch over" aria-hidden="true" /> error over the bound
        </li>
        <li>
          <span className="swatch bound" aria-hidden="true" /> the bound (1×)
        </li>
        {summary.unscored > 0 && (
          <li>
            <span className="swatch unscored" aria-hidden="true" /> exact value below the smallest
            normal: not scored
          </li>
        )}
        <li>
          <span className="swatch marker" aria-hidden="true" /> current input
          {lanes === 2 ? ' (L0, L1 per lane)' : ''}
        </li>
      </ul>
      <label className="approx-zoom">
        <input
          type="checkbox"
          checked={zoomed}
          onChange={(e) => setZoomed(e.target.checked)}
          data-testid="approx-zoom"
        />
        Zoom to the inputs whose error shows (at least 1/64 of the bound: from{' '}
        {shortestDecimal(order.bitsAt(visible.from), f)} to{' '}
        {shortestDecimal(order.bitsAt(visible.to - 1), f)})
      </label>
      <p className="muted approx-axes">
        x: {zoomed ? 'the' : 'every'} finite {format} input
        {zoomed ? 's whose error shows' : ''} in value order (−max … −0, +0 … +max; spacing follows
        the format, so it is logarithmic away from 0). y: {unit} error ÷ bound
        {scale.kind === 'log2' ? ', on a log₂ scale' : ''}. Click a column (or focus the plot: arrow
        keys, then Enter) to load its worst input.
      </p>
      <p id={summaryId} data-testid="approx-summary" role="status">
        Largest {unit} error: {sweep.worst.ratio.toPrecision(3)} × the bound (2
        <sup>{sweep.boundLog2}</sup>), at input {worstHex} ({shortestDecimal(sweep.worst.input, f)}
        ). {summary.withinBound.toLocaleString('en-US')} of{' '}
        {summary.plotted.toLocaleString('en-US')} plotted inputs are within the bound
        {summary.overBound > 0
          ? `; ${summary.overBound.toLocaleString('en-US')} exceed it`
          : ''}. {(65536 - summary.plotted - summary.unscored).toLocaleString('en-US')} inputs with
        a non-finite input, exact value or result are not plotted.
      </p>
      {summary.unscored > 0 && (
        <p className="note" data-testid="approx-unscored">
          {summary.unscored.toLocaleString('en-US')} inputs are not scored: their exact{' '}
          {form.opcode}
          (x) is below the smallest normal {format} ({shortestDecimal(2 ** f.manBits, f)}). A
          relative bound speaks of normal results — a subnormal has fewer significant bits than 2
          <sup>{sweep.boundLog2}</sup> asks for, so mostly no {format} value meets it there
          {form.modifiers.includes('ftz')
            ? ', and .ftz flushes such results to zero, as the spec says'
            : ''}
          . The model returns the correctly rounded
          {form.modifiers.includes('ftz') ? ' (flushed)' : ''} value.
        </p>
      )}
      <p>
        <button
          type="button"
          onClick={() => setOperand('a', withLane(a, lanes, 0, sweep.worst.input))}
          data-testid="approx-load-worst"
        >
          Load the worst input ({worstHex}) into a
        </button>
      </p>
    </>
  );
}

interface DrawData {
  columns: readonly Column[];
  scale: YScale;
  order: ValueOrder;
  view: RankRange;
  format: FormatName;
  inputs: readonly number[];
  lanes: number;
  /** The keyboard's column cursor, if any. */
  cursor: number | null;
  palette: Palette;
}

/** One path per series: column bars within the bound, their part over it, then axes and marks. */
function draw(el: HTMLCanvasElement, cssWidth: number, d: DrawData): void {
  const ratio = window.devicePixelRatio || 1;
  el.width = Math.round(cssWidth * ratio);
  el.height = Math.round(PLOT_HEIGHT * ratio);
  el.style.width = `${cssWidth}px`;
  el.style.height = `${PLOT_HEIGHT}px`;
  const ctx = el.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, cssWidth, PLOT_HEIGHT);
  const { palette: p, scale } = d;
  const plotW = d.columns.length;
  const plotH = PLOT_HEIGHT - MARGIN.top - MARGIN.bottom;
  const bottom = MARGIN.top + plotH;
  const yOf = (r: number) => bottom - scale.position(r) * plotH;
  const boundY = yOf(1);

  const within = new Path2D();
  const over = new Path2D();
  const unscored = new Path2D();
  d.columns.forEach((c, i) => {
    if (c.unscored) unscored.rect(MARGIN.left + i, bottom - UNSCORED_STRIP, 1, UNSCORED_STRIP);
    if (Number.isNaN(c.worst)) return;
    const x = MARGIN.left + i;
    const top = yOf(c.worst);
    within.rect(x, Math.max(top, boundY), 1, bottom - Math.max(top, boundY));
    if (c.worst > 1) over.rect(x, top, 1, boundY - top);
  });
  ctx.fillStyle = p.within;
  ctx.fill(within);
  ctx.fillStyle = p.over;
  ctx.fill(over);
  ctx.fillStyle = p.muted;
  ctx.fill(unscored);

  // Axes, y ticks and the bound line.
  ctx.strokeStyle = p.border;
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(MARGIN.left - 0.5, MARGIN.top);
  ctx.lineTo(MARGIN.left - 0.5, bottom + 0.5);
  ctx.lineTo(MARGIN.left + plotW, bottom + 0.5);
  ctx.stroke();
  ctx.font = '11px system-ui, sans-serif';
  ctx.fillStyle = p.muted;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const t of scale.ticks) {
    const y = Math.round(yOf(t)) + 0.5;
    const label = t === 1 ? '1×' : scale.kind === 'log2' ? powerOfTwoLabel(Math.log2(t)) : `${t}×`;
    ctx.fillText(label, MARGIN.left - 6, y);
  }
  ctx.strokeStyle = p.fg;
  ctx.setLineDash([6, 3]);
  ctx.beginPath();
  ctx.moveTo(MARGIN.left, Math.round(boundY) + 0.5);
  ctx.lineTo(MARGIN.left + plotW, Math.round(boundY) + 0.5);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.fillStyle = p.fg;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'bottom';
  ctx.fillText('bound', MARGIN.left + plotW, Math.round(boundY) - 2);

  // x ticks at landmark values; lower-priority labels give way when crowded.
  const { from, to } = d.view;
  const inView = (rank: number | null): rank is number =>
    rank !== null && rank >= from && rank < to;
  const xOfRank = (rank: number) =>
    MARGIN.left + Math.floor(((rank - from) * plotW) / (to - from)) + 0.5;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  ctx.fillStyle = p.muted;
  const taken: [number, number][] = [];
  for (const t of xTicks(d.format)) {
    const rank = d.order.rankOf(t.bits);
    if (!inView(rank)) continue;
    const x = xOfRank(rank);
    const w = ctx.measureText(t.label).width;
    const left = Math.max(0, Math.min(x - w / 2, MARGIN.left + plotW - w));
    if (taken.some(([a, b]) => left < b + 6 && left + w > a - 6)) continue;
    taken.push([left, left + w]);
    ctx.beginPath();
    ctx.moveTo(x, bottom);
    ctx.lineTo(x, bottom + 4);
    ctx.strokeStyle = p.border;
    ctx.stroke();
    ctx.textAlign = 'left';
    ctx.fillText(t.label, left, bottom + 6);
  }
  ctx.textAlign = 'center';
  ctx.fillText('input value (value order)', MARGIN.left + plotW / 2, bottom + 24);

  // The current input, per lane.
  ctx.strokeStyle = p.marker;
  ctx.fillStyle = p.marker;
  ctx.lineWidth = 2;
  d.inputs.forEach((bits, lane) => {
    const rank = d.order.rankOf(bits);
    if (!inView(rank)) return;
    const x = xOfRank(rank);
    ctx.setLineDash(lane === 0 ? [] : [4, 3]);
    ctx.beginPath();
    ctx.moveTo(x, MARGIN.top);
    ctx.lineTo(x, bottom);
    ctx.stroke();
    if (d.lanes === 2) {
      ctx.textAlign = x > MARGIN.left + plotW - 24 ? 'right' : 'left';
      ctx.textBaseline = 'top';
      ctx.fillText(`L${lane}`, x + (ctx.textAlign === 'left' ? 3 : -3), MARGIN.top + lane * 12);
    }
  });
  ctx.setLineDash([]);
  if (d.cursor !== null) {
    const x = MARGIN.left + d.cursor + 0.5;
    ctx.strokeStyle = p.fg;
    ctx.lineWidth = 1;
    ctx.setLineDash([2, 2]);
    ctx.beginPath();
    ctx.moveTo(x, MARGIN.top);
    ctx.lineTo(x, bottom);
    ctx.stroke();
    ctx.setLineDash([]);
  }
}

/** For the current input (each lane): every result the bound allows, the model's, the exact. */
function AllowedValues({ form }: { form: Form }) {
  const result = useStore((s) => s.result);
  if (!result || result.form !== form.text) return null;
  const lanes = result.lanes.length;
  return (
    <div className="approx-allowed" data-testid="approx-allowed">
      <h4>What the spec allows for the current input</h4>
      {result.lanes.map((lane) => {
        const step = lane.steps.find((s) => s.kind === 'approx');
        const label = lanes === 2 ? `Lane ${lane.lane}: ` : '';
        if (step?.kind !== 'approx') {
          return (
            <p key={lane.lane} data-testid={`approx-allowed-lane-${lane.lane}`}>
              {label}the spec fixes this input’s result (a corner-case table or a flushed input):{' '}
              <code>{formatHex(lane.result, 16)}</code> (
              {shortestDecimal(lane.result, FORMATS[laneFormat(form.type)])}). No approximation is
              involved.
            </p>
          );
        }
        return <LaneAllowed key={lane.lane} step={step} label={label} lane={lane.lane} />;
      })}
    </div>
  );
}

function LaneAllowed({ step, label, lane }: { step: ApproxStep; label: string; lane: number }) {
  const f = FORMATS[step.format];
  const value = (bits: number) => (
    <>
      <code>{formatHex(bits, f.width)}</code> ({shortestDecimal(bits, f)})
    </>
  );
  const { lowest, highest, count } = step.allowed;
  return (
    <div className="approx-lane" data-testid={`approx-allowed-lane-${lane}`}>
      <p>
        {label}input {value(step.input)}; exact {step.fn}(x) ≈ <code>{step.mathValue}</code>; the
        model returns {value(step.result)} (
        {step.model === 'measured'
          ? `measured on ${step.measuredOn ?? 'hardware'}`
          : 'the correctly rounded value'}
        ).
      </p>
      {count === 0 ? (
        <p data-testid="approx-allowed-none">
          No {step.format} value is within {step.bound.kind} error 2<sup>{step.bound.log2}</sup> of
          the exact value (<strong data-testid="approx-allowed-count">0</strong> values): it lies
          below the smallest normal, where {step.format} has fewer significant bits than the bound
          asks for. The spec&apos;s bound cannot hold here, so the plot does not score this input.
        </p>
      ) : (
        <p>
          {count === 1 ? 'Only' : 'Hardware may return any of these'}{' '}
          <strong data-testid="approx-allowed-count">{count}</strong>{' '}
          {count === 1 ? 'value is' : 'values,'} within {step.bound.kind} error 2
          <sup>{step.bound.log2}</sup>
          {step.allowed.overflows ? ' (the infinity too: the exact value overflows)' : ''}
          {count === 1 ? ': hardware must return it' : ''}
          {count > LIST_LIMIT ? ':' : ''}
          {count > LIST_LIMIT && (
            <>
              {' '}
              from {value(lowest)} to {value(highest)}.
            </>
          )}
        </p>
      )}
      {count > 0 && count <= LIST_LIMIT && (
        <ul className="approx-values" aria-label={`${label}allowed values`}>
          {valuesBetween(lowest, count, step.format).map((bits) => (
            <li key={bits} className={bits === step.result ? 'model' : undefined}>
              {value(bits)}
              {bits === step.result && <strong> ← model</strong>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
