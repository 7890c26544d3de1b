/**
 * cvt captures end to end without a GPU: a stand-in writes a capture in the harness's format
 * from the engine (a form of each section kind, two rows of each hashed section), compare must
 * agree with it, and a planted one-bit difference must be reported as a difference that names
 * its input. The stand-in's values are checked against single conversions (compileFast(form).evaluate) and
 * known results, so a slip in the batch plumbing (register widths, 64-bit words, row-hash word
 * order) fails here. Budget: a few seconds.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileFast } from '../../src/engine/fast/index.ts';
import {
  decodeHashes,
  decodeResults,
  encodeHashes,
  encodeResults,
  rowDumpFileName,
} from '../../hw/lib/capture-files.ts';
import { DEFAULT_COMPARE_OPTIONS, compareCapture } from '../../hw/lib/compare-capture.ts';
import { formatReport } from '../../hw/lib/compare-report.ts';
import { cvtExpectedResults, cvtRowHasher } from '../../hw/lib/cvt-expected.ts';
import {
  F64_EDGES,
  cvtCapturedForms,
  cvtInputsAt,
  cvtSectionsOf,
  cvtShapeByName,
} from '../../hw/lib/cvt-plan.ts';
import { writeExpectedCapture } from '../../hw/lib/expected.ts';
import { hashWords } from '../../hw/lib/hash.ts';
import { DEFAULT_SAMPLE_SEED } from '../../hw/lib/plan.ts';

const FORMS = [
  'cvt.rn.f16.f32', // words: every f32, hashed
  'cvt.rn.satfinite.e4m3x2.f32', // words-xor: two f32 sources
  'cvt.rn.f16x2.e4m3x2', // all: a 16-bit source, full 32-bit results
  'cvt.f64.bf16', // all, 64-bit results
  'cvt.f64.f32', // words, 64-bit results hashed
  'cvt.rn.f32.f64', // f64-sample
];
const FIRST_ROW = 0x3f80; // rows 0x3f80, 0x3f81: a = 1.0 … 1.0156 (f32), 0x3f80xxxx
const options = { ...DEFAULT_COMPARE_OPTIONS, jobs: 1 };

describe('the cvt capture plan', () => {
  it('holds every baseline-target cvt form and gives each one section by its source', () => {
    const shapes = cvtCapturedForms();
    expect(shapes).toHaveLength(182);
    const sections = new Map<string, number>();
    for (const s of shapes) {
      const name = cvtSectionsOf(s)
        .map((p) => p.name)
        .join();
      sections.set(name, (sections.get(name) ?? 0) + 1);
    }
    expect(Object.fromEntries(sections)).toEqual({
      all: 50,
      words: 74,
      'words-xor': 20,
      'f64-sample': 38,
    });
    expect(() => cvtShapeByName('cvt.rs.f16x2.f32')).toThrow(/sm_100a: not in the capture plan/);
  });

  it('feeds b = a ^ 0x55555555 beside a, and the f64 edges before the sample', () => {
    const x2 = cvtShapeByName('cvt.rn.f16x2.f32');
    expect(cvtInputsAt(x2, 'words-xor', 0x3f800000, 0)).toEqual({ a: 0x3f800000n, b: 0x6ad55555n });
    const f64 = cvtShapeByName('cvt.rn.f32.f64');
    expect(cvtInputsAt(f64, 'f64-sample', 19, 0).a).toBe(0x47effffff0000000n);
    expect(F64_EDGES[19]).toEqual([0x47efffff, 0xf0000000]);
  });

  it('gives the results a single conversion gives (16-, 32- and 64-bit d, .f64 a)', () => {
    for (const text of FORMS) {
      const shape = cvtShapeByName(text);
      const [section] = cvtSectionsOf(shape);
      const first = section!.layout === 'full' ? 0 : FIRST_ROW * 65536;
      const one = compileFast(text).evaluate;
      const got = cvtExpectedResults(shape, section!.name, first, 4096, DEFAULT_SAMPLE_SEED);
      for (let i = 0; i < 4096; i += 7) {
        const r = cvtInputsAt(shape, section!.name, first + i, DEFAULT_SAMPLE_SEED);
        expect([text, i, BigInt(got[i]!)]).toEqual([text, i, one(r)]);
      }
    }
  });

  it('hashes a 64-bit result as its low word, then its high word', () => {
    const shape = cvtShapeByName('cvt.f64.f32');
    const one = compileFast(shape.form).evaluate;
    const words = new Uint32Array(2 * 65536);
    for (let col = 0; col < 65536; col++) {
      const d = one({ a: BigInt(FIRST_ROW * 65536 + col) });
      words[2 * col] = Number(d & 0xffffffffn);
      words[2 * col + 1] = Number(d >> 32n);
    }
    expect(cvtRowHasher(shape, 'words', DEFAULT_SAMPLE_SEED)(FIRST_ROW)).toEqual(hashWords(words));
  });

  it('knows the results that the edges must give', () => {
    const f64 = cvtShapeByName('cvt.rn.f32.f64');
    const edges = cvtExpectedResults(f64, 'f64-sample', 0, F64_EDGES.length, 0);
    expect(edges[18]).toBe(0x7f7fffff); // f32 max finite
    expect(edges[19]).toBe(0x7f800000); // the overflow tie rounds to +inf
    expect(edges[22]).toBe(0x00000000); // 2^-150: the tie goes to even, +0
    const bf16 = cvtExpectedResults(cvtShapeByName('cvt.f64.bf16'), 'all', 0x3f80, 1, 0);
    expect(bf16[0]).toBe(0x3ff0000000000000n);
  });
});

describe('hw/compare on a stand-in cvt capture', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ptxf-cvt-capture-'));
    writeExpectedCapture(dir, { forms: FORMS, pairRows: { first: FIRST_ROW, count: 2 } });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('agrees everywhere when the capture is the engine', async () => {
    const report = await compareCapture(dir, options);
    expect(report.agreed).toBe(true);
    expect(
      report.forms.map((f) => [
        f.form,
        f.status,
        ...f.sections.map((s) => [s.name, s.agree, s.checked]),
      ]),
    ).toEqual([
      ['cvt.rn.f16.f32', 'compared', ['words', 2, 2]],
      ['cvt.rn.satfinite.e4m3x2.f32', 'compared', ['words-xor', 2, 2]],
      ['cvt.rn.f16x2.e4m3x2', 'compared', ['all', 65536, 65536]],
      ['cvt.f64.bf16', 'compared', ['all', 65536, 65536]],
      ['cvt.f64.f32', 'compared', ['words', 2, 2]],
      ['cvt.rn.f32.f64', 'compared', ['f64-sample', 65536, 65536]],
    ]);
    expect(formatReport(report)).toContain('6 of 6 compared exact forms agree');
  });

  it('reports one flipped bit of a 64-bit result with its input', async () => {
    const file = join(dir, 'cvt.f64.bf16.all.bin');
    const results = decodeResults(readFileSync(file), 64) as BigUint64Array;
    results[0x3f80] = results[0x3f80]! ^ 1n;
    writeFileSync(file, encodeResults(results, 64));
    const report = await compareCapture(dir, options);
    expect(report.agreed).toBe(false);
    const section = report.forms.find((f) => f.form === 'cvt.f64.bf16')!.sections[0]!;
    expect([section.agree, section.checked]).toEqual([65535, 65536]);
    expect(section.mismatches).toEqual([
      {
        index: 0x3f80,
        inputs: { a: 0x3f80n, b: 0n },
        expected: 0x3ff0000000000000n,
        got: 0x3ff0000000000001n,
      },
    ]);
    expect(formatReport(report)).toContain(
      'all[16256] cvt.f64.bf16 a=0x3f80: engine 0x3ff0000000000000, capture 0x3ff0000000000001',
    );
  });

  it('reports one flipped bit of an .f64 sample result with the 64-bit register', async () => {
    const file = join(dir, 'cvt.rn.f32.f64.f64-sample.bin');
    const results = decodeResults(readFileSync(file), 32);
    results[19] = results[19]! ^ 0x00400000; // +inf → a NaN pattern
    writeFileSync(file, encodeResults(results, 32));
    const text = formatReport(await compareCapture(dir, options));
    expect(text).toContain('cvt.rn.f32.f64: DIFFER: f64-sample 65535/65536 results agree');
    expect(text).toContain(
      'f64-sample[19] cvt.rn.f32.f64 a=0x47effffff0000000: engine 0x7f800000, capture 0x7fc00000',
    );
  });

  it('narrows a differing hashed row of a two-source form down to its input', async () => {
    const shape = cvtShapeByName('cvt.rn.satfinite.e4m3x2.f32');
    const row = FIRST_ROW + 1;
    const gpuRow = cvtExpectedResults(shape, 'words-xor', row * 65536, 65536, DEFAULT_SAMPLE_SEED);
    const engine = gpuRow[0x1234]!;
    gpuRow[0x1234] = Number(engine) ^ 0x0100; // the lower byte's value (from b) one bit off
    const hashFile = join(dir, 'cvt.rn.satfinite.e4m3x2.f32.words-xor.hash');
    const hashes = decodeHashes(readFileSync(hashFile));
    hashes[1] = hashWords(gpuRow as Uint16Array);
    writeFileSync(hashFile, encodeHashes(hashes));

    const before = await compareCapture(dir, options);
    const section = before.forms.find((f) => f.form === shape.form.text)!.sections[0]!;
    expect([section.agree, section.checked]).toEqual([1, 2]);
    expect(section.rowMismatches[0]).toMatchObject({ row, dump: null });
    expect(formatReport(before)).toContain(
      `hw/build/capture --row cvt.rn.satfinite.e4m3x2.f32 words-xor ${row} --seed`,
    );

    const dump = rowDumpFileName(shape.form.text, 'words-xor', row);
    mkdirSync(join(dir, 'rows'), { recursive: true });
    writeFileSync(join(dir, dump), encodeResults(gpuRow, 16));
    const after = await compareCapture(dir, options);
    const narrowed = after.forms.find((f) => f.form === shape.form.text)!.sections[0]!
      .rowMismatches[0]!.dump!;
    const a = row * 65536 + 0x1234;
    expect(narrowed).toEqual({
      file: dump,
      count: 1,
      mismatches: [
        {
          index: a,
          inputs: { a: BigInt(a), b: BigInt((a ^ 0x55555555) >>> 0) },
          expected: engine,
          got: Number(engine) ^ 0x0100,
        },
      ],
    });
    expect(formatReport(after)).toContain(
      `words-xor[${a}] cvt.rn.satfinite.e4m3x2.f32 a=0x3f811234 b=0x6ad44761: engine`,
    );
  });
});
