import { expect, test, type Page } from '@playwright/test';

/**
 * The engine worker fails in each way a worker can: it throws outside any call, it stops
 * answering (a busy loop), it dies silently (terminated: no error, no answer). Each time the page
 * must say so, start a fresh worker, keep what the user had (editors and address bar), and the
 * next edit must compute the right result. The hooks are `window.__ptxfTest` (state/engine.ts).
 */

interface TestHooks {
  crashWorker(): void;
  hangWorker(ms: number): void;
  killWorker(): void;
}

declare global {
  interface Window {
    __ptxfTest: TestHooks;
  }
}

// add.f16: 1 + 2 = 3, then 2 + 2 = 4, then 2 + 3 = 5.
const LINK = '?v=1&instr=add.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x4000';
const THREE = '0x4200';
const FOUR = '0x4400';
const FIVE = '0x4500';

/** The engine gives up on a request after this long (EVAL_TIMEOUT_MS in state/engine.ts). */
const EVAL_TIMEOUT_MS = 3000;

async function open(page: Page): Promise<string[]> {
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(`./${LINK}`);
  await expect(page.getByTestId('result-bits')).toHaveText(THREE);
  return pageErrors;
}

async function setHex(page: Page, operand: 'a' | 'b', hex: string): Promise<void> {
  const field = page.getByTestId(`${operand}-hex`);
  await field.fill(hex);
  await field.press('Enter');
}

/** What the user had is all still there: instruction, operand editors, shareable address. */
async function expectStateKept(page: Page, a: string, b: string): Promise<void> {
  await expect(page.getByTestId('instr-text')).toHaveValue('add.f16');
  await expect(page.getByTestId('a-hex')).toHaveValue(a);
  await expect(page.getByTestId('b-hex')).toHaveValue(b);
  await expect
    .poll(() => new URL(page.url()).search)
    .toBe(`?v=1&instr=add.f16&target=sm_90&ptx=8.6&a=${a}&b=${b}`);
}

test.describe('engine worker faults', () => {
  test('a worker that throws is replaced; the state stays and the next edit computes', async ({
    page,
  }) => {
    const pageErrors = await open(page);
    await page.evaluate(() => window.__ptxfTest.crashWorker());

    const status = page.getByTestId('worker-status');
    await expect(status).toContainText('the engine worker failed');
    await expect(status).toContainText('crash requested by the test hook');
    await expect(status).toContainText('restarted it');
    await expectStateKept(page, '0x3c00', '0x4000');
    await expect(page.getByTestId('result-bits')).toHaveText(THREE);

    await setHex(page, 'a', '0x4000');
    await expect(page.getByTestId('result-bits')).toHaveText(FOUR);
    await expectStateKept(page, '0x4000', '0x4000');
    expect(pageErrors).toEqual([]);
  });

  test('a worker that stops answering is replaced after the timeout and the edit is redone', async ({
    page,
  }) => {
    const pageErrors = await open(page);
    await page.evaluate(() => window.__ptxfTest.hangWorker(30_000));
    const sent = Date.now();
    await setHex(page, 'a', '0x4000');

    // While the worker is stuck the edit is kept and the result is marked as on its way.
    await expect(page.getByTestId('a-hex')).toHaveValue('0x4000');
    await expect(page.locator('.result-area[aria-busy="true"]')).toBeVisible();

    const status = page.getByTestId('worker-status');
    await expect(status).toContainText(`did not answer within ${EVAL_TIMEOUT_MS} ms`);
    await expect(status).toContainText('restarted it');
    await expect(page.getByTestId('result-bits')).toHaveText(FOUR);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(EVAL_TIMEOUT_MS);
    await expectStateKept(page, '0x4000', '0x4000');

    // The fresh worker answers the next edit at once.
    await setHex(page, 'b', '0x4200');
    await expect(page.getByTestId('result-bits')).toHaveText(FIVE, { timeout: 1000 });
    await expectStateKept(page, '0x4000', '0x4200');
    expect(pageErrors).toEqual([]);
  });

  test('a worker that dies silently is noticed at the next request and replaced', async ({
    page,
  }) => {
    const pageErrors = await open(page);
    await page.evaluate(() => window.__ptxfTest.killWorker());
    await setHex(page, 'b', '0x4200');

    const status = page.getByTestId('worker-status');
    await expect(status).toContainText(`did not answer within ${EVAL_TIMEOUT_MS} ms`);
    await expect(status).toContainText('restarted it');
    await expect(page.getByTestId('result-bits')).toHaveText(FOUR); // 1 + 3 = 4
    await expectStateKept(page, '0x3c00', '0x4200');

    await setHex(page, 'a', '0x4000');
    await expect(page.getByTestId('result-bits')).toHaveText(FIVE, { timeout: 1000 });
    expect(pageErrors).toEqual([]);
  });

  test('after repeated failures the engine moves to the main thread and keeps working', async ({
    page,
  }) => {
    const pageErrors = await open(page);
    const status = page.getByTestId('worker-status');
    // Four failures in a row with no answer between them (the client allows three restarts).
    for (let i = 0; i < 4; i++) {
      await page.evaluate(() => window.__ptxfTest.crashWorker());
      await expect(status).toContainText(i < 3 ? 'restarted it' : 'main thread');
      // Each crash must land on the worker that replaced the last one.
      await page.waitForTimeout(200);
    }
    await expect(status).toContainText('the engine now runs on the main thread');
    await expectStateKept(page, '0x3c00', '0x4000');

    await setHex(page, 'a', '0x4000');
    await expect(page.getByTestId('result-bits')).toHaveText(FOUR);
    await setHex(page, 'b', '0x4200');
    await expect(page.getByTestId('result-bits')).toHaveText(FIVE);
    expect(pageErrors).toEqual([]);
  });
});
