/**
 * The committed mma.sync capture of an NVIDIA H100 (hw/captures/sm_90/h100/mma) against the
 * engine's sm_90 model, element by element (hw/mma/lib/compare-mma.ts). The H100 ran the same
 * harness with the same seed as the H200 (tests/hw/mma-capture-h200.test.ts) and returned the same
 * bits in all 36 forms: the 20 f16, bf16 and tf32 forms agree with the engine (the fused model with
 * the measured zero sign and overflow, m8n8k4 the measured sequences), the 16 FP8 forms differ as
 * decision mma-sm90-differing-forms says. Budget: about 35 s on this 2-core machine.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readMmaCapture } from '../../hw/mma/lib/capture-files.ts';
import { compareMmaForm } from '../../hw/mma/lib/compare-mma.ts';
import { measuredRulesFor, tensorCoreModel } from '../../src/catalog/tensor-core-models.ts';

const CAPTURE = 'hw/captures/sm_90/h100/mma';
const DIR = join(import.meta.dirname, '../..', CAPTURE);
const H200 = join(import.meta.dirname, '../../hw/captures/sm_90/h200/mma');
const { summary, forms } = readMmaCapture(DIR);
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

const isFp8 = (t: string) => t === 'e4m3' || t === 'e5m2';
const fp8 = forms.filter((f) => isFp8(f.form.matrix!.types.a));
const followed = forms.filter((f) => !isFp8(f.form.matrix!.types.a));

describe(CAPTURE, () => {
  it('is the H100 capture its SHA256SUMS name', () => {
    expect(summary.mode).toBe('gpu');
    expect(summary.device?.name).toBe('NVIDIA H100 80GB HBM3');
    expect(summary.device?.sm).toBe(90);
    expect(forms).toHaveLength(36);
    for (const line of readFileSync(join(DIR, 'SHA256SUMS'), 'utf8').trim().split('\n')) {
      const [sum, file] = line.split(/\s+/);
      expect(sha256(join(DIR, file!)), file).toBe(sum);
    }
  });

  it('holds the same inputs and results as the H200 capture, file for file', () => {
    const h200 = readMmaCapture(H200).summary;
    expect(summary.seed).toBe(h200.seed);
    expect(summary.files).toEqual(h200.files);
    for (const file of ['mma-f16.bin', 'mma-bf16.bin', 'mma-tf32.bin', 'mma-fp8.bin'])
      expect(sha256(join(DIR, file)), file).toBe(sha256(join(H200, file)));
  });

  it('the catalog records it as a repeat of the H200 capture for mma', () => {
    const rules = measuredRulesFor(tensorCoreModel('hopper'), 'mma')!;
    expect(rules.capture).toBe('hw/captures/sm_90/h200/mma');
    expect(rules.repeatedOn.map((r) => r.capture)).toEqual([CAPTURE]);
  });

  it.each(followed.map((f) => [f.form.text, f] as const))(
    '%s: every element agrees with the engine',
    (_, captured) => {
      const c = compareMmaForm(captured, 3);
      expect(c.differences, JSON.stringify(c.differences)).toEqual([]);
      expect(c.sections.exact.differ).toBe(0);
    },
  );

  it('20 forms agree, and the 16 FP8 forms differ from the model (decision mma-sm90-differing-forms)', () => {
    expect(followed).toHaveLength(20);
    expect(fp8).toHaveLength(16);
    for (const captured of fp8) {
      const { exact, random } = compareMmaForm(captured, 0).sections;
      expect(exact.differ, captured.form.text).toBe(0);
      expect(random.differ, captured.form.text).toBeGreaterThan(0);
    }
  });
});
