import { renderToString } from 'react-dom/server';
import { findForm } from './catalog/all-forms.ts';
import { loadFamily } from './engine/family-semantics.ts';
import { semanticsFamilyOf } from './engine/semantics/family.ts';
import type { EngineClient } from './worker/client.ts';
import { startEvaluation } from './state/evaluate-on-edit.ts';
import { useStore } from './state/store.ts';
import { PageRoot } from './ui/PageRoot.tsx';
import { prerenderedStateKey } from './state/prerendered.ts';

/** At build time there is no worker: the default state's one evaluation runs inline. */
const noWorker: Pick<EngineClient, 'request'> = {
  request: () => Promise.reject(new Error('no worker while prerendering')),
};

/**
 * The page for the default state — its instruction, operands and result, computed by the same
 * engine and drawn by the same components as in the browser — as HTML, for the build to put
 * into index.html (src/build/prerender.ts); main.tsx hydrates it. `state` names the state it
 * shows, so that the page hydrates it only where the browser's first render is the same.
 */
export async function prerenderDefaultState(): Promise<{ html: string; state: string }> {
  const form = findForm(useStore.getState().instr);
  if (form) await loadFamily(semanticsFamilyOf(form));
  const evaluation = startEvaluation({ client: noWorker });
  evaluation.stop();
  const state = useStore.getState();
  if (state.evalStatus !== 'done' || !state.result)
    throw new Error(`the default state did not evaluate: ${state.evalError ?? state.evalStatus}`);
  const html = renderToString(<PageRoot />);
  return { html, state: prerenderedStateKey(state) };
}
