/**
 * Writes the measured tanh.approx / ex2.approx tables of a committed capture where the
 * playground and the CLI load them (hw/lib/measured-export.ts; the format: hw/README.md).
 *
 *   node bin/run-ts.mjs hw/export-measured.ts [<capture-dir> <dir>]
 *
 * Default: the H100 capture hw/captures/sm_90/h100 into public/measured/sm_90/.
 * tests/hw/measured-tables.test.ts checks the written tables against the capture.
 */
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportMeasured } from './lib/measured-export.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const MEASURED_ROOT = join(ROOT, 'public/measured');
export const DEFAULT_CAPTURE = join(ROOT, 'hw/captures/sm_90/h100');

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [captureDir = DEFAULT_CAPTURE, dir = 'sm_90', ...rest] = process.argv.slice(2);
  if (rest.length > 0) {
    console.error('usage: node bin/run-ts.mjs hw/export-measured.ts [<capture-dir> <dir>]');
    process.exitCode = 2;
  } else {
    const set = exportMeasured({
      captureDir,
      // capture-all.sh writes device.txt beside the capture directories: the packed copy keeps
      // it beside summary.json of its top-level (main) capture.
      deviceFile: join(captureDir, 'device.txt'),
      outRoot: MEASURED_ROOT,
      dir,
      captureName: relative(ROOT, captureDir),
    });
    console.log(
      `wrote ${Object.keys(set.tables).join(', ')} for ${set.targets.join(', ')} (${set.measuredOn}) to ${relative(ROOT, join(MEASURED_ROOT, dir))}`,
    );
  }
}
