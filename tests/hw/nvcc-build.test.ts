/**
 * Builds hw/capture.cu with nvcc for sm_75, sm_80, sm_90 and sm_100 and checks that ptxas
 * assembled the inline PTX of exactly the forms each architecture supports (the arithmetic's
 * and the cvt forms of hw/lib/cvt-plan.ts); then runs the host-side self-test of the sm_100
 * build (no GPU needed) against hw/lib, so the CUDA mirror of the input generators and of the
 * row hash cannot drift from the TypeScript one.
 * Needs nvcc and ptxas (tests/support/tools.ts says what happens without them). Budget: 171 s of
 * wall time on this 2-core machine with the cvt forms (measured, other tests running beside it).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashFinish, hashStep, ROW_HASH_SEED_HI, ROW_HASH_SEED_LO } from '../../hw/lib/hash.ts';
import {
  DEFAULT_SAMPLE_ROWS,
  DEFAULT_SAMPLE_SEED,
  ROW_LENGTH,
  capturedForms,
  inputsAt,
  minSmOf,
  sectionsOf,
} from '../../hw/lib/plan.ts';
import { mix32 } from '../../hw/lib/sample.ts';
import { cvtCapturedForms, cvtInputsAt, cvtMinSmOf, cvtSectionsOf } from '../../hw/lib/cvt-plan.ts';
import { SUMMARY_FILE } from '../../hw/lib/capture-files.ts';
import { DEFAULT_COMPARE_OPTIONS, compareCapture } from '../../hw/lib/compare-capture.ts';
import { writeExpectedCapture } from '../../hw/lib/expected.ts';
import { suiteNeeds } from '../support/tools.ts';

const run = promisify(execFile);
const HW = join(import.meta.dirname, '../../hw');
const ARCHS = [75, 80, 90, 100] as const;

const nvcc = suiteNeeds('hw/capture.cu with nvcc', ['nvcc', 'ptxas']);

/** Runs the jobs at most `limit` at a time (the machine has 2 cores). */
async function pooled<T>(jobs: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array<T>(jobs.length);
  let next = 0;
  const lanes = Array.from({ length: limit }, async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]!();
    }
  });
  await Promise.all(lanes);
  return results;
}

function hex8(n: number | bigint): string {
  return n.toString(16).padStart(8, '0');
}

/** The indices of a section the self-test prints: first, second, last and five spread ones. */
function selftestIndices(size: number): number[] {
  return [0, 1, size - 1, ...[0, 1, 2, 3, 4].map((j) => mix32(j + 0x1234) % size)];
}

/** Every captured form's text and least sm: the arithmetic's, then cvt's (the header's order). */
function everyForm(): { text: string; minSm: number }[] {
  return [
    ...capturedForms().map((s) => ({ text: s.form.text, minSm: minSmOf(s.form) })),
    ...cvtCapturedForms().map((s) => ({ text: s.form.text, minSm: cvtMinSmOf(s.form) })),
  ];
}

/** What `capture --selftest` must print, computed from hw/lib. */
function expectedSelftest(): string[] {
  const lines: string[] = [];
  for (const shape of capturedForms()) {
    for (const s of sectionsOf(shape, DEFAULT_SAMPLE_ROWS)) {
      const size = s.layout === 'full' ? s.size : s.size * ROW_LENGTH;
      for (const index of selftestIndices(size)) {
        const r = inputsAt(shape, s.name, index, DEFAULT_SAMPLE_SEED);
        lines.push(
          `inputs ${shape.form.text} ${s.name} ${index} ${hex8(r.a)} ${hex8(r.b)} ${hex8(r.c)}`,
        );
      }
    }
  }
  for (const shape of cvtCapturedForms()) {
    for (const s of cvtSectionsOf(shape)) {
      const size = s.layout === 'full' ? s.size : s.size * ROW_LENGTH;
      for (const index of selftestIndices(size)) {
        const r = cvtInputsAt(shape, s.name, index, DEFAULT_SAMPLE_SEED);
        lines.push(
          `inputs ${shape.form.text} ${s.name} ${index} ${hex8(r.a)} ${hex8(r.b)} 00000000`,
        );
      }
    }
  }
  for (const n of [0, 1, 65536]) {
    let lo = ROW_HASH_SEED_LO;
    let hi = ROW_HASH_SEED_HI | 0;
    for (let i = 0; i < n; i++) {
      lo = hashStep(lo, mix32(i));
      hi = hashStep(hi, mix32(i));
    }
    lines.push(`hash ${n} ${hex8(hashFinish(lo, n))} ${hex8(hashFinish(hi, n))}`);
  }
  return lines;
}

