import type { Page } from '@playwright/test';
import { expect, openState, test } from './fixtures.ts';
import { copyLinkWithCornersOpen } from './share-link.ts';

/**
 * cvt's panels below the editors: the corner-case table (a row loads its case), the sweep over
 * many inputs in the worker with progress, the format pages (the whole value table of an FP8
 * format, a value loads into the form that reads it), and share links that reopen the same
 * state, or load what they can of a malformed one.
 */
const E4M3 =
  '?v=2&instr=cvt.rn.satfinite.e4m3x2.f32&target=sm_90&ptx=8.6&a=0x43fa0000&b=0x40880000';
const search = (page: Page) => new URL(page.url()).search;

test('corner cases: what .satfinite does past MAX_NORM, and a row loads into both elements', async ({
  page,
}) => {
  await openState(page, E4M3);
  await page.getByTestId('tab-corners').click();
  await expect(page.getByTestId('tab-corners')).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => search(page)).toContain('tab=corners');
  const rows = page.getByTestId('corner-row');
  await expect(rows).toHaveCount(24);
  await expect(page.getByTestId('corner-count')).toHaveText('24 of 24 cases');

  const row = (name: string) => page.locator(`[data-testid="corner-row"][data-case="${name}"]`);
  const cells = (name: string) => row(name).locator('td');
  // +inf saturates to 448; NaN stays NaN (0x7f); past the .rn threshold overflows, then clamps.
  await expect(cells('+inf')).toContainText(['+inf', '0x7f800000', '448', '0x7e', 'normal']);
  await expect(cells('NaN')).toContainText(['NaN', '0x7fffffff', 'NaN', '0x7f', 'qnan']);
  await expect(cells('just above that threshold')).toContainText([
    'just above that threshold',
    '0x43e80001',
    '448',
    '0x7e',
    'normal',
    'overflowclamped',
  ]);
  // The least .f32 subnormal shows its first digits, not its 100-digit exact decimal.
  const tiny = page.locator('[data-testid="corner-row"] .cc-aside', { hasText: 'e-45' });
  await expect(tiny.first()).toHaveText(/^\s*1\.4012984643248170…e-45$/);

  // Filter by what happened.
  await page.getByTestId('corner-outcome-filter').selectOption('clamp');
  await expect(page.getByTestId('corner-count')).toHaveText(/^\d+ of 24 cases$/);
  await expect(page.getByTestId('corner-count')).not.toHaveText('24 of 24 cases');
  for (const text of await rows.allInnerTexts()) expect(text).toContain('clamped');
  await page.getByTestId('corner-outcome-filter').selectOption({ index: 0 });

  // A row loads its case into every source element.
  await cells('just above that threshold').first().click();
  await expect(page.getByTestId('a-hex')).toHaveValue('0x43e80001');
  await expect(page.getByTestId('b-hex')).toHaveValue('0x43e80001');
  await expect(page.getByTestId('result-bits')).toHaveText('0x7e7e');
  await expect(row('just above that threshold')).toHaveAttribute('aria-current', 'true');
});

