import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures.ts';

/**
 * The first paint is the answer: the built index.html already holds the default state's page —
 * its instruction, operands and result — before any script runs; the page then takes that HTML
 * over (hydration) without replacing or moving it, and a share link renders its own state.
 */

/** The default state (src/state/url-state.ts's DEFAULT_STATE): fma.rn.f16 1.5 × 2 + 0.25. */
const DEFAULT = { instr: 'fma.rn.f16', a: '0x3e00', b: '0x4000', c: '0x3400', d: '0x4280' };

test('dist/index.html holds the default instruction, its operands and its result', () => {
  const html = readFileSync(new URL('../dist/index.html', import.meta.url), 'utf8');
  const root = html.slice(html.indexOf('<div id="root"'));
  expect(root).toMatch(/data-testid="result-bits"[^>]*>0x4280</);
  expect(root).toContain(`value="${DEFAULT.instr}"`);
  for (const name of ['a', 'b', 'c'] as const)
    expect(root, `operand ${name}`).toMatch(
      new RegExp(`data-testid="${name}-hex"[^>]*value="${DEFAULT[name]}"`),
    );
  expect(root).not.toContain('Loading the PTX Float Playground');
  // Nothing inline: the prerender adds no script, so the Content-Security-Policy stays as it is.
  expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });
  test('the page as served shows the default result', async ({ page }) => {
    await page.goto('./');
    await expect(page.getByTestId('result-bits')).toHaveText(DEFAULT.d);
    await expect(page.getByTestId('instr-text')).toHaveValue(DEFAULT.instr);
    await expect(page.getByTestId('a-hex')).toHaveValue(DEFAULT.a);
  });
});

// A phone too: the page as served is rendered for a wide screen, and a narrow one moves the
// compare picker after the result once the script has run (styles.css keeps it hidden until then).
for (const [label, viewport, mobile] of [
  ['1280 × 720', { width: 1280, height: 720 }, false],
  ['390 × 844', { width: 390, height: 844 }, true],
] as const)
  test.describe(label, () => {
    test.use({ viewport, isMobile: mobile, hasTouch: mobile });
    test('hydration keeps the prerendered result and operands in place: same node, same box, no warning', async ({
      page,
    }) => {
      // Take hold of the served result node before any script runs, and of its box.
      await page.route('**/assets/*.js', async (route) => {
        await page.waitForFunction(() => (window as { __held?: boolean }).__held === true);
        await route.continue();
      });
      await page.goto('./', { waitUntil: 'commit' });
      await page.waitForSelector('[data-testid="result-bits"]');
      // The served page as it is painted: its stylesheets applied (they are not held).
      await page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].every(
          (l) => l.sheet !== null,
        ),
      );
      const before = await page.evaluate(() => {
        const el = document.querySelector('[data-testid="result-bits"]')!;
        (window as { __served?: Element }).__served = el;
        (window as { __held?: boolean }).__held = true;
        const r = el.getBoundingClientRect();
        const a = document.querySelector('[data-testid="a-hex"]')!.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height, text: el.textContent, aY: a.y };
      });
      expect(before.text).toBe(DEFAULT.d);
      await expect(page.locator('#root[data-live]')).toBeAttached();
      const after = await page.evaluate(() => {
        const el = document.querySelector('[data-testid="result-bits"]')!;
        const r = el.getBoundingClientRect();
        const a = document.querySelector('[data-testid="a-hex"]')!.getBoundingClientRect();
        return {
          same: el === (window as { __served?: Element }).__served,
          box: { x: r.x, y: r.y, width: r.width, height: r.height, text: el.textContent, aY: a.y },
        };
      });
      expect(after.same, 'hydration kept the served node').toBe(true);
      expect(after.box).toEqual(before);
      // The page is live: an edit changes the result.
      await page.getByTestId('a-hex').fill('0x3c00');
      await page.getByTestId('a-hex').press('Enter');
      await expect(page.getByTestId('result-bits')).toHaveText('0x4080'); // 1 × 2 + 0.25 = 2.25
    });
  });

test('a share link replaces the prerendered state with its own at once', async ({ page }) => {
  await page.goto('./?v=3&instr=add.rn.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x1000');
  // At the load event (after the module ran) the link's state is there, not the default's.
  await expect(page.getByTestId('instr-text')).toHaveValue('add.rn.f16');
  await expect(page.getByTestId('result-bits')).toHaveText('0x3c00');
  await expect(page.locator('#root[data-live]')).toBeAttached();
});

test('a share link: the served default page is marked pending until the link’s own page renders', async ({
  page,
}) => {
  // Hold back the link codec's chunk (state/url-link.ts) until the served page has been looked at.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => /\/assets\/url-link-[\w-]{8}\.js$/.test(url.pathname),
    async (route) => {
      await held;
      await route.continue();
    },
  );
  await page.goto('./?v=3&instr=add.rn.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x1000');
  const root = page.locator('#root');
  await expect(root).toHaveAttribute('data-link-pending', '');
  await expect(root).toHaveAttribute('aria-busy', 'true');
  // The default state's result is still in the served HTML, but not shown as the link's.
  await expect(page.getByTestId('result-bits')).toHaveText(DEFAULT.d);
  await expect(page.getByTestId('result-bits')).toBeHidden();
  release();
  await expect(page.getByTestId('instr-text')).toHaveValue('add.rn.f16');
  await expect(root).not.toHaveAttribute('data-link-pending');
  await expect(root).not.toHaveAttribute('aria-busy');
  await expect(page.getByTestId('result-bits')).toHaveText('0x3c00');
  await expect(page.getByTestId('result-bits')).toBeVisible();
});

test('a page opened without a link fetches no link codec', async ({ page }) => {
  const fetched: string[] = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  await page.goto('./');
  await expect(page.locator('#root[data-live]')).toBeAttached();
  expect(fetched.filter((p) => /\/assets\/(url-link|url-codec)-/.test(p))).toEqual([]);
  expect(new URL(page.url()).search).toBe('');
});

test('pointing at Copy link fetches the link codec, so the click copies at once', async ({
  page,
}) => {
  const fetched: string[] = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  await page.goto('./');
  await expect(page.locator('#root[data-live]')).toBeAttached();
  const codec = () => fetched.filter((p) => /\/assets\/url-link-/.test(p));
  expect(codec()).toEqual([]);
  await page.getByTestId('copy-link').hover();
  await expect.poll(codec).toHaveLength(1);
});
