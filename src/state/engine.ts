import { wrap, type Remote } from 'comlink';
import { findForm } from '../catalog/index.ts';
import type { EngineApi, EvaluateAnswer, EvaluateRequest } from '../worker/api.ts';
import { EngineClient, type Answer, type AsyncApi, type Endpoint } from '../worker/client.ts';
import { createEngineApi } from '../worker/engine-api.ts';
import { useStore, type PlaygroundState } from './store.ts';

/** An evaluation should take well under a millisecond; this long means the worker is stuck. */
const EVAL_TIMEOUT_MS = 3000;

/** The worker in use, so a test can make it die the way a crashed worker process does. */
let currentWorker: Worker | null = null;

function spawnWorker(onFailure: (why: string) => void): Endpoint {
  const worker = new Worker(new URL('../worker/engine.worker.ts', import.meta.url), {
    type: 'module',
  });
  currentWorker = worker;
  worker.addEventListener('error', (e) => {
    e.preventDefault();
    onFailure(e.message || 'uncaught error');
  });
  worker.addEventListener('messageerror', () => onFailure('a message could not be read'));
  const api = wrap<EngineApi>(worker) as Remote<EngineApi>;
  return { api: api as unknown as AsyncApi, terminate: () => worker.terminate() };
}

async function mainThreadEngine(): Promise<Endpoint> {
  const api = createEngineApi();
  const asyncApi = Object.fromEntries(
    Object.entries(api).map(([k, fn]) => [
      k,
      (...args: unknown[]) => Promise.resolve((fn as (...a: unknown[]) => unknown)(...args)),
    ]),
  ) as unknown as AsyncApi;
  return { api: asyncApi, terminate: () => undefined };
}

export const engine = new EngineClient({
  spawn: (onFailure) =>
    typeof Worker === 'undefined' ? mainThreadFallbackEndpoint(onFailure) : spawnWorker(onFailure),
  fallback: mainThreadEngine,
  timeoutMs: EVAL_TIMEOUT_MS,
  maxRestarts: 3,
  onHealth: (health, message) => useStore.getState().setWorkerHealth(health, message),
});

/** Where workers do not exist at all, report a failure at once so the client falls back. */
function mainThreadFallbackEndpoint(onFailure: (why: string) => void): Endpoint {
  queueMicrotask(() => onFailure('Web Workers are not available'));
  return {
    api: new Proxy({}, { get: () => () => new Promise(() => undefined) }) as AsyncApi,
    terminate: () => undefined,
  };
}

function requestFor(s: PlaygroundState): EvaluateRequest | null {
  const form = findForm(s.instr);
  if (!form) return null;
  const has = (k: 'b' | 'c') => form.operands.some((o) => o.name === k);
  const marks = Object.fromEntries(
    (['a', 'b', 'c'] as const).filter((k) => s.oob[k][0] || s.oob[k][1]).map((k) => [k, s.oob[k]]),
  );
  return {
    form: form.text,
    a: s.operands.a,
    ...(has('b') ? { b: s.operands.b } : {}),
    ...(has('c') ? { c: s.operands.c } : {}),
    ...(Object.keys(marks).length ? { oob: marks } : {}),
  };
}

/**
 * One evaluation takes about 0.2 ms, so it runs inline, on the main thread: its result is then
 * painted in the frame that answers the input. (Chrome holds replies from a worker after an input
 * until the next frame has been painted, so a worker's answer always shows a frame late; see
 * README, "Decisions".) Should inline evaluations keep taking longer than this — a slow device;
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

/** Re-evaluate whenever the instruction, operands or OOB marks change; the newest request wins. */
export function startEvaluation(options: Partial<EvaluationOptions> = {}): Evaluation {
  const {
    client = engine,
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
    const request = requestFor(store.getState());
    if (!request) return;
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
    if (s.instr !== prev.instr || s.operands !== prev.operands || s.oob !== prev.oob) void run();
  });
  return {
    stop: unsubscribe,
    useWorker: () => {
      inline = null;
    },
    where: () => (inline ? 'inline' : 'worker'),
  };
}

/** Hooks for the end-to-end tests: make the worker fail, or stop answering. */
export function installTestHooks(evaluation: Evaluation): void {
  (window as unknown as { __ptxfTest: unknown }).__ptxfTest = {
    // The fault tests send evaluations to the worker, as on a device too slow to run them inline.
    evaluateInWorker: () => evaluation.useWorker(),
    crashWorker: () => engine.notify((api) => api.crash()),
    hangWorker: (ms: number) => engine.notify((api) => api.hang(ms)),
    // Dies silently (no error event, no answer), like a worker killed by the browser.
    killWorker: () => currentWorker?.terminate(),
  };
}