test('the sweep converts a million .f32 values in the worker with progress, then summarises', async ({
  page,
}) => {
  await openState(page, E4M3);
  // Sample the progress bar on every frame from before the sweep starts.
  await page.evaluate(() => {
    const seen: { done: number; total: number }[] = [];
    (window as unknown as { __progress: typeof seen }).__progress = seen;
    const sample = () => {
      const bar = document.querySelector<HTMLProgressElement>('[data-testid="sweep-progress"]');
      if (bar) seen.push({ done: bar.value, total: bar.max });
      requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
  await page.getByTestId('tab-sweep').click();
  await expect.poll(() => search(page)).toContain('tab=sweep');
  await expect(page.getByTestId('sweep-summary')).toBeVisible();
  const seen = await page.evaluate(
    () => (window as unknown as { __progress: { done: number; total: number }[] }).__progress,
  );
  expect(seen.length, 'the progress bar was shown while the sweep ran').toBeGreaterThan(0);
  expect(seen.some((p) => p.total === 1_048_576 && p.done > 0 && p.done < p.total)).toBe(true);

  await expect(page.getByTestId('sweep-time')).toHaveText(/^1,048,576 inputs converted in \d+ ms/);
  const summary = page.getByTestId('sweep-summary');
  await expect(summary).toContainText('116,510 past MAX_NORM (448) became ±MAX_NORM');
  await expect(summary).toContainText('Largest error: 56 at input -504 (→ -448)');
  await expect(page.getByTestId('sweep-plot-result')).toHaveAttribute(
    'aria-label',
    /from -504 to 504 over inputs -504 to 504$/,
  );
  const buckets = page.getByTestId('sweep-bucket');
  await expect(buckets).toHaveCount(64);
  await expect(buckets.first()).toContainText('-448');
  await expect(buckets.first()).toContainText('74,899');

  // A range of its own: the 449 values 0, 1, …, 448 are all e4m3 values or round to one.
  await page.getByTestId('sweep-from').fill('0');
  await page.getByTestId('sweep-to').fill('448');
  await page.getByTestId('sweep-count').fill('449');
  await page.getByTestId('sweep-run').click();
  await expect(page.getByTestId('sweep-time')).toHaveText(/^449 inputs converted/);
  await expect(summary).not.toContainText('past MAX_NORM');
  // Too many values: refused before anything runs.
  await page.getByTestId('sweep-count').fill('2000000');
  await expect(page.getByTestId('sweep-run')).toBeDisabled();
  await expect(page.locator('.sweep-range .field-error')).toBeVisible();
});

test('the sweep range: each bad bound says what is wrong; 0x/0b are bits; an old result is marked stale', async ({
  page,
}) => {
  // "abc", "1/3", "1,5" and "nan" all said "the range needs finite bounds"; 0b1 was the
  // value 1 and 0x1234… a decimal-looking 1.039e+47; the old result stayed as if current.
  await openState(page, `${E4M3}&tab=sweep`);
  await expect(page.getByTestId('sweep-summary')).toBeVisible();
  const from = page.getByTestId('sweep-from');
  const problem = page.getByTestId('sweep-range-error');
  const stale = page.getByTestId('sweep-stale');
  await expect(stale).toHaveCount(0);
  for (const [text, message] of [
    ['abc', "from: 'abc' is not a number: expected a decimal"],
    [
      '1/3',
      "from: '1/3' is not a number: expected a decimal (-1.5e-5), a hex float (0x1.8p-3), inf, -0 or nan; a fraction is not read: type its value as a decimal (0.3333) or a hex float",
    ],
    [
      '1,5',
      "from: '1,5' is not a number: expected a decimal (-1.5e-5), a hex float (0x1.8p-3), inf, -0 or nan; commas are not read: a decimal takes a point (1.5)",
    ],
    ['nan', 'from: NaN is not a bound; a bound is a finite number'],
    ['-inf', 'from: -inf is not a bound; a bound is a finite number'],
    [
      '0x12345678901234',
      "from: '0x12345678901234' has 14 hex digits; the element is 32 bits (at most 8 hex digits)",
    ],
  ] as const) {
    await from.fill(text);
    await expect(problem).toContainText(message);
    await expect(page.getByTestId('sweep-run')).toBeDisabled();
    await expect(stale).toContainText('for the range swept last, -504 to 504');
    await expect(page.getByTestId('sweep-summary')).toHaveAttribute('data-stale', 'true');
  }
  // The page's rule: 0x… and 0b… are the .f32 bits.
  await from.fill('0b1');
  await expect(problem).toHaveCount(0);
  await expect(page.getByTestId('sweep-from-note')).toHaveText(
    'from 0b1: the .f32 bits 0x00000001 = 1.401298464324817e-45',
  );
  await from.fill('0xc3fc0000');
  await expect(page.getByTestId('sweep-from-note')).toHaveText(
    'from 0xc3fc0000: the .f32 bits 0xc3fc0000 = -504',
  );
  await page.getByTestId('sweep-count').fill('3');
  await page.getByTestId('sweep-run').click();
  await expect(page.getByTestId('sweep-time')).toHaveText(/^3 inputs converted/);
  await expect(stale).toHaveCount(0);
  await expect(page.getByTestId('sweep-summary')).not.toHaveAttribute('data-stale', 'true');
  // The range swept is part of the link, and a link brings it back.
  await expect.poll(() => search(page)).toContain('tab=sweep&from=-504&to=504&count=3');
  await page.goto(`./${search(page)}`);
  await expect(page.getByTestId('sweep-time')).toHaveText(/^3 inputs converted/);
  await expect(page.getByTestId('sweep-from')).toHaveValue('-504');
  await expect(page.getByTestId('sweep-count')).toHaveValue('3');
});

test('a 16-bit source sweeps every pattern', async ({ page }) => {
  await openState(page, '?v=2&instr=cvt.rn.satfinite.e4m3x2.f16x2&target=sm_90&ptx=8.6&tab=sweep');
  await expect(page.getByTestId('sweep')).toContainText('every .f16 pattern (65,536)');
  await expect(page.getByTestId('sweep-time')).toHaveText(/^65,536 inputs converted/);
  // NaN patterns of .f16 stay NaN in e4m3: 2 × 1023 of them.
  await expect(page.getByTestId('sweep-summary')).toContainText(/, 0 infinite, 2,046 NaN/);
});

test('the e4m3 format page lists all 256 values; one click loads a value into the editors', async ({
  page,
}) => {
  await openState(page, E4M3);
  await page.getByTestId('tab-format').click();
  await expect.poll(() => search(page)).toContain('tab=format&format=e4m3');
  await expect(page.getByTestId('format-e4m3')).toHaveAttribute('aria-pressed', 'true');
  const facts = page.getByTestId('format-facts');
  await expect(facts).toContainText('0x7e = 448');
  await expect(facts).toContainText('only 0x7f and 0xff');
  const values = page.getByTestId('format-value');
  await expect(values).toHaveCount(256);
  await expect(values.nth(1)).toContainText('0x01');
  await expect(values.nth(1)).toContainText('subnormal');
  await expect(values.nth(1)).toContainText('0.001953125');

  // The current form writes e4m3; the value goes into the form that reads it.
  await expect(page.getByTestId('format-click-target')).toContainText('cvt.rn.f16x2.e4m3x2');
  await page.getByRole('button', { name: 'load 0x7e = 448' }).click();
  await expect(page.getByTestId('format-loaded')).toContainText('Loaded');
  await expect(page.getByTestId('instr-text')).toHaveValue('cvt.rn.f16x2.e4m3x2');
  await expect(page.getByTestId('a-hex')).toHaveValue('0x7e7e');
  await expect(page.getByTestId('result-bits')).toHaveText('0x5f005f00');
  // The page stays on e4m3, though the new form writes .f16.
  await expect(page.getByTestId('format-e4m3')).toHaveAttribute('aria-pressed', 'true');

  // FP4 has 16 patterns, no infinity and no NaN.
  await page.getByTestId('format-e2m1').click();
  await expect(values).toHaveCount(16);
  await expect(page.getByTestId('format-facts')).toContainText('none');
  await expect.poll(() => search(page)).toContain('format=e2m1');
});

test('a cvt share link reopens the same state, in a new page and on reload', async ({
  page,
  context,
}) => {
  await openState(
    page,
    '?v=2&instr=cvt.rs.satfinite.e2m1x4.f32&target=sm_100a&ptx=8.7&a=0x40880000&b=0xbf000000&e=0x3e800000&f=0x40c00000&rbits=0x80ff7f01',
  );
  await page.getByTestId('f-pick3').selectOption({ label: '-inf' });
  const { copied, result } = await copyLinkWithCornersOpen(page);
  expect(new URL(copied).search).toBe(
    '?v=3&instr=cvt.rs.satfinite.e2m1x4.f32&target=sm_100a&ptx=8.7&a=0x40880000&b=0xbf000000&e=0x3e800000&f=0xff800000&rbits=0x80ff7f01&tab=corners',
  );

  const check = async (p: Page) => {
    await expect(p.getByTestId('instr-text')).toHaveValue('cvt.rs.satfinite.e2m1x4.f32');
    await expect(p.getByTestId('target')).toHaveValue('sm_100a');
    await expect(p.getByTestId('ptx')).toHaveValue('8.7');
    const registers: [string, string][] = [
      ['a', '0x40880000'],
      ['b', '0xbf000000'],
      ['e', '0x3e800000'],
      ['f', '0xff800000'],
      ['rbits', '0x80ff7f01'],
    ];
    for (const [name, hex] of registers)
      await expect(p.getByTestId(`${name}-hex`)).toHaveValue(hex);
    await expect(p.getByTestId('result-bits')).toHaveText(result!);
    await expect(p.getByTestId('tab-corners')).toHaveAttribute('aria-pressed', 'true');
    await expect(p.getByTestId('corner-table')).toBeVisible();
    await expect(p.getByTestId('url-notices')).toHaveCount(0);
  };
  const other = await context.newPage();
  await other.goto(copied);
  await check(other);
  expect(search(other)).toBe(new URL(copied).search);
  await page.reload();
  await check(page);
});

test('a malformed cvt link loads the rest and lists what it ignored', async ({ page }) => {
  await openState(
    page,
    '?v=2&instr=cvt.rs.satfinite.e2m1x4.f32&target=sm_100a&ptx=8.7&a=0x40880000&b=0xzz&e=0x3e800000&f=0x40c00000&rbits=0x1ffffffff&tab=corners',
  );
  const notices = page.getByTestId('url-notices');
  await expect(notices.getByRole('listitem')).toHaveText([
    /^operand b: '0xzz' is not a bit pattern/,
    /^operand rbits: '0x1ffffffff' has 9 hex digits; the register is 32 bits \(at most 8 hex digits\)/,
  ]);
  await expect(page.getByTestId('instr-text')).toHaveValue('cvt.rs.satfinite.e2m1x4.f32');
  await expect(page.getByTestId('a-hex')).toHaveValue('0x40880000');
  await expect(page.getByTestId('e-hex')).toHaveValue('0x3e800000');
  await expect(page.getByTestId('f-hex')).toHaveValue('0x40c00000');
  await expect(page.getByTestId('tab-corners')).toHaveAttribute('aria-pressed', 'true');
  // The address is rewritten to what loaded: a clean link.
  await expect.poll(() => search(page)).not.toContain('0xzz');
  await expect.poll(() => search(page)).toContain('a=0x40880000');
});
