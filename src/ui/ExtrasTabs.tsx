import { Suspense, useRef, type ReactNode } from 'react';
import { useStore } from '../state/store.ts';
import type { Tab } from '../state/url-state.ts';
import { LoadFailed } from './LoadFailed.tsx';

/**
 * The "More" panel: a row of toggle buttons, one per tab, and the open tab's content, loaded
 * when first opened. `shown` is the open tab among these (null for none). A tab opened by a
 * click scrolls the panel to the top of the view: the tabs sit at the end of the page, and what
 * they open (a plot, a table) would otherwise start below the fold. An open panel is at least a
 * screen tall (styles.css), so the page can scroll that far before its content has loaded.
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
  const ref = useRef<HTMLElement>(null);
  const open = (tab: Tab | null) => {
    setTab(tab);
    if (tab === null) return;
    requestAnimationFrame(() => ref.current?.scrollIntoView({ block: 'start' }));
  };
  return (
    <section ref={ref} className={`panel extras${shown ? ' open' : ''}`} aria-label="More">
      <div className="tabs" role="group" aria-label="Show">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            aria-pressed={shown === t.id}
            data-testid={`tab-${t.id}`}
            onClick={() => open(shown === t.id ? null : t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <LoadFailed what="This panel">
        <Suspense fallback={<p className="muted">Loading…</p>}>{children}</Suspense>
      </LoadFailed>
    </section>
  );
}
