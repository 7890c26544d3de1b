import type { FormatName } from '../catalog/formats.ts';
import type { Form } from '../catalog/instruction.ts';
import { FORMATS } from '../engine/format.ts';
import type { ApproxEmptyReason, ApproxStep } from '../engine/steps.ts';
import { resultOfElement } from '../engine/what-if/reference-values.ts';
import { shortestDecimal } from '../engine/stored-value.ts';
import { useResult } from '../state/store.ts';
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

/** A pattern (hex) with its shortest decimal: "0x3a17 (0.7612)". */
function Value({ bits, format }: { bits: string; format: FormatName }) {
  return (
    <>
      <code>{bits}</code> ({shortestDecimal(BigInt(bits), FORMATS[format])})
    </>
  );
}

/**
 * For the current input (each lane): every result the bound allows, the model's, the exact, and
 * on a measured target the GPU's result beside the model's.
 */
export function AllowedValues({ form }: { form: Form }) {
  const result = useResult();
  if (!result) return null;
  const lanes = result.elements.length;
  return (
    <div className="approx-allowed" data-testid="approx-allowed">
      <h4>What the spec allows for the current input</h4>
      {result.elements.map((element) => {
        const step = element.steps.find((s) => s.kind === 'approx');
        const label = lanes > 1 ? `Lane ${element.index}: ` : '';
        if (step?.kind !== 'approx') {
          const d = resultOfElement(element);
          return (
            <p key={element.index} data-testid={`approx-allowed-lane-${element.index}`}>
              {label}the spec fixes this input’s result (a corner-case table or a flushed input):{' '}
              <Value bits={d.bits} format={d.format} />. No approximation is involved in {form.text}{' '}
              here.
            </p>
          );
        }
        return <LaneAllowed key={element.index} step={step} label={label} lane={element.index} />;
      })}
    </div>
  );
}

function LaneAllowed({ step, label, lane }: { step: ApproxStep; label: string; lane: number }) {
  const format = step.result.format;
  const { lowest, highest, count } = step.allowed;
  const measured = step.model === 'measured';
  // With a measured result the model's value rides along as modelResult.
  const modelBits = measured ? step.modelResult?.bits : step.result.bits;
  return (
    <div className="approx-lane" data-testid={`approx-allowed-lane-${lane}`}>
      {measured ? (
        <p className="approx-measured" data-testid={`approx-measured-lane-${lane}`}>
          {label}input <Value bits={step.input.bits} format={step.input.format} />; exact {step.fn}
          (x) ≈ <code>{step.mathValue}</code>. Measured on {step.measuredOn ?? 'hardware'}, the
          result is <Value bits={step.result.bits} format={format} />:{' '}
          <strong data-testid="approx-measured-verdict">
            {inAllowedSet(step.result.bits, step.allowed, format)
              ? 'within the bound'
              : 'outside the bound'}
          </strong>
          .
          {step.modelResult !== undefined && (
            <>
              {' '}
              The model (correctly rounded) gives{' '}
              <span data-testid="approx-model-result">
                <Value bits={step.modelResult.bits} format={format} />
              </span>
              .
            </>
          )}
        </p>
      ) : (
        <p>
          {label}input <Value bits={step.input.bits} format={step.input.format} />; exact {step.fn}
          (x) ≈ <code>{step.mathValue}</code>; the model returns{' '}
          <Value bits={step.result.bits} format={format} /> (the correctly rounded value).
        </p>
      )}
      {count === 0 ? (
        <p data-testid="approx-allowed-none">
          No {format} value is within {step.bound.kind} error 2<sup>{step.bound.log2}</sup> of the
          exact value (<strong data-testid="approx-allowed-count">0</strong> values):{' '}
          {EMPTY_BECAUSE[step.allowed.emptyBecause ?? 'subnormal-spacing'](format)}. The spec&apos;s
          bound cannot hold here, so the plot does not score this input.
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
              from <Value bits={lowest} format={format} /> to{' '}
              <Value bits={highest} format={format} />.
            </>
          )}
        </p>
      )}
      {count > 0 && count <= LIST_LIMIT && (
        <ul className="approx-values" aria-label={`${label}allowed values`}>
          {valuesBetween(lowest, count, format).map((bits) => (
            <li key={bits} className={bits === modelBits ? 'model' : undefined}>
              <Value bits={bits} format={format} />
              {bits === modelBits && <strong> ← model</strong>}
              {measured && bits === step.result.bits && <strong> ← measured</strong>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
