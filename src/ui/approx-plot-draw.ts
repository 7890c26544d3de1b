import type { FormatName } from '../catalog/formats.ts';
import {
  powerOfTwoLabel,
  xTicks,
  type Column,
  type RankRange,
  type ValueOrder,
  type YScale,
} from './approx-plot-model.ts';

/**
 * Drawing the error plot on a 2D canvas context: column bars within and over the bound (with a
 * triangle over each column holding an input over it), the axes with their ticks, the bound
 * line, the current input per lane and the keyboard cursor.
 * Everything it draws comes from its arguments.
 */

export const PLOT_HEIGHT = 260;
/** Room around the plot area for the axis labels (CSS pixels). */
export const PLOT_MARGIN = { left: 52, right: 12, top: 12, bottom: 44 } as const;
/** Height of the grey strip under columns whose inputs are not scored. */
const UNSCORED_STRIP = 6;
/** Half the width of the triangle over a column with an input over the bound. */
const OVER_MARK = 4;

/** Colours of the plot, from the theme. */
export interface Palette {
  readonly fg: string;
  readonly muted: string;
  readonly border: string;
  readonly within: string;
  readonly over: string;
  readonly marker: string;
}

export interface PlotData {
  readonly columns: readonly Column[];
  readonly scale: YScale;
  readonly order: ValueOrder;
  readonly view: RankRange;
  readonly format: FormatName;
  /** The current input, per lane. */
  readonly inputs: readonly number[];
  /** The keyboard's column cursor, if any. */
  readonly cursor: number | null;
  readonly palette: Palette;
}

/** The plot area's width in CSS pixels (one column per pixel) for a canvas `cssWidth` wide. */
export function plotWidthFor(cssWidth: number): number {
  return Math.max(1, Math.floor(cssWidth - PLOT_MARGIN.left - PLOT_MARGIN.right));
}

/** The column under an x offset from the canvas's left edge (may be out of range). */
export function columnAt(offsetX: number): number {
  return Math.floor(offsetX - PLOT_MARGIN.left);
}

/**
 * Draw the plot on `ctx`, whose transform maps CSS pixels: `cssWidth` × PLOT_HEIGHT. One path
 * per series: column bars within the bound, their part over it, then axes and marks.
 */
export function drawErrorPlot(ctx: CanvasRenderingContext2D, cssWidth: number, d: PlotData): void {
  ctx.clearRect(0, 0, cssWidth, PLOT_HEIGHT);
  const plot = {
    width: d.columns.length,
    height: PLOT_HEIGHT - PLOT_MARGIN.top - PLOT_MARGIN.bottom,
    bottom: PLOT_HEIGHT - PLOT_MARGIN.bottom,
  };
  const yOf = (r: number) => plot.bottom - d.scale.position(r) * plot.height;
  drawColumns(ctx, d, plot.bottom, yOf);
  drawYAxis(ctx, d, plot.width, plot.bottom, yOf);
  drawXAxis(ctx, d, plot.width, plot.bottom);
  drawMarks(ctx, d, plot.width, plot.bottom);
}

type YOf = (ratio: number) => number;

function drawColumns(ctx: CanvasRenderingContext2D, d: PlotData, bottom: number, yOf: YOf) {
  const boundY = yOf(1);
  const within = new Path2D();
  const over = new Path2D();
  const unscored = new Path2D();
  // A column holding an input over the bound also gets a triangle on top: one input in a wide
  // view is a one-pixel bar, easy to miss.
  const overMarks = new Path2D();
  d.columns.forEach((c, i) => {
    const x = PLOT_MARGIN.left + i;
    if (c.unscored) unscored.rect(x, bottom - UNSCORED_STRIP, 1, UNSCORED_STRIP);
    if (Number.isNaN(c.worst)) return;
    const top = yOf(c.worst);
    within.rect(x, Math.max(top, boundY), 1, bottom - Math.max(top, boundY));
    if (c.worst > 1) {
      over.rect(x, top, 1, boundY - top);
      const tip = Math.min(top, boundY) - 2;
      overMarks.moveTo(x + 0.5, tip);
      overMarks.lineTo(x + 0.5 - OVER_MARK, tip - OVER_MARK * 1.6);
      overMarks.lineTo(x + 0.5 + OVER_MARK, tip - OVER_MARK * 1.6);
      overMarks.closePath();
    }
  });
  ctx.fillStyle = d.palette.within;
  ctx.fill(within);
  ctx.fillStyle = d.palette.over;
  ctx.fill(over);
  ctx.fill(overMarks);
  ctx.fillStyle = d.palette.muted;
  ctx.fill(unscored);
}

