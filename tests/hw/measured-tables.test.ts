/**
 * The measured tanh.approx / ex2.approx tables (public/measured, written from the H100 capture
 * by hw/export-measured.ts) cannot drift from the capture: they are the capture's bytes, the
 * engine given them reproduces every approximate section of the capture (the x2 forms'
 * lanes included), and the fast path agrees with the pipeline on every input with them
 * (EngineOptions.approxTables). The CLI evaluates with them on sm_90 and sm_90a only.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { findForm as findOneForm } from '../../src/catalog/all-forms.ts';
import { compileFast } from '../../src/engine/fast/index.ts';
import type { EngineOptions } from '../../src/engine/options.ts';
import { evaluate } from '../../src/engine/pipeline.ts';
import { runBatch } from '../../src/cli/batch.ts';
import { runEval } from '../../src/cli/eval.ts';
import { captureIO } from '../../src/cli/io.ts';
import { MEASURED_ROOT, measuredOptions } from '../../src/cli/measured-tables.ts';
import { isApproximate } from '../../hw/lib/approx-judge.ts';
import { decodeResults, readCaptureFile, readSummary } from '../../hw/lib/capture-files.ts';
import { readSums, sha256 } from '../../hw/lib/capture-pack.ts';
import { expectedResults, shapeByName } from '../../hw/lib/expected.ts';
import { exportMeasured, type MeasuredIndex } from '../../hw/lib/measured-export.ts';
import type { GeneratorName } from '../../hw/lib/plan.ts';
import { SM90_CAPTURE } from './sm90-capture-support.ts';

const index = JSON.parse(
  readFileSync(new URL('index.json', MEASURED_ROOT), 'utf8'),
) as MeasuredIndex;
const summary = readSummary(SM90_CAPTURE);
const approxForms = summary.forms.filter((f) => f.captured && isApproximate(findOneForm(f.form)!));

/** The tables as the CLI loads them for sm_90. */
function sm90Tables(): Partial<EngineOptions> {
  const measured = measuredOptions('sm_90', findOneForm('tanh.approx.f16')!);
  if (!measured.ok) throw new Error(measured.message);
  return measured.options;
}

describe('measured tables (public/measured)', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('are the bytes the H100 wrote for the one-lane forms, and name the device and driver', () => {
    expect(index.sets).toHaveLength(1);
    const set = index.sets[0]!;
    expect(set).toMatchObject({
      targets: ['sm_90', 'sm_90a'],
      dir: 'sm_90',
      device: 'NVIDIA H100 80GB HBM3',
      driver: '580.159.04',
      cuda: '13.0',
      measuredOn: 'NVIDIA H100 80GB HBM3 (driver 580.159.04, CUDA 13.0)',
      capture: 'hw/captures/sm_90/h100',
      capturedAt: summary.createdAt,
    });
    const sums = readSums(SM90_CAPTURE);
    const sources = Object.entries(set.tables).map(([key, t]) => [key, t!.form]);
    expect(sources).toEqual([
      ['tanh.f16', 'tanh.approx.f16'],
      ['tanh.bf16', 'tanh.approx.bf16'],
      ['ex2.f16', 'ex2.approx.f16'],
      ['ex2.bf16', 'ex2.approx.ftz.bf16'],
    ]);
    for (const t of Object.values(set.tables)) {
      const bytes = gunzipSync(readFileSync(new URL(`${set.dir}/${t!.file}`, MEASURED_ROOT)));
      const file = `${t!.form}.${t!.section}.bin`;
      expect(sha256(bytes)).toBe(t!.sha256);
      expect(sha256(bytes)).toBe(sums.get(`main/${file}`));
      expect(Buffer.from(bytes).equals(Buffer.from(readCaptureFile(SM90_CAPTURE, file)))).toBe(
        true,
      );
    }
  });

  it('are what hw/export-measured.ts writes from the capture today', () => {
    const out = mkdtempSync(join(tmpdir(), 'ptxf-measured-'));
    dirs.push(out);
    const set = exportMeasured({
      captureDir: SM90_CAPTURE,
      deviceFile: join(SM90_CAPTURE, 'device.txt'),
      outRoot: out,
      dir: 'sm_90',
      captureName: 'hw/captures/sm_90/h100',
    });
    expect(set).toEqual(index.sets[0]);
    const written = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8')) as MeasuredIndex;
    expect(written).toEqual(index);
  });

  it.each(approxForms.map((f) => [f.form, f] as const))(
    'given to the engine, reproduce every section the H100 wrote: %s',
    (name, entry) => {
      const shape = shapeByName(name);
      const options = sm90Tables();
      for (const s of entry.sections) {
        const got = decodeResults(readCaptureFile(SM90_CAPTURE, s.file), shape.resultBits);
        // Approximate forms are arithmetic ones: their sections are plan.ts generators.
        const section = s.name as GeneratorName;
        const want = expectedResults(shape, section, 0, s.count!, summary.sampleSeed, options);
        let differing = 0;
        for (let i = 0; i < got.length; i++) if (got[i] !== want[i]) differing++;
        expect([s.name, differing]).toEqual([s.name, 0]);
      }
    },
  );

  it.each(approxForms.map((f) => [f.form] as const))(
    'fast path and pipeline agree on every lane input with them: %s',
    (name) => {
      const form = findOneForm(name)!;
      const options = sm90Tables();
      const fast = compileFast(form, options).words!;
      const packed = form.elements.length === 2;
      let measured = 0;
      for (let i = 0; i < 65536; i++) {
        // x2: lane 1 holds another input, so every input is seen in both lanes over the loop.
        const a = packed ? i + (i ^ 0xffff) * 65536 : i;
        const traced = evaluate(name, { a: BigInt(a) }, options);
        if (Number(BigInt(traced.d)) !== fast(a, 0, 0))
          expect.fail(
            `${name} a=0x${a.toString(16)}: pipeline ${traced.d} fast 0x${fast(a, 0, 0).toString(16)}`,
          );
        if (traced.elements[0]!.steps.some((s) => s.kind === 'approx' && s.model === 'measured'))
          measured++;
      }
      // Every input outside the spec's corner-case table (and, under .ftz, not subnormal) takes
      // its value from the table.
      expect(measured).toBeGreaterThan(60000);
    },
  );
});

