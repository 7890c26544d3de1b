import { Suspense, type ReactNode } from 'react';
import { useStore } from '../state/store.ts';
import type { Tab } from '../state/url-codec.ts';

/**
 * The "More" panel: a row of toggle buttons, one per tab, and the open tab's content, loaded
 * when first opened. `shown` is the open tab among these (null for none).
 */
export function ExtrasTabs({
  tabs,
  shown,
  children,
}: {
  tabs: readonly { id: Tab; label: string }[];
  shown: Tab | null;
  children: ReactNode;
}) {
  const setTab = useStore((s) => s.setTab);
  return (
    <section className="panel extras" aria-label="More">
      <div className="tabs" role="group" aria-label="Show">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            aria-pressed={shown === t.id}
            data-testid={`tab-${t.id}`}
            onClick={() => setTab(shown === t.id ? null : t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <Suspense fallback={<p className="muted">Loading…</p>}>{children}</Suspense>
    </section>
  );
}
