import type { CvtSourceName } from '../catalog/index.ts';
import {
  cornerTable,
  cvtCornerTable,
  evaluate,
  evaluateCvt,
  startCvtSweep,
  type CvtInput,
  type CvtSweep,
  type CvtSweepRequest,
  specCornerChecks,
  startApproxSweep,
  type ApproxSweep,
  type SweepProgress,
} from '../engine/index.ts';
import type {
  CvtEvaluateAnswer,
  CvtEvaluateRequest,
  EngineApi,
  EvaluateAnswer,
  EvaluateRequest,
} from './api.ts';

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

function evaluateRequest(req: EvaluateRequest): EvaluateAnswer {
  try {
    const input = { a: req.a, b: req.b, c: req.c, oob: req.oob };
    const options = req.approxTables ? { approxTables: req.approxTables } : undefined;
    return { ok: true, result: evaluate(req.form, input, options) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

function evaluateCvtRequest(req: CvtEvaluateRequest): CvtEvaluateAnswer {
  try {
    const input: Partial<Record<CvtSourceName, bigint>> = {};
    for (const [name, hex] of Object.entries(req.registers)) {
      if (!/^0x[0-9a-f]+$/i.test(hex ?? ''))
        throw new Error(`operand ${name}: '${hex}' is not 0x… hex`);
      input[name as CvtSourceName] = BigInt(hex!);
    }
    return { ok: true, result: evaluateCvt(req.form, input as CvtInput) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

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
    crash: () => {
      setTimeout(() => {
        throw new Error('crash requested by the test hook');
      }, 0);
    },
    hang: (ms: number) => {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        /* busy: the worker stops answering */
      }
    },
  };
}
