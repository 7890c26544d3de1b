import type { Page } from '@playwright/test';
import { expect, openState, test } from './fixtures.ts';

/**
 * On a phone the answer sits under the question: the instruction and its target, its operands,
 * then the result with its one-line summary; the compare picker (what if…) follows. An action whose effect lies
 * off screen (a quick variant, a corner-case row) brings it into view. Long requirement texts
 * wrap inside their box. At 1280 px the layout is the side-by-side one.
 */

const FMA = '?v=2&instr=fma.rn.f16&target=sm_90&ptx=8.6&a=0x3c01&b=0x3c01&c=0xbc02';

/** The page y of an element's top and bottom. */
function span(page: Page, selector: string): Promise<{ top: number; bottom: number }> {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { top: r.top + window.scrollY, bottom: r.bottom + window.scrollY };
    });
}

test.describe('a 390 × 844 phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the result and its summary come right after the instruction and the operands', async ({
    page,
  }) => {
    // "Result d" started at y = 3,610 of 4,724 px, after the compare picker too.
    await openState(page, FMA);
    const instruction = await span(page, 'section:has([data-testid="instr-text"])');
    const operands = await span(page, '.operands');
    const summary = await span(page, '[data-testid="summary"]');
    const result = await span(page, '[data-testid="editor-d"]');
    const target = await span(page, 'section:has([data-testid="target"])');
    const compare = await span(page, '[data-testid="compare-picker"]');
    // The instruction and its target (whose verdict says whether it exists there), then the
    // operands.
    expect(instruction.bottom).toBeLessThan(target.top);
    expect(target.bottom).toBeLessThan(operands.top);
    // Between the operands and the summary: only the result bar (sticky) and gaps.
    expect(summary.top - operands.bottom).toBeLessThan(100);
    expect(summary.bottom).toBeLessThanOrEqual(result.top);
    // What if… comes after the answer.
    expect(result.bottom).toBeLessThan(compare.top);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
  });

  for (const [name, query] of [
    ['the default page', ''],
    ['a cvt', '?v=2&instr=cvt.rn.f16.f32&target=sm_90&ptx=8.6'],
    ['tanh.approx', '?v=2&instr=tanh.approx.f16&target=sm_90&ptx=8.6&a=0x3e00'],
  ] as const) {
    test(`the answer is on the first screen, under the instruction: ${name}`, async ({ page }) => {
      // The instruction picker filled the first screen and the result line began at y = 1,281.
      await openState(page, query);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      const line = await page.getByTestId('result-line').boundingBox();
      expect(line!.y).toBeGreaterThanOrEqual(0);
      expect(line!.y + line!.height).toBeLessThanOrEqual(844);
      // The real answer: d's bits, as the result panel has them, and its value.
      const bits = (await page.getByTestId('result-bits').textContent())!;
      await expect(page.getByTestId('result-line-a')).toHaveText(bits);
      await expect(page.getByTestId('result-line')).toContainText(`${bits} = `);
      // Under the instruction: the instruction's own panel starts above it.
      const instruction = await page.getByTestId('instruction-picker').boundingBox();
      expect(instruction!.y).toBeLessThan(line!.y);
    });
  }

  test('a quick variant tapped: the comparison comes into view', async ({ page }) => {
    // The tap changed nothing in view but the bar: the comparison was screens above.
    await openState(page, FMA);
    const unfused = page.getByTestId('vs-quick-unfused');
    await unfused.scrollIntoViewIfNeeded();
    await unfused.tap();
    await expect(page.getByTestId('compare')).toBeVisible();
    await expect(page.getByTestId('compare').getByRole('heading').first()).toBeInViewport();
  });

  test('a corner-case row tapped: its result comes into view', async ({ page }) => {
    await openState(page, `${FMA}&tab=corners`);
    const row = page.getByTestId('corner-row').nth(3);
    await row.scrollIntoViewIfNeeded();
    await row.tap();
    await expect(row).toHaveAttribute('aria-current', 'true');
    await expect(page.getByTestId('summary')).toBeInViewport();
  });

  test('a cvt corner-case row tapped: its result comes into view', async ({ page }) => {
    await openState(
      page,
      '?v=2&instr=cvt.rn.satfinite.e4m3x2.f32&target=sm_90&ptx=8.6&a=0x43fa0000&b=0x40880000&tab=corners',
    );
    const row = page.getByTestId('corner-row').nth(3);
    await row.scrollIntoViewIfNeeded();
    await row.tap();
    await expect(row).toHaveAttribute('aria-current', 'true');
    await expect(page.getByTestId('result-bits')).toBeInViewport();
  });

  test('long requirement texts wrap inside the target panel', async ({ page }) => {
    // ".rs rounding mode and cvt.rs{.e2m1x4/.e4m3x4/…}" ran 160 px past its box and was cut.
    await openState(page, '?v=2&instr=cvt.rs.satfinite.e2m1x4.f32&target=sm_100a&ptx=8.6');
    const target = page.locator('section:has([data-testid="target"])');
    await expect(target.getByTestId('verdict')).toContainText('✗ Not valid');
    const clipped = await target.evaluate((section) =>
      [section, ...section.querySelectorAll('p, ul, li, div')]
        .filter((el) => el.scrollWidth > el.clientWidth + 1)
        .map((el) => `${el.tagName}.${el.className} ${el.scrollWidth} > ${el.clientWidth}`),
    );
    expect(clipped).toEqual([]);
  });
});

test('at 1280 px the pickers share a row and the result sits beside the operands', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openState(page, FMA);
  const instruction = await span(page, 'section:has([data-testid="instr-text"])');
  const target = await span(page, 'section:has([data-testid="target"])');
  const compare = await span(page, '[data-testid="compare-picker"]');
  expect(target.top).toBe(instruction.top);
  expect(compare.top).toBe(instruction.top);
  const operands = await page.locator('.operands').boundingBox();
  const result = await page.getByTestId('editor-d').boundingBox();
  expect(result!.x).toBeGreaterThan(operands!.x + operands!.width);
  expect(target.bottom).toBeLessThan(operands!.y);
});
