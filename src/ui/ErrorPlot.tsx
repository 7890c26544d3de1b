import { useId, useMemo, useState } from 'react';
import type { FormatName } from '../catalog/formats.ts';
import type { Form } from '../catalog/instruction.ts';
import type { Sweep } from '../engine/analysis/index.ts';
import { registerHolding } from '../engine/analysis/form-registers.ts';
import { FORMATS, hexOf } from '../engine/format.ts';
import { registerPlaces } from '../engine/register-text.ts';
import { shortestDecimal } from '../engine/stored-value.ts';
import { bitsAt } from '../state/registers.ts';
import { useStore } from '../state/store.ts';
import {
  finiteValueOrder,
  inputsOverBound,
  summarize,
  visibleErrorRange,
  yScaleFor,
} from './approx-plot-model.ts';
import { ErrorPlotSlider } from './ErrorPlotSlider.tsx';

/** Whose results a plot shows when they are a GPU's measured ones rather than the model's. */
export interface MeasuredSource {
  readonly device: string;
  /** "NVIDIA H100 80GB HBM3 (driver 580.159.04, CUDA 13.0)". */
  readonly measuredOn: string;
}

/** Up to this many inputs over the bound are listed one by one. */
const OVER_LIST_LIMIT = 16;

/** A sweep of an approximation, every pattern with its error in units of the bound. */
type BoundedSweep = Sweep & {
  readonly bound: NonNullable<Sweep['bound']>;
  readonly perInput: NonNullable<Sweep['perInput']> & {
    readonly ratio: Float64Array;
    readonly unscored: Uint8Array;
  };
  readonly worst: NonNullable<Sweep['worst']> & { readonly ratio: number };
};

/** Whether a sweep is one the error plot draws: every pattern, scored against a bound. */
export function isBounded(sweep: Sweep): sweep is BoundedSweep {
  return (
    sweep.bound !== null &&
    sweep.perInput !== null &&
    sweep.perInput.ratio !== null &&
    sweep.perInput.unscored !== null &&
    sweep.worst !== null &&
    sweep.worst.ratio !== null
  );
}

/**
 * A finished sweep: the plot (zoomed to the inputs whose error shows, or every finite input),
 * its legend and axes in words, the summary, the inputs over the bound, and a button that loads
 * the worst input. With `measured`, the sweep holds a GPU's measured results, not the model's.
 */
