import { findCvtForm } from '../catalog/index.ts';
import type { EngineApi } from '../worker/api.ts';
import type { EngineClient } from '../worker/client.ts';
import { createEngineApi } from '../worker/engine-api.ts';
import { cvtRequestOf } from './cvt-operands.ts';
import {
  INLINE_BUDGET_MS,
  startEditEvaluation,
  type EditEvaluation,
} from './edit-evaluation-loop.ts';
import { useStore } from './store.ts';
import { engineClient } from './worker-client.ts';

/**
 * Evaluates the current cvt form on its registers after every edit, in the loop the arithmetic
 * uses (edit-evaluation-loop.ts): inline while evaluations fit the same small budget, in the
 * worker once they keep exceeding it.
 */

export interface CvtEvaluationOptions {
  client: Pick<EngineClient, 'start' | 'request'>;
  /** The engine on this thread; null sends every evaluation to the worker. */
  inline: Pick<EngineApi, 'evaluateCvt'> | null;
  store: typeof useStore;
  budgetMs: number;
  now: () => number;
}

export type CvtEvaluation = EditEvaluation;

export function startCvtEvaluation(options: Partial<CvtEvaluationOptions> = {}): CvtEvaluation {
  const {
    client = engineClient,
    store = useStore,
    budgetMs = INLINE_BUDGET_MS,
    now = () => performance.now(),
  } = options;
  return startEditEvaluation({
    store,
    inline: options.inline === undefined ? createEngineApi() : options.inline,
    budgetMs,
    now,
    changed: (s, prev) => s.instr !== prev.instr || s.cvtRegisters !== prev.cvtRegisters,
    prepare: (s) => {
      const form = findCvtForm(s.instr);
      return form ? { request: cvtRequestOf(form, s.cvtRegisters) } : null;
    },
    evaluateInline: (api, request) => api.evaluateCvt(request),
    evaluateInWorker: (request) =>
      client.request('evaluate-cvt', (api) => api.evaluateCvt(request)),
    show: (s, update) => s.setCvtEvaluation(update),
  });
}
