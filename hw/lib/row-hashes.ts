/**
 * Recomputing the row hashes of a hashed section with the engine, on worker threads
 * (row-hash-worker.ts) or in this thread, with progress as rows are done.
 */
import { Worker } from 'node:worker_threads';
import type { EngineOptions } from '../../src/engine/options.ts';
import type { SectionName } from './capture-files.ts';
import { cvtRowHasher } from './cvt-expected.ts';
import { cvtShapeByName, type CvtSectionName } from './cvt-plan.ts';
import { isCvtForm, rowHasher, shapeByName } from './expected.ts';
import type { GeneratorName } from './plan.ts';

export interface RowHashJob {
  readonly form: string;
  readonly generator: SectionName;
  readonly rows: readonly number[];
  readonly seed: number;
  readonly engineOptions?: Partial<EngineOptions>;
}

/** What a row-hash worker posts: rows done since its last message, and at the end the hashes. */
export type RowHashMessage =
  | { readonly kind: 'progress'; readonly rows: number }
  | { readonly kind: 'done'; readonly rows: number; readonly hashes: readonly number[] };

/** The row hasher of a job's form and section: a cvt form's (cvt-plan.ts) or an arithmetic one's. */
export function rowHasherOf(job: RowHashJob): (row: number) => [number, number] {
  return isCvtForm(job.form)
    ? cvtRowHasher(
        cvtShapeByName(job.form),
        job.generator as CvtSectionName,
        job.seed,
        job.engineOptions,
      )
    : rowHasher(shapeByName(job.form), job.generator as GeneratorName, job.seed, job.engineOptions);
}

/** Row hashing reports progress about every this many milliseconds. */
export const PROGRESS_INTERVAL_MS = 200;

/** Recomputes the hashes of `rows` on `jobs` worker threads (or in this thread). */
export async function rowHashes(
  job: RowHashJob,
  jobs: number,
  onRows: (rows: number) => void,
): Promise<Map<number, [number, number]>> {
  const result = new Map<number, [number, number]>();
  if (jobs <= 1 || job.rows.length < 2) {
    const hashRow = rowHasherOf(job);
    let last = performance.now();
    let pending = 0;
    for (const row of job.rows) {
      result.set(row, hashRow(row));
      pending++;
      if (performance.now() - last >= PROGRESS_INTERVAL_MS) {
        onRows(pending);
        pending = 0;
        last = performance.now();
      }
    }
    if (pending > 0) onRows(pending);
    return result;
  }
  // Rows dealt round-robin, so each thread gets rows of every part of the section.
  const parts = Array.from({ length: Math.min(jobs, job.rows.length) }, (_, k) =>
    job.rows.filter((_, i) => i % jobs === k),
  );
  const module = new URL('./row-hash-worker.ts', import.meta.url).href;
  const outputs = await Promise.all(
    parts.map(
      (rows) =>
        new Promise<readonly number[]>((resolve, reject) => {
          const worker = new Worker(new URL('./ts-worker.mjs', import.meta.url), {
            workerData: { ...job, rows, module },
          });
          worker.on('message', (m: RowHashMessage) => {
            if (m.rows > 0) onRows(m.rows);
            if (m.kind === 'done') {
              resolve(m.hashes);
              void worker.terminate();
            }
          });
          worker.once('error', reject);
          worker.once('exit', (code) => {
            if (code !== 0) reject(new Error(`row-hash worker exited with code ${code}`));
          });
        }),
    ),
  );
  for (const out of outputs)
    for (let i = 0; i < out.length; i += 3) result.set(out[i]!, [out[i + 1]!, out[i + 2]!]);
  return result;
}
