import { findForm } from '../catalog/index.ts';
import type { EngineApi, EvaluateAnswer, EvaluateRequest } from '../worker/api.ts';
import type { Answer, EngineClient } from '../worker/client.ts';
import { createEngineApi } from '../worker/engine-api.ts';
import { loadMeasured, measuredOptionsNow } from './measured-tables.ts';
import { useStore, type PlaygroundState } from './store.ts';
import { engineClient } from './worker-client.ts';

/**
 * Evaluates the current instruction on the current operands after every edit: inline, on the
 * main thread, while evaluations fit a small budget (their result is then painted in the frame
 * that answers the input), in the worker once they keep exceeding it.
 */

function requestFor(s: PlaygroundState): EvaluateRequest | null {
  const form = findForm(s.instr);
  if (!form) return null;
  const has = (k: 'b' | 'c') => form.operands.some((o) => o.name === k);
  return {
    form: form.text,
    a: s.operands.a,
    ...(has('b') ? { b: s.operands.b } : {}),
    ...(has('c') ? { c: s.operands.c } : {}),
  };
}

/**
 * One evaluation takes about 0.2 ms, so it runs inline, on the main thread: its result is then
 * painted in the frame that answers the input. (Chrome holds replies from a worker after an input
 * until the next frame has been painted, so a worker's answer always shows a frame late; see
 * docs/architecture.md, "Where evaluations run".) Should inline evaluations keep taking longer than this — a slow device;
 * one slow call is the first use of some code, not yet compiled — evaluations move to the worker
 * for good, where they cannot block the page.
 */
export const INLINE_BUDGET_MS = 4;
/** Over-budget inline evaluations in a row that send evaluations to the worker. */
export const INLINE_STRIKES = 3;

export interface EvaluationOptions {
  /** The worker client: evaluations go there once the inline budget was exceeded. */
  client: Pick<EngineClient, 'start' | 'request'>;
  /** The engine on this thread; null sends every evaluation to the worker. */
  inline: Pick<EngineApi, 'evaluate'> | null;
  store: typeof useStore;
  budgetMs: number;
  now: () => number;
}

export interface Evaluation {
  stop(): void;
  /** Send evaluations to the worker from now on (as when the inline budget is exceeded). */
  useWorker(): void;
  /** Where evaluations run now. */
  where(): 'inline' | 'worker';
}

/**
 * Re-evaluate whenever the instruction, operands or target change (the target decides whether
 * measured tables apply); the newest request wins.
 */
export function startEvaluation(options: Partial<EvaluationOptions> = {}): Evaluation {
  const {
    client = engineClient,
    store = useStore,
    budgetMs = INLINE_BUDGET_MS,
    now = () => performance.now(),
  } = options;
  let inline = options.inline === undefined ? createEngineApi() : options.inline;
  let strikes = 0;

  const show = (answer: Answer<EvaluateAnswer>) => {
    const set = store.getState().setEvaluation;
    if (answer.status === 'superseded') return;
    if (answer.status === 'error') set({ status: 'error', error: answer.message });
    else if (!answer.value.ok) set({ status: 'error', error: answer.value.error });
    else set({ status: 'done', result: answer.value.result, error: null });
  };

  const run = async () => {
    const state = store.getState();
    const base = requestFor(state);
    if (!base) return;
    // On a measured target an approximate form waits for the GPU's tables (fetched once).
    const measured = measuredOptionsNow(state.target, findForm(base.form)!);
    if (measured === 'loading') {
      state.setEvaluation({ status: 'pending' });
      await loadMeasured(state.target);
      void run();
      return;
    }
    const request = measured ? { ...base, ...measured } : base;
    if (inline) {
      const started = now();
      const value = inline.evaluate(request);
      strikes = now() - started > budgetMs ? strikes + 1 : 0;
      if (strikes >= INLINE_STRIKES) inline = null;
      show({ status: 'ok', value });
      return;
    }
    store.getState().setEvaluation({ status: 'pending' });
    show(await client.request('evaluate', (api) => api.evaluate(request)));
  };

  client.start();
  void run();
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.instr !== prev.instr || s.operands !== prev.operands || s.target !== prev.target)
      void run();
  });
  return {
    stop: unsubscribe,
    useWorker: () => {
      inline = null;
    },
    where: () => (inline ? 'inline' : 'worker'),
  };
}
