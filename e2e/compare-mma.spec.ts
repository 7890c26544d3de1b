import type { Page } from '@playwright/test';
import { expect, openState, test } from './fixtures.ts';

/**
 * Compare mode with tensor cores: beside an mma element, B is another tensor-core form of the
 * same k, picked with one click, by typing or with the tensor-core pickers; both results show,
 * both on the page's target, and a B whose operands do not fit is refused with why.
 *
 * The row and the column: 1, then fifteen products 2^-25 (2^-12 × 2^-13), c = 0. Hopper's 25
 * alignment bits keep them (1 + 3.75 · 2^-23, truncated to f32: 0x3f800003); with f16 as the
 * accumulator that is 1 (0x3c00); Ampere's 24 bits cut them (0x3f800000).
 */
const FORM = 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32';
const ROW_A = ['0x3c00', ...Array<string>(15).fill('0x0c00')].join(',');
const ROW_B = ['0x3c00', ...Array<string>(15).fill('0x0800')].join(',');
const MMA = `?v=3&instr=${FORM}&target=sm_90&ptx=8.7&a=${ROW_A}&b=${ROW_B}&c=0x00000000`;
const search = (page: Page) => decodeURIComponent(new URL(page.url()).search);

test('an mma beside the other accumulator: one click, both results, then another target', async ({
  page,
}) => {
  await openState(page, MMA);
  await expect(page.getByTestId('result-bits')).toHaveText('0x3f800003');
  const f16 = 'mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16';
  await page.getByTestId(`vs-quick-${f16}`).click();
  const compare = page.getByTestId('compare');
  await expect(compare.getByTestId('compare-a-bits')).toHaveText('0x3f800003');
  await expect(page.getByTestId('compare-result-bits')).toHaveText('0x3c00');
  await expect(page.getByTestId('compare-verdict')).toContainText('B differs from A');
  await expect.poll(() => search(page)).toContain(`&vs=${f16}`);

  // B follows the page's target: on sm_80 both cut the small products.
  await page.getByTestId('target').selectOption('sm_80');
  await expect(compare.getByTestId('compare-a-bits')).toHaveText('0x3f800000');
  await expect(page.getByTestId('compare-result-bits')).toHaveText('0x3c00');
});

test('B picked with the tensor-core pickers, typed as wgmma, and refused where k differs', async ({
  page,
}) => {
  await openState(page, MMA);
  const bf16 = 'mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32';
  await page.getByTestId(`vs-quick-${bf16}`).click();
  await expect(page.getByTestId('compare-result-bits')).toHaveText('0x3f800003');
  // B's own pickers are the tensor-core pickers: its opcode, shape, layouts and types.
  const picker = page.getByTestId('compare-picker');
  await expect(picker.getByLabel('B Opcode')).toHaveValue('mma');
  await expect(picker.getByLabel('B Layouts and types')).toHaveValue(bf16);
  await picker
    .getByLabel('B Layouts and types')
    .selectOption('mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32');
  await expect
    .poll(() => search(page))
    .toContain('&vs=mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32');
  await expect(page.getByTestId('compare')).toContainText('e4m3');

  // Typed: wgmma of the same k, on the same values.
  const text = page.getByTestId('vs-text');
  await text.fill('wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16');
  await expect(page.getByTestId('compare-result-bits')).toHaveText('0x3f800003');
  await expect(page.getByTestId('compare-verdict')).toHaveText(
    'Same result: B gives the same bits as A.',
  );

  // Another k: refused, and the comparison stays on the last B that fits.
  await text.fill('mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32');
  await expect(picker).toContainText("A's have 16: pick a tensor-core form with k = 16");
  await expect
    .poll(() => search(page))
    .toContain('&vs=wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16');
});
