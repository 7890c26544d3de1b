/**
 * Worker thread for row-hashes.ts: recomputes the row hashes of some rows with the
 * engine, posts how many rows it has done every PROGRESS_INTERVAL_MS, and at the end the hashes as
 * [row, lo, hi] triples. Started through ts-worker.mjs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import {
  PROGRESS_INTERVAL_MS,
  rowHasherOf,
  type RowHashJob,
  type RowHashMessage,
} from './row-hashes.ts';

const job = workerData as RowHashJob & { module: string };
const hashRow = rowHasherOf(job);
const hashes: number[] = [];
let last = performance.now();
let pending = 0;
const post = (m: RowHashMessage): void => parentPort!.postMessage(m);
for (const row of job.rows) {
  const [lo, hi] = hashRow(row);
  hashes.push(row, lo, hi);
  pending++;
  if (performance.now() - last >= PROGRESS_INTERVAL_MS) {
    post({ kind: 'progress', rows: pending });
    pending = 0;
    last = performance.now();
  }
}
post({ kind: 'done', rows: pending, hashes });
