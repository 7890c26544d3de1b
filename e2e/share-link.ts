import { expect, type Page } from '@playwright/test';

/**
 * Open the corner cases, then copy the page's share link: returns the link the clipboard holds
 * and the result the page showed when it was copied.
 */
export async function copyLinkWithCornersOpen(
  page: Page,
): Promise<{ copied: string; result: string | null }> {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('tab-corners').click();
  await expect(page.getByTestId('corner-table')).toBeVisible();
  const result = await page.getByTestId('result-bits').textContent();
  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('copy-link')).toContainText('copied');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  return { copied, result };
}
