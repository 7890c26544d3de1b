import { memo, useMemo } from 'react';
import type { EvalResult } from '../engine/index.ts';
import { referenceValues } from '../engine/what-if/reference.ts';
import { summaryOf } from '../engine/what-if/summary.ts';
import { allowedText, approxSteps } from '../engine/what-if/describe.ts';
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
 * For tanh/ex2.approx: the spec bounds the error, it does not fix the result, so the model's
 * bits are one candidate of the allowed set; said where the result is shown.
 */
export function ApproxNote({ result, testId }: { result: EvalResult; testId: string }) {
  const steps = approxSteps(result);
  if (steps.every((s) => s === undefined)) return null;
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
      . d is one of them: the value this model gives.
    </p>
  );
}
