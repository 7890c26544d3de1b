/**
 * The H100 capture (hw/captures/sm_90/h100) against the engine: every full section (unary,
 * edges, nan-probe), a sample of the rows of the whole row-hash files (the main capture and
 * the 2^32-sample fma.rn captures), and the approximate forms judged against the spec's bound.
 * Every exact form must agree; the approximate forms give the counts the capture README
 * reports. The forms whose pairs hashes are block digests are in sm90-capture-blocks.test.ts.
 */
import { join } from 'node:path';
import { compileFast } from '../../src/engine/fast/index.ts';
import { decodeHashes, readCaptureFile } from '../../hw/lib/capture-files.ts';
import { rowHasher, shapeByName } from '../../hw/lib/expected.ts';
import { blockDigest } from '../../hw/lib/hash.ts';
import { describe, expect, it } from 'vitest';
import {
  compareCapture,
  formAgrees,
  type CaptureReport,
  type FormReport,
} from '../../hw/lib/compare-capture.ts';
import {
  SAMPLE,
  SM90_CAPTURE,
  SUBCAPTURES,
  blockPairForms,
  formsRegExp,
} from './sm90-capture-support.ts';

function disagreeing(report: CaptureReport): string[] {
  return report.forms
    .filter(
      (f) =>
        f.status === 'invalid' || (f.status === 'compared' && !f.approximate && !formAgrees(f)),
    )
    .map((f) => `${f.form}: ${f.status} ${f.note ?? ''}`);
}

