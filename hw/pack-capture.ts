/**
 * Packs a capture root for the repository, or verifies a packed copy (hw/lib/capture-pack.ts).
 *
 *   node bin/run-ts.mjs hw/pack-capture.ts <capture-root> <out-dir>
 *   node bin/run-ts.mjs hw/pack-capture.ts --verify <packed-dir> [<capture-root>]
 *
 * Exit status: 0 done / verified, 1 verification problems, 2 bad arguments or unreadable files.
 */
import { fileURLToPath } from 'node:url';
import { packCapture, verifyPacked } from './lib/capture-pack.ts';

const USAGE =
  'usage: node bin/run-ts.mjs hw/pack-capture.ts <capture-root> <out-dir>\n' +
  '       node bin/run-ts.mjs hw/pack-capture.ts --verify <packed-dir> [<capture-root>]';

function main(argv: readonly string[]): number {
  if (argv[0] === '--verify' && (argv.length === 2 || argv.length === 3)) {
    const report = verifyPacked(argv[1]!, argv[2]);
    for (const p of report.problems) console.log(`PROBLEM ${p}`);
    console.log(
      `${report.matched} files match SHA256SUMS; ${report.blocksChecked} block-digest files checked against the raw row hashes` +
        (report.blocksUnchecked ? `, ${report.blocksUnchecked} not (no capture root given)` : '') +
        `; ${report.problems.length} problems`,
    );
    return report.problems.length === 0 ? 0 : 1;
  }
  if (argv.length !== 2 || argv.some((a) => a.startsWith('--'))) {
    console.error(USAGE);
    return 2;
  }
  const written = packCapture(argv[0]!, argv[1]!);
  const total = written.reduce((n, w) => n + w.bytes, 0);
  console.log(`wrote ${written.length} files, ${total} bytes, and SHA256SUMS to ${argv[1]}`);
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (e) {
    console.error(`pack-capture: ${(e as Error).message}`);
    process.exitCode = 2;
  }
}
