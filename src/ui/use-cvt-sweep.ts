import { proxy } from 'comlink';
import type { CvtSweep, CvtSweepRequest, SweepProgress } from '../engine/index.ts';
import { useWorkerRequest, type WorkerAnswer } from '../state/use-worker-request.ts';

/**
 * A cvt sweep run in the worker: progress while it runs, cancel and restart, and the last
 * finished sweeps kept by request so that reopening the panel is instant.
 */

/** A chunk (65,536 inputs) takes a few ms; this long a silence means the worker is hung. */
const SWEEP_SILENCE_MS = 5000;
const SWEEP_CHANNEL = 'cvt-sweep';
const KEPT = 8;

const finished = new Map<string, CvtSweep>();

export type CvtSweepState =
  | { readonly status: 'idle' }
  | { readonly status: 'running'; readonly done: number; readonly total: number }
  | { readonly status: 'done'; readonly sweep: CvtSweep; readonly ms: number | null }
  | { readonly status: 'cancelled' }
  | { readonly status: 'error'; readonly message: string };

export interface CvtSweepControl {
  readonly state: CvtSweepState;
  cancel(): void;
  restart(): void;
}

const timings = new Map<string, number>();

export function useCvtSweep(request: CvtSweepRequest | null): CvtSweepControl {
  const key = request === null ? null : JSON.stringify(request);
  const kept = key === null ? undefined : finished.get(key);
  const { answer, cancel, retry } = useWorkerRequest<CvtSweep, SweepProgress>(
    SWEEP_CHANNEL,
    kept || key === null ? null : key,
    async (api, req) => {
      const started = performance.now();
      const sweep = await api.cvtSweep(req.id, request!, proxy(req.progress));
      if (!sweep.cancelled) {
        finished.set(key!, sweep);
        timings.set(key!, performance.now() - started);
        if (finished.size > KEPT) finished.delete(finished.keys().next().value!);
      }
      return sweep;
    },
    { timeoutMs: SWEEP_SILENCE_MS, cancel: (api, id) => api.cancelSweep(id) },
  );
  return {
    state: stateOf(key, kept, answer),
    cancel,
    restart: retry,
  };
}

function stateOf(
  key: string | null,
  kept: CvtSweep | undefined,
  answer: WorkerAnswer<CvtSweep, SweepProgress> | null,
): CvtSweepState {
  if (key === null) return { status: 'idle' };
  if (kept) return { status: 'done', sweep: kept, ms: timings.get(key) ?? null };
  switch (answer?.status) {
    case undefined:
    case 'pending':
      return { status: 'running', ...(answer?.progress ?? { done: 0, total: 1 }) };
    case 'error':
      return { status: 'error', message: answer.message };
    case 'ok':
      return answer.value.cancelled
        ? { status: 'cancelled' }
        : { status: 'done', sweep: answer.value, ms: timings.get(key) ?? null };
  }
}
