import { proxy } from 'comlink';
import { SWEEP_INPUTS, type ApproxSweep, type SweepProgress } from '../engine/index.ts';
import { useWorkerRequest, type WorkerAnswer } from '../state/use-worker-request.ts';

/**
 * The error sweep of an approximate form, run in the worker: progress while it runs, cancel and
 * restart, and a finished sweep kept per form so that reopening the plot is instant.
 */

/** A sweep chunk (4,096 inputs) takes well under a second; this long a silence means hung. */
const SWEEP_SILENCE_MS = 5000;
const SWEEP_CHANNEL = 'approx-sweep';

const finishedSweeps = new Map<string, ApproxSweep>();

export type SweepState =
  | { readonly status: 'running'; readonly done: number; readonly total: number }
  | { readonly status: 'done'; readonly sweep: ApproxSweep }
  | { readonly status: 'cancelled' }
  | { readonly status: 'error'; readonly message: string };

export interface ApproxSweepControl {
  readonly state: SweepState;
  /** Stop the running sweep (it then reports 'cancelled'). */
  cancel(): void;
  /** Sweep again after a cancel or an error. */
  restart(): void;
}

export function useApproxSweep(formText: string): ApproxSweepControl {
  const kept = finishedSweeps.get(formText);
  const { answer, cancel, retry } = useWorkerRequest<ApproxSweep, SweepProgress>(
    SWEEP_CHANNEL,
    kept ? null : formText,
    async (api, request) => {
      const sweep = await api.approxSweep(request.id, formText, proxy(request.progress));
      if (!sweep.cancelled) finishedSweeps.set(formText, sweep);
      return sweep;
    },
    { timeoutMs: SWEEP_SILENCE_MS, cancel: (api, id) => api.cancelSweep(id) },
  );
  return { state: stateOf(kept, answer), cancel, restart: retry };
}

function stateOf(
  kept: ApproxSweep | undefined,
  answer: WorkerAnswer<ApproxSweep, SweepProgress> | null,
): SweepState {
  if (kept) return { status: 'done', sweep: kept };
  switch (answer?.status) {
    case undefined:
    case 'pending':
      return { status: 'running', ...(answer?.progress ?? { done: 0, total: SWEEP_INPUTS }) };
    case 'error':
      return { status: 'error', message: answer.message };
    case 'ok':
      return answer.value.cancelled
        ? { status: 'cancelled' }
        : { status: 'done', sweep: answer.value };
  }
}
