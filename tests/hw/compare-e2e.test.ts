/**
 * End to end without a GPU: a stand-in writes a capture directory in the harness's format from
 * the engine (a few forms, a few rows), one value is corrupted, and compare must report exactly
 * that mismatch with its operands. Budget: a few seconds.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectedRowResults, shapeByName, writeExpectedCapture } from '../../hw/lib/expected.ts';
import {
  decodeHashes,
  decodeResults,
  encodeHashes,
  encodeResults,
  rowDumpFileName,
  SUMMARY_FILE,
  type CaptureSummary,
} from '../../hw/lib/capture-files.ts';
import { hashWords } from '../../hw/lib/hash.ts';
import { DEFAULT_SAMPLE_SEED, inputsAt } from '../../hw/lib/plan.ts';
import { DEFAULT_COMPARE_OPTIONS, compareCapture } from '../../hw/lib/compare-capture.ts';
import { formatReport } from '../../hw/lib/compare-report.ts';
import { parseCompareArgs } from '../../hw/compare.ts';

const FORMS = ['tanh.approx.f16x2', 'add.rn.f16', 'fma.rn.relu.bf16', 'add.rm.f32.f16'];
const FIRST_PAIR_ROW = 0x3bff;

const options = { ...DEFAULT_COMPARE_OPTIONS, jobs: 1 };

describe('hw/compare on a stand-in capture', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ptxf-capture-'));
    writeExpectedCapture(dir, {
      forms: FORMS,
      pairRows: { first: FIRST_PAIR_ROW, count: 2 },
      sampleRows: 1,
    });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('agrees everywhere when the capture is the engine', async () => {
    const report = await compareCapture(dir, options);
    expect(report.agreed).toBe(true);
    expect(report.forms.map((f) => [f.form, f.status])).toEqual(FORMS.map((f) => [f, 'compared']));
    const tanh = report.forms[0]!.sections;
    expect(tanh.map((s) => [s.name, s.checked, s.agree])).toEqual([
      ['x2-same', 65536, 65536],
      ['x2-distinct', 65536, 65536],
    ]);
    const fma = report.forms[2]!.sections;
    expect(fma.map((s) => [s.name, s.checked, s.agree])).toEqual([
      ['edges', 24 ** 3, 24 ** 3],
      ['sample', 1, 1],
    ]);
  });

  it('reports exactly one corrupted result of an exact form, with its operands', async () => {
    const file = join(dir, 'fma.rn.relu.bf16.edges.bin');
    const results = decodeResults(readFileSync(file), 16);
    const index = 1000;
    const engine = results[index]!;
    results[index] = engine ^ 0x0001; // one ulp off
    writeFileSync(file, encodeResults(results, 16));

    const report = await compareCapture(dir, options);
    expect(report.agreed).toBe(false);
    const differing = report.forms.filter((f) => f.sections.some((s) => s.agree !== s.checked));
    expect(differing.map((f) => f.form)).toEqual(['fma.rn.relu.bf16']);
    const section = differing[0]!.sections.find((s) => s.name === 'edges')!;
    expect(section.agree).toBe(24 ** 3 - 1);
    // Index 1000 of the 24×24×24 cross product: a = edge 1 (-0), b = edge 17, c = edge 16.
    const inputs = inputsAt(shapeByName('fma.rn.relu.bf16'), 'edges', index, DEFAULT_SAMPLE_SEED);
    expect(inputs.a).toBe(0x8000);
    expect(section.mismatches).toEqual([{ index, inputs, expected: engine, got: results[index] }]);
    expect(formatReport(report)).toContain(
      `edges[1000] fma.rn.relu.bf16 a=0x8000 b=0x${inputs.b.toString(16).padStart(4, '0')} c=0x${inputs.c.toString(16).padStart(4, '0')}: engine 0x${engine.toString(16).padStart(4, '0')}, capture 0x${results[index]!.toString(16).padStart(4, '0')}`,
    );
  });

  it('judges an approximate form against the bound, apart from the verdict', async () => {
    const file = join(dir, 'tanh.approx.f16x2.x2-distinct.bin');
    const results = decodeResults(readFileSync(file), 32);
    const index = 0x3c00; // lane 0 tanh(1.0), lane 1 tanh(0xc3ff = -3.998)
    const engine = results[index]!;
    const model = engine >>> 16;
    results[index] = (engine ^ 0x01000000) >>> 0; // lane 1 off by 256 ulps
    writeFileSync(file, encodeResults(results, 32));

    const report = await compareCapture(dir, options);
    expect(report.agreed).toBe(true);
    const tanh = report.forms.find((f) => f.form === 'tanh.approx.f16x2')!;
    expect(tanh.approximate).toBe(true);
    const same = tanh.sections.find((s) => s.name === 'x2-same')!.approx!;
    expect([same.lanes, same.equalModel, same.outside]).toEqual([131072, 131072, 0]);
    const distinct = tanh.sections.find((s) => s.name === 'x2-distinct')!.approx!;
    expect([distinct.lanes, distinct.equalModel, distinct.outside]).toEqual([131072, 131071, 1]);
    expect(distinct.withinBound + distinct.noValueAllowed).toBe(131071);
    expect(distinct.firstOutside).toMatchObject([
      { index, lane: 1, input: 0xc3ff, got: model ^ 0x0100, model },
    ]);
    const text = formatReport(report);
    expect(text).toContain('tanh.approx.f16x2: APPROX, outside the bound');
    expect(text).toContain(
      `x2-distinct[15360] lane 1 a=0xc3ff: capture 0x${(model ^ 0x0100).toString(16)}, model 0x${model.toString(16)}`,
    );
    expect(text).toContain(
      '1 approximate forms (not part of the verdict): 0 within the bound, 1 with results outside it',
    );
  });

  it('narrows a disagreeing hashed row down to its operands through the row dump', async () => {
    // A GPU that differs from the engine on add.rn.f16 a=0x3c00 b=0x0001 only.
    const shape = shapeByName('add.rn.f16');
    const row = 0x3c00;
    const gpuRow = expectedRowResults(shape, 'pairs', row, DEFAULT_SAMPLE_SEED);
    const engine = gpuRow[0x0001]!;
    gpuRow[0x0001] = engine + 1;
    const hashFile = join(dir, 'add.rn.f16.pairs.hash');
    const hashes = decodeHashes(readFileSync(hashFile));
    const gpuHash = hashWords(gpuRow);
    hashes[row - FIRST_PAIR_ROW] = gpuHash;
    writeFileSync(hashFile, encodeHashes(hashes));

    // Before the row is dumped: the row is reported with the command that dumps it. Two jobs
    // exercise the worker threads.
    const before = await compareCapture(dir, { ...options, jobs: 2 });
    const pairs = before.forms.find((f) => f.form === 'add.rn.f16')!.sections[0]!;
    expect([pairs.checked, pairs.agree]).toEqual([2, 1]);
    expect(pairs.rowMismatches).toHaveLength(1);
    expect(pairs.rowMismatches[0]).toMatchObject({ row, got: gpuHash, dump: null });
    expect(formatReport(before)).toContain(`hw/build/capture --row add.rn.f16 pairs ${row} --seed`);

    // `capture --row add.rn.f16 pairs 15360` writes rows/add.rn.f16.pairs.15360.bin.
    const dump = rowDumpFileName('add.rn.f16', 'pairs', row);
    mkdirSync(join(dir, 'rows'), { recursive: true });
    writeFileSync(join(dir, dump), encodeResults(gpuRow, 16));
    const after = await compareCapture(dir, options);
    const narrowed = after.forms.find((f) => f.form === 'add.rn.f16')!.sections[0]!
      .rowMismatches[0]!;
    expect(narrowed.dump).toEqual({
      file: dump,
      count: 1,
      mismatches: [
        {
          index: row * 65536 + 1,
          inputs: { a: 0x3c00, b: 0x0001, c: 0 },
          expected: engine,
          got: engine + 1,
        },
      ],
    });
    expect(formatReport(after)).toContain(
      `pairs[${row * 65536 + 1}] add.rn.f16 a=0x3c00 b=0x0001: engine 0x${engine.toString(16)}, capture 0x${(engine + 1).toString(16)}`,
    );
  });

  it('marks an entry whose counts do not match the plan as invalid instead of comparing it', async () => {
    const summary = JSON.parse(readFileSync(join(dir, SUMMARY_FILE), 'utf8')) as {
      forms: { form: string; sections: { count?: number }[] }[];
    };
    summary.forms.find((f) => f.form === 'fma.rn.relu.bf16')!.sections[0]!.count = 100;
    writeFileSync(join(dir, SUMMARY_FILE), JSON.stringify(summary));
    const report = await compareCapture(dir, options);
    const entry = report.forms.find((f) => f.form === 'fma.rn.relu.bf16')!;
    expect(entry.status).toBe('invalid');
    expect(entry.note).toContain('edges has 100 results, the plan says 13824');
    expect(report.agreed).toBe(false);
  });

  it('reports forms the harness skipped without comparing them', async () => {
    const path = join(dir, SUMMARY_FILE);
    const summary = JSON.parse(readFileSync(path, 'utf8')) as CaptureSummary;
    const forms = summary.forms.map((f) =>
      f.form === 'add.rm.f32.f16'
        ? {
            ...f,
            captured: false,
            skipReason: 'needs sm_100; kernels compiled for sm_90',
            sections: [],
          }
        : f,
    );
    writeFileSync(path, JSON.stringify({ ...summary, forms }));
    const report = await compareCapture(dir, options);
    expect(report.forms.find((f) => f.form === 'add.rm.f32.f16')).toMatchObject({
      status: 'skipped',
    });
    expect(report.agreed).toBe(true);
  });
});

describe('hw/compare arguments', () => {
  it('parses the options and rejects bad ones with a message', () => {
    const ok = parseCompareArgs([
      'cap',
      '--rows',
      'all',
      '--first',
      '3',
      '--jobs',
      '2',
      '--forms',
      '^add\\.',
    ]);
    expect(ok).toMatchObject({
      dir: 'cap',
      options: { rowSample: 'all', firstMismatches: 3, jobs: 2 },
    });
    expect(parseCompareArgs([])).toBe('missing <capture-dir>');
    expect(parseCompareArgs(['cap', '--rows', '0'])).toMatch(/positive integer/);
    expect(parseCompareArgs(['cap', '--forms', '('])).toMatch(/--forms/);
    expect(parseCompareArgs(['cap', '--ftz-tininess', 'sometimes'])).toMatch(/after-rounding/);
  });
});
