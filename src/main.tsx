import { flushSync } from 'react-dom';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { provideFamily } from './engine/family-semantics.ts';
import { arithmeticFamily } from './engine/semantics/arithmetic-family.ts';
import { PageRoot } from './ui/PageRoot.tsx';
import { startCompareWhenAsked } from './state/compare-when-asked.ts';
import { startEvaluation } from './state/evaluate-on-edit.ts';
import { rendersAsPrerendered } from './state/prerendered.ts';
import { useStore } from './state/store.ts';
import { installTestSwitches } from './state/test-switches.ts';
import { startUrlSync } from './state/url-sync.ts';
import { startTheme } from './state/theme.ts';
import './ui/styles.css';

// The default instruction's family is part of the first load, so that the default state evaluates
// before the page hydrates (as it was prerendered); other families load when first needed.
provideFamily(arithmeticFamily);
// URL first (so the first evaluation is of the linked state), then the engine, then the page.
startUrlSync();
startTheme();
const evaluation = startEvaluation();
startCompareWhenAsked();
// The end-to-end tests ask for their switches before the page loads; nobody else gets them.
if ((window as { __ptxfEnableTestHooks?: unknown }).__ptxfEnableTestHooks === true)
  installTestSwitches(evaluation);

// The built index.html holds the default state's page, rendered at build time
// (src/build/prerender.ts). Where this state renders the same, React takes that HTML over as it
// is; anything else (a share link, a saved theme) is rendered over it at once, in one commit, so
// the page never goes blank and never shows another state's answer longer than this script runs.
const root = document.getElementById('root')!;
const app = <PageRoot />;
if (rendersAsPrerendered(useStore.getState(), root.dataset.prerendered)) {
  hydrateRoot(root, app, {
    onRecoverableError: (error) => console.error('hydration:', error),
  });
} else {
  const fresh = createRoot(root);
  flushSync(() => fresh.render(app));
}
