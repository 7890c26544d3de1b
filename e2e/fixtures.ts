import { expect, test as base, type Page } from '@playwright/test';

/**
 * The playground's `test`: every page a test opens is watched for console errors and uncaught
 * exceptions, and the test fails at its end if there were any ("no console errors" is a
 * user-visible quality of the app, checked on every spec that uses this fixture).
 */
export const test = base.extend<{ consoleProblems: string[] }>({
  consoleProblems: [
    async ({ context }, use) => {
      const problems: string[] = [];
      const watch = (page: Page) => {
        page.on('console', (m) => {
          if (m.type() === 'error') problems.push(`console.error: ${m.text()}`);
        });
        page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      };
      context.pages().forEach(watch);
      context.on('page', watch);
      await use(problems);
      expect(problems, 'console errors or uncaught exceptions on the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * Open a playground state and wait until its result is painted and the page is live (the built
 * page shows the default state's result before any script runs; `#root[data-live]` says React
 * has committed the page, so input reaches it).
 */
export async function openState(page: Page, query: string): Promise<void> {
  await page.goto(`./${query}`);
  await expect(page.getByTestId('result-bits')).toBeVisible();
  await expect(page.locator('#root[data-live]')).toBeAttached();
}

/** Type into a commit-on-Enter field (hex, binary, value). */
export async function commit(page: Page, testId: string, text: string): Promise<void> {
  const field = page.getByTestId(testId);
  await field.fill(text);
  await field.press('Enter');
}
