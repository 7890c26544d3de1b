import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { findTarget, TARGETS, targetProvides, type Target } from '../../src/catalog/targets.ts';
import { suiteNeeds } from '../support/tools.ts';
import { findPtxas, inParallel, withTempDir } from './ptxas-runner.ts';

/**
 * The catalog's partial order on targets against ptxas's own rule for which GPU may run PTX
 * written for which `.target` ("PTX for .target sm_XY can be compiled to sm_MN where MN >= XY;
 * sm_XYf to sm_XZ, sm_XZf, sm_XZa of the same family with Z >= Y; sm_XYa only to sm_XYa").
 * For every catalog target `need` and every GPU `have` ptxas knows, an empty kernel with
 * `.target need` is assembled with `-arch have`. About 1,000 tiny runs, two at a time: a few
 * seconds.
 *
 * One difference is by design. A GPU named by its baseline name (sm_100) is the whole chip and
 * runs its family's code, so ptxas compiles `.target sm_100f` for `-arch sm_100`. As a PTX
 * `.target`, though, sm_100 is the baseline feature set without the family features, which is
 * what `targetProvides` answers. For a baseline GPU the test therefore compares with the
 * family target of the same number.
 */

const ptxas = suiteNeeds('target partial order against ptxas', ['ptxas']) ? findPtxas() : null;
/** The CI machine has 2 cores. */
const PARALLEL = 2;

interface Pair {
  readonly need: Target;
  readonly gpu: string;
  compiles?: boolean;
  message?: string;
}

function assemble(dir: string, pair: Pair, index: number): Promise<void> {
  const path = join(dir, `order-${index}.ptx`);
  writeFileSync(
    path,
    `.version 9.0\n.target ${pair.need.name}\n.address_size 64\n.visible .entry k()\n{\nret;\n}\n`,
  );
  return new Promise((resolve, reject) => {
    const child = spawn('ptxas', ['-arch', pair.gpu, path, '-o', '/dev/null'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c: string) => (err += c));
    child.on('error', reject);
    child.on('close', (code) => {
      pair.compiles = code === 0;
      pair.message = err.split('\n')[0] ?? '';
      resolve();
    });
  });
}

/** What the catalog says about running `.target need` code on the GPU `gpu`. */
function catalogSays(need: Target, gpu: string): boolean {
  const have = findTarget(gpu)!;
  if (have.variant === '' && need.variant === 'f') {
    const familyName = findTarget(`${gpu}f`);
    // Baseline GPUs without a family target (sm_75 … sm_90) have no family to run.
    return familyName !== undefined && targetProvides(familyName, need);
  }
  return targetProvides(have, need);
}

describe.runIf(ptxas !== null)('target partial order agrees with ptxas', () => {
  const gpus = ptxas?.gpuNames ?? [];
  const pairs: Pair[] = TARGETS.flatMap((need) => gpus.map((gpu) => ({ need, gpu })));

  beforeAll(async () => {
    await withTempDir((dir) =>
      inParallel(
        pairs.map((p, i) => () => assemble(dir, p, i)),
        PARALLEL,
      ),
    );
  }, 120_000);

  it('knows every GPU ptxas can compile for as a catalog target', () => {
    for (const gpu of gpus) expect(findTarget(gpu), gpu).toBeDefined();
    expect(pairs.length).toBe(TARGETS.length * gpus.length);
  });

  it('gives the same answer for every (target, GPU) pair', () => {
    const differ = pairs
      .filter((p) => p.compiles !== catalogSays(p.need, p.gpu))
      .map(
        (p) =>
          `.target ${p.need.name} on ${p.gpu}: ptxas ${p.compiles ? 'compiles' : `refuses (${p.message})`}, catalog says ${catalogSays(p.need, p.gpu)}`,
      );
    expect(differ, differ.slice(0, 20).join('\n')).toEqual([]);
  });

  it('pins the relations the spec names', () => {
    const compiles = (need: string, gpu: string) =>
      pairs.find((p) => p.need.name === need && p.gpu === gpu)?.compiles;
    expect(compiles('sm_90', 'sm_90a')).toBe(true);
    expect(compiles('sm_90a', 'sm_90')).toBe(false);
    expect(compiles('sm_100f', 'sm_100a')).toBe(true);
    expect(compiles('sm_100f', 'sm_103f')).toBe(true);
    expect(compiles('sm_100f', 'sm_120f')).toBe(false);
    expect(compiles('sm_100a', 'sm_103a')).toBe(false);
    // sm_101 is sm_110 under its PTX ISA 8.x name.
    expect(compiles('sm_101f', 'sm_110f')).toBe(true);
    expect(compiles('sm_101a', 'sm_110a')).toBe(true);
  });
});
