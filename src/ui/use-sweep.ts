import { proxy } from 'comlink';
import type { Sweep, SweepRequest } from '../worker/api.ts';
import { useWorkerRequest, type WorkerAnswer } from '../state/use-worker-request.ts';

/**
 * A sweep run in the worker, of any single-input form: progress while it runs, cancel and
 * restart, and the last finished sweeps kept by request (`key`) so that reopening the panel is
 * instant.
 */

/** A chunk (a sixteenth of the sweep) takes well under a second; this long a silence means hung. */
const SWEEP_SILENCE_MS = 5000;
const SWEEP_CHANNEL = 'sweep';
const KEPT = 8;

const finished = new Map<string, { sweep: Sweep; ms: number }>();

export type SweepState =
  | { readonly status: 'idle' }
  | { readonly status: 'running'; readonly done: number; readonly total: number }
  | { readonly status: 'done'; readonly sweep: Sweep; readonly ms: number | null }
  | { readonly status: 'cancelled' }
  | { readonly status: 'error'; readonly message: string };

export interface SweepControl {
  readonly state: SweepState;
  cancel(): void;
  restart(): void;
}

/**
 * The sweep `request` (null: none), known by `key` (what it sweeps: the form, its inputs, the
 * random bits and the measured tables' GPU — the tables themselves are too big for a key).
 */
export function useSweep(request: SweepRequest | null, key: string | null): SweepControl {
  const kept = key === null ? undefined : finished.get(key);
  const { answer, cancel, retry } = useWorkerRequest<Sweep, { done: number; total: number }>(
    SWEEP_CHANNEL,
    kept || key === null ? null : key,
    async (api, req) => {
      const started = performance.now();
      const sweep = await api.sweep(req.id, request!, proxy(req.progress));
      if (!sweep.cancelled) {
        finished.set(key!, { sweep, ms: performance.now() - started });
        if (finished.size > KEPT) finished.delete(finished.keys().next().value!);
      }
      return sweep;
    },
    { timeoutMs: SWEEP_SILENCE_MS, cancel: (api, id) => api.cancelSweep(id) },
  );
  return { state: stateOf(key, kept, answer), cancel, restart: retry };
}

function stateOf(
  key: string | null,
  kept: { sweep: Sweep; ms: number } | undefined,
  answer: WorkerAnswer<Sweep, { done: number; total: number }> | null,
): SweepState {
  if (key === null) return { status: 'idle' };
  if (kept) return { status: 'done', ...kept };
  switch (answer?.status) {
    case undefined:
    case 'pending':
      return { status: 'running', ...(answer?.progress ?? { done: 0, total: 1 }) };
    case 'error':
      return { status: 'error', message: answer.message };
    case 'ok':
      return answer.value.cancelled
        ? { status: 'cancelled' }
        : { status: 'done', sweep: answer.value, ms: finished.get(key)?.ms ?? null };
  }
}
