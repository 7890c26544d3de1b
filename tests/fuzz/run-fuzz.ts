/**
 * `npm run fuzz -- [count] [--seed N] [--target name] [--json]`: runs `count` cases (default
 * 100,000) per fuzz target and prints, per target and in total, the cases run and the failures,
 * with the first failing inputs. Exit status 1 when any case failed.
 */
import type { FuzzReport } from './harness.ts';
import { FUZZ_RUNS } from './targets.ts';

const args = process.argv.slice(2);
const valueOf = (flag: string) => {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
};
const count = Number(
  args.find((a, i) => /^\d+$/.test(a) && !['--seed'].includes(args[i - 1] ?? '')) ?? 100_000,
);
const seed = Number(valueOf('--seed') ?? 20261122);
const only = valueOf('--target');
const json = args.includes('--json');

const runs = FUZZ_RUNS.filter((r) => only === undefined || r.name === only);
if (runs.length === 0) {
  console.error(`unknown target ${only}; targets: ${FUZZ_RUNS.map((r) => r.name).join(', ')}`);
  process.exit(2);
}

const reports: FuzzReport[] = [];
for (const run of runs) {
  const report = await run.run(count, seed);
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
