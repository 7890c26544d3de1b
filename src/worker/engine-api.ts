// Every family's semantics, provided before anything evaluates (engine/family-semantics.ts).
import '../engine/all-families.ts';
import { cornerTable, specCornerChecks, startSweep, type Sweep } from '../engine/analysis/index.ts';
import { compareScaleRules } from '../engine/block-scale/index.ts';
import type { ApproxTables, EngineApi, SweepRequest } from './api.ts';
import { evaluateRequest } from './evaluate-requests.ts';

/**
 * The engine behind the worker contract: each request goes to the engine function that answers
 * it. The worker exposes this object with Comlink, and the client runs the same object on the
 * main thread when workers fail. What is left here is transport: the options a request carries,
 * and the sweep's chunks, with a pause between them so that a cancel message gets through.
 */

/**
 * A sweep runs in 16 chunks (of at least 4,096 inputs): progress and cancellation happen between
 * them, a few times a second even for a million .f32 values.
 */
const SWEEP_CHUNKS = 16;
const MIN_CHUNK = 4096;

/** Let the worker's message queue run (a `cancelSweep` call) before the next chunk. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

const optionsOf = (approxTables: ApproxTables) => (approxTables ? { approxTables } : undefined);

export function createEngineApi(): EngineApi {
  const cancelled = new Set<number>();
  return {
    ping: () => 'pong',
    evaluate: evaluateRequest,
    cornerTable: (form: string, target?: string) =>
      cornerTable(form, target ? { target } : undefined),
    specCornerChecks: (form: string) => specCornerChecks(form),
    sweep: async (id: number, request: SweepRequest, onProgress): Promise<Sweep> => {
      const run = startSweep(
        {
          form: request.form,
          inputs: request.inputs,
          ...(request.rbits !== undefined ? { rbits: BigInt(request.rbits) } : {}),
        },
        optionsOf(request.approxTables),
      );
      const chunk = Math.max(MIN_CHUNK, Math.ceil(run.total / SWEEP_CHUNKS));
      while (!run.finished) {
        if (cancelled.delete(id)) return run.result(true);
        onProgress(run.advance(chunk));
        await nextTask();
      }
      return run.result(false);
    },
    cancelSweep: (id: number) => {
      cancelled.add(id);
    },
    compareBlock: (request) => compareScaleRules(request),
  };
}
