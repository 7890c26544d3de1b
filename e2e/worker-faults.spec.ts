import { expect, test, type Page } from '@playwright/test';
import { enableTestHooks } from './test-hooks.ts';

/**
 * The engine worker fails in each way a worker can: it throws outside any call, it stops
 * answering (a busy loop), it dies silently (terminated: no error, no answer). Each time the page
 * must say so, start a fresh worker, keep what the user had (editors and address bar), and the
 * next edit must compute the right result. The hooks are `window.__ptxfTest` (e2e/test-hooks.ts): the
 * faults are the test's own, appended to the worker script as the test serves it.
 *
 * Single evaluations normally run inline (state/evaluate-on-edit.ts, INLINE_BUDGET_MS); these tests first
 * send them to the worker, as a device too slow to run them inline does. The last test keeps the
 * default: a stuck worker then holds up only the worker's jobs (here the corner-case table).
 */

// add.f16: 1 + 2 = 3, then 2 + 2 = 4, then 2 + 3 = 5.
const LINK = '?v=3&instr=add.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x4000';
const THREE = '0x4200';
const FOUR = '0x4400';
const FIVE = '0x4500';

/** The engine gives up on a request after this long (EVAL_TIMEOUT_MS in state/worker-client.ts). */
const EVAL_TIMEOUT_MS = 3000;
/** The corner-case table's own allowance (TABLE_TIMEOUT_MS in ui/CornerCases.tsx). */
const TABLE_TIMEOUT_MS = 10_000;

async function open(page: Page, evaluations: 'inline' | 'worker' = 'worker'): Promise<string[]> {
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(`./${LINK}`);
  await expect(page.getByTestId('result-bits')).toHaveText(THREE);
  if (evaluations === 'worker') await page.evaluate(() => window.__ptxfTest.evaluateInWorker());
  return pageErrors;
}

/** Count the engine workers each page starts: every restart starts one (`workersStarted`). */
async function countWorkerStarts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const counter = window as unknown as { __workersStarted: number };
    counter.__workersStarted = 0;
    window.Worker = new Proxy(window.Worker, {
      construct: (target, args: ConstructorParameters<typeof Worker>) => {
        counter.__workersStarted++;
        return new target(...args);
      },
    });
  });
}

const workersStarted = (page: Page): Promise<number> =>
  page.evaluate(() => (window as unknown as { __workersStarted: number }).__workersStarted);

async function setHex(page: Page, operand: 'a' | 'b', hex: string): Promise<void> {
  const field = page.getByTestId(`${operand}-hex`);
  await field.fill(hex);
  await field.press('Enter');
}

/** What the user had is all still there: instruction, operand editors, shareable address. */
async function expectStateKept(page: Page, a: string, b: string, tab = ''): Promise<void> {
  await expect(page.getByTestId('instr-text')).toHaveValue('add.f16');
  await expect(page.getByTestId('a-hex')).toHaveValue(a);
  await expect(page.getByTestId('b-hex')).toHaveValue(b);
  await expect
    .poll(() => new URL(page.url()).search)
    .toBe(`?v=3&instr=add.f16&target=sm_90&ptx=8.6&a=${a}&b=${b}${tab}`);
}

test.describe('engine worker faults', () => {
  test.beforeEach(async ({ page }) => {
    await enableTestHooks(page);
    await countWorkerStarts(page);
  });

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
    await expect(page.getByTestId('result-updating')).toBeVisible();
    await expect(page.getByTestId('result-updating')).toContainText('previous operands');

    const status = page.getByTestId('worker-status');
    await expect(status).toContainText(`did not answer within ${EVAL_TIMEOUT_MS} ms`);
    await expect(status).toContainText('restarted it');
    await expect(page.getByTestId('result-bits')).toHaveText(FOUR);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(EVAL_TIMEOUT_MS);
    await expectStateKept(page, '0x4000', '0x4000');

    // The fresh worker answers the next edit itself: no further restart.
    const started = await workersStarted(page);
    await setHex(page, 'b', '0x4200');
    await expect(page.getByTestId('result-bits')).toHaveText(FIVE);
    expect(await workersStarted(page)).toBe(started);
    await expect(page.getByTestId('result-updating')).toHaveCount(0);
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

    // The fresh worker answers the next edit itself: no further restart.
    const started = await workersStarted(page);
    await setHex(page, 'a', '0x4000');
    await expect(page.getByTestId('result-bits')).toHaveText(FIVE);
    expect(await workersStarted(page)).toBe(started);
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

  test('with evaluations inline, edits keep computing while the worker is stuck; its jobs recover', async ({
    page,
  }) => {
    const pageErrors = await open(page, 'inline');
    await page.evaluate(() => window.__ptxfTest.hangWorker(30_000));
    const startedBefore = await workersStarted(page);
    await setHex(page, 'a', '0x4000');
    await expect(page.getByTestId('result-bits')).toHaveText(FOUR);
    // Computed without the worker: nothing timed out, nothing was restarted to get it.
    expect(await workersStarted(page)).toBe(startedBefore);
    await expect(page.getByTestId('worker-status')).toHaveCount(0);
    await expect(page.locator('.result-area[aria-busy="true"]')).toHaveCount(0);

    // The corner-case table is the worker's job: it waits out the timeout, then a fresh worker.
    await page.getByTestId('tab-corners').click();
    const status = page.getByTestId('worker-status');
    await expect(status).toContainText(`did not answer within ${TABLE_TIMEOUT_MS} ms`, {
      timeout: TABLE_TIMEOUT_MS + 10_000,
    });
    await expect(status).toContainText('restarted it');
    await expect(page.getByTestId('corner-cases').getByRole('table')).toBeVisible();
    const startedAfterRestart = await workersStarted(page);
    expect(startedAfterRestart).toBe(startedBefore + 1);
    await setHex(page, 'b', '0x4200');
    await expect(page.getByTestId('result-bits')).toHaveText(FIVE);
    expect(await workersStarted(page)).toBe(startedAfterRestart);
    await expect(page.getByTestId('result-updating')).toHaveCount(0);
    // The open tab is part of the state the address keeps.
    await expectStateKept(page, '0x4000', '0x4200', '&tab=corners');
    expect(pageErrors).toEqual([]);
  });
});
