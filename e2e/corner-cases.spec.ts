import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

/**
 * Corner-case tables: the current form over the special values, sortable and filterable, a row
 * loads its case into the editors; for tanh/ex2 the spec's own table beside the engine's answers.
 */

const ADD_LINK = '/?v=1&instr=add.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x3c00';

async function openCorners(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByTestId('result-bits').first()).toBeVisible();
  await page.getByTestId('tab-corners').click();
  await expect(page.getByTestId('corner-table')).toBeVisible();
}

const rows = (page: Page) => page.getByTestId('corner-table').getByTestId('corner-row');

test('add.f16: every pair of special values, sortable, filterable, a row loads its case', async ({
  page,
}) => {
  await openCorners(page, ADD_LINK);
  // 15 special values, every pair.
  await expect(rows(page)).toHaveCount(225);
  await expect(page.getByTestId('corner-count')).toHaveText('225 of 225 cases');

  // Sort by the result's value: smallest first (NaN last), then reversed; aria-sort follows.
  const sortHeader = page.getByTestId('sort-d-value');
  const th = page.locator('th', { has: sortHeader });
  await expect(th).toHaveAttribute('aria-sort', 'none');
  await sortHeader.click();
  await expect(th).toHaveAttribute('aria-sort', 'ascending');
  const resultValue = (row: number) => rows(page).nth(row).locator('td[data-col="result"]');
  await expect(resultValue(0)).toHaveText('-inf');
  await expect(resultValue(224)).toHaveText('NaN');
  await sortHeader.press('Enter');
  await expect(th).toHaveAttribute('aria-sort', 'descending');
  await expect(resultValue(0)).toHaveText('NaN');
  await expect(resultValue(224)).toHaveText('-inf');

  // Filter: both words must appear, so only (+inf, -inf) and (-inf, +inf) remain.
  await page.getByTestId('corner-filter').fill('+inf -inf');
  await expect(rows(page)).toHaveCount(2);
  // Result class filter: both are NaN.
  await page.getByTestId('corner-class-filter').selectOption('nan');
  await expect(rows(page)).toHaveCount(2);
  await page.getByTestId('corner-class-filter').selectOption('zero');
  await expect(rows(page)).toHaveCount(0);
  await page.getByTestId('corner-class-filter').selectOption('');

  const row = page.locator('[data-testid="corner-row"][data-case="+inf,-inf"]');
  await expect(row).toContainText('0x7fff');
  await row.click();
  await expect(page.getByTestId('result-bits').first()).toHaveText(/^0x7fff$/i);
  await expect(page).toHaveURL(/[?&]a=0x7c00(&|$)/);
  await expect(page).toHaveURL(/[?&]b=0xfc00(&|$)/);
  await expect(row).toHaveAttribute('aria-current', 'true');

  // Keyboard: arrows, Home and End move between rows; Enter loads the focused one.
  await rows(page).first().focus();
  await page.keyboard.press('End');
  await expect(rows(page).last()).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(rows(page).first()).toBeFocused();
  const other = page.locator('[data-testid="corner-row"][data-case="-inf,+inf"]');
  await other.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/[?&]a=0xfc00(&|$)/);
  await expect(page).toHaveURL(/[?&]b=0x7c00(&|$)/);
  await expect(page.getByTestId('result-bits').first()).toHaveText(/^0x7fff$/i);
});

test('fma: a selection of addends, paged', async ({ page }) => {
  await openCorners(page, '/?v=1&instr=fma.rn.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x3c00&c=0');
  await expect(page.getByTestId('corner-count')).toHaveText('1350 of 1350 cases');
  await expect(rows(page)).toHaveCount(250);
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(page.getByText('Page 2 of 6')).toBeVisible();
});