describe('the H100 capture, sm_90 (committed)', async () => {
  const main = await compareCapture(SM90_CAPTURE, {
    ...SAMPLE,
    forms: formsRegExp(blockPairForms(), true),
  });
  const byName = new Map(main.forms.map((f) => [f.form, f]));
  const form = (name: string): FormReport => byName.get(name)!;

  it('agrees with the engine on every exact form compared', () => {
    expect(disagreeing(main)).toEqual([]);
    expect(main.agreed).toBe(true);
    const exact = main.forms.filter((f) => f.status === 'compared' && !f.approximate);
    // 152 forms captured on sm_90, 8 approximate, 96 compared by blocks in the other file.
    expect(exact).toHaveLength(152 - 8 - 96);
  });

  it('checks every full section result by result, or by digests for the packed x2 unary and nan-probe', () => {
    const full = main.forms
      .filter((f) => !f.approximate)
      .flatMap((f) => f.sections)
      .filter((s) => s.layout === 'full');
    for (const s of full) expect(s.agree).toBe(s.checked);
    // Result by result: neg/abs one lane (6), fma edges (24), one-lane nan-probe (4).
    const results = full.filter((s) => s.unit === 'results');
    expect(results).toHaveLength(6 + 24 + 4);
    expect(results.reduce((n, s) => n + s.checked, 0)).toBe(
      6 * 65536 + 4 * 3 * 65536 + 12 * 24 ** 3 + 12 * 24 ** 3,
    );
    // By digest, every result recomputed: neg/abs x2 (6 forms × 2 sections of one row) and
    // x2 nan-probe (4 sections of three rows).
    const digests = full.filter((s) => s.unit === 'blocks');
    expect(digests.map((s) => s.rowsRecomputed).sort()).toEqual([
      ...Array(12).fill(1),
      ...Array(4).fill(3),
    ]);
  });

  it('recomputes sampled rows of the whole row-hash files: every edge-value row of a pairs section', () => {
    const pairs = form('add.rn.f16').sections[0]!;
    expect([pairs.unit, pairs.agree]).toEqual(['rows', pairs.checked]);
    expect(pairs.checked).toBeGreaterThanOrEqual(24);
  });

  it('did not capture the mixed-precision forms: they need sm_100', () => {
    const skipped = main.forms.filter((f) => f.status === 'skipped');
    expect(skipped.length).toBe(56);
    for (const f of skipped) {
      expect(f.form).toMatch(/\.f32\.b?f16$/);
      expect(f.note).toBe('needs sm_100; kernels compiled for sm_90');
    }
  });

  it('tanh.approx and ex2.approx: equal to the model where they are, outside the bound where the README says', () => {
    const counts = (name: string) =>
      form(name).sections.map((s) => {
        const a = s.approx!;
        return [s.name, a.lanes, a.equalModel, a.noValueAllowed, a.outside];
      });
    expect(counts('tanh.approx.f16')).toEqual([['all', 65536, 65536 - 14736, 0, 0]]);
    expect(counts('tanh.approx.bf16')).toEqual([['all', 65536, 65536 - 2086, 0, 2]]);
    expect(counts('ex2.approx.f16')).toEqual([['all', 65536, 65536 - 19417, 12264, 102]]);
    expect(counts('ex2.approx.ftz.bf16')).toEqual([['all', 65536, 65536 - 3496, 15491, 0]]);
    // Both lanes of the x2 forms, in both sections: twice the one-lane counts.
    expect(counts('tanh.approx.bf16x2')).toEqual([
      ['x2-same', 131072, 2 * (65536 - 2086), 0, 4],
      ['x2-distinct', 131072, 2 * (65536 - 2086), 0, 4],
    ]);
    expect(counts('ex2.approx.f16x2')[1]).toEqual([
      'x2-distinct',
      131072,
      2 * (65536 - 19417),
      2 * 12264,
      204,
    ]);
    const tanh = form('tanh.approx.bf16').sections[0]!.approx!.firstOutside;
    expect(tanh.map((o) => [o.input, o.got, o.model])).toEqual([
      [0x3f3f, 0x3f21, 0x3f22],
      [0xbf3f, 0xbf21, 0xbf22],
    ]);
  });

  it('decides .ftz tininess: after rounding (IEEE 754 §7.5), not before', () => {
    // Rows 0x0400..0x043F of mul.ftz.f16 (block 16) hold 80 pairs where the readings differ,
    // e.g. 0x0401 × 0x3BFE: tiny before rounding (flushed to 0), 0x0400 after.
    const shape = shapeByName('mul.ftz.f16');
    const stored = decodeHashes(readCaptureFile(SM90_CAPTURE, 'mul.ftz.f16.pairs.hash.blocks'))[16];
    const digest = (ftzTininess: 'after-rounding' | 'before-rounding') => {
      const hashRow = rowHasher(shape, 'pairs', 0, { ftzTininess });
      return blockDigest(Array.from({ length: 64 }, (_, i) => hashRow(0x0400 + i)));
    };
    expect(digest('after-rounding')).toEqual(stored);
    expect(digest('before-rounding')).not.toEqual(stored);
    expect(compileFast('mul.ftz.f16').evaluate({ a: 0x0401n, b: 0x3bfen })).toBe(0x0400n);
  });

  it('finds the OOB-NaN pattern in a and b: 0x7FF7 (either sign), not another NaN', async () => {
    const probe = (oobNanBits: number) =>
      compareCapture(SM90_CAPTURE, {
        ...SAMPLE,
        forms: /^fma\.rn\.oob\.(relu\.)?b?f16$/,
        engineOptions: { oobNanBits },
      });
    const measured = await probe(0x7ff7);
    expect(measured.forms).toHaveLength(4);
    expect(measured.agreed).toBe(true);
    const other = await probe(0x7fff);
    const nanProbe = other.forms.map((f) => f.sections.find((s) => s.name === 'nan-probe')!);
    // Under 0x7FFF the H100's OOB zeros (0x7FF7, 0xFFF7 in a and in b) become NaNs and the NaN
    // results of 0x7FFF, 0xFFFF in a and b become zeros: eight results per form differ.
    expect(nanProbe.map((s) => s.checked - s.agree)).toEqual([8, 8, 8, 8]);
  });

  it.each(SUBCAPTURES)('%s: fma.rn on its sample agrees (sampled rows)', async (dir) => {
    const report = await compareCapture(join(SM90_CAPTURE, dir), SAMPLE);
    expect(disagreeing(report)).toEqual([]);
    expect(report.forms.map((f) => [f.form, f.status])).toEqual(
      report.summary.forms.map((f) => [f.form, 'compared']),
    );
    for (const f of report.forms)
      expect(f.sections.map((s) => s.unit)).toEqual(['results', 'rows']);
  });
});