export function ErrorPlot({
  sweep,
  form,
  format,
  measured = null,
}: {
  sweep: BoundedSweep;
  form: Form;
  format: FormatName;
  measured?: MeasuredSource | null;
}) {
  const a = useStore((s) => s.registers.a);
  const setRegister = useStore((s) => s.setRegister);
  const places = useMemo(() => registerPlaces(form, 'a'), [form]);
  const lanes = places.length;
  const inputs = useMemo(() => places.map((p) => Number(bitsAt(a, p.place.value))), [a, places]);
  const { ratio, unscored } = sweep.perInput;
  const f = FORMATS[format];
  const order = useMemo(() => finiteValueOrder(f), [f]);
  const summary = useMemo(() => summarize(ratio, unscored), [ratio, unscored]);
  const scale = useMemo(() => yScaleFor(sweep.worst.ratio), [sweep]);
  const [zoomed, setZoomed] = useState(true);
  const visible = useMemo(() => visibleErrorRange(ratio, order), [ratio, order]);
  const view = useMemo(
    () => (zoomed ? visible : { from: 0, to: order.count }),
    [zoomed, visible, order],
  );
  const over = useMemo(() => inputsOverBound(ratio, order), [ratio, order]);
  const summaryId = useId();
  const whose = measured ? `the ${measured.device}'s results` : 'the model';
  // A loaded input goes into every lane of operand a: an x2 form's lanes then both show it.
  const load = (bits: number) => setRegister('a', registerHolding(form, 'a', BigInt(bits)));
  const worstHex = hexOf(BigInt(sweep.worst.index), 16);
  const unit = sweep.bound.kind;
  const decimal = (bits: number) => shortestDecimal(BigInt(bits), f);
  const ftz = form.modifiers.includes('ftz');
  return (
    <>
      <ErrorPlotSlider
        ratio={ratio}
        unscored={unscored}
        order={order}
        view={view}
        scale={scale}
        format={format}
        inputs={inputs}
        label={`Error of ${whose} for ${form.text} over all finite inputs, in units of the spec bound: a column cursor (arrow keys; Enter loads the column's worst input)`}
        describedBy={summaryId}
        onLoad={load}
      />
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
        {summary.overBound > 0 && (
          <li>
            <span className="swatch over-mark" aria-hidden="true">
              ▼
            </span>{' '}
            a column with an input over the bound
          </li>
        )}
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
        {decimal(order.bitsAt(visible.from))} to {decimal(order.bitsAt(visible.to - 1))})
      </label>
      <p className="muted approx-axes">
        x: {zoomed ? 'the' : 'every'} finite {format} input
        {zoomed ? 's whose error shows' : ''} in value order (−max … −0, +0 … +max; spacing follows
        the format, so it is logarithmic away from 0). y: {unit} error ÷ bound
        {scale.kind === 'log2' ? ', on a log₂ scale' : ''}. Click a column (or focus the plot: arrow
        keys, then Enter) to load its worst input.
      </p>
      <p id={summaryId} data-testid="approx-summary" role="status">
        {measured && <>Measured on {measured.measuredOn}. </>}
        Largest {unit} error of {whose}: {sweep.worst.ratio.toPrecision(3)} × the bound (2
        <sup>{sweep.bound.log2}</sup>), at input {worstHex} ({decimal(sweep.worst.index)}).{' '}
        {summary.withinBound.toLocaleString('en-US')} of {summary.plotted.toLocaleString('en-US')}{' '}
        plotted inputs are within the bound
        {summary.overBound > 0
          ? `; ${summary.overBound.toLocaleString('en-US')} exceed it`
          : ''}. {(65536 - summary.plotted - summary.unscored).toLocaleString('en-US')} inputs with
        a non-finite input, exact value or result are not plotted.
      </p>
      {summary.unscored > 0 && (
        <p className="note" data-testid="approx-unscored">
          {summary.unscored.toLocaleString('en-US')} inputs are not scored: their exact{' '}
          {form.opcode}
          (x) is below the smallest normal {format} ({decimal(2 ** f.manBits)}). A relative bound
          speaks of normal results — a subnormal has fewer significant bits than 2
          <sup>{sweep.bound.log2}</sup> asks for, so mostly no {format} value meets it there
          {ftz ? ', and .ftz flushes such results to zero, as the spec says' : ''}.{' '}
          {measured
            ? `The ${measured.device}'s results there are not judged against the bound.`
            : `The model returns the correctly rounded${ftz ? ' (flushed)' : ''} value.`}
        </p>
      )}
      {over.length > 0 && (
        <div className="approx-over" data-testid="approx-over">
          <p>
            {over.length === 1 ? 'One input' : `${over.length.toLocaleString('en-US')} inputs`}{' '}
            where {whose} {over.length === 1 ? 'exceeds' : 'exceed'} the spec&apos;s bound
            {over.length > OVER_LIST_LIMIT ? ` (the first ${OVER_LIST_LIMIT} in value order)` : ''}:
          </p>
          <ul>
            {over.slice(0, OVER_LIST_LIMIT).map((bits) => (
              <li key={bits}>
                <button type="button" onClick={() => load(bits)} data-testid="approx-over-input">
                  {hexOf(BigInt(bits), 16)} ({decimal(bits)})
                </button>{' '}
                {ratio[bits]!.toPrecision(3)} × the bound
              </li>
            ))}
          </ul>
        </div>
      )}
      <p>
        <button
          type="button"
          onClick={() => load(sweep.worst.index)}
          data-testid="approx-load-worst"
        >
          Load the worst input ({worstHex}) into a
        </button>
      </p>
    </>
  );
}
