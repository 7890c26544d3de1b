import type { EngineApi } from '../worker/api.ts';
import type { Answer, EngineClient } from '../worker/client.ts';
import { createInlineEngine } from '../worker/evaluate-requests.ts';
import { useStore, type PlaygroundState } from './store.ts';
import { engineClient } from './worker-client.ts';

/**
 * The evaluate-on-edit loop shared by the arithmetic and the cvt workbench: after every edit the
 * newest request is evaluated inline, on the main thread, while evaluations fit a small budget
 * (their result is then painted in the frame that answers the input), in the worker once they
 * keep exceeding it. Where answers arrive late from the worker, a superseded one is dropped.
 */

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

/** What an engine evaluation answers: a result, or the reason there is none. */
export type EvaluationValue<R> =
  { readonly ok: true; readonly result: R } | { readonly ok: false; readonly error: string };

/** What the loop writes to the store (the shape of `setEvaluation` and `setCvtEvaluation`). */
export type EvaluationUpdate<R> =
  | { status: 'pending' }
  | { status: 'error'; error: string }
  | { status: 'done'; result: R; error: null };

/** The engine calls that run inline, on the main thread. */
type InlineKey = 'evaluate' | 'evaluateCvt';

/** What the state asks for now: a request, nothing to evaluate, or a wait before asking again. */
export type Prepared<Req> = { request: Req } | { waitFor: Promise<unknown> } | null;

/** What a test may replace; each has a default for the page. */
export interface EditEvaluationOptions<K extends InlineKey> {
  /** The worker client: evaluations go there once the inline budget was exceeded. */
  client: Pick<EngineClient, 'request'>;
  /** The engine on this thread; null sends every evaluation to the worker. */
  inline: Pick<EngineApi, K> | null;
  store: typeof useStore;
  budgetMs: number;
  now: () => number;
}

/** What one kind of evaluation is: when it reruns, what it asks, how, and where it writes. */
export interface EditEvaluationSpec<K extends InlineKey, Req, R> {
  /** Whether a store change calls for a new evaluation. */
  changed(state: PlaygroundState, previous: PlaygroundState): boolean;
  prepare(state: PlaygroundState): Prepared<Req>;
  evaluateInline(api: Pick<EngineApi, K>, request: Req): EvaluationValue<R>;
  evaluateInWorker(
    client: Pick<EngineClient, 'request'>,
    request: Req,
  ): Promise<Answer<EvaluationValue<R>>>;
  show(state: PlaygroundState, update: EvaluationUpdate<R>): void;
}

export interface EditEvaluation {
  stop(): void;
  /** Send evaluations to the worker from now on (as when the inline budget is exceeded). */
  useWorker(): void;
  /** Where evaluations run now. */
  where(): 'inline' | 'worker';
}

export function startEditEvaluation<K extends InlineKey, Req, R>(
  spec: EditEvaluationSpec<K, Req, R>,
  options: Partial<EditEvaluationOptions<K>>,
): EditEvaluation {
  const {
    client = engineClient,
    store = useStore,
    budgetMs = INLINE_BUDGET_MS,
    now = () => performance.now(),
  } = options;
  let inline: Pick<EngineApi, K> | null =
    options.inline === undefined ? createInlineEngine() : options.inline;
  let strikes = 0;

  const show = (answer: Answer<EvaluationValue<R>>) => {
    const state = store.getState();
    if (answer.status === 'superseded') return;
    if (answer.status === 'error') spec.show(state, { status: 'error', error: answer.message });
    else if (!answer.value.ok) spec.show(state, { status: 'error', error: answer.value.error });
    else spec.show(state, { status: 'done', result: answer.value.result, error: null });
  };

  const run = async () => {
    const state = store.getState();
    const prepared = spec.prepare(state);
    if (!prepared) return;
    if ('waitFor' in prepared) {
      spec.show(state, { status: 'pending' });
      await prepared.waitFor;
      void run();
      return;
    }
    const { request } = prepared;
    if (inline) {
      const started = now();
      const value = spec.evaluateInline(inline, request);
      strikes = now() - started > budgetMs ? strikes + 1 : 0;
      if (strikes >= INLINE_STRIKES) inline = null;
      show({ status: 'ok', value });
      return;
    }
    spec.show(store.getState(), { status: 'pending' });
    show(await spec.evaluateInWorker(client, request));
  };

  // Evaluations start inline; the worker starts with the first request that needs it (a long
  // job, or evaluations moved there), so that its script is not among what the first paint waits
  // for.
  void run();
  const unsubscribe = store.subscribe((s, prev) => {
    if (spec.changed(s, prev)) void run();
  });
  return {
    stop: unsubscribe,
    useWorker: () => {
      inline = null;
    },
    where: () => (inline ? 'inline' : 'worker'),
  };
}
