import { loadFamily } from '../engine/family-semantics.ts';
import { semanticsFamilyOf } from '../engine/semantics/family.ts';
import type { Evaluation, EvaluationOptions } from './evaluate-on-edit.ts';
import { useStore } from './store.ts';

/**
 * The evaluation of every edit (evaluate-on-edit.ts, with the engine it runs inline) is a chunk of
 * its own: the page's first load carries the editors and pickers, and the prerendered page already
 * shows the default state's result, so the engine loads right after the entry instead of with it.
 * The first call loads and starts it (with `options`; later calls share that start) and resolves
 * once the state as it then is has been answered: a result, an error, or no form to evaluate —
 * so that what renders the result next renders this one. The state's instruction family's
 * semantics are fetched beside the engine, not after it (the evaluation waits for them).
 */
let started: Promise<Evaluation> | null = null;

export function evaluationStarted(options: Partial<EvaluationOptions> = {}): Promise<Evaluation> {
  const store = options.store ?? useStore;
  if (!started) {
    // The catalog is a chunk too (the engine's chunks share it): its form names the family.
    const { instr } = store.getState();
    // A failed fetch is the evaluation's to answer (prepare() in evaluate-on-edit.ts).
    import('../catalog/all-forms.ts')
      .then(({ findForm }) => {
        const form = findForm(instr);
        return form ? loadFamily(semanticsFamilyOf(form)) : null;
      })
      .catch(() => null);
  }
  started ??= import('./evaluate-on-edit.ts').then(async ({ startEvaluation }) => {
    const evaluation = startEvaluation(options);
    await settled(store);
    return evaluation;
  });
  return started;
}

/** Resolves when no evaluation is on its way (one that waits for tables or the worker is). */
function settled(store: typeof useStore): Promise<void> {
  if (store.getState().evalStatus !== 'pending') return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = store.subscribe((s) => {
      if (s.evalStatus === 'pending') return;
      unsubscribe();
      resolve();
    });
  });
}
