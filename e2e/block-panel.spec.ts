import { expect, openState, test } from './fixtures.ts';
import { overflowPastRightEdge } from './layout-checks.ts';

/**
 * The block scaling panel (issue 26): a block quantized step by step, each element's cvt one
 * click away, every scheme and rule side by side, and a share link that holds it all.
 */

const BASE = '?v=3&instr=fma.rn.f16&target=sm_90&ptx=8.6&a=0x3e00&b=0x4000&c=0x3400';

test('the panel opens from the More tabs and quantizes the sample block, at 1280 and 390 px', async ({
  page,
}, info) => {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await openState(page, BASE);
    await page.getByTestId('tab-block').click();
    await expect(page.getByTestId('block-panel')).toBeVisible();
    await expect(page).toHaveURL(/tab=block&scheme=mxfp4&rule=ocp&block=0x3dcccccd,/);
    await expect(page.getByTestId('block-elements').locator('tbody tr')).toHaveCount(32);
    // amax is 12.5 (element 9); ocp: 2^(floor(log2 12.5) − 2) = 2^1.
    await expect(page.getByTestId('block-amax')).toContainText('12.5');
    await expect(page.getByTestId('block-scale')).toContainText('2^1 = 2 stored as 0x80');
    await expect(page.getByTestId('block-least')).toContainText('loses least');
    const fit = await overflowPastRightEdge(page);
    expect(fit.wide, `nothing past the right edge at ${width} px`).toEqual([]);
    expect(fit.scroll).toBeLessThanOrEqual(fit.client);
    await page
      .getByTestId('block-panel')
      .screenshot({ path: info.outputPath(`block-panel-${width}.png`) });
  }
});

test('a scheme, a rule and a typed block go into the link; a bad item is named', async ({
  page,
}) => {
  await openState(page, `${BASE}&tab=block`);
  await page.getByTestId('block-scheme-mxfp8-e4m3').click();
  await page.getByTestId('block-rule-rp').click();
  await expect(page).toHaveURL(/scheme=mxfp8-e4m3&rule=rp&/);
  const box = page.getByTestId('block-values');
  await box.fill(['957', 'abc', ...Array<string>(30).fill('1')].join(', '));
  await expect(page.getByTestId('block-values-problems')).toContainText('Item 2 (abc)');
  await box.fill(['957', ...Array<string>(30).fill('1'), '0x3dcccccd'].join(', '));
  await expect(page.getByTestId('block-values-problems')).toHaveCount(0);
  await expect(page).toHaveURL(/block=0x446f4000,0x3f800000,/);
  await box.fill('1, 2');
  await expect(page.getByTestId('block-values-problems')).toContainText(
    '2 values; the block takes 32.',
  );
});

test('957 in MXFP8 E4M3 under ocp saturates, by link; its cvt is one click away', async ({
  page,
}) => {
  const block = ['957', ...Array<string>(31).fill('0')].join(',');
  await openState(page, `${BASE}&tab=block&scheme=mxfp8-e4m3&rule=ocp&block=${block}`);
  // floor(log2 957) − 8 = 1: 957 / 2 = 478.5 is past E4M3's 448.
  await expect(page.getByTestId('block-scale')).toContainText('2^1 = 2 stored as 0x80');
  const first = page.getByTestId('block-element-0');
  await expect(first).toContainText('478.5');
  await expect(first).toContainText('saturated');
  await expect(first).toContainText('896');
  // rp rounds the scale up: 957 / 448 → 2^2, nothing saturates.
  await page.getByTestId('block-rule-rp').click();
  await expect(page.getByTestId('block-scale')).toContainText('2^2 = 4');
  await expect(page.getByTestId('block-element-0')).not.toContainText('saturated');
  await page.getByTestId('block-rule-ocp').click();
  await page.getByTestId('block-trace-0').click();
  await expect(page).toHaveURL(/instr=cvt\.rn\.satfinite\.e4m3x2\.f32/);
  await expect(page.getByTestId('result-bits')).toBeVisible();
});

test('one click sends the row into the block-scaled mma; a column of its own goes into the link', async ({
  page,
}, info) => {
  const ones = Array<string>(32).fill('1').join(',');
  await openState(page, `${BASE}&tab=block&scheme=mxfp8-e4m3&rule=ocp&block=${ones}`);
  await page.getByTestId('block-to-mma').click();
  await expect(page.getByTestId('block-mma-form')).toHaveText(
    'mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0',
  );
  // 32 × 1 · 1: exact.
  await expect(page.getByTestId('block-mma-d')).toHaveText('0x42000000 = 32');
  await expect(page.getByTestId('block-mma-exact')).toHaveText('32');
  await page.getByTestId('block-column-own').click();
  const column = page.getByTestId('block-column');
  await column.fill(['957', ...Array<string>(31).fill('0')].join(', '));
  await expect(page).toHaveURL(/column=0x446f4000,0x00000000,/);
  // 957 quantizes to 896 in its own block (2^1 × 448, saturated): d = 896, exact 957.
  await expect(page.getByTestId('block-mma-d')).toHaveText('0x44600000 = 896');
  await expect(page.getByTestId('block-mma-exact')).toHaveText('957');
  await expect(page.getByTestId('block-mma-error')).toContainText('-61');
  // The link reopens it as it was.
  await page.reload();
  await expect(page.getByTestId('block-mma-d')).toHaveText('0x44600000 = 896');
  // The same element on the tensor-core page: the catalog form, its row, column and scales.
  const back = page.url();
  await page.getByTestId('block-mma-open').click();
  await expect(page).toHaveURL(
    /instr=mma\.sync\.aligned\.m16n8k32\.row\.col\.kind%3A%3Amxf8f6f4\.block_scale/,
  );
  await expect(page).toHaveURL(/[?&]sa=0x[0-9a-f]{2}&sb=0x[0-9a-f]{2}/);
  await expect(page.getByTestId('result-bits')).toHaveText('0x44600000');
  await expect(page.getByTestId('editor-scale_a')).toBeVisible();
  await page.goto(back);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const fit = await overflowPastRightEdge(page);
    expect(fit.wide, `nothing past the right edge at ${width} px`).toEqual([]);
    await page
      .getByTestId('block-dot')
      .screenshot({ path: info.outputPath(`block-dot-${width}.png`) });
  }
});
