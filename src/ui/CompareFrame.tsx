import type { ReactNode } from 'react';
import { useStore } from '../state/store.ts';

/**
 * The frame of compare mode's result: A and B named, then the comparison (`children`),
 * "Computing…" while it is on its way (null), or why it failed.
 */
export function CompareFrame({ aText, children }: { aText: string; children: ReactNode | null }) {
  const vs = useStore((s) => s.vs);
  const error = useStore((s) => s.compareError);
  return (
    <section className="panel compare" aria-label="A compared with B" data-testid="compare">
      <h2>
        A <code>{aText}</code> vs B <code>{vs}</code>
      </h2>
      {error ? (
        <p className="error" role="alert">
          The comparison could not be computed: {error}
        </p>
      ) : children === null ? (
        <p className="muted">Computing…</p>
      ) : (
        children
      )}
    </section>
  );
}