describe('the CLI on a measured target', () => {
  it('eval: sm_90 and sm_90a give the H100 value and say so; other targets the model', () => {
    const run = (target: string) => {
      const io = captureIO();
      expect(runEval(['tanh.approx.bf16', '0x3f3f', '--target', target, '--json'], io)).toBe(0);
      return JSON.parse(io.stdout.join('')) as {
        d: string;
        result: {
          elements: {
            steps: {
              kind: string;
              model?: string;
              measuredOn?: string;
              modelResult?: { bits: string };
            }[];
          }[];
        };
      };
    };
    for (const target of ['sm_90', 'sm_90a']) {
      const answer = run(target);
      expect(answer.d).toBe('0x3f21');
      expect(answer.result.elements[0]!.steps.find((s) => s.kind === 'approx')).toMatchObject({
        model: 'measured',
        measuredOn: 'NVIDIA H100 80GB HBM3 (driver 580.159.04, CUDA 13.0)',
        modelResult: { bits: '0x3f22' },
      });
    }
    expect(run('sm_100').d).toBe('0x3f22');
  });

  it('batch: the measured value on sm_90, fast path and traced', async () => {
    const io = captureIO();
    const lines = [
      '{"id":1,"instr":"tanh.approx.bf16x2","target":"sm_90","a":"0xbf3f3f3f"}',
      '{"id":2,"instr":"tanh.approx.bf16x2","target":"sm_90a","a":"0xbf3f3f3f","trace":true}',
      '{"id":3,"instr":"tanh.approx.bf16x2","target":"sm_100","a":"0xbf3f3f3f"}',
    ];
    expect(await runBatch([lines.join('\n')], io)).toBe(0);
    const d = io.stdout.map((l) => (JSON.parse(l) as { d: string }).d);
    expect(d).toEqual(['0xbf213f21', '0xbf213f21', '0xbf223f22']);
  });

  it('reports tables it cannot read instead of falling back to the model', () => {
    const empty = mkdtempSync(join(tmpdir(), 'ptxf-no-tables-'));
    try {
      const result = measuredOptions(
        'sm_90',
        findOneForm('ex2.approx.f16')!,
        pathToFileURL(`${empty}/`),
      );
      expect(result).toMatchObject({ ok: false });
      expect(!result.ok && result.message).toMatch(/measured tables .* could not be read/);
      // Exact forms never need them.
      expect(
        measuredOptions('sm_90', findOneForm('add.rn.f16')!, pathToFileURL(`${empty}/`)),
      ).toEqual({
        ok: true,
        options: {},
      });
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
