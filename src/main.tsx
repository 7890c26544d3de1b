import { flushSync } from 'react-dom';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { answerLoaded } from './ui/AnswerSlots.tsx';
import { markLinkPending } from './ui/link-pending.ts';
import { PageRoot } from './ui/PageRoot.tsx';
import { questionLoaded } from './ui/QuestionSlots.tsx';
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
// chunks of the page's parts (the question's views, and the engine with the answer's views:
// fetched now, while the page's frame renders), then the page.
const root = document.getElementById('root')!;
const urlSync = startUrlSync();
const linkShown = location.search === '' ? null : markLinkPending(root);
startTheme();
const question = questionLoaded();
// The answer's chunk starts the evaluation: of the link's state, once the link is read.
const evaluation = urlSync.linkRead.then(() => evaluationStarted());
void urlSync.linkRead.then(() => answerLoaded());
startCompareWhenAsked();
// The end-to-end tests ask for their switches before the page loads; nobody else gets them.
if ((window as { __ptxfEnableTestHooks?: unknown }).__ptxfEnableTestHooks === true)
  installTestSwitches(evaluation);

// The built index.html holds the default state's page, rendered at build time
// (src/build/prerender.ts). Where this state renders the same, React takes that HTML over as it
// is, each part as soon as its code is there (ui/QuestionSlots.tsx, ui/AnswerSlots.tsx); anything
// else (a share link, a saved theme) is rendered over it in one commit once the question's chunk is
// there (whether it came or failed: a part that cannot load says so in its place), so the page
// never goes blank and the pickers and editors do not flash their pending frames. A link's own
// page waits for the link to be read; until it renders, the served page is marked pending
// (ui/link-pending.ts), not passed off as the link's.
void urlSync.linkRead.then((link) => {
  const app = <PageRoot />;
  const s = useStore.getState();
  if (rendersAsPrerendered(s, root.dataset.prerendered, link ? link.queryOf(s) : null)) {
    hydrateRoot(root, app, {
      onRecoverableError: (error) => console.error('hydration:', error),
    });
    linkShown?.();
  } else {
    const render = () => {
      const fresh = createRoot(root);
      flushSync(() => fresh.render(app));
      linkShown?.();
    };
    void question.then(render, render);
  }
});
