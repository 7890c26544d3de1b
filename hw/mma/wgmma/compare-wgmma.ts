/**
 * Compares a wgmma capture (hw/mma/wgmma/capture.sh) with the engine's tensor-core model:
 *
 *   node bin/run-ts.mjs hw/mma/wgmma/compare-wgmma.ts CAPTURE_DIR [--first K] [--target sm_XX]
 *
 * CAPTURE_DIR holds wgmma-cases.json (written with the program) and wgmma-d.txt (the GPU's
 * output). Per form and source of A: AGREE or DIFFER with agreeing / captured cases, then the
 * first K differences (case, model d, measured d, A's row, B's column, c as hex patterns).
 * Exit status: 0 every case agrees, 1 some differ, 2 bad usage or an unreadable capture.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WgmmaCase } from './cases.ts';
import { compareWgmma, readOutput } from './compare-lib.ts';

function usage(message: string): never {
  console.error(
    `${message}\nusage: node bin/run-ts.mjs hw/mma/wgmma/compare-wgmma.ts CAPTURE_DIR [--first K] [--target sm_XX]`,
  );
  process.exit(2);
}

const args = process.argv.slice(2);
let dir: string | undefined;
let first = 5;
let target = 'sm_90';
for (let i = 0; i < args.length; i++) {
  const arg = args[i]!;
  if (arg === '--first' && i + 1 < args.length) first = Number(args[++i]);
  else if (arg === '--target' && i + 1 < args.length) target = args[++i]!;
  else if (!arg.startsWith('--') && dir === undefined) dir = arg;
  else usage(`unknown argument ${arg}`);
}
if (!dir) usage('no capture directory');
if (!Number.isInteger(first) || first < 0) usage('--first takes a count');

let cases: WgmmaCase[];
let text: string;
try {
  cases = JSON.parse(readFileSync(join(dir, 'wgmma-cases.json'), 'utf8')) as WgmmaCase[];
  text = readFileSync(join(dir, 'wgmma-d.txt'), 'utf8');
} catch (e) {
  usage(`cannot read the capture: ${(e as Error).message}`);
}
const measured = readOutput(text, cases.length);
if ('error' in measured) usage(`wgmma-d.txt: ${measured.error}`);
const hex = (x: number) => `0x${x.toString(16)}`;
const device = /^# GPU: (.*)$/m.exec(text)?.[1] ?? 'no device line';
console.log(`wgmma capture ${dir}: ${device}; ${cases.length} cases, model of ${target}`);
let differing = 0;
for (const g of compareWgmma(cases, measured, target)) {
  const verdict = g.agree === g.cases ? 'AGREE ' : 'DIFFER';
  console.log(`${verdict} ${g.form} (A from ${g.aSource}): ${g.agree}/${g.cases}`);
  if (g.agree !== g.cases) differing++;
  for (const d of g.differences.slice(0, first))
    console.log(
      `  case ${d.index} ${d.case.name}: model ${hex(d.model)}, GPU ${hex(d.measured)}; a ${d.case.a.map(hex).join(',')}; b ${d.case.b.map(hex).join(',')}; c ${hex(d.case.c)}`,
    );
}
process.exit(differing === 0 ? 0 : 1);
