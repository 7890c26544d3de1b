import type { ReactNode } from 'react';

/**
 * The corner-cases panel of the arithmetic and cvt alike: the engine's error when it could not
 * compute the table, else the table, or a status line until it is there.
 */
export function CornerCasesFrame({
  lead,
  error,
  children,
}: {
  /** Shown above the table (the spec's own corner-case table, where it has one). */
  lead?: ReactNode;
  /** The engine's message when the table failed, else null. */
  error: string | null;
  /** The table; null while it is being computed. */
  children: ReactNode | null;
}) {
  return (
    <div className="corner-cases" data-testid="corner-cases">
      <h3>Corner cases</h3>
      {lead}
      {error !== null ? (
        <p className="error" role="alert">
          The engine could not compute the table: {error}
        </p>
      ) : (
        (children ?? (
          <p className="muted" role="status">
            Computing the table…
          </p>
        ))
      )}
    </div>
  );
}