test('fma: rows are marked by what happened, from the trace, and filter by it', async ({
  page,
}) => {
  // 1,350 rows used to carry nothing that set the interesting ones apart.
  await openCorners(page, '/?v=2&instr=fma.rn.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x3c00&c=0');
  const filter = page.getByTestId('corner-outcome-filter');
  await expect(filter.locator('option')).toHaveText([
    'any case',
    'invalid operation (∞ − ∞, 0 × ∞) (60)',
    'a NaN input (505)',
    'overflow (20)',
    'underflow (tiny and inexact) (50)',
    'subnormal result (24)',
    'a tie, rounded to even (4)',
  ]);
  await filter.selectOption('tie');
  await expect(page.getByTestId('corner-count')).toHaveText('4 of 1350 cases');
  await expect(rows(page)).toHaveCount(4);
  for (const row of await rows(page).all()) await expect(row).toContainText('tie');
  // An invalid operation: (+inf) × 0 + c is a NaN.
  await filter.selectOption('invalid');
  await expect(rows(page)).toHaveCount(60);
  const invalid = page.locator('[data-testid="corner-row"][data-case="+0,+inf,+1"]');
  await expect(invalid.locator('.cc-outcome')).toHaveText(['invalid']);
  await expect(invalid.locator('td[data-col="result"]')).toHaveText('NaN');
  // The search box finds marks as words too.
  await filter.selectOption('');
  await page.getByTestId('corner-filter').fill('overflow');
  await expect(page.getByTestId('corner-count')).toHaveText('20 of 1350 cases');
});

test('the filter says when nothing matches and why; ∞ is infinity; "0x" alone is no filter', async ({
  page,
}) => {
  await openCorners(page, '/?v=2&instr=fma.rn.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x3c00&c=0');
  const filter = page.getByTestId('corner-filter');
  const count = page.getByTestId('corner-count');
  const empty = page.getByTestId('corner-empty');
  await filter.fill('1e5');
  await expect(count).toHaveText('0 of 1350 cases');
  await expect(empty).toHaveText(
    'No case matches “1e5”: the filter finds whole words of the cells: names (+inf, nan, +max finite), hex (0x7c00, or its start: 0x7c), classes (subnormal), marks (tie) and values as the table writes them.',
  );
  // ∞ is read as inf, as the value fields read it.
  await filter.fill('inf');
  const infinities = await count.textContent();
  await filter.fill('∞');
  await expect(count).toHaveText(infinities!);
  await expect(empty).toHaveCount(0);
  await filter.fill('+inf -inf');
  const pair = await count.textContent();
  await filter.fill('+∞ −∞');
  await expect(count).toHaveText(pair!);
  // "0x" matched every row (every hex cell starts with it): it needs a hex digit after it.
  await filter.fill('0x');
  await expect(count).toHaveText('0 of 1350 cases');
  await expect(empty).toContainText('“0x” needs a hex digit after it (0x7c)');
  await filter.fill('0x7c');
  await expect(count).not.toHaveText('0 of 1350 cases');
  await expect(count).not.toHaveText('1350 of 1350 cases');
});

test('the filters are part of the share link, and an old link loads unfiltered', async ({
  page,
}) => {
  await openCorners(page, '/?v=2&instr=fma.rn.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x3c00&c=0');
  await page.getByTestId('corner-filter').fill('+inf');
  await page.getByTestId('corner-outcome-filter').selectOption('invalid');
  await page.getByTestId('corner-class-filter').selectOption('nan');
  const count = await page.getByTestId('corner-count').textContent();
  await expect(page).toHaveURL(/[?&]filter=%2Binf(&|$)/);
  await expect(page).toHaveURL(/[?&]happened=invalid(&|$)/);
  await expect(page).toHaveURL(/[?&]class=nan(&|$)/);
  await page.goto(page.url());
  await expect(page.getByTestId('corner-table')).toBeVisible();
  await expect(page.getByTestId('corner-filter')).toHaveValue('+inf');
  await expect(page.getByTestId('corner-outcome-filter')).toHaveValue('invalid');
  await expect(page.getByTestId('corner-class-filter')).toHaveValue('nan');
  await expect(page.getByTestId('corner-count')).toHaveText(count!);
  await page.goto('/?v=2&instr=fma.rn.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x3c00&c=0&tab=corners');
  await expect(page.getByTestId('corner-count')).toHaveText('1350 of 1350 cases');
});

