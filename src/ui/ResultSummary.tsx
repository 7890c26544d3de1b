import { memo, useMemo } from 'react';
import type { EvalResult } from '../engine/index.ts';
import { referenceValues } from '../engine/what-if/reference.ts';
import { summaryOf } from '../engine/what-if/summary.ts';
import { allowedText, approxSteps, exactBitsText } from '../engine/what-if/describe.ts';
import { ReferenceValues } from './ReferenceValues.tsx';
import './compare.css';

/**
 * At the top of a result: what happened in one sentence (read off the trace), for an
 * approximate instruction the set of values hardware may return, and the reference values
 * (the exact result, what f32 and f64 arithmetic give, the error of d).
 */
export const ResultSummary = memo(function ResultSummary({ result }: { result: EvalResult }) {
  const summary = useMemo(() => summaryOf(result), [result]);
  const reference = useMemo(() => referenceValues(result), [result]);
  return (
    <section className="panel result-summary" aria-label="What happened">
      <p className="summary" data-testid="summary">
        {summary}
      </p>
      <ApproxNote result={result} testId="approx-note" />
      <ReferenceValues reference={reference} testId="reference" />
    </section>
  );
});

/**
 * Whose value an approximate result is: on a target a GPU was measured for, the GPU's result
 * (the model's rides along beside it); elsewhere the model's. Null for an exact instruction.
 */
export function approxSource(
  result: EvalResult,
):
  | { readonly measuredOn: string; readonly device: string; readonly model: string }
  | 'model'
  | null {
  const step = approxSteps(result).find((s) => s !== undefined);
  if (!step) return null;
  if (step.model !== 'measured') return 'model';
  const measuredOn = step.measuredOn ?? 'hardware';
  // "NVIDIA H100 80GB HBM3 (driver …, CUDA …)": the device without the software versions.
  const device = measuredOn.replace(/\s*\(.*\)$/, '');
  const model = approxSteps(result)
    .map((s) => (s?.modelResult === undefined ? null : exactBitsText(s.modelResult, s.format)))
    .filter((t): t is string => t !== null)
    .join(', ');
  return { measuredOn, device, model };
}

/**
 * For tanh/ex2.approx: the spec bounds the error, it does not fix the result, so d is one
 * candidate of the allowed set: the one measured on a GPU, or the model's; said which where the
 * result is shown.
 */
export function ApproxNote({ result, testId }: { result: EvalResult; testId: string }) {
  const steps = approxSteps(result);
  const source = approxSource(result);
  if (source === null) return null;
  const lanes = steps.length;
  return (
    <p className="approx-note" data-testid={testId}>
      <strong>Not one answer:</strong>{' '}
      {steps
        .map((step, i) => {
          const label = lanes === 2 ? `lane ${i}: ` : '';
          return step
            ? `${label}${allowedText(step)}`
            : `${label}the spec fixes this input’s result`;
        })
        .join('; ')}
      . d is one of them:{' '}
      {source === 'model'
        ? 'the value this model gives.'
        : `the value measured on ${source.measuredOn}; the model gives ${source.model}.`}
    </p>
  );
}
