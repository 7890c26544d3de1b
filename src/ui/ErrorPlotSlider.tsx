import { useEffect, useMemo, useRef, useState } from 'react';
import type { FormatName } from '../catalog/formats.ts';
import { FORMATS, hexOf } from '../engine/format.ts';
import { shortestDecimal } from '../engine/stored-value.ts';
import { useStore } from '../state/store.ts';
import {
  columnAt,
  drawErrorPlot,
  plotWidthFor,
  PLOT_HEIGHT,
  type Palette,
} from './approx-plot-draw.ts';
import {
  columnRanks,
  columnsOf,
  cursorAfterKey,
  type Column,
  type RankRange,
  type ValueOrder,
  type YScale,
} from './approx-plot-model.ts';
import { useElementWidth } from './use-element-width.ts';

/**
 * The error plot as a keyboard slider over its pixel columns: arrows move a column cursor
 * (Shift: ten columns), Home/End jump to the ends, Enter or Space loads the column's worst input;
 * a click loads the worst input of the column under the pointer. The cursor's column is also
 * described in words below the plot.
 */

export interface ErrorPlotSliderProps {
  readonly ratio: ArrayLike<number>;
  readonly unscored: ArrayLike<number>;
  readonly order: ValueOrder;
  readonly view: RankRange;
  readonly scale: YScale;
  readonly format: FormatName;
  /** The current input, per lane. */
  readonly inputs: readonly number[];
  readonly label: string;
  /** Id of the element that summarises the plot. */
  readonly describedBy: string;
  /** Load an input (a column's worst) into the editors. */
  readonly onLoad: (bits: number) => void;
}

export function ErrorPlotSlider(props: ErrorPlotSliderProps) {
  const { ratio, unscored, order, view, scale, format, inputs } = props;
  const frame = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const width = useElementWidth(frame);
  const themeVersion = useThemeVersion();
  const theme = useStore((s) => s.theme);
  const columns = useMemo(
    () => columnsOf(ratio, order, plotWidthFor(width), view, unscored),
    [ratio, unscored, order, width, view],
  );
  const [cursor, setCursor] = useState<number | null>(null);
  const at = cursor === null ? null : Math.min(cursor, columns.length - 1);
  // How long the last draw took, and under which theme (read by the e2e test).
  const [drawn, setDrawn] = useState<{ ms: number; theme: string } | null>(null);

  useEffect(() => {
    const el = canvas.current;
    if (!el || width === 0) return;
    const started = performance.now();
    const ctx = sizeCanvas(el, width, PLOT_HEIGHT);
    if (!ctx) return;
    drawErrorPlot(ctx, width, {
      columns,
      scale,
      order,
      view,
      format,
      inputs,
      cursor: at,
      palette: readPalette(el),
    });
    setDrawn({ ms: performance.now() - started, theme });
  }, [columns, scale, order, view, format, inputs, width, themeVersion, theme, at]);

  const loadColumn = (c: number) => {
    const column = columns[c];
    if (column && !Number.isNaN(column.worst)) props.onLoad(column.worstInput);
  };
  const onKeyDown = (e: React.KeyboardEvent<HTMLCanvasElement>) => {
    const to = cursorAfterKey(e.key, e.shiftKey, at, columns.length - 1);
    if (to !== null) {
      e.preventDefault();
      setCursor(to);
    } else if ((e.key === 'Enter' || e.key === ' ') && at !== null) {
      e.preventDefault();
      loadColumn(at);
    }
  };
  const cursorText = at === null ? null : describeColumn(at, columns, view, order, format);
  return (
    <>
      <div className="approx-frame" ref={frame}>
        <canvas
          ref={canvas}
          role="slider"
          tabIndex={0}
          aria-label={props.label}
          aria-describedby={props.describedBy}
          aria-valuemin={1}
          aria-valuemax={columns.length}
          aria-valuenow={(at ?? 0) + 1}
          aria-valuetext={cursorText ?? 'no column chosen; press an arrow key'}
          onClick={(e) => {
            setCursor(null);
            loadColumn(columnAt(e.clientX - e.currentTarget.getBoundingClientRect().left));
          }}
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
    </>
  );
}

function describeColumn(
  c: number,
  columns: readonly Column[],
  view: RankRange,
  order: ValueOrder,
  format: FormatName,
): string {
  const { from, to } = columnRanks(c, columns.length, view);
  const lo = shortestDecimal(BigInt(order.bitsAt(from)), FORMATS[format]);
  const hi = shortestDecimal(BigInt(order.bitsAt(to - 1)), FORMATS[format]);
  const column = columns[c]!;
  const where = `Column ${c + 1} of ${columns.length}: ${from === to - 1 ? `input ${lo}` : `inputs ${lo} … ${hi}`}`;
  if (Number.isNaN(column.worst))
    return `${where}; ${column.unscored ? 'not scored' : 'nothing plotted'}.`;
  return `${where}; largest error ${column.worst.toPrecision(3)} × the bound, at ${hexOf(BigInt(column.worstInput), 16)}. Enter loads it into a.`;
}

/** Size the canvas for `cssWidth` × `cssHeight` CSS pixels at the device's pixel ratio. */
function sizeCanvas(
  el: HTMLCanvasElement,
  cssWidth: number,
  cssHeight: number,
): CanvasRenderingContext2D | null {
  const ratio = window.devicePixelRatio || 1;
  el.width = Math.round(cssWidth * ratio);
  el.height = Math.round(cssHeight * ratio);
  el.style.width = `${cssWidth}px`;
  el.style.height = `${cssHeight}px`;
  const ctx = el.getContext('2d');
  ctx?.setTransform(ratio, 0, 0, ratio, 0, 0);
  return ctx;
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
