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

for (const [what, url] of [
  ['the default page', './'],
  ['a share link', './?v=3&instr=add.rn.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x1000'],
] as const) {
  test(`the code of the page’s parts failing to load (${what}): each part says so, the frame stays`, async ({
    page,
    consoleProblems,
  }) => {
    // One chunk holds the question's and the answer's views (vite.config.ts, group page-parts).
    await failChunk(page, 'page-parts');
    await page.goto(url);
    const failed = page.getByTestId('load-failed');
    for (const part of ['The instruction’s pickers', 'The operand editors', 'The result'])
      await expect(failed.filter({ hasText: `${part} could not be shown` })).toHaveCount(1);
    await expect(failed.first()).toContainText('Reloading the page tries again');
    // The page's frame stays: its title, Copy link and the theme.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('PTX Float Playground');
    await expect(page.getByTestId('copy-link')).toBeVisible();
    await expect(page.getByTestId('theme')).toBeVisible();
    expectOnlyLoadErrors(consoleProblems);
  });
}

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
