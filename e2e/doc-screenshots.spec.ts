import { expect, openState, test } from './fixtures.ts';

/**
 * The screenshots the README links (playground, fma compared with mul then add, first screen and
 * dark mode on a 390 px phone, invalid target with its one-click switch, malformed link), written to docs/screenshots/ and
 * looked at by a person before committing. Not part of the ordinary run:
 * `npx vite build && PTXF_SCREENSHOTS=1 npx playwright test e2e/doc-screenshots.spec.ts`.
 */
test.skip(!process.env.PTXF_SCREENSHOTS, 'set PTXF_SCREENSHOTS=1 to refresh docs/screenshots');

const DIR = 'docs/screenshots';
// Both lanes round up (above half an ulp: G=1, S=1); lane 1 is negative and .relu makes it +0.
const FMA =
  '?v=2&instr=fma.rn.relu.bf16x2&target=sm_90&ptx=8.6&a=0x3f813f81&b=0xbfc13f81&c=0x3f003b80';

test.describe('light, 1280 px', () => {
  test.use({ colorScheme: 'light', viewport: { width: 1280, height: 900 } });

  test('playground', async ({ page }) => {
    await openState(page, FMA);
    await expect(page.getByTestId('steps').locator('.grs').first()).toBeVisible();
    await page.screenshot({ path: `${DIR}/playground.png`, fullPage: true });
  });

  test('compare: fma vs mul then add', async ({ page }) => {
    // (1 + 2⁻¹⁰)² − (1 + 2⁻⁹): the fma keeps 2⁻²⁰, the rounded product cancels to 0.
    await openState(page, '?v=2&instr=fma.rn.f16&a=0x3c01&b=0x3c01&c=0xbc02&vs=unfused');
    await expect(page.getByTestId('compare-why')).toBeVisible();
    await page.getByTestId('compare').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${DIR}/compare-fma-unfused.png` });
  });

  test('invalid target', async ({ page }) => {
    await openState(page, FMA.replace('sm_90', 'sm_70').replace('ptx=8.6', 'ptx=6.0'));
    await expect(page.getByTestId('verdict-fix')).toBeVisible();
    await page.getByTestId('verdict').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${DIR}/invalid-target.png` });
  });

  test('malformed url', async ({ page }) => {
    await page.goto('./?v=2&instr=fma.rn.f16x3&target=sm_999&ptx=banana&a=0xZZ&b=1.5&zap=1');
    await expect(page.getByTestId('url-notices')).toBeVisible();
    await expect(page.getByTestId('url-stored')).toBeVisible();
    await expect(page.getByTestId('result-bits')).toBeVisible();
    await page.screenshot({ path: `${DIR}/malformed-url.png` });
  });
});

test.describe('390 px phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('first screen', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('./');
    await expect(page.getByTestId('result-bits')).toBeVisible();
    await page.screenshot({ path: `${DIR}/first-screen-390px.png` });
  });

  test('dark mobile', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await openState(page, FMA);
    await expect(page.getByTestId('steps')).toBeVisible();
    await page.screenshot({ path: `${DIR}/dark-mobile.png`, fullPage: true });
  });
});
