import type { Page } from '@playwright/test';
import { expect, openState, test } from './fixtures.ts';
import { enableTestHooks } from './test-hooks.ts';

/**
 * "The UI answers within a frame": an edit's result and its steps are already in the page when
 * the first animation frame after the input runs, so that frame paints them. (npm run bench:ui
 * measures the times; this checks the frame, which timing noise cannot blur.)
 *
 * A frame callback registered when the input arrives reads the page at the start of the next
 * frame, before its style, layout and paint.
 */

interface Seen {
  result: string;
  steps: string;
  bit: string;
}

declare global {
  interface Window {
    __firstFrame: Promise<Seen>;
  }
}

/** Arm a one-shot capture of what the first frame after the next `type` event will show. */
async function watchFirstFrame(page: Page, type: 'pointerdown' | 'keydown'): Promise<void> {
  await page.evaluate((eventType) => {
    window.__firstFrame = new Promise<Seen>((resolve) => {
      window.addEventListener(
        eventType,
        () =>
          requestAnimationFrame(() =>
            resolve({
              result: document.querySelector('[data-testid="result-bits"]')?.textContent ?? '',
              steps: document.querySelector('[data-testid="steps"]')?.textContent ?? '',
              bit: document.querySelector<HTMLInputElement>('[data-testid="a-hex"]')?.value ?? '',
            }),
          ),
        { capture: true, once: true },
      );
    });
  }, type);
}

const firstFrame = (page: Page) => page.evaluate(() => window.__firstFrame);

// add.f16: 1 + 2 = 3. Setting a's top mantissa bit makes a = 1.5: 1.5 + 2 = 3.5 (0x4300).
const LINK = '?v=1&instr=add.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x4000';

test.beforeEach(async ({ page }) => {
  await enableTestHooks(page);
});

test('a bit toggle: the first frame after the press shows the new operand, result and steps', async ({
  page,
}) => {
  await openState(page, LINK);
  await expect(page.getByTestId('result-bits')).toHaveText('0x4200');
  await watchFirstFrame(page, 'pointerdown');
  await page.getByRole('button', { name: 'a mantissa bit 9', exact: true }).click();
  const seen = await firstFrame(page);
  expect(seen.result).toBe('0x4300');
  expect(seen.bit).toBe('0x3e00');
  expect(seen.steps).toContain('3.5');
});

test('a typed value: the first frame after Enter shows the result', async ({ page }) => {
  await openState(page, LINK);
  const field = page.getByTestId('a-value0');
  await field.fill('-0.5');
  await watchFirstFrame(page, 'keydown');
  await field.press('Enter');
  const seen = await firstFrame(page);
  expect(seen.result).toBe('0x3e00'); // -0.5 + 2 = 1.5
  expect(seen.steps).toContain('1.5');
});

test('evaluated in the worker, the operand shows at once and the result follows', async ({
  page,
}) => {
  // What a device too slow for inline evaluation gets (state/evaluate-on-edit.ts, INLINE_BUDGET_MS).
  await openState(page, LINK);
  await page.evaluate(() => window.__ptxfTest.evaluateInWorker());
  await watchFirstFrame(page, 'pointerdown');
  await page.getByRole('button', { name: 'a mantissa bit 9', exact: true }).click();
  const seen = await firstFrame(page);
  expect(seen.bit).toBe('0x3e00');
  await expect(page.getByTestId('result-bits')).toHaveText('0x4300');
});
