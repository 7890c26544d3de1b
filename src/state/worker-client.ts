import { wrap, type Remote } from 'comlink';
import type { EngineApi } from '../worker/api.ts';
import { EngineClient, type AsyncApi, type Endpoint } from '../worker/client.ts';
import { useStore } from './store.ts';

/**
 * The app's one engine worker client: it starts the Web Worker, restarts it when it fails, and
 * falls back to the engine on the main thread where workers fail for good or do not exist.
 * Long jobs (sweeps, tables) and, on slow devices, single evaluations go through it.
 */

/** An evaluation should take well under a millisecond; this long means the worker is stuck. */
const EVAL_TIMEOUT_MS = 3000;

function spawnWorker(onFailure: (why: string) => void): Endpoint {
  const worker = new Worker(new URL('../worker/engine.worker.ts', import.meta.url), {
    type: 'module',
  });
  worker.addEventListener('error', (e) => {
    e.preventDefault();
    onFailure(e.message || 'uncaught error');
  });
  worker.addEventListener('messageerror', () => onFailure('a message could not be read'));
  const api = wrap<EngineApi>(worker) as Remote<EngineApi>;
  return { api: api as unknown as AsyncApi, terminate: () => worker.terminate() };
}

/** The engine on the main thread, loaded only when workers fail (a chunk of its own). */
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

export const engineClient = new EngineClient({
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
