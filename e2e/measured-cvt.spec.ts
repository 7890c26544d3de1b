import { expect, test } from '@playwright/test';

/**
 * A cvt form measured on a GPU says so beside its result (public/measured/cvt.json, from the
 * committed H200 capture hw/captures/sm_90/h200): on sm_90 the GPU, its driver and what was
 * measured; on a target the capture does not stand for, or for a form it lacks, nothing.
 */
test.describe('the "measured on" line of a cvt form', () => {
  test('cvt.rn.f16.bf16 on sm_90: every input measured on the H200, all agree', async ({
    page,
  }) => {
    await page.goto('./?v=2&instr=cvt.rn.f16.bf16&target=sm_90&ptx=8.6&a=0x3f80');
    await expect(page.getByTestId('result-bits')).toBeVisible();
    await expect(page.getByTestId('measured-cvt')).toHaveText(
      'Measured on NVIDIA H200 (driver 580.159.04, CUDA 13.0): all 65,536 inputs agree (hw/captures/sm_90/h200).',
    );
  });

  test('the same form on sm_100 and an arithmetic form on sm_90 say nothing of it', async ({
    page,
  }) => {
    await page.goto('./?v=2&instr=cvt.rn.f16.bf16&target=sm_100&ptx=8.6&a=0x3f80');
    await expect(page.getByTestId('result-bits')).toBeVisible();
    await expect(page.getByTestId('measured-cvt')).toHaveCount(0);
    await page.goto('./?v=2&instr=add.rn.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x3c00');
    await expect(page.getByTestId('result-bits')).toBeVisible();
    await expect(page.getByTestId('measured-cvt')).toHaveCount(0);
  });
});
