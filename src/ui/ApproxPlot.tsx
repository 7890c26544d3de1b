import { useId } from 'react';
import { laneFormat } from '../catalog/index.ts';
import { approxErrorBound } from '../engine/index.ts';
import { useForm } from '../state/store.ts';
import { AllowedValues } from './ApproxAllowed.tsx';
import { shortNumber } from './approx-plot-model.ts';
import { ErrorPlot } from './ErrorPlot.tsx';
import { useApproxSweep, type ApproxSweepControl } from './use-approx-sweep.ts';
import './approx-plot.css';

/**
 * The error of the approximate-op model over all 65,536 inputs, against the spec's bound, and
 * for the current input the set of results the bound allows. The sweep runs in the worker (with
 * progress and cancel); a finished sweep is kept per form, so reopening the tab is instant.
 */
export default function ApproxPlot() {
  const form = useForm();
  const sweep = useApproxSweep(form.text);
  const bound = approxErrorBound(form);
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
      <SweepStatus {...sweep} />
      {sweep.state.status === 'done' && (
        <ErrorPlot sweep={sweep.state.sweep} form={form} format={laneFormat(form.type)} />
      )}
      <AllowedValues form={form} />
    </section>
  );
}

/** Progress with a cancel button while the sweep runs; after a cancel or an error, a restart. */
function SweepStatus({ state, cancel, restart }: ApproxSweepControl) {
  switch (state.status) {
    case 'running':
      return (
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
