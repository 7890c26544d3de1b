import type { Page } from '@playwright/test';
import { commit, expect, openState, test } from './fixtures.ts';

/**
 * The number-formats tab: one value typed once, stored in every format the playground knows —
 * its bits, the value stored, the absolute, relative and ulp error, what happened (saturated,
 * overflowed, became zero) — each row a link into the cvt instruction that produces it.
 */

const row = (page: Page, format: string) =>
  page.locator(`[data-testid="every-format-row"][data-format="${format}"]`);

test('one value, every format: 0.1 and 1000, each row a link into its cvt', async ({ page }) => {
  await openState(page, '?v=2&instr=fma.rn.f16&target=sm_90&ptx=8.6&tab=format');
  await commit(page, 'every-format-value', '0.1');
  const rows = page.getByTestId('every-format-row');
  await expect(rows).toHaveCount(11);
  await expect(rows.locator('th')).toHaveText([
    '.f64',
    '.f32',
    '.tf32',
    '.f16',
    '.bf16',
    '.e4m3',
    '.e5m2',
    '.e3m2',
    '.e2m3',
    '.e2m1',
    '.ue8m0',
  ]);
  const bits: Record<string, string> = {
    f64: '0x3fb999999999999a',
    f32: '0x3dcccccd',
    tf32: '0x3dccc000',
    f16: '0x2e66',
    bf16: '0x3dcd',
    e4m3: '0x1d',
    e5m2: '0x2e',
    e3m2: '0x02',
    e2m3: '0x01',
    e2m1: '0x0',
    ue8m0: '0x7b',
  };
  for (const [format, hex] of Object.entries(bits))
    await expect(row(page, format).getByTestId('every-format-bits')).toHaveText(hex);
  await expect(row(page, 'f16').getByTestId('every-format-stored')).toHaveText('0.0999755859375');
  await expect(row(page, 'f16').getByTestId('every-format-abs')).toHaveText('-2.44e-5');
  await expect(row(page, 'f16').getByTestId('every-format-rel')).toHaveText('-2.44e-4');
  await expect(row(page, 'f16').getByTestId('every-format-ulps')).toHaveText('-0.4');
  await expect(row(page, 'e4m3').getByTestId('every-format-stored')).toHaveText('0.1015625');
  await expect(row(page, 'e2m1').getByTestId('every-format-what')).toHaveText('became zero');
  await expect(row(page, 'f16').getByTestId('every-format-link')).toHaveText('cvt.rn.f16.f64');
  await expect(row(page, 'e4m3').getByTestId('every-format-link')).toHaveText(
    'cvt.rn.satfinite.e4m3x2.f32',
  );

  await commit(page, 'every-format-value', '1000');
  await expect(row(page, 'f16').getByTestId('every-format-bits')).toHaveText('0x63d0');
  await expect(row(page, 'f16').getByTestId('every-format-what')).toHaveText('exact');
  await expect(row(page, 'e4m3').getByTestId('every-format-stored')).toHaveText('448');
  await expect(row(page, 'e4m3').getByTestId('every-format-what')).toHaveText(
    'saturated to MAX_NORM',
  );
  await expect(row(page, 'e5m2').getByTestId('every-format-stored')).toHaveText('1024');
  await expect(row(page, 'e2m1').getByTestId('every-format-stored')).toHaveText('6');
  await expect(row(page, 'ue8m0').getByTestId('every-format-stored')).toHaveText('512');

  // 1e5 is past f16's largest value: .rn overflows to infinity.
  await commit(page, 'every-format-value', '1e5');
  await expect(row(page, 'f16').getByTestId('every-format-stored')).toHaveText('+inf');
  await expect(row(page, 'f16').getByTestId('every-format-what')).toHaveText('overflowed to +inf');

  // A row's link loads its instruction with the value in its source registers.
  await commit(page, 'every-format-value', '1000');
  await row(page, 'e4m3').getByTestId('every-format-link').click();
  await expect(page.getByTestId('instr-text')).toHaveValue('cvt.rn.satfinite.e4m3x2.f32');
  await expect(page.getByTestId('a-hex')).toHaveValue('0x447a0000');
  await expect(page.getByTestId('result-bits')).toHaveText('0x7e7e');
  await expect(page.getByTestId('verdict')).toContainText('✓ Valid');
});

test('one value, every format: what cannot be read says so, and NaN and infinity have rows', async ({
  page,
}) => {
  await openState(page, '?v=2&instr=fma.rn.f16&target=sm_90&ptx=8.6&tab=format');
  await commit(page, 'every-format-value', 'abc');
  await expect(page.getByTestId('every-format-value-error')).toContainText("'abc' is not a number");
  await commit(page, 'every-format-value', '-inf');
  await expect(row(page, 'f32').getByTestId('every-format-stored')).toHaveText('-inf');
  await expect(row(page, 'e4m3').getByTestId('every-format-stored')).toHaveText('-448');
  await expect(row(page, 'ue8m0').getByTestId('every-format-what')).toContainText('NaN');
});
