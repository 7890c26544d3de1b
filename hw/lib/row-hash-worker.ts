/**
 * Worker thread for hw/lib/compare-capture.ts: recomputes the row hashes of some rows with the
 * engine and posts them back as [row, lo, hi] triples. Started through ts-worker.mjs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { expectedRowHash, shapeByName } from './expected.ts';
import type { RowHashJob } from './compare-capture.ts';

const job = workerData as RowHashJob & { module: string };
const shape = shapeByName(job.form);
const out: number[] = [];
for (const row of job.rows) {
  const [lo, hi] = expectedRowHash(shape, job.generator, row, job.seed, job.engineOptions);
  out.push(row, lo, hi);
}
parentPort!.postMessage(out);
