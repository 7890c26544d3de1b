/**
 * `node bin/run-ts.mjs tests/cli/batch-million.ts [lines] [--json]`: the real `ptxf batch` on a
 * million mixed lines (valid, invalid, garbage, blank), every answer checked, peak memory sampled.
 * Prints lines, answers, failures by design, mismatches, exit status, peak RSS and wall time.
 */
import { canMeasureRss, runBatchProcess } from './batch-process.ts';

const args = process.argv.slice(2);
const lines = Number(args.find((a) => /^\d+$/.test(a)) ?? 1_000_000);
const run = await runBatchProcess(lines);
const linesPerSecond = Math.round(run.answers / (run.wallMs / 1000));
if (args.includes('--json')) {
  console.log(JSON.stringify({ ...run, linesPerSecond }));
} else {
  console.log(
    `ptxf batch: ${run.lines} lines in, ${run.answers} answers out (${run.ok} ok, ${run.failed} errors by design)`,
  );
  console.log(
    `  mismatched answers: ${run.mismatches.length}${run.mismatches.length ? `\n    ${run.mismatches.join('\n    ')}` : ''}`,
  );
  console.log(`  exit status: ${run.status} (1 expected: the mix contains bad lines)`);
  console.log(`  stderr: ${run.stderr === '' ? '(empty)' : run.stderr.slice(0, 400)}`);
  if (canMeasureRss)
    console.log(
      `  resident memory: ${run.earlyRssMiB} MiB after the first tenth, peak ${run.peakRssMiB} MiB`,
    );
  console.log(
    `  wall time: ${(run.wallMs / 1000).toFixed(1)} s (${linesPerSecond} lines/s, including this checker's own parsing)`,
  );
}
const good =
  run.answers === run.lines && run.mismatches.length === 0 && run.status === 1 && run.stderr === '';
process.exitCode = good ? 0 : 1;
