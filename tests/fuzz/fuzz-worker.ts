/**
 * Runs one fuzz target in a worker thread for run-fuzz.ts, publishing the index of the case in
 * progress in shared memory so the main thread can tell a hang (no progress) from slow work and
 * stop it — a synchronous infinite loop cannot be interrupted from inside its own thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { FUZZ_RUNS } from './targets.ts';

export interface WorkerJob {
  readonly target: string;
  readonly count: number;
  readonly seed: number;
  /** Int32Array over a SharedArrayBuffer: [0] = index of the case in progress. */
  readonly progress: Int32Array;
}

const job = workerData as WorkerJob;
const run = FUZZ_RUNS.find((r) => r.name === job.target);
if (!run) throw new Error(`unknown fuzz target ${job.target}`);
const report = await run.run(job.count, job.seed, (index) => Atomics.store(job.progress, 0, index));
parentPort!.postMessage(report);
