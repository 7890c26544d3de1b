import type { Page } from '@playwright/test';
import { expect, openState, test } from './fixtures.ts';

/**
 * The comparison is part of the share link: `vs=<instruction>` or `vs=unfused`, written when B
 * is chosen (a history entry of its own), reopened by the link, restored by Back, and a bad one
 * listed as ignored with nothing else lost.
 */
const FMA = '?v=3&instr=fma.rn.f16&target=sm_90&ptx=8.6&a=0x3c01&b=0x3c01&c=0xbc02';
const search = (page: Page) => new URL(page.url()).search;

test('Copy link carries vs, and the link reopens the same comparison', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openState(page, FMA);
  await page.getByTestId('vs-quick-fma.rn.bf16').click();
  await page.getByTestId('copy-link').click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(new URL(copied).search).toBe(`${FMA}&vs=fma.rn.bf16`);

  const other = await context.newPage();
  await other.goto(copied);
  await expect(other.getByTestId('compare-result-bits')).toHaveText('0x0000');
  await expect(other.getByTestId('vs-text')).toHaveValue('fma.rn.bf16');
  await expect(other.getByTestId('vs-quick-fma.rn.bf16')).toHaveAttribute('aria-pressed', 'true');
  await expect(other.getByTestId('url-notices')).toHaveCount(0);
});

test('choosing B is a history entry: Back returns to no comparison', async ({ page }) => {
  await openState(page, FMA);
  await page.getByTestId('vs-quick-unfused').click();
  await expect.poll(() => search(page)).toBe(`${FMA}&vs=unfused`);
  await page.getByTestId('vs-quick-fma.rn.ftz.f16').click();
  await expect.poll(() => search(page)).toBe(`${FMA}&vs=fma.rn.ftz.f16`);
  await page.goBack();
  await expect(page.getByTestId('compare-unfused')).toBeVisible();
  await page.goBack();
  await expect(page.getByTestId('compare')).toHaveCount(0);
  await page.goForward();
  await expect(page.getByTestId('compare-result-bits')).toHaveText('0x0000');
});

test('a bad vs is listed as ignored; the rest of the link loads', async ({ page }) => {
  await openState(page, `${FMA.replace('ptx=8.6', 'ptx=7.8')}&tab=corners&vs=fma.rq.f16`);
  await expect(page.getByTestId('url-notices')).toContainText("vs 'fma.rq.f16'");
  await expect(page.getByTestId('url-notices')).toContainText('showing no comparison');
  await expect(page.getByTestId('compare')).toHaveCount(0);
  await expect(page.getByTestId('result-bits')).toHaveText('0x0010');
  await expect(page.getByTestId('c-hex')).toHaveValue('0xbc02');
  await expect(page.getByTestId('tab-corners')).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => search(page)).toBe(`${FMA.replace('ptx=8.6', 'ptx=7.8')}&tab=corners`);
});