test.describe('on a 390 px phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("fma's result stays in view beside its inputs", async ({ page }) => {
    // The result column was out of view: six input columns come before it.
    await openCorners(page, '/?v=2&instr=fma.rn.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x3c00&c=0');
    const region = page.getByRole('region', { name: /over the special values/ });
    const box = await region.boundingBox();
    for (const i of [0, 5, 12]) {
      const cell = rows(page).nth(i).locator('td[data-col="result"]');
      const r = await cell.boundingBox();
      expect(r!.x).toBeGreaterThanOrEqual(box!.x);
      expect(r!.x + r!.width).toBeLessThanOrEqual(Math.min(390, box!.x + box!.width) + 1);
      await expect(cell).toBeVisible();
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
  });
});

test.describe('a 390 px phone: the table', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('no column is hidden under another: every cell in view is uncovered', async ({ page }) => {
    // The sticky result value covered b's hex column ("0x000" showed, cut off).
    await openCorners(page, '/?v=2&instr=fma.rn.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x3c00&c=0');
    const covered = await page.getByTestId('corner-table').evaluate((table) => {
      table.querySelector('tbody tr')!.scrollIntoView({ block: 'center' });
      const box = table.parentElement!.getBoundingClientRect();
      const out: string[] = [];
      for (const tr of [...table.querySelectorAll('tbody tr')].slice(0, 3)) {
        for (const td of tr.querySelectorAll('td')) {
          const r = td.getBoundingClientRect();
          const right = Math.min(r.right, box.right) - 2;
          const left = Math.max(r.left, box.left) + 2;
          if (right <= left) continue; // scrolled out of the box
          for (const x of [left, right]) {
            const hit = document.elementFromPoint(x, r.top + r.height / 2);
            if (!hit || !td.contains(hit))
              out.push(`"${td.textContent}" at x=${Math.round(x)} is under "${hit?.textContent}"`);
          }
        }
      }
      return out;
    });
    expect(covered).toEqual([]);
  });
});

test('tanh.approx.f16: the spec table agrees row by row; no axe violations', async ({ page }) => {
  await openCorners(page, '/?v=1&instr=tanh.approx.f16&target=sm_90&ptx=8.6&a=0x3c00');
  const spec = page.getByTestId('spec-corner-table');
  await expect(spec).toBeVisible();
  const agrees = spec.getByTestId('spec-agrees');
  await expect(agrees).toHaveCount(5);
  for (const cell of await agrees.all()) await expect(cell).toHaveText(/✓/);
  // The -inf row loads -inf and the result is -1.0.
  await spec.getByTestId('spec-corner-row').first().click();
  await expect(page).toHaveURL(/[?&]a=0xfc00(&|$)/);
  await expect(page.getByTestId('result-bits').first()).toHaveText(/^0xbc00$/i);

  const results = await new AxeBuilder({ page })
    .include('[data-testid="corner-cases"]')
    .withTags(['wcag2a', 'wcag2aa'])
    .analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});

test('add.f16 table: no axe violations; at 360 px the table scrolls in its own box', async ({
  page,
}) => {
  // axe over 225 rows × 9 cells takes several seconds on a small, busy CI machine.
  test.slow();
  await page.setViewportSize({ width: 360, height: 800 });
  await openCorners(page, ADD_LINK);
  const results = await new AxeBuilder({ page })
    .include('[data-testid="corner-cases"]')
    .withTags(['wcag2a', 'wcag2aa'])
    .analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  // The wide table scrolls inside its region; the block itself fits the viewport.
  const block = await page.getByTestId('corner-cases').boundingBox();
  expect(block!.x + block!.width).toBeLessThanOrEqual(360);
  const region = page.getByRole('region', { name: /over the special values/ });
  const scrolls = await region.evaluate((el) => el.scrollWidth > el.clientWidth);
  expect(scrolls).toBe(true);
  await region.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
});
