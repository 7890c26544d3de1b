import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { commit, expect, openState, test } from './fixtures.ts';

/**
 * Compare mode across formats: a cvt beside another cvt on the same source values — e4m3 vs
 * e5m2 vs e2m1 for 500 and 4.25 — element by element: the bits (differing ones marked where
 * the elements have the same width), the values, each one's error against the source and B − A,
 * in ulps of A's format at A's result (engine/what-if/comparison.ts); the share link's vs=, and
 * a B of the other kind refused.
 */
const E4M3 =
  '?v=2&instr=cvt.rn.satfinite.e4m3x2.f32&target=sm_90&ptx=8.6&a=0x43fa0000&b=0x40880000';
const search = (page: Page) => new URL(page.url()).search;

test('e4m3 vs e5m2 on 500 and 4.25: one click, both results element by element', async ({
  page,
}) => {
  await openState(page, E4M3);
  await expect(page.getByTestId('compare')).toHaveCount(0);
  await page.getByTestId('vs-quick-cvt.rn.satfinite.e5m2x2.f32').click();

  await expect(page.getByTestId('result-bits')).toHaveText('0x7e48');
  await expect(page.getByTestId('compare-a-bits')).toHaveText('0x7e48');
  await expect(page.getByTestId('compare-result-bits')).toHaveText('0x6044');
  await expect(page.getByTestId('compare-verdict')).toHaveText(
    "B differs from A: element 0: B − A = +2 ulps of e4m3 at A's result.",
  );
  // 500: e4m3 saturates to 448 (−52), e5m2 rounds to 512 (+12); in ulps of e4m3 at 448 (32).
  await expect(page.getByTestId('compare-a-value-0')).toHaveText('448');
  await expect(page.getByTestId('compare-b-value-0')).toHaveText('512');
  await expect(page.getByTestId('compare-a-error-0')).toHaveText(
    "-52 = -1.625 ulps of e4m3 at A's result",
  );
  await expect(page.getByTestId('compare-b-error-0')).toHaveText(
    "+12 = +0.375 ulp of e4m3 at A's result",
  );
  // 4.25: both give 4 (a tie to even in e4m3, below the halfway point in e5m2), other bits.
  await expect(page.getByTestId('compare-a-value-1')).toHaveText('4');
  await expect(page.getByTestId('compare-b-value-1')).toHaveText('4');
  await expect(page.getByTestId('compare-difference-1')).toHaveText('the same value');
  const element1 = page.getByTestId('compare-element-1');
  await expect(element1).toContainText('2 of the bits differ');
  await expect(element1.locator('mark')).toHaveCount(4);
  await expect(page.getByTestId('compare-carried')).toContainText(
    'a element 0: 500 (f32 0x43fa0000), the same bits',
  );
  await expect.poll(() => search(page)).toContain('&vs=cvt.rn.satfinite.e5m2x2.f32');

  // An edit of a source value changes A and B together.
  await commit(page, 'b-value1', '1');
  await expect(page.getByTestId('compare-result-bits')).toHaveText('0x603c');

  // B's steps on demand.
  await page.getByTestId('compare-trace').locator('summary').click();
  await expect(page.getByTestId('compare-trace').getByTestId('compare-steps-0')).toContainText(
    'e5m2',
  );
});

test('e4m3 vs e2m1 (4-bit elements: values compare, bits do not), then typed', async ({ page }) => {
  await openState(page, `${E4M3}&vs=cvt.rn.satfinite.e2m1x2.f32`);
  await expect(page.getByTestId('compare-result-bits')).toHaveText('0x76');
  await expect(page.getByTestId('compare-b-value-0')).toHaveText('6');
  await expect(page.getByTestId('compare-b-value-1')).toHaveText('4');
  await expect(page.getByTestId('compare-b-error-0')).toHaveText(
    "-494 = -15.44 ulps of e4m3 at A's result",
  );
  await expect(page.getByTestId('compare-difference-0')).toHaveText(
    "B − A = -13.81 ulps of e4m3 at A's result",
  );
  await expect(page.getByTestId('compare').locator('mark')).toHaveCount(0);

  // Typed: another rounding of e2m3, whose .rs form reads four sources and random bits.
  const text = page.getByTestId('vs-text');
  await text.fill('cvt.rs.satfinite.e2m3x4.f32');
  await expect(page.getByTestId('compare-carried')).toContainText(
    'e element 2: 4.25 (f32 0x40880000), the same bits; A has fewer elements, so B reads its last one again',
  );
  await expect(page.getByTestId('compare-carried')).toContainText('rbits: A has no random bits');
  await expect.poll(() => search(page)).toContain('&vs=cvt.rs.satfinite.e2m3x4.f32');
  await text.fill('unfused');
  await expect(page.getByTestId('vs-error')).toContainText(
    'unfused: the mul-then-add sequence of an fma; a cvt has none',
  );
});

test('an arithmetic B beside a cvt: B reads the values A converts', async ({ page }) => {
  await openState(page, `${E4M3}&vs=fma.rn.f16`);
  await expect(page.getByTestId('url-notices')).toHaveCount(0);
  await expect(page.getByTestId('result-bits')).toHaveText('0x7e48');
  // fma.rn.f16 reads the value of element 0's source, 500 (f32 0x43fa0000), carried into f16.
  await expect(page.getByTestId('compare-carried')).toContainText('500');
  await expect(page.getByTestId('compare-verdict')).toBeVisible();
  await expect.poll(() => search(page)).toContain('&vs=fma.rn.f16');
});

for (const width of [1280, 390]) {
  test(`the comparison at ${width} px: nothing past the right edge`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await openState(page, `${E4M3}&vs=cvt.rn.satfinite.e5m2x2.f32`);
    await expect(page.getByTestId('compare-verdict')).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByTestId('compare').scrollIntoViewIfNeeded();
    // The docs' screenshot is refreshed on request only: an ordinary run leaves the tree as it is.
    if (process.env.PTXF_SCREENSHOTS)
      await page.getByTestId('compare').screenshot({
        path: `docs/screenshots/cvt-compare-e4m3-e5m2${width === 390 ? '-390px' : ''}.png`,
      });
  });
}

for (const theme of ['light', 'dark'] as const) {
  test(`the cvt comparison has no axe violations (${theme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: theme });
    await openState(page, `${E4M3}&vs=cvt.rn.satfinite.e2m1x2.f32`);
    await expect(page.getByTestId('compare-verdict')).toBeVisible();
    const results = await new AxeBuilder({ page }).include('[data-testid="compare"]').analyze();
    expect(results.violations).toEqual([]);
  });
}
