import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/**
 * A part of the page whose code cannot be fetched (the network dropped, the site was redeployed
 * under the open page) says so in its place, and the rest of the page stays: never a blank page.
 * The failed fetch and React's report of the error it caught are the console errors these tests
 * expect; any other fails them as everywhere.
 */

/** Let every request through but the chunk whose file name starts with `name-`. */
async function failChunk(page: Page, name: string): Promise<void> {
  await page.route(
    (url) => new RegExp(`/assets/${name}-[\\w-]{8}\\.js$`).test(url.pathname),
    (route) => route.abort('failed'),
  );
}

/** Drop the console errors a failed chunk brings; keep any other. */
function expectOnlyLoadErrors(problems: string[]): void {
  const others = problems.filter(
    (p) =>
      !/Failed to load resource|Failed to fetch dynamically imported module|net::ERR_FAILED/.test(
        p,
      ),
  );
  problems.splice(0, problems.length, ...others);
}

test('the answer’s code failing to load: the result says so, the editors stay', async ({
  page,
  consoleProblems,
}) => {
  await failChunk(page, 'answer-views');
  await page.goto('./?v=3&instr=add.rn.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x1000');
  await expect(page.getByTestId('load-failed').first()).toContainText('could not be shown');
  await expect(page.getByTestId('load-failed').first()).toContainText(
    'Reloading the page tries again',
  );
  // The question is still there and editable.
  await expect(page.getByTestId('instr-text')).toHaveValue('add.rn.f16');
  await expect(page.getByTestId('a-hex')).toHaveValue('0x3c00');
  expectOnlyLoadErrors(consoleProblems);
});

test('a panel’s code failing to load: the panel says so, the result stays', async ({
  page,
  consoleProblems,
}) => {
  await failChunk(page, 'CornerCases');
  await page.goto('./');
  await expect(page.locator('#root[data-live]')).toBeAttached();
  await page.getByTestId('tab-corners').click();
  await expect(page.getByTestId('load-failed')).toContainText('This panel could not be shown');
  await expect(page.getByTestId('result-bits')).toHaveText('0x4280');
  expectOnlyLoadErrors(consoleProblems);
});

test('the question’s code failing to load: the pickers and editors say so, the answer stays', async ({
  page,
  consoleProblems,
}) => {
  await failChunk(page, 'question-views');
  await page.goto('./');
  const failed = page.getByTestId('load-failed');
  await expect(
    failed.filter({ hasText: 'The instruction’s pickers could not be shown' }),
  ).toHaveCount(1);
  await expect(failed.filter({ hasText: 'The operand editors could not be shown' })).toHaveCount(1);
  // The served answer is taken over by its own code and stays.
  await expect(page.getByTestId('result-bits')).toHaveText('0x4280');
  expectOnlyLoadErrors(consoleProblems);
});

test('the link codec failing to load: the page says the link was not read and shows the default', async ({
  page,
  consoleProblems,
}) => {
  await failChunk(page, 'url-link');
  await page.goto('./?v=3&instr=add.rn.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x1000');
  await expect(page.getByTestId('url-notices')).toContainText(
    'the code that reads links could not be fetched',
  );
  await expect(page.getByTestId('instr-text')).toHaveValue('fma.rn.f16');
  await expect(page.getByTestId('result-bits')).toHaveText('0x4280');
  await expect(page.locator('#root')).not.toHaveAttribute('data-link-pending');
  expectOnlyLoadErrors(consoleProblems);
});
