import { useCallback, useEffect, useRef, useState } from 'react';
import type { AsyncApi } from '../worker/client.ts';
import { engineClient } from './worker-client.ts';

/**
 * The one way a component asks the engine worker something: a request per key on a named
 * channel (newest wins), its answer shown only while the key is still the current one, progress
 * while it runs, and a way to stop it in the worker.
 */

export type WorkerAnswer<T, P = never> =
  | { readonly status: 'pending'; readonly progress: P | null }
  | { readonly status: 'ok'; readonly value: T }
  | { readonly status: 'error'; readonly message: string };

export interface RequestContext<P> {
  /** Unique in the page: names the request to the worker (e.g. to cancel a sweep). */
  readonly id: number;
  /** Progress of the request: shown while it is pending; each report restarts its timeout. */
  progress(p: P): void;
}

export interface WorkerRequestOptions {
  /** How long the worker may stay silent before it is judged hung (the client's default). */
  readonly timeoutMs?: number;
  /**
   * Stops request `id` in the worker: on `cancel()`, and when a new key or unmounting abandons
   * the request before its answer. Without it an abandoned request runs to its end unread.
   */
  readonly cancel?: (api: AsyncApi, id: number) => Promise<unknown>;
}

export interface WorkerRequest<T, P> {
  /** The current key's answer; null when the key is null (nothing is asked). */
  readonly answer: WorkerAnswer<T, P> | null;
  /** Ask again for the same key. */
  retry(): void;
  /** Stop the request in flight (options.cancel); its answer, if any, still arrives. */
  cancel(): void;
}

let nextRequestId = 1;

const PENDING = { status: 'pending', progress: null } as const;

/**
 * Ask `call` on `channel` for every new `key` (null: ask nothing). `call` may change from render
 * to render; only a new key (or `retry`) sends a new request.
 */
export function useWorkerRequest<T, P = never>(
  channel: string,
  key: string | null,
  call: (api: AsyncApi, request: RequestContext<P>) => Promise<T>,
  options: WorkerRequestOptions = {},
): WorkerRequest<T, P> {
  const [attempt, setAttempt] = useState(0);
  const [shown, setShown] = useState<{ token: string; answer: WorkerAnswer<T, P> } | null>(null);
  const latest = useRef({ call, options });
  useEffect(() => {
    latest.current = { call, options };
  });
  const inflight = useRef<number | null>(null);
  const token = key === null ? null : `${attempt} ${key}`;

  useEffect(() => {
    if (token === null) return;
    const id = nextRequestId++;
    const { timeoutMs, cancel } = latest.current.options;
    let live = true;
    let settled = false;
    inflight.current = id;
    const request: RequestContext<P> = {
      id,
      progress: (p) => {
        engineClient.keepAlive(channel);
        // Progress can arrive after the answer: only a request still running shows it.
        if (live && !settled) setShown({ token, answer: { status: 'pending', progress: p } });
      },
    };
    void engineClient
      .request(channel, (api) => latest.current.call(api, request), timeoutMs)
      .then((answer) => {
        settled = true;
        if (inflight.current === id) inflight.current = null;
        if (!live || answer.status === 'superseded') return;
        setShown({
          token,
          answer:
            answer.status === 'ok'
              ? { status: 'ok', value: answer.value }
              : { status: 'error', message: answer.message },
        });
      });
    return () => {
      live = false;
      if (inflight.current === id) inflight.current = null;
      if (!settled && cancel) engineClient.notify((api) => cancel(api, id));
    };
  }, [channel, token]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const cancel = useCallback(() => {
    const id = inflight.current;
    const stop = latest.current.options.cancel;
    if (id !== null && stop) engineClient.notify((api) => stop(api, id));
  }, []);
  const answer = token === null ? null : shown?.token === token ? shown.answer : PENDING;
  return { answer, retry, cancel };
}
