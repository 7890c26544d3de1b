import { useId, useMemo } from 'react';
import { laneFormat, type Form } from '../catalog/index.ts';
import { approxErrorBound, compileFast, type ApproxSweep } from '../engine/index.ts';
import { useMeasured, type MeasuredSet, type MeasuredState } from '../state/measured-tables.ts';
import { useForm, useStore } from '../state/store.ts';
import { AllowedValues } from './ApproxAllowed.tsx';
import { measuredSweep, shortNumber } from './approx-plot-model.ts';
import { ErrorPlot, type MeasuredSource } from './ErrorPlot.tsx';
import { useApproxSweep, type ApproxSweepControl } from './use-approx-sweep.ts';
import { SweepProgress } from './SweepProgress.tsx';
import './approx-plot.css';

/**
 * The error over all 65,536 inputs, against the spec's bound, and for the current input the set
 * of results the bound allows. On a target a GPU was measured for (sm_90: an H100), the plot
 * shows the error of the measured results; elsewhere, the model's. The model sweep runs in the
 * worker (with progress and cancel); a finished sweep is kept per form, so reopening the tab is
 * instant.
 */
export default function ApproxPlot() {
  const form = useForm();
  const target = useStore((s) => s.target);
  const measured = useMeasured(target, form);
  const sweep = useApproxSweep(form.text);
  const bound = approxErrorBound(form);
  const headingId = useId();
  const ready = measured.status === 'ready' ? measured.set : null;
  return (
    <section className="approx-plot" aria-labelledby={headingId} data-testid="approx-plot">
      <h3 id={headingId}>
        {ready ? `Error of the ${ready.device}'s results` : 'Error of the model'} over every input
      </h3>
      {bound && (
        <p className="muted">
          Spec bound for {form.text}: {bound.kind} error at most 2<sup>{bound.log2}</sup> (≈{' '}
          {shortNumber(2 ** bound.log2)}). “{bound.text}”
        </p>
      )}
      <MeasuredStatus state={measured} target={target} />
      <SweepStatus {...sweep} />
      {sweep.state.status === 'done' &&
        (ready ? (
          <MeasuredPlot sweep={sweep.state.sweep} form={form} set={ready} />
        ) : (
          <ErrorPlot sweep={sweep.state.sweep} form={form} format={laneFormat(form.type)} />
        ))}
      <AllowedValues form={form} />
    </section>
  );
}

/** The model sweep turned into the measured results' error (the same inputs and units). */
function MeasuredPlot({ sweep, form, set }: { sweep: ApproxSweep; form: Form; set: MeasuredSet }) {
  const format = laneFormat(form.type);
  const plotted = useMemo(() => {
    // The form's own evaluation with the tables: lane 0 of input i (.ftz flushes included).
    const withTables = compileFast(form, { approxTables: set.tables });
    const fn = form.opcode as 'tanh' | 'ex2';
    return measuredSweep(sweep, fn, format, (i) => withTables(i, 0, 0) & 0xffff);
  }, [sweep, form, set, format]);
  const source: MeasuredSource = { device: set.device, measuredOn: set.measuredOn };
  return <ErrorPlot sweep={plotted} form={form} format={format} measured={source} />;
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

/** Progress with a cancel button while the sweep runs; after a cancel or an error, a restart. */
function SweepStatus({ state, cancel, restart }: ApproxSweepControl) {
  switch (state.status) {
    case 'running':
      return (
        <SweepProgress
          label="Computing all 65,536 inputs in the worker…"
          done={state.done}
          total={state.total}
          cancel={cancel}
          testIdPrefix="approx"
        />
      );
    case 'cancelled':
      return (
        <p role="status" data-testid="approx-cancelled">
          Sweep cancelled.{' '}
          <button type="button" onClick={restart} data-testid="approx-restart">
            Compute the plot
          </button>
        </p>
      );
    case 'error':
      return (
        <p className="notice warn" role="alert" data-testid="approx-error">
          The sweep failed: {state.message}.{' '}
          <button type="button" onClick={restart}>
            Try again
          </button>
        </p>
      );
    case 'done':
      return null;
  }
}
