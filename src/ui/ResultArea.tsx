import type { ReactNode } from 'react';

/**
 * Where a result stands: busy while an evaluation is on its way, the engine's error when it had
 * one, then the result, or a placeholder until there is one.
 */
export function ResultArea({
  pending,
  error,
  children,
}: {
  pending: boolean;
  /** The engine's message when the evaluation failed, else null. */
  error: string | null;
  /** The result's panels; null while there is no result for the current form. */
  children: ReactNode | null;
}) {
  return (
    <div className="result-area" id="result" aria-busy={pending}>
      {error && (
        <p className="error" role="alert">
          The engine could not evaluate this: {error}
        </p>
      )}
      {children ?? (
        <section className="panel editor result">
          <h3>Result d</h3>
          <p className="muted">Computing…</p>
        </section>
      )}
    </div>
  );
}
