/**
 * Writes the wgmma capture's program and its cases:
 *
 *   node bin/run-ts.mjs hw/mma/wgmma/gen-wgmma.ts OUT_DIR
 *
 * OUT_DIR/wgmma-capture.cu (hw/mma/wgmma/build.sh compiles it) and OUT_DIR/wgmma-cases.json (the
 * cases in the program's order; compare-wgmma.ts reads them beside the GPU's output).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { wgmmaCases } from './cases.ts';
import { captureProgram } from './program.ts';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node bin/run-ts.mjs hw/mma/wgmma/gen-wgmma.ts OUT_DIR');
  process.exit(2);
}
mkdirSync(dir, { recursive: true });
const cases = wgmmaCases();
writeFileSync(join(dir, 'wgmma-capture.cu'), captureProgram(cases));
writeFileSync(join(dir, 'wgmma-cases.json'), `${JSON.stringify(cases)}\n`);
console.log(`wrote ${cases.length} cases to ${dir}/wgmma-capture.cu and wgmma-cases.json`);
