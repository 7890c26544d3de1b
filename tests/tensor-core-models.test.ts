/**
 * The measured rules of src/catalog/tensor-core-models.ts as data: one record per capture, each
 * naming the instructions it measured, the GPU it was taken on (as the capture's device.txt names
 * it) and a capture that is in the repository; no instruction measured twice; what a record says
 * of forms (sequences, differing forms, settled cases) stays within its instructions; a settled
 * case is no longer among the model's unsettled ones.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  measuredRulesFor,
  tensorCoreModel,
  TENSOR_CORE_MODELS,
  type CaptureRef,
} from '../src/catalog/tensor-core-models.ts';

const ROOT = join(import.meta.dirname, '..');
const records = TENSOR_CORE_MODELS.flatMap((m) => m.measured.map((r) => [m, r] as const));

/** The GPU name of a capture's device.txt (nvidia-smi's CSV line). */
function gpuOf(capture: string): string | undefined {
  const device = readFileSync(join(ROOT, capture, 'device.txt'), 'utf8');
  return /^(NVIDIA [^,]+), [\d.]+, \d+\.\d+, GPU-/m.exec(device)?.[1];
}

describe('measured rules (tensor-core-models.ts measured)', () => {
  it('only Hopper is measured: mma on an H200 (repeated on an H100), wgmma on an H100', () => {
    expect(
      TENSOR_CORE_MODELS.filter((m) => m.measured.length > 0).map((m) => m.architecture),
    ).toEqual(['hopper']);
    const hopper = tensorCoreModel('hopper');
    expect(measuredRulesFor(hopper, 'mma')?.capture).toBe('hw/captures/sm_90/h200/mma');
    expect(measuredRulesFor(hopper, 'mma')?.repeatedOn.map((r) => r.capture)).toEqual([
      'hw/captures/sm_90/h100/mma',
    ]);
    expect(measuredRulesFor(hopper, 'wgmma')?.capture).toBe('hw/captures/sm_90/h100/wgmma');
    expect(measuredRulesFor(tensorCoreModel('blackwell'), 'mma')).toBeUndefined();
  });

  it('each capture is in the repository and was taken on the GPU its record names', () => {
    const refs: CaptureRef[] = records.flatMap(([, r]) => [r, ...r.repeatedOn]);
    expect(refs).toHaveLength(3);
    for (const ref of refs) {
      expect(existsSync(join(ROOT, ref.capture, 'device.txt')), ref.capture).toBe(true);
      const gpu = gpuOf(ref.capture);
      expect(gpu, ref.capture).toBeDefined();
      expect(ref.on.startsWith(`${gpu} (sm_90), driver 580.159.04`), ref.capture).toBe(true);
    }
  });

  it('no instruction of a model is measured by two records', () => {
    for (const m of TENSOR_CORE_MODELS) {
      const instructions = m.measured.flatMap((r) => r.instructions);
      expect(new Set(instructions).size, m.architecture).toBe(instructions.length);
    }
  });

  it("a record's sequences, differing forms and settled cases are of its own instructions", () => {
    for (const [m, r] of records) {
      for (const part of [...r.sequences, ...r.differing, ...r.settles])
        for (const instruction of part.instructions)
          expect(r.instructions, `${m.architecture} ${r.capture}`).toContain(instruction);
    }
  });

  it('a settled case is no longer unsettled: Hopper FP8 .f16 wgmma, by the H100', () => {
    for (const [m, r] of records)
      for (const settled of r.settles) expect(m.unsettled).not.toContainEqual(settled);
    expect(tensorCoreModel('hopper').unsettled).toEqual([]);
    expect(measuredRulesFor(tensorCoreModel('hopper'), 'wgmma')?.settles).toEqual([
      { inputs: ['e4m3', 'e5m2'], instructions: ['wgmma'], results: ['f16'] },
    ]);
    // Blackwell's FP8 mma stays unsettled: nothing measured there.
    expect(tensorCoreModel('blackwell').unsettled).toHaveLength(1);
  });

  it('the H100 records measure +0 for a zero sum and ±∞ for an .f32 overflow, as the H200', () => {
    for (const [, r] of records)
      expect([r.zeroSum, r.f32Overflow]).toEqual(['positive', 'infinity']);
    // wgmma computes no form otherwise than the model: no sequences, no differing forms.
    const wgmma = measuredRulesFor(tensorCoreModel('hopper'), 'wgmma')!;
    expect([wgmma.sequences, wgmma.differing]).toEqual([[], []]);
  });
});
