/**
 * Writes what a GPU that computes exactly the engine's sm_90 model would capture: a copy of a
 * capture (or of a self-test's inputs, `mma-capture --selftest DIR`) with every D from the
 * model. The tests use it as a GPU stand-in for compare.ts.
 *
 *   node bin/run-ts.mjs hw/mma/model-capture.ts FROM_DIR TO_DIR
 */
import { mkdirSync } from 'node:fs';
import { writeCaptureWithD } from './lib/capture-files.ts';
import { modelD } from './lib/compare-mma.ts';

const [from, to] = process.argv.slice(2);
if (!from || !to) {
  console.error('usage: node bin/run-ts.mjs hw/mma/model-capture.ts FROM_DIR TO_DIR');
  process.exit(2);
}
mkdirSync(to, { recursive: true });
writeCaptureWithD(from, to, 'model', modelD);
console.log(`wrote ${to}: D of every form from the sm_90 model`);
