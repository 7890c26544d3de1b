import {
  cornerTable,
  cvtCornerTable,
  startCvtSweep,
  type CvtSweep,
  type CvtSweepRequest,
  specCornerChecks,
  startApproxSweep,
  type ApproxSweep,
  type SweepProgress,
} from '../engine/index.ts';
import type { EngineApi } from './api.ts';
import { evaluateCvtRequest, evaluateRequest } from './evaluate-requests.ts';

/**
 * The engine behind the worker contract: each request goes to the engine function that answers
 * it. The worker exposes this object with Comlink, and the client runs the same object on the
 * main thread when workers fail. What is left here is transport: errors as data, and the
 * sweep's chunks, with a pause between them so that a cancel message gets through.
 */

/** Inputs per sweep chunk: progress and cancellation happen between chunks. */
const SWEEP_CHUNK = 4096;

/** Inputs per cvt sweep chunk: the fast path converts these in a few milliseconds. */
const CVT_SWEEP_CHUNK = 65536;

/** Let the worker's message queue run (a `cancelSweep` call) before the next chunk. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

export function createEngineApi(): EngineApi {
  const cancelled = new Set<number>();
  return {
    ping: () => 'pong',
    evaluate: evaluateRequest,
    cornerTable,
    specCornerChecks,
    approxSweep: async (
      id: number,
      formText: string,
      onProgress: (p: SweepProgress) => void,
    ): Promise<ApproxSweep> => {
      const sweep = startApproxSweep(formText);
      while (!sweep.finished) {
        if (cancelled.delete(id)) return sweep.result(true);
        onProgress(sweep.advance(SWEEP_CHUNK));
        await nextTask();
      }
      return sweep.result(false);
    },
    cancelSweep: (id: number) => {
      cancelled.add(id);
    },
    evaluateCvt: evaluateCvtRequest,
    cvtCornerTable: (form: string) => cvtCornerTable(form),
    cvtSweep: async (
      id: number,
      request: CvtSweepRequest,
      onProgress: (p: SweepProgress) => void,
    ): Promise<CvtSweep> => {
      const sweep = startCvtSweep(request);
      while (!sweep.finished) {
        if (cancelled.delete(id)) return sweep.result(true);
        onProgress(sweep.advance(CVT_SWEEP_CHUNK));
        await nextTask();
      }
      return sweep.result(false);
    },
  };
}
