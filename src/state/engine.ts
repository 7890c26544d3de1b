import { wrap, type Remote } from 'comlink';
import { findForm } from '../catalog/index.ts';
import type { EngineApi, EvaluateRequest } from '../worker/api.ts';
import { EngineClient, type AsyncApi, type Endpoint } from '../worker/client.ts';
import { useStore } from './store.ts';

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
  const { createEngineApi } = await import('../worker/engine-api.ts');
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

function requestFor(s: ReturnType<typeof useStore.getState>): EvaluateRequest | null {
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

/** Re-evaluate whenever the instruction, operands or OOB marks change; newest request wins. */
export function startEvaluation(): () => void {
  const run = async () => {
    const request = requestFor(useStore.getState());
    if (!request) return;
    useStore.getState().setEvaluation({ status: 'pending' });
    const answer = await engine.request('evaluate', (api) => api.evaluate(request));
    if (answer.status === 'superseded') return;
    if (answer.status === 'error')
      useStore.getState().setEvaluation({ status: 'error', error: answer.message });
    else if (!answer.value.ok)
      useStore.getState().setEvaluation({ status: 'error', error: answer.value.error });
    else
      useStore
        .getState()
        .setEvaluation({ status: 'done', result: answer.value.result, error: null });
  };
  engine.start();
  void run();
  return useStore.subscribe((s, prev) => {
    if (s.instr !== prev.instr || s.operands !== prev.operands || s.oob !== prev.oob) void run();
  });
}

/** Hooks for the end-to-end tests: make the worker fail, or stop answering. */
export function installTestHooks(): void {
  (window as unknown as { __ptxfTest: unknown }).__ptxfTest = {
    crashWorker: () => engine.notify((api) => api.crash()),
    hangWorker: (ms: number) => engine.notify((api) => api.hang(ms)),
    // Dies silently (no error event, no answer), like a worker killed by the browser.
    killWorker: () => currentWorker?.terminate(),
  };
}
