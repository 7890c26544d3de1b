/**
 * The committed H200 cvt capture (hw/captures/sm_90/h200) as a test vector: the engine gives
 * every full result it holds (the 16-bit sources on all 65,536 inputs, the .f64 samples), and the
 * blocks of the .f32 sources' row hashes where the measured rules act (decisions cvt-nan and
 * cvt-ftz-f16-source): the NaN rows and the subnormal rows. hw/compare.ts checks the other
 * blocks (the capture's README gives the figures).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findForm } from '../../src/catalog/all-forms.ts';
import { readCaptureFile, readSummary, decodeHashes } from '../../hw/lib/capture-files.ts';
import { DEFAULT_COMPARE_OPTIONS, compareCapture } from '../../hw/lib/compare-capture.ts';
import { cvtRowHasher } from '../../hw/lib/cvt-expected.ts';
import { cvtShapeOf } from '../../hw/lib/cvt-plan.ts';
import { BLOCK_ROWS, blockDigest } from '../../hw/lib/hash.ts';

const H200 = join(import.meta.dirname, '../../hw/captures/sm_90/h200');
const summary = readSummary(H200);

/** The block digests a hashed section is kept as. */
function blocksOf(form: string): [number, number][] {
  const section = summary.forms.find((f) => f.form === form)!.sections[0]!;
  return decodeHashes(readCaptureFile(H200, `${section.file}.blocks`));
}

/** The engine's digest of block `block` of a form's hashed section. */
function engineBlock(form: string, block: number): [number, number] {
  const shape = cvtShapeOf(findForm(form)!);
  const section = summary.forms.find((f) => f.form === form)!.sections[0]!;
  const hash = cvtRowHasher(shape, section.name as 'words', summary.sampleSeed);
  const rows: [number, number][] = [];
  for (let r = block * BLOCK_ROWS; r < (block + 1) * BLOCK_ROWS; r++) rows.push(hash(r));
  return blockDigest(rows);
}

/**
 * Blocks 510 and 1023: rows 0x7F80…0x7FBF (+∞ and the positive signaling NaNs) and
 * 0xFFC0…0xFFFF (the negative quiet NaNs). hw/compare.ts checks rows 0x7FC0 and 0xFF80 too.
 */
const NAN_BLOCKS = [510, 1023];

describe('the H200 cvt capture (hw/captures/sm_90/h200)', () => {
  it('is an NVIDIA H200, sm_90, with 178 cvt forms captured and 4 skipped for sm_100', () => {
    expect(summary.device.name).toBe('NVIDIA H200');
    expect(summary.device.sm).toBe(90);
    expect(summary.forms.filter((f) => f.captured)).toHaveLength(178);
    expect(summary.forms.filter((f) => !f.captured).map((f) => f.form)).toEqual([
      'cvt.rn.satfinite.tf32.f32',
      'cvt.rn.satfinite.relu.tf32.f32',
      'cvt.rz.satfinite.tf32.f32',
      'cvt.rz.satfinite.relu.tf32.f32',
    ]);
  });

  it('every full result agrees with the engine (88 forms: 16-bit sources, .f64 samples)', async () => {
    const full = summary.forms
      .filter((f) => f.captured && f.sections.every((s) => s.layout === 'full'))
      .map((f) => f.form);
    expect(full).toHaveLength(88);
    const report = await compareCapture(H200, {
      ...DEFAULT_COMPARE_OPTIONS,
      forms: new RegExp(`^(${full.map((f) => f.replace(/\./g, '\\.')).join('|')})$`),
    });
    const differ = report.forms.filter((f) => f.sections.some((s) => s.agree !== s.checked));
    expect(differ.map((f) => f.form)).toEqual([]);
    expect(report.forms).toHaveLength(88);
    expect(report.agreed).toBe(true);
  }, 120_000);

  // The forms whose NaN rows the engine gave the canonical NaN for before the measurement.
  it.each([
    'cvt.f32.f32',
    'cvt.f64.f32',
    'cvt.ftz.f64.f32',
    'cvt.rna.tf32.f32',
    'cvt.rna.satfinite.tf32.f32',
  ])(
    '%s: the blocks of signaling and quiet .f32 NaNs agree (decision cvt-nan)',
    (form) => {
      const captured = blocksOf(form);
      for (const b of NAN_BLOCKS)
        expect([form, b, engineBlock(form, b)]).toEqual([form, b, captured[b]]);
    },
    120_000,
  );

  it('.ftz changes no row of cvt.{rn,rz,rm,rp}{.sat}.ftz.f16.f32, and exactly the subnormal rows of cvt.*.ftz.bf16.f32', () => {
    const equalBlocks = (a: string, b: string) => {
      const x = blocksOf(a);
      const y = blocksOf(b);
      return x.flatMap((d, i) => (d[0] === y[i]![0] && d[1] === y[i]![1] ? [] : [i]));
    };
    for (const mode of ['rn', 'rz', 'rm', 'rp'])
      for (const sat of ['', '.sat']) {
        const ftz = `cvt.${mode}.ftz${sat}.f16.f32`;
        expect([ftz, equalBlocks(ftz, `cvt.${mode}${sat}.f16.f32`)]).toEqual([ftz, []]);
      }
    // Rows 0x0000…0x007F and 0x8000…0x807F (the .f32 subnormals) lie in blocks 0, 1 and 512, 513; to
    // nearest or toward zero a flushed subnormal and a converted one are the same zero or one.
    expect(equalBlocks('cvt.rp.ftz.bf16.f32', 'cvt.rp.bf16.f32')).toEqual([0, 1, 512, 513]);
    expect(equalBlocks('cvt.rm.ftz.bf16.f32', 'cvt.rm.bf16.f32')).toEqual([0, 1, 512, 513]);
  });

  it.each([
    ['cvt.rp.ftz.f16.f32', 0],
    ['cvt.rm.ftz.f16.f32', 512],
    ['cvt.rp.ftz.bf16.f32', 0],
  ] as const)(
    '%s: block %i, the .f32 subnormals, agrees (decision cvt-ftz-f16-source)',
    (form, b) => {
      expect(engineBlock(form, b)).toEqual(blocksOf(form)[b]);
    },
    120_000,
  );
});
