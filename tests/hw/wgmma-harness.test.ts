/**
 * The wgmma.mma_async capture (hw/mma/wgmma): its cases cover every type combination at m64n8 and
 * m64n256 with A from a descriptor and from registers; its program is the Reproduce tab's kernels
 * (src/present/matrix-kernel.ts) with a host main that prints each case's d, and nvcc compiles it
 * for sm_90a (a kernel of every form and source of A: the whole program takes minutes, build.sh's
 * job); compare-wgmma's reading of a capture agrees with a stand-in written from the model and
 * finds a planted difference.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { findForm } from '../../src/catalog/all-forms.ts';
import { WGMMA_CAPTURE_FORMS, wgmmaCases, type WgmmaCase } from '../../hw/mma/wgmma/cases.ts';
import { compareWgmma, readOutput } from '../../hw/mma/wgmma/compare-lib.ts';
import { captureProgram } from '../../hw/mma/wgmma/program.ts';
import { modelElement } from '../../hw/mma/lib/model.ts';
import { suiteNeeds } from '../support/tools.ts';

const run = promisify(execFile);
const CASES = wgmmaCases();

/** The first case of every form and source of A. */
function onePerGroup(cases: readonly WgmmaCase[]): WgmmaCase[] {
  const seen = new Set<string>();
  return cases.filter((c) => {
    const key = `${c.form} ${c.aSource}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

describe('the wgmma capture: cases, program, comparison', () => {
  it('every type combination at m64n8 and m64n256, A from a descriptor and from registers', () => {
    expect(WGMMA_CAPTURE_FORMS).toHaveLength(24);
    expect(onePerGroup(CASES)).toHaveLength(48);
    const n8 = CASES.filter((c) => c.form === 'wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16');
    expect(n8.filter((c) => !c.name.startsWith('random')).length).toBeGreaterThan(60);
    expect(wgmmaCases()).toEqual(CASES); // seeded: the same cases on every machine
  });

  it('the program runs each case’s kernel, a warpgroup each, and prints its d', () => {
    const some = CASES.slice(0, 3);
    const text = captureProgram(some);
    expect(text.match(/__global__ void reproduce/g)).toHaveLength(3);
    expect(text).toContain('case_2::reproduce<<<1, 128>>>(out);');
    expect(text).toContain('std::printf("2 0x%04x\\n", d);');
  });

  it('a capture written from the model agrees; a planted difference is found', () => {
    const some = onePerGroup(CASES);
    const model = some.map((c) => modelElement(findForm(c.form)!, c.a, c.b, c.c));
    const text = ['# GPU: stand-in', ...model.map((d, i) => `${i} 0x${d.toString(16)}`)].join('\n');
    const read = readOutput(text, some.length);
    if ('error' in read) throw new Error(read.error);
    expect(compareWgmma(some, read).every((g) => g.agree === g.cases)).toBe(true);
    const planted = [...read];
    planted[5] = planted[5]! ^ 1;
    const groups = compareWgmma(some, planted);
    expect(groups.filter((g) => g.agree !== g.cases)).toHaveLength(1);
    expect(groups[5]!.differences[0]).toMatchObject({ index: 5, measured: planted[5] });
    expect(readOutput('0 0x3c00\n', 2)).toEqual({ error: 'no result for case 1' });
    expect(readOutput('0 3c00\n', 1)).toEqual({ error: "line 1: not a case's result: 0 3c00" });
  });
});

const SUITE = 'the wgmma capture program: nvcc compiles it for sm_90a';
describe.runIf(suiteNeeds(SUITE, ['nvcc']))(SUITE, () => {
  const dir = mkdtempSync(join(tmpdir(), 'ptxf-wgmma-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it(
    'a kernel of every form and source of A, and the host main',
    { timeout: 300_000 },
    async () => {
      const file = join(dir, 'wgmma-capture.cu');
      writeFileSync(file, captureProgram(onePerGroup(CASES)));
      await run(
        'nvcc',
        ['-arch=compute_90a', '-code=sm_90a', '-cubin', file, '-o', `${file}.cubin`],
        {
          maxBuffer: 1 << 24,
        },
      );
    },
  );
});
