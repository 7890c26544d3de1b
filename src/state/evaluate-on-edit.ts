import { findForm } from '../catalog/all-forms.ts';
import { familyLoadFailed, isFamilyLoaded, loadFamily } from '../engine/family-semantics.ts';
import { semanticsFamilyOf } from '../engine/semantics/family.ts';
import type { EngineApi, EvaluateAnswer, EvaluateRequest } from '../worker/api.ts';
import type { AsyncApi, EngineClient } from '../worker/client.ts';
import { createInlineEngine } from '../worker/evaluate-requests.ts';
import { loadMeasured, measuredOptionsNow } from './measured-tables.ts';
import { formRegistersHex } from './registers.ts';
import { useStore, type PlaygroundState } from './store.ts';

/**
 * Evaluates the current instruction on the current registers after every edit, for every
 * instruction alike. The newest request is evaluated inline, on the main thread, while
 * evaluations fit a small budget (their result is then painted in the frame that answers the
 * input), in the worker once they keep exceeding it. Where answers arrive late from the worker,
 * a superseded one is dropped.
 */

/**
 * One evaluation takes about 0.2 ms, so it runs inline, on the main thread: its result is then
 * painted in the frame that answers the input. (Chrome holds replies from a worker after an input
 * until the next frame has been painted, so a worker's answer always shows a frame late; see
 * docs/architecture.md, "Where evaluations run".) Should inline evaluations keep taking longer
 * than this — a slow device; one slow call is the first use of some code, not yet compiled —
 * evaluations move to the worker for good, where they cannot block the page.
 */
export const INLINE_BUDGET_MS = 4;
/** Over-budget inline evaluations in a row that send evaluations to the worker. */
export const INLINE_STRIKES = 3;

/**
 * The app's worker client (worker-client.ts), loaded with the first evaluation sent to the
 * worker: the page's first load evaluates inline and carries neither it nor Comlink.
 */
const workerClient: Pick<EngineClient, 'request'> = {
  request: <T>(channel: string, call: (api: AsyncApi) => Promise<T>, timeoutMs?: number) =>
    import('./worker-client.ts').then(({ engineClient }) =>
      engineClient.request(channel, call, timeoutMs),
    ),
};

/** What a test may replace; each has a default for the page. */
export interface EvaluationOptions {
  /** The worker client: evaluations go there once the inline budget was exceeded. */
  client: Pick<EngineClient, 'request'>;
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
 * What the state asks for now: a request, or a wait first (the form's family's semantics, or
 * measured tables, on their way).
 */
type Prepared = { request: EvaluateRequest } | { waitFor: Promise<unknown> } | null;

function prepare(s: PlaygroundState): Prepared {
  const form = findForm(s.instr);
  if (!form) return null;
  // The engine evaluates a form once its family's semantics are loaded (fetched once); where
  // they failed to load, the evaluation goes ahead and answers with the engine's error.
  const family = semanticsFamilyOf(form);
  if (!isFamilyLoaded(family) && !familyLoadFailed(family))
    return { waitFor: loadFamily(family).catch(() => null) };
  const request = {
    form: form.text,
    registers: formRegistersHex(form, s.registers),
    // A tensor core computes by its architecture's model: the target decides the result.
    ...(form.matrix ? { target: s.target } : {}),
  };
  // On a measured target an approximate form waits for the GPU's tables (fetched once).
  const measured = measuredOptionsNow(s.target, form);
  if (measured === 'loading') return { waitFor: loadMeasured(s.target) };
  return { request: measured ? { ...request, ...measured } : request };
}

/**
 * Re-evaluate whenever the instruction, the registers or the target change (the target decides
 * whether measured tables apply); the newest request wins.
 */
export function startEvaluation(options: Partial<EvaluationOptions> = {}): Evaluation {
  const {
    client = workerClient,
    store = useStore,
    budgetMs = INLINE_BUDGET_MS,
    now = () => performance.now(),
  } = options;
  let inline: Pick<EngineApi, 'evaluate'> | null =
    options.inline === undefined ? createInlineEngine() : options.inline;
  let strikes = 0;

  const show = (answer: EvaluateAnswer) => {
    const state = store.getState();
    if (answer.ok) state.setEvaluation({ status: 'done', result: answer.result, error: null });
    else state.setEvaluation({ status: 'error', error: answer.error });
  };

  const run = async () => {
    const state = store.getState();
    const prepared = prepare(state);
    if (!prepared) return;
    if ('waitFor' in prepared) {
      state.setEvaluation({ status: 'pending' });
      await prepared.waitFor;
      void run();
      return;
    }
    const { request } = prepared;
    if (inline) {
      const started = now();
      const answer = inline.evaluate(request);
      strikes = now() - started > budgetMs ? strikes + 1 : 0;
      if (strikes >= INLINE_STRIKES) inline = null;
      show(answer);
      return;
    }
    store.getState().setEvaluation({ status: 'pending' });
    const answer = await client.request('evaluate', (api) => api.evaluate(request));
    if (answer.status === 'superseded') return;
    if (answer.status === 'error')
      store.getState().setEvaluation({ status: 'error', error: answer.message });
    else show(answer.value);
  };

  // Evaluations start inline; the worker starts with the first request that needs it (a long
  // job, or evaluations moved there), so that its script is not among what the first paint waits
  // for.
  void run();
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.instr !== prev.instr || s.registers !== prev.registers || s.target !== prev.target)
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
