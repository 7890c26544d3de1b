import { laneFormat, type Form } from '../catalog/index.ts';
import {
  FORMATS,
  shortestDecimal,
  type ApproxEmptyReason,
  type ApproxStep,
} from '../engine/index.ts';
import { useStore } from '../state/store.ts';
import { formatBits } from '../state/url-codec.ts';
import { inAllowedSet, valuesBetween } from './approx-plot-model.ts';

/** Why the trace's allowed set is empty (ApproxStep.allowed.emptyBecause). */
const EMPTY_BECAUSE: Record<ApproxEmptyReason, (format: string) => string> = {
  'subnormal-spacing': (format) =>
    `it lies below the smallest normal, where ${format} values are spaced wider than the bound`,
  'below-smallest-subnormal': (format) =>
    `it lies below the smallest ${format} subnormal, so every value, zero included, is further off`,
  'ftz-removes-subnormals': () =>
    'subnormal values would be within it, but .ftz writes no subnormal result',
};

/** Up to this many allowed values are listed one by one; more are given as a range. */
const LIST_LIMIT = 16;

/**
 * For the current input (each lane): every result the bound allows, the model's, the exact, and
 * on a measured target the GPU's result beside the model's.
 */
export function AllowedValues({ form }: { form: Form }) {
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
              <code>{formatBits(lane.result, 16)}</code> (
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
      <code>{formatBits(bits, f.width)}</code> ({shortestDecimal(bits, f)})
    </>
  );
  const { lowest, highest, count } = step.allowed;
  const measured = step.model === 'measured';
  // With a measured result the model's value rides along as modelResult.
  const modelBits = measured ? step.modelResult : step.result;
  return (
    <div className="approx-lane" data-testid={`approx-allowed-lane-${lane}`}>
      {measured ? (
        <p className="approx-measured" data-testid={`approx-measured-lane-${lane}`}>
          {label}input {value(step.input)}; exact {step.fn}(x) ≈ <code>{step.mathValue}</code>.
          Measured on {step.measuredOn ?? 'hardware'}, the result is {value(step.result)}:{' '}
          <strong data-testid="approx-measured-verdict">
            {inAllowedSet(step.result, step.allowed, step.format)
              ? 'within the bound'
              : 'outside the bound'}
          </strong>
          .
          {step.modelResult !== undefined && (
            <>
              {' '}
              The model (correctly rounded) gives{' '}
              <span data-testid="approx-model-result">{value(step.modelResult)}</span>.
            </>
          )}
        </p>
      ) : (
        <p>
          {label}input {value(step.input)}; exact {step.fn}(x) ≈ <code>{step.mathValue}</code>; the
          model returns {value(step.result)} (the correctly rounded value).
        </p>
      )}
      {count === 0 ? (
        <p data-testid="approx-allowed-none">
          No {step.format} value is within {step.bound.kind} error 2<sup>{step.bound.log2}</sup> of
          the exact value (<strong data-testid="approx-allowed-count">0</strong> values):{' '}
          {EMPTY_BECAUSE[step.allowed.emptyBecause ?? 'subnormal-spacing'](step.format)}. The
          spec&apos;s bound cannot hold here, so the plot does not score this input.
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
            <li key={bits} className={bits === modelBits ? 'model' : undefined}>
              {value(bits)}
              {bits === modelBits && <strong> ← model</strong>}
              {measured && bits === step.result && <strong> ← measured</strong>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