describe.runIf(nvcc)('hw/capture.cu with nvcc', () => {
  let dir = '';
  const outcomes = new Map<string, { ok: boolean; log: string }>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ptxf-hw-'));
    const attempt = async (key: string, steps: [string, string[]][]): Promise<void> => {
      let log = '';
      try {
        for (const [cmd, args] of steps) {
          const { stdout, stderr } = await run(cmd, args, { cwd: HW, maxBuffer: 64 << 20 });
          log += stdout + stderr;
        }
        outcomes.set(key, { ok: true, log });
      } catch (e) {
        const err = e as { stdout?: string; stderr?: string; message: string };
        outcomes.set(key, {
          ok: false,
          log: log + (err.stdout ?? '') + (err.stderr ?? '') + err.message,
        });
      }
    };
    // The full build (host and device code) is the slowest job: start it first. It keeps its
    // intermediate files, whose capture.ptx is the sm_100 PTX that its ptxas step assembled.
    const keep = join(dir, 'keep');
    mkdirSync(keep);
    const jobs = [
      () =>
        attempt('full', [
          [
            'nvcc',
            [
              '-std=c++17',
              '-O2',
              '-arch=sm_100',
              '-keep',
              '-keep-dir',
              keep,
              '-o',
              join(dir, 'capture'),
              'capture.cu',
            ],
          ],
        ]),
      ...ARCHS.filter((sm) => sm !== 100).map((sm) => () => {
        const ptx = join(dir, `capture.sm_${sm}.ptx`);
        // Two steps, so that the PTX that ptxas assembled can be inspected. ptxas -O0: the
        // instructions are checked while parsing; optimising them would only cost time.
        return attempt(`sm_${sm}`, [
          ['nvcc', ['-std=c++17', `-arch=sm_${sm}`, '--ptx', '-o', ptx, 'capture.cu']],
          ['ptxas', ['-O0', `-arch=sm_${sm}`, '-o', join(dir, `capture.sm_${sm}.cubin`), ptx]],
        ]);
      }),
    ];
    await pooled(jobs, 2);
  }, 600_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each(ARCHS)(
    'ptxas assembles the inline PTX of every form sm_%i supports, and only those',
    (sm) => {
      // sm_100's PTX is the one the full build kept (see beforeAll).
      const outcome = outcomes.get(sm === 100 ? 'full' : `sm_${sm}`)!;
      expect(outcome.log).not.toMatch(/error/i);
      expect(outcome.ok).toBe(true);
      const file =
        sm === 100 ? join(dir, 'keep', 'capture.ptx') : join(dir, `capture.sm_${sm}.ptx`);
      const ptx = readFileSync(file, 'utf8');
      const present = new Set(
        [
          ...ptx.matchAll(/^\s*((?:add|sub|mul|fma|neg|abs|min|max|tanh|ex2|cvt)\.[\w.]+)\s+%/gm),
        ].map((m) => m[1]!),
      );
      const supported = everyForm()
        .filter((f) => f.minSm <= sm)
        .map((f) => f.text);
      const unsupported = everyForm()
        .filter((f) => f.minSm > sm)
        .map((f) => f.text);
      expect(supported.filter((t) => !present.has(t))).toEqual([]);
      expect(unsupported.filter((t) => present.has(t))).toEqual([]);
      expect(supported.length).toBeGreaterThan(0);
    },
  );

  it('links the host program, whose self-test matches hw/lib input for input and hash for hash', async () => {
    const outcome = outcomes.get('full')!;
    expect(outcome.log).not.toMatch(/error/i);
    expect(outcome.ok).toBe(true);
    const { stdout } = await run(join(dir, 'capture'), ['--selftest'], { maxBuffer: 64 << 20 });
    const lines = stdout.trim().split('\n');
    const want = expectedSelftest();
    expect(lines.length).toBe(want.length);
    expect(lines.filter((l, i) => l !== want[i]).slice(0, 5)).toEqual([]);
  });

  it('writes a summary that hw/compare.ts reads and checks against the plan', async () => {
    const forms = [
      'add.rn.f16',
      'tanh.approx.bf16x2',
      'fma.rn.oob.f16',
      'cvt.rn.satfinite.e4m3x2.f32',
      'cvt.rn.f32.f64',
      'cvt.f64.bf16',
      'add.rm.f32.f16',
      'cvt.rn.satfinite.tf32.f32',
    ];
    const only = `^(${forms.map((f) => f.replace(/\./g, '\\.')).join('|')})$`;
    const args = [
      '--selftest-summary',
      '90',
      '--only',
      only,
      '--rows',
      '15360:2',
      '--sample-rows',
      '1',
    ];
    const { stdout } = await run(join(dir, 'capture'), args);
    // The harness's files for the captured forms, as a GPU agreeing with the engine writes them.
    const capture = join(dir, 'capture-dir');
    mkdirSync(capture);
    writeExpectedCapture(capture, {
      forms: forms.slice(0, 6),
      pairRows: { first: 15360, count: 2 },
      sampleRows: 1,
    });
    writeFileSync(join(capture, SUMMARY_FILE), stdout);
    const report = await compareCapture(capture, { ...DEFAULT_COMPARE_OPTIONS, jobs: 1 });
    // The summary lists the arithmetic's forms, then the cvt forms, each in catalog order.
    expect(report.forms.map((f) => [f.form, f.status, f.note])).toEqual([
      ['add.rn.f16', 'compared', undefined],
      ['fma.rn.oob.f16', 'compared', undefined],
      ['tanh.approx.bf16x2', 'compared', undefined],
      ['add.rm.f32.f16', 'skipped', 'needs sm_100; kernels compiled for sm_90'],
      ['cvt.rn.f32.f64', 'compared', undefined],
      ['cvt.f64.bf16', 'compared', undefined],
      ['cvt.rn.satfinite.tf32.f32', 'skipped', 'needs sm_100; kernels compiled for sm_90'],
      ['cvt.rn.satfinite.e4m3x2.f32', 'compared', undefined],
    ]);
    expect(report.agreed).toBe(true);
  });
});
