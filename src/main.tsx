import { flushSync } from 'react-dom';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { answerLoaded } from './ui/AnswerSlots.tsx';
import { markLinkPending } from './ui/link-pending.ts';
import { PageRoot } from './ui/PageRoot.tsx';
import { startCompareWhenAsked } from './state/compare-when-asked.ts';
import { evaluationStarted } from './state/evaluation-when-loaded.ts';
import { rendersAsPrerendered } from './state/prerendered.ts';
import { useStore } from './state/store.ts';
import { installTestSwitches } from './state/test-switches.ts';
import { startUrlSync } from './state/url-sync.ts';
import { startTheme } from './state/theme.ts';
import './ui/styles.css';

// URL first (so the first evaluation is of the linked state: a link is read by the codec, a
// chunk of its own, and until then the page as served is marked as not the link's), then the
// engine (its chunk, with the views of the answer: fetched now, while the page's own part
// renders), then the page.
const root = document.getElementById('root')!;
const urlSync = startUrlSync();
const linkShown = location.search === '' ? null : markLinkPending(root);
startTheme();
const evaluation = urlSync.linkRead.then(() => evaluationStarted());
void answerLoaded();
startCompareWhenAsked();
// The end-to-end tests ask for their switches before the page loads; nobody else gets them.
if ((window as { __ptxfEnableTestHooks?: unknown }).__ptxfEnableTestHooks === true)
  installTestSwitches(evaluation);

// The built index.html holds the default state's page, rendered at build time
// (src/build/prerender.ts). Where this state renders the same, React takes that HTML over as it
// is, the answer's parts as soon as their code is there (ui/AnswerSlots.tsx); anything else (a share link, a saved theme) is rendered over it at once, in one commit, so
// the page never goes blank and never shows another state's answer as the link's: only while
// the link is read, marked pending (ui/link-pending.ts).
void urlSync.linkRead.then((link) => {
  const app = <PageRoot />;
  const s = useStore.getState();
  if (rendersAsPrerendered(s, root.dataset.prerendered, link ? link.queryOf(s) : null)) {
    hydrateRoot(root, app, {
      onRecoverableError: (error) => console.error('hydration:', error),
    });
  } else {
    const fresh = createRoot(root);
    flushSync(() => fresh.render(app));
  }
  linkShown?.();
});
