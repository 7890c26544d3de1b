import { memo, useMemo } from 'react';
import type { EvalResult } from '../engine/steps.ts';
import { allowedText, approxSteps } from '../present/approx-text.ts';
import { summaryOf } from '../present/summary.ts';
import { valueText } from '../present/values.ts';
import { ReferenceValues } from './ReferenceValues.tsx';
import { StochasticOdds } from './StochasticOdds.tsx';
import './compare.css';

/**
 * At the top of a result: what happened in one sentence (read off the trace, src/present), for
 * an approximate instruction the set of values hardware may return, and the reference values
 * (the exact result, what f32 and f64 arithmetic give, the error of d).
 */
export const ResultSummary = memo(function ResultSummary({ result }: { result: EvalResult }) {
  const summary = useMemo(() => summaryOf(result), [result]);
  return (
    <section className="panel result-summary" aria-label="What happened">
      <p className="summary" data-testid="summary">
        {summary}
      </p>
      <ApproxNote result={result} testId="approx-note" />
      <StochasticOdds result={result} />
      <ReferenceValues result={result} testId="reference" />
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
  const steps = approxSteps(result);
  const step = steps.find((s) => s !== undefined);
  if (!step) return null;
  if (step.model !== 'measured') return 'model';
  const measuredOn = step.measuredOn ?? 'hardware';
  // "NVIDIA H100 80GB HBM3 (driver …, CUDA …)": the device without the software versions.
  const device = measuredOn.replace(/\s*\(.*\)$/, '');
  const model = steps
    .map((s) => (s?.modelResult === undefined ? null : valueText(s.modelResult)))
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
  const several = steps.length > 1;
  return (
    <p className="approx-note" data-testid={testId}>
      <strong>Not one answer:</strong>{' '}
      {steps
        .map((step, i) => {
          const label = several ? `lane ${i}: ` : '';
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
