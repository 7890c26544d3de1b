import type { Page } from '@playwright/test';
import { expect, openState, test } from './fixtures.ts';

/**
 * A way in: the first screen says what this is and what to try, with three examples that load
 * in place; the words it uses explain themselves on hover, on focus and on tap, each with a link
 * to its spec paragraph.
 */

/** The element's box lies within the first screen (no scrolling needed). */
async function onFirstScreen(page: Page, testId: string): Promise<void> {
  const box = await page.getByTestId(testId).boundingBox();
  const height = page.viewportSize()!.height;
  expect(box, testId).not.toBeNull();
  expect(box!.y + box!.height, `${testId} is on the first screen`).toBeLessThanOrEqual(height);
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`the first screen says what this is and offers three examples (${viewport.width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto('./');
    await expect(page.getByTestId('intro')).toContainText(
      'See what an NVIDIA PTX floating-point instruction computes, bit for bit',
    );
    for (const id of ['example-tie', 'example-fma', 'example-nan']) await onFirstScreen(page, id);
  });
}

test('the examples load in place: a tie to even, fma rounding once, a NaN rule', async ({
  page,
}) => {
  await openState(page, '?v=2&instr=add.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x3c00');
  await page.getByTestId('example-tie').click();
  await expect(page.getByTestId('instr-text')).toHaveValue('add.rn.f16');
  await expect(page.getByTestId('result-bits')).toHaveText('0x3c00'); // 1 + 2^-11 → 1
  await expect(page.getByTestId('steps')).toContainText('tie');
  await page.getByTestId('example-fma').click();
  await expect(page.getByTestId('instr-text')).toHaveValue('fma.rn.f16');
  await expect(page.getByTestId('result-bits')).toHaveText('0x0010'); // 2^-20, not 0
  await page.getByTestId('example-nan').click();
  await expect(page.getByTestId('instr-text')).toHaveValue('min.f16');
  await expect(page.getByTestId('result-bits')).toHaveText('0x3c00'); // min(NaN, 1) = 1
  await expect(page).toHaveURL(/instr=min\.f16&.*a=0x7e00/);
  // Each was one history entry.
  await page.goBack();
  await expect(page.getByTestId('instr-text')).toHaveValue('fma.rn.f16');
});

test.describe('glossary words', () => {
  test('a modifier explains itself on hover, with its spec paragraph', async ({ page }) => {
    await openState(page, '?v=2&instr=fma.rn.oob.relu.f16&target=sm_90&ptx=8.6');
    // The picker's word (the steps name .oob too, each with its own explanation).
    const picker = page.getByTestId('instruction-picker');
    const pop = picker.getByTestId('term-pop-oob');
    await expect(pop).toBeHidden();
    await picker.getByTestId('term-oob').hover();
    await expect(pop).toBeVisible();
    await expect(pop).toContainText('.oob: Out of bounds');
    await expect(pop.getByRole('link', { name: 'PTX ISA §9.7.4.4' })).toHaveAttribute(
      'href',
      /#half-precision-floating-point-instructions-fma$/,
    );
    await page.mouse.move(0, 0);
    await expect(pop).toBeHidden();
  });

  test('and on keyboard focus; Escape closes it', async ({ page }) => {
    await openState(page, '?v=2&instr=min.NaN.xorsign.abs.f16&target=sm_90&ptx=8.6');
    const picker = page.getByTestId('instruction-picker');
    await picker.getByTestId('term-nan').focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab'); // keyboard focus, as :focus-visible sees it
    const pop = picker.getByTestId('term-pop-nan');
    await expect(pop).toBeVisible();
    await expect(pop).toContainText('canonical NaN');
    await page.keyboard.press('Escape');
    await expect(pop).toBeHidden();
  });

  test.describe('on a touch screen', () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

    test('every word of the glossary opens on a tap where it is used', async ({ page }) => {
      // `title` text never shows on a touch screen; these open on a tap.
      const places: [string, string[]][] = [
        [
          '?v=2&instr=fma.rn.oob.relu.f16&target=sm_90&ptx=8.6&a=0x0001',
          ['ftz', 'sat', 'relu', 'oob', 'bias', 'ulp', 'subnormal'],
        ],
        [
          '?v=2&instr=min.NaN.xorsign.abs.f16&target=sm_90&ptx=8.6&a=0x7fff',
          ['nan', 'xorsign-abs', 'canonical-nan'],
        ],
      ];
      for (const [query, ids] of places) {
        await openState(page, query);
        for (const id of ids) {
          const word = page.getByTestId(`term-${id}`).first();
          await word.scrollIntoViewIfNeeded();
          await word.tap();
          const pop = page.getByTestId(`term-pop-${id}`).first();
          await expect(pop, id).toBeVisible();
          await expect(pop.getByRole('link', { name: /^PTX ISA §/ })).toBeVisible();
          // A second tap closes it.
          await word.tap();
          await expect(pop, id).toBeHidden();
        }
      }
    });

    test('the page lists every word with its explanation', async ({ page }) => {
      await openState(page, '?v=2&instr=add.f16&target=sm_90&ptx=8.6');
      await page.getByTestId('glossary').getByText('Words used here').tap();
      for (const word of [
        '.ftz',
        '.sat',
        '.relu',
        '.oob',
        '.NaN',
        '.xorsign.abs',
        'guard / round / sticky',
        'ulp',
        'bias',
        'subnormal',
        'canonical NaN',
      ])
        await expect(
          page.getByTestId('glossary').locator('dt', { hasText: word }).first(),
        ).toBeVisible();
    });
  });
});
