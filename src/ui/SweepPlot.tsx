import { useRef } from 'react';
import type { Form } from '../catalog/instruction.ts';
import type { Sweep } from '../engine/analysis/index.ts';
import { useElementWidth } from './use-element-width.ts';

/** The drawing is as wide as its box (one unit a CSS pixel), so its labels keep their size. */
const MIN_W = 280;
const MAX_W = 900;
const H = 150;
const LEFT = 56;
const RIGHT = 8;
const TOP = 8;
const BOTTOM = 22;

const label = (x: number) => {
  if (x === 0) return '0';
  const abs = Math.abs(x);
  return abs >= 1e-3 && abs < 1e6 ? String(Number(x.toPrecision(4))) : x.toExponential(2);
};

/** One panel: per column the span from the least to the greatest value in it. */
function Panel({
  title,
  lo,
  hi,
  from,
  to,
  reference,
  testId,
  width: W,
}: {
  title: string;
  lo: Float64Array;
  hi: Float64Array;
  from: number;
  to: number;
  /** A line to compare with: y = x (the exact value), or y = 0 (no error). */
  reference: 'identity' | 'zero';
  testId: string;
  /** The drawing's width in CSS pixels. */
  width: number;
}) {
  let yMin = Infinity;
  let yMax = -Infinity;
  for (let i = 0; i < lo.length; i++) {
    if (lo[i]! < yMin) yMin = lo[i]!;
    if (hi[i]! > yMax) yMax = hi[i]!;
  }
  if (reference === 'identity') {
    yMin = Math.min(yMin, from);
    yMax = Math.max(yMax, to);
  }
  if (!(yMax > yMin)) {
    yMin = (Number.isFinite(yMin) ? yMin : 0) - 1;
    yMax = yMin + 2;
  }
  const n = lo.length;
  const x = (i: number) => LEFT + ((i + 0.5) / n) * (W - LEFT - RIGHT);
  const y = (v: number) => TOP + ((yMax - v) / (yMax - yMin)) * (H - TOP - BOTTOM);
  let d = '';
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(lo[i]!)) continue;
    const top = y(hi[i]!);
    // At least a pixel tall, so a column holding one value shows.
    const bottom = Math.max(y(lo[i]!), top + 1);
    d += `M${x(i).toFixed(1)} ${top.toFixed(1)}V${bottom.toFixed(1)}`;
  }
  const ref =
    reference === 'identity'
      ? `M${LEFT} ${y(from)}L${W - RIGHT} ${y(to)}`
      : `M${LEFT} ${y(0)}L${W - RIGHT} ${y(0)}`;
  return (
    <figure className="sweep-plot-panel">
      <figcaption>{title}</figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`${title}: from ${label(yMin)} to ${label(yMax)} over inputs ${label(from)} to ${label(to)}`}
        data-testid={testId}
      >
        <rect
          x={LEFT}
          y={TOP}
          width={W - LEFT - RIGHT}
          height={H - TOP - BOTTOM}
          className="frame"
        />
        {yMin < 0 && yMax > 0 && reference === 'identity' && (
          <path d={`M${LEFT} ${y(0)}H${W - RIGHT}`} className="axis" />
        )}
        <path d={ref} className="reference" />
        <path d={d} className="series" />
        <text x={LEFT - 4} y={TOP + 8} textAnchor="end">
          {label(yMax)}
        </text>
        <text x={LEFT - 4} y={H - BOTTOM} textAnchor="end">
          {label(yMin)}
        </text>
        <text x={LEFT} y={H - 6} textAnchor="start">
          {label(from)}
        </text>
        <text x={W - RIGHT} y={H - 6} textAnchor="end">
          {label(to)}
        </text>
      </svg>
    </figure>
  );
}

/**
 * A range sweep drawn: the result against the input (the staircase of the destination's values,
 * beside the line of the exact value) and the error, result minus the exact value. Each of the
 * 512 columns spans the least to the greatest value among the inputs that fall in it.
 */
export function SweepPlot({ sweep, form }: { sweep: Sweep; form: Form }) {
  const plot = sweep.plot!;
  const box = useRef<HTMLDivElement>(null);
  const measured = useElementWidth(box);
  const width = Math.min(MAX_W, Math.max(MIN_W, measured || 640));
  return (
    <div className="sweep-plot" data-testid="sweep-plot" ref={box}>
      <Panel
        title={`Result (.${sweep.dest}) against the input (.${sweep.source}); the line is the exact value`}
        lo={plot.resultMin}
        hi={plot.resultMax}
        from={plot.from}
        to={plot.to}
        reference="identity"
        testId="sweep-plot-result"
        width={width}
      />
      <Panel
        title={`Error of ${form.text}: result − exact value`}
        lo={plot.errorMin}
        hi={plot.errorMax}
        from={plot.from}
        to={plot.to}
        reference="zero"
        testId="sweep-plot-error"
        width={width}
      />
    </div>
  );
}
