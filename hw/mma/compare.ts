/**
 * Compares an mma capture (hw/mma/capture.sh) with the engine's tensor-core model for sm_90,
 * element by element, and prints AGREE / DIFFER per form with the first differences.
 *
 *   node bin/run-ts.mjs hw/mma/compare.ts CAPTURE_DIR [--forms REGEX] [--first K] [--target sm_XX]
 *
 * --target compares with another architecture's model (default sm_90, the GPU's own): e.g.
 * sm_89 (Ada) or sm_100 (Blackwell), to see which model a differing form follows.
 *
 * Exit status: 0 every element agrees, 1 some differ, 2 bad usage or an unreadable capture.
 */
import { formatComparison } from './lib/compare-report.ts';
import { MmaCaptureError, readMmaCapture } from './lib/capture-files.ts';
import { compareMmaForm } from './lib/compare-mma.ts';
import { CAPTURE_TARGET } from './lib/forms.ts';
import { tensorCoreModelFor } from '../../src/catalog/tensor-core-models.ts';

function usage(message: string): never {
  console.error(
    `${message}\nusage: node bin/run-ts.mjs hw/mma/compare.ts CAPTURE_DIR [--forms REGEX] [--first K]`,
  );
  process.exit(2);
}

const args = process.argv.slice(2);
let dir: string | undefined;
let only = /./;
let first = 5;
let target = CAPTURE_TARGET;
for (let i = 0; i < args.length; i++) {
  const arg = args[i]!;
  if (arg === '--forms' && i + 1 < args.length) {
    try {
      only = new RegExp(args[++i]!);
    } catch (e) {
      usage(`--forms: ${(e as Error).message}`);
    }
  } else if (arg === '--first' && i + 1 < args.length) {
    first = Number(args[++i]);
    if (!Number.isInteger(first) || first < 0) usage('--first takes a count');
  } else if (arg === '--target' && i + 1 < args.length) {
    target = args[++i]!;
    if (!tensorCoreModelFor(target)) usage(`--target: no tensor-core model covers ${target}`);
  } else if (!arg.startsWith('--') && dir === undefined) dir = arg;
  else usage(`unknown argument ${arg}`);
}
if (!dir) usage('no capture directory');

try {
  const { summary, forms } = readMmaCapture(dir, only);
  const device = summary.device
    ? `${summary.device.name} (sm_${summary.device.sm}, driver API ${summary.device.driverVersion})`
    : `no device (${summary.mode})`;
  console.log(
    `mma capture ${dir}: ${device}, seed ${summary.seed}, ${forms.length} forms, model of ${target} (${tensorCoreModelFor(target)!.name})`,
  );
  let differing = 0;
  for (const captured of forms) {
    const comparison = compareMmaForm(captured, first, target);
    const { exact, corner, random } = comparison.sections;
    if (exact.differ + corner.differ + random.differ > 0) differing++;
    console.log(formatComparison(captured.form, comparison));
  }
  console.log(`${forms.length - differing} of ${forms.length} forms agree`);
  process.exit(differing > 0 ? 1 : 0);
} catch (e) {
  if (e instanceof MmaCaptureError) {
    console.error(e.message);
    process.exit(2);
  }
  throw e;
}
