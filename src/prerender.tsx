import { prerender } from 'react-dom/static';
import type { EngineClient } from './worker/client.ts';
import { evaluationStarted } from './state/evaluation-when-loaded.ts';
import { useStore } from './state/store.ts';
import { PageRoot } from './ui/PageRoot.tsx';
import { URL_LINK } from './state/url-link.ts';

/** At build time there is no worker: the default state's one evaluation runs inline. */
const noWorker: Pick<EngineClient, 'request'> = {
  request: () => Promise.reject(new Error('no worker while prerendering')),
};

/**
 * The page for the default state — its instruction, operands and result, computed by the same
 * engine and drawn by the same components as in the browser — as HTML, for the build to put
 * into index.html (src/build/prerender.ts); main.tsx hydrates it. `state` names the state it
 * shows, so that the page hydrates it only where the browser's first render is the same. The
 * parts whose code loads after the entry in the browser (ui/QuestionSlots.tsx, ui/AnswerSlots.tsx)
 * are rendered whole: React's static prerender waits for their code, so the page holds no pending
 * frame.
 */
export async function prerenderDefaultState(): Promise<{ html: string; state: string }> {
  const evaluation = await evaluationStarted({ client: noWorker });
  const state = useStore.getState();
  if (state.evalStatus !== 'done' || !state.result)
    throw new Error(`the default state did not evaluate: ${state.evalError ?? state.evalStatus}`);
  // One piece: no boundary outlined into a script that moves it in (the page runs no inline script).
  const { prelude } = await prerender(<PageRoot />, { progressiveChunkSize: Infinity });
  evaluation.stop();
  const html = await new Response(prelude).text();
  return { html, state: URL_LINK.queryOf(state) };
}
