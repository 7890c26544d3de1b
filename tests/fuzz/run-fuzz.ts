/**
 * `npm run fuzz -- [count] [--seed N] [--target name] [--hang-ms N] [--json]`: runs `count` cases (default
 * 100,000) per fuzz target and prints, per target and in total, the cases run and the failures,
 * with the first failing inputs. Exit status 1 when any case failed.
 *
 * Each target runs in a worker thread watched from here: a case that makes no progress for
 * HANG_LIMIT_MS is reported as a hang (with its input, regenerated from the seed) and the
 * worker is stopped, so even an infinite loop ends the run with a report.
 */
import { Worker } from 'node:worker_threads';
import type { FuzzReport } from './harness.ts';
import type { WorkerJob } from './fuzz-worker.ts';
import { FUZZ_RUNS } from './targets.ts';

const args = process.argv.slice(2);
const valueOf = (flag: string) => {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
};
const count = Number(
  args.find(
    (a, i) => /^\d+$/.test(a) && !['--seed', '--target', '--hang-ms'].includes(args[i - 1] ?? ''),
  ) ?? 100_000,
);
const seed = Number(valueOf('--seed') ?? 20261122);
const only = valueOf('--target');
const json = args.includes('--json');
const HANG_LIMIT_MS = Number(valueOf('--hang-ms') ?? 30_000);

const runs = FUZZ_RUNS.filter((r) => only === undefined || r.name === only);
if (runs.length === 0) {
  console.error(`unknown target ${only}; targets: ${FUZZ_RUNS.map((r) => r.name).join(', ')}`);
  process.exit(2);
}

// A worker starts without this script's TypeScript loader: a tiny module registers tsx, then
// imports the TypeScript worker.
const workerBoot = new URL(
  `data:text/javascript,${encodeURIComponent(
    `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))}; register(); ` +
      `await import(${JSON.stringify(new URL('./fuzz-worker.ts', import.meta.url).href)});`,
  )}`,
);

function runInWorker(target: string): Promise<FuzzReport> {
  const progress = new Int32Array(new SharedArrayBuffer(4));
  const job: WorkerJob = { target, count, seed, progress };
  const worker = new Worker(workerBoot, { workerData: job });
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let lastIndex = -1;
    let lastChange = performance.now();
    const watchdog = setInterval(() => {
      const index = Atomics.load(progress, 0);
      if (index !== lastIndex) {
        lastIndex = index;
        lastChange = performance.now();
        return;
      }
      if (performance.now() - lastChange < HANG_LIMIT_MS) return;
      clearInterval(watchdog);
      void worker.terminate();
      const run = FUZZ_RUNS.find((r) => r.name === target)!;
      resolve({
        target,
        covers: run.covers,
        seed,
        cases: index + 1,
        failures: 1,
        examples: [
          {
            index,
            input: run.inputAt(seed, index),
            problem: `hung: no progress for ${HANG_LIMIT_MS / 1000} s`,
          },
        ],
        slowestMs: HANG_LIMIT_MS,
        totalMs: Math.round(performance.now() - started),
      });
    }, 1000);
    worker.once('message', (report: FuzzReport) => {
      clearInterval(watchdog);
      resolve(report);
    });
    worker.once('error', (e) => {
      clearInterval(watchdog);
      reject(e);
    });
  });
}

const reports: FuzzReport[] = [];
for (const run of runs) {
  const report = await runInWorker(run.name);
  reports.push(report);
  if (!json) {
    console.log(
      `${report.target.padEnd(14)} ${String(report.cases).padStart(9)} cases  ${String(report.failures).padStart(6)} failures  ` +
        `slowest case ${report.slowestMs} ms  total ${(report.totalMs / 1000).toFixed(1)} s   (${report.covers})`,
    );
    for (const f of report.examples)
      console.log(`    case ${f.index}: ${f.problem}\n      input ${f.input}`);
  }
}
const cases = reports.reduce((n, r) => n + r.cases, 0);
const failures = reports.reduce((n, r) => n + r.failures, 0);
if (json)
  console.log(JSON.stringify({ seed, casesPerTarget: count, cases, failures, targets: reports }));
else
  console.log(
    `${'total'.padEnd(14)} ${String(cases).padStart(9)} cases  ${String(failures).padStart(6)} failures  (seed ${seed})`,
  );
process.exitCode = failures === 0 ? 0 : 1;
