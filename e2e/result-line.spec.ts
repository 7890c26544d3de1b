import type { Locator, Page } from '@playwright/test';
import { expect, openState, test } from './fixtures.ts';

/**
 * The result stays in view while editing: a compact line beside the operand editors, on every
 * width. On a 390 px phone, a bit flipped in operand c shows its effect without scrolling.
 */

const FMA = '?v=2&instr=fma.rn.f16&target=sm_90&ptx=8.6&a=0x3c01&b=0x3c01&c=0xbc02';

/**
 * Whether the element lies wholly inside the viewport, to within a pixel: scrollIntoView puts
 * an element's top at a device pixel, which for a box at a fractional offset is a fraction
 * above 0 (the sign bit sits at y = −0.11 after it).
 */
async function inViewport(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const view = page.viewportSize()!;
  return (
    box !== null &&
    box.y > -1 &&
    box.x > -1 &&
    box.y + box.height < view.height + 1 &&
    box.x + box.width < view.width + 1
  );
}

test.describe('390 px phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  // c as the issue asks, and a, furthest from the line's place after the editors: only a line
  // that sticks to the bottom of the screen is in view from there.
  for (const [operand, compare] of [
    ['c', false],
    ['c', true],
    ['a', false],
  ] as const) {
    test(`a bit of ${operand} flipped: the result line is in view and changed${compare ? ' (A and B)' : ''}`, async ({
      page,
    }) => {
      await openState(page, compare ? `${FMA}&vs=unfused` : FMA);
      const line = page.getByTestId('result-line');
      await expect(page.getByTestId('result-line-a')).toHaveText('0x0010');
      if (compare) await expect(page.getByTestId('result-line-b')).toHaveText('0x0000');

      // Bring the sign bit to the top of the screen, as someone editing the operand has it.
      const bit = page.getByRole('button', { name: `${operand} sign bit 15`, exact: true });
      await bit.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      const scrollBefore = await page.evaluate(() => window.scrollY);

      await bit.tap();
      // c = +(1 + 2^-9): (1 + 2^-10)^2 + c = 2 + 2^-8 + 2^-20 rounds to 2 + 2^-8 (0x4002), both
      // ways. a = −(1 + 2^-10): −(1 + 2^-10)^2 − (1 + 2^-9) = −2 − 2^-8 − 2^-20, 0xc002.
      const want = operand === 'c' ? '0x4002' : '0xc002';
      await expect(page.getByTestId('result-line-a')).toHaveText(want);
      if (compare) await expect(page.getByTestId('result-line-b')).toHaveText(want);
      expect(await inViewport(page, line)).toBe(true);
      expect(await inViewport(page, bit)).toBe(true);
      // Nothing scrolled to show it.
      expect(await page.evaluate(() => window.scrollY)).toBe(scrollBefore);
    });
  }
});

test('at 1280 px the line sits beside the editors too', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openState(page, `${FMA}&vs=fma.rn.bf16`);
  const bit = page.getByRole('button', { name: 'c sign bit 15', exact: true });
  await bit.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await bit.click();
  await expect(page.getByTestId('result-line-a')).toHaveText('0x4002');
  await expect(page.getByTestId('result-line')).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('result-line')).toContainText('B 0x');
});

/** Tab from the top of the page until the field with this test id has focus. */
async function tabTo(page: Page, testId: string): Promise<void> {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    if (focused === testId) return;
  }
  throw new Error(`Tab never reached ${testId}`);
}

/** How far the focused element reaches under the bar (0: it is wholly clear of it). */
function underTheBar(page: Page): Promise<number> {
  return page.evaluate(() => {
    const focused = document.activeElement!.getBoundingClientRect();
    const bar = document.querySelector('[data-testid="result-line"]')!.getBoundingClientRect();
    const overlap = Math.min(focused.bottom, bar.bottom) - Math.max(focused.top, bar.top);
    return Math.max(0, overlap);
  });
}

for (const [label, viewport, mobile, field] of [
  ['1280 × 800', { width: 1280, height: 800 }, false, 'a-hex'],
  ['a 390 px phone', { width: 390, height: 844 }, true, 'b-bin'],
] as const) {
  test.describe(label, () => {
    test.use({ viewport, isMobile: mobile, hasTouch: mobile });

    test(`Tab to ${field}: the focused field is not under the result bar`, async ({ page }) => {
      // It sat under the bar: focus scrolled it just into the viewport, behind the bar.
      await openState(page, '');
      await tabTo(page, field);
      await expect(page.getByTestId(field)).toBeInViewport({ ratio: 1 });
      expect(await underTheBar(page)).toBe(0);
    });
  });
}

test.describe('a 390 px phone, the bar on the first screen', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('no stop from the top of the page to the operands is under the bar', async ({ page }) => {
    // The bar sits at the bottom of the first screen, over the instruction and target pickers:
    // each of their controls, reached by Tab, scrolls clear of it.
    await openState(page, '');
    const seen: string[] = [];
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press('Tab');
      const id = await page.evaluate(
        () =>
          document.activeElement?.getAttribute('data-testid') ??
          document.activeElement?.textContent?.slice(0, 20) ??
          '',
      );
      seen.push(id);
      expect(await underTheBar(page), `stop ${i}: ${id}`).toBe(0);
      if (id === 'a-hex') break;
    }
    expect(seen).toContain('target');
    expect(seen).toContain('a-hex');
  });
});

test('the bar does not look like an input: no border in the accent colour', async ({ page }) => {
  // A 2 px border in the accent colour, as a focused field has, made it look like one.
  await openState(page, FMA);
  const borders = await page.getByTestId('result-line').evaluate((el) => {
    const s = getComputedStyle(el);
    const probe = document.createElement('span');
    probe.style.color = 'var(--accent)';
    el.append(probe);
    const accent = getComputedStyle(probe).color;
    probe.remove();
    return (['Top', 'Right', 'Bottom', 'Left'] as const)
      .filter(
        (side) =>
          parseFloat(s.getPropertyValue(`border-${side.toLowerCase()}-width`)) > 0 &&
          s.getPropertyValue(`border-${side.toLowerCase()}-color`) === accent,
      )
      .map((side) => side);
  });
  expect(borders, 'sides with a border in the accent colour').toEqual([]);
});
