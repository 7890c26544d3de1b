import { findCvtForm } from '../catalog/index.ts';
import type { CvtEvaluateAnswer, EngineApi } from '../worker/api.ts';
import type { Answer, EngineClient } from '../worker/client.ts';
import { createEngineApi } from '../worker/engine-api.ts';
import { cvtRequestOf } from './cvt-operands.ts';
import { INLINE_BUDGET_MS, INLINE_STRIKES } from './evaluate-on-edit.ts';
import { useStore } from './store.ts';
import { engineClient } from './worker-client.ts';

/**
 * Evaluates the current cvt form on its registers after every edit, as evaluate-on-edit.ts does
 * for the arithmetic: inline while evaluations fit the same small budget (their result is then
 * painted in the frame that answers the input), in the worker once they keep exceeding it.
 */

export interface CvtEvaluationOptions {
  client: Pick<EngineClient, 'start' | 'request'>;
  /** The engine on this thread; null sends every evaluation to the worker. */
  inline: Pick<EngineApi, 'evaluateCvt'> | null;
  store: typeof useStore;
  budgetMs: number;
  now: () => number;
}

export interface CvtEvaluation {
  stop(): void;
  /** Send evaluations to the worker from now on. */
  useWorker(): void;
  where(): 'inline' | 'worker';
}

export function startCvtEvaluation(options: Partial<CvtEvaluationOptions> = {}): CvtEvaluation {
  const {
    client = engineClient,
    store = useStore,
    budgetMs = INLINE_BUDGET_MS,
    now = () => performance.now(),
  } = options;
  let inline = options.inline === undefined ? createEngineApi() : options.inline;
  let strikes = 0;

  const show = (answer: Answer<CvtEvaluateAnswer>) => {
    const set = store.getState().setCvtEvaluation;
    if (answer.status === 'superseded') return;
    if (answer.status === 'error') set({ status: 'error', error: answer.message });
    else if (!answer.value.ok) set({ status: 'error', error: answer.value.error });
    else set({ status: 'done', result: answer.value.result, error: null });
  };

  const run = async () => {
    const s = store.getState();
    const form = findCvtForm(s.instr);
    if (!form) return;
    const request = cvtRequestOf(form, s.cvtRegisters);
    if (inline) {
      const started = now();
      const value = inline.evaluateCvt(request);
      strikes = now() - started > budgetMs ? strikes + 1 : 0;
      if (strikes >= INLINE_STRIKES) inline = null;
      show({ status: 'ok', value });
      return;
    }
    store.getState().setCvtEvaluation({ status: 'pending' });
    show(await client.request('evaluate-cvt', (api) => api.evaluateCvt(request)));
  };

  void run();
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.instr !== prev.instr || s.cvtRegisters !== prev.cvtRegisters) void run();
  });
  return {
    stop: unsubscribe,
    useWorker: () => {
      inline = null;
    },
    where: () => (inline ? 'inline' : 'worker'),
  };
}