/** Axes, y ticks and the bound line. */
function drawYAxis(
  ctx: CanvasRenderingContext2D,
  d: PlotData,
  plotW: number,
  bottom: number,
  yOf: YOf,
) {
  const { palette: p, scale } = d;
  const left = PLOT_MARGIN.left;
  ctx.strokeStyle = p.border;
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(left - 0.5, PLOT_MARGIN.top);
  ctx.lineTo(left - 0.5, bottom + 0.5);
  ctx.lineTo(left + plotW, bottom + 0.5);
  ctx.stroke();
  ctx.font = '11px system-ui, sans-serif';
  ctx.fillStyle = p.muted;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const t of scale.ticks) {
    const y = Math.round(yOf(t)) + 0.5;
    const label = t === 1 ? '1×' : scale.kind === 'log2' ? powerOfTwoLabel(Math.log2(t)) : `${t}×`;
    ctx.fillText(label, left - 6, y);
  }
  const boundY = Math.round(yOf(1));
  ctx.strokeStyle = p.fg;
  ctx.setLineDash([6, 3]);
  ctx.beginPath();
  ctx.moveTo(left, boundY + 0.5);
  ctx.lineTo(left + plotW, boundY + 0.5);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.fillStyle = p.fg;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'bottom';
  ctx.fillText('bound', left + plotW, boundY - 2);
}

/** The x position of a value-order rank, or null when the view does not show it. */
function xOfRank(d: PlotData, plotW: number, rank: number | null): number | null {
  const { from, to } = d.view;
  if (rank === null || rank < from || rank >= to) return null;
  return PLOT_MARGIN.left + Math.floor(((rank - from) * plotW) / (to - from)) + 0.5;
}

/** x ticks at landmark values; lower-priority labels give way when crowded. */
function drawXAxis(ctx: CanvasRenderingContext2D, d: PlotData, plotW: number, bottom: number) {
  ctx.textBaseline = 'top';
  ctx.fillStyle = d.palette.muted;
  const taken: [number, number][] = [];
  for (const t of xTicks(d.format)) {
    const x = xOfRank(d, plotW, d.order.rankOf(t.bits));
    if (x === null) continue;
    const w = ctx.measureText(t.label).width;
    const left = Math.max(0, Math.min(x - w / 2, PLOT_MARGIN.left + plotW - w));
    if (taken.some(([a, b]) => left < b + 6 && left + w > a - 6)) continue;
    taken.push([left, left + w]);
    ctx.beginPath();
    ctx.moveTo(x, bottom);
    ctx.lineTo(x, bottom + 4);
    ctx.strokeStyle = d.palette.border;
    ctx.stroke();
    ctx.textAlign = 'left';
    ctx.fillText(t.label, left, bottom + 6);
  }
  ctx.textAlign = 'center';
  ctx.fillText('input value (value order)', PLOT_MARGIN.left + plotW / 2, bottom + 24);
}

/** The current input per lane (solid: lane 0, dashed: lane 1) and the keyboard cursor. */
function drawMarks(ctx: CanvasRenderingContext2D, d: PlotData, plotW: number, bottom: number) {
  const p = d.palette;
  ctx.strokeStyle = p.marker;
  ctx.fillStyle = p.marker;
  ctx.lineWidth = 2;
  d.inputs.forEach((bits, lane) => {
    const x = xOfRank(d, plotW, d.order.rankOf(bits));
    if (x === null) return;
    ctx.setLineDash(lane === 0 ? [] : [4, 3]);
    ctx.beginPath();
    ctx.moveTo(x, PLOT_MARGIN.top);
    ctx.lineTo(x, bottom);
    ctx.stroke();
    if (d.inputs.length === 2) {
      ctx.textAlign = x > PLOT_MARGIN.left + plotW - 24 ? 'right' : 'left';
      ctx.textBaseline = 'top';
      ctx.fillText(
        `L${lane}`,
        x + (ctx.textAlign === 'left' ? 3 : -3),
        PLOT_MARGIN.top + lane * 12,
      );
    }
  });
  ctx.setLineDash([]);
  if (d.cursor !== null) {
    const x = PLOT_MARGIN.left + d.cursor + 0.5;
    ctx.strokeStyle = p.fg;
    ctx.lineWidth = 1;
    ctx.setLineDash([2, 2]);
    ctx.beginPath();
    ctx.moveTo(x, PLOT_MARGIN.top);
    ctx.lineTo(x, bottom);
    ctx.stroke();
    ctx.setLineDash([]);
  }
}
