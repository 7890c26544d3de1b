import type { Page } from '@playwright/test';
import { commit, expect, openState, test } from './fixtures.ts';
import { copyLinkWithCornersOpen } from './share-link.ts';

/**
 * Shareable URLs: the address follows each edit (bit edits replace the entry, picks push one),
 * Copy link gives an address that reopens the same state, back/forward restore states, and a
 * malformed address loads what it can with a notice.
 */
const START = '?v=3&instr=add.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x4000';
const search = (page: Page) => new URL(page.url()).search;
const historyLength = (page: Page) => page.evaluate(() => history.length);

test('the address follows edits without flooding history', async ({ page }) => {
  await openState(page, START);
  await expect(page.getByTestId('result-bits')).toHaveText('0x4200');
  const before = await historyLength(page);

  // Twenty bit-level edits: the address follows, history does not grow.
  for (let i = 0; i < 20; i++) await page.getByRole('button', { name: 'a: next up' }).click();
  await expect
    .poll(() => search(page))
    .toBe('?v=3&instr=add.f16&target=sm_90&ptx=8.6&a=0x3c14&b=0x4000');
  await commit(page, 'b-hex', '0x4400');
  await expect.poll(() => search(page)).toContain('&b=0x4400');
  expect(await historyLength(page)).toBe(before);

  // A deliberate pick gets its own entry.
  await page.getByTestId('target').selectOption('sm_80');
  await expect.poll(() => search(page)).toContain('target=sm_80');
  expect(await historyLength(page)).toBe(before + 1);
});

test('typing an instruction leaves one history entry, not one per intermediate form', async ({
  page,
}) => {
  await openState(page, START);
  const before = await historyLength(page);
  const field = page.getByTestId('instr-text');
  await field.fill('');
  // add.f16 → add.rn.f16 → add.rn.ftz.f16 → add.rn.ftz.sat.f16 → … .f16x2: each a valid form.
  await field.pressSequentially('add.rn.ftz.sat.f16x2', { delay: 5 });
  await expect.poll(() => search(page)).toContain('instr=add.rn.ftz.sat.f16x2');
  expect(await historyLength(page)).toBe(before + 1);
  // Back returns to the form before the typing.
  await page.goBack();
  await expect(page.getByTestId('instr-text')).toHaveValue('add.f16');
  await expect.poll(() => search(page)).toContain('instr=add.f16&');
});

test('Copy link reopens the same state in a new page, open tab included', async ({
  page,
  context,
}) => {
  await openState(
    page,
    '?v=2&instr=fma.rn.oob.relu.bf16x2&target=sm_90&ptx=8.6&a=0x3f803f80&b=0xbf803f80&c=0x3f003f00',
  );
  await page.getByTestId('a-pick0').selectOption({ label: 'OOB-NaN (0x7ff7)' });
  await commit(page, 'c-value1', '0.25');
  const { copied, result } = await copyLinkWithCornersOpen(page);
  expect(copied).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?v=3&instr=fma\.rn\.oob\.relu\.bf16x2&/);
  expect(copied).toContain('a=0x3f807ff7');
  expect(copied).toContain('c=0x3e803f00');
  expect(copied).toContain('tab=corners');

  const other = await context.newPage();
  await other.goto(copied);
  await expect(other.getByTestId('instr-text')).toHaveValue('fma.rn.oob.relu.bf16x2');
  await expect(other.getByTestId('c-hex')).toHaveValue('0x3e803f00');
  await expect(other.getByTestId('a-class0')).toHaveText('OOB-NaN pattern (0x7ff7)');
  await expect(other.getByTestId('result-bits')).toHaveText(result!);
  await expect(other.getByTestId('tab-corners')).toHaveAttribute('aria-pressed', 'true');
  await expect(other.getByTestId('corner-table')).toBeVisible();
  await expect(other.getByTestId('url-notices')).toHaveCount(0);
  expect(new URL(other.url()).search).toBe(new URL(copied).search);
});

for (const [tab, instr, shows] of [
  ['corners', 'mul.f16', 'corner-table'],
  ['sweep', 'tanh.approx.f16', 'approx-plot'],
  ['repro', 'max.NaN.bf16', 'repro-source'],
] as const) {
  test(`a link keeps the open tab: ${tab}`, async ({ page }) => {
    // Links used to drop the tab: the page opened with every panel closed.
    await page.goto(`./?v=3&instr=${instr}&target=sm_90&ptx=8.6&tab=${tab}`);
    await expect(page.getByTestId(`tab-${tab}`)).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId(shows)).toBeVisible();
    // Closing it takes it out of the address.
    await page.getByTestId(`tab-${tab}`).click();
    await expect.poll(() => search(page)).not.toContain('tab=');
  });
}

test('a hand-written link with values stores them and says so', async ({ page }) => {
  // a=1.5 was refused while b=2 was silently the bit pattern 0x0002.
  await page.goto('./?instr=add.f16&a=1.5&b=2');
  await expect(page.getByTestId('result-bits')).toHaveText('0x4300'); // 1.5 + 2 = 3.5
  const stored = page.getByTestId('url-stored');
  await expect(stored).toContainText('a = 1.5: stored 0x3e00 = 1.5');
  await expect(stored).toContainText('b = 2: stored 0x4000 = 2');
  await expect(page.getByTestId('url-notices')).toHaveCount(0);
  // The address is rewritten to the bits, as the app writes links.
  await expect
    .poll(() => search(page))
    .toBe('?v=3&instr=add.f16&target=sm_90&ptx=8.6&a=0x3e00&b=0x4000');
  await stored.getByRole('button', { name: 'Dismiss' }).click();
  await expect(stored).toHaveCount(0);
});

test('back and forward restore earlier states', async ({ page }) => {
  await openState(page, START);
  await page.getByRole('combobox', { name: /^Opcode/ }).selectOption('mul');
  await expect(page.getByTestId('result-bits')).toHaveText('0x4000');
  await page.getByTestId('target').selectOption('sm_75');
  await expect.poll(() => search(page)).toContain('target=sm_75');

  await page.goBack();
  await expect(page.getByTestId('target')).toHaveValue('sm_90');
  await expect(page.getByTestId('instr-text')).toHaveValue('mul.f16');
  await page.goBack();
  await expect(page.getByTestId('instr-text')).toHaveValue('add.f16');
  await expect(page.getByTestId('result-bits')).toHaveText('0x4200');
  expect(search(page)).toBe(START);
  await page.goForward();
  await expect(page.getByTestId('instr-text')).toHaveValue('mul.f16');
  await expect(page.getByTestId('result-bits')).toHaveText('0x4000');
  await page.goForward();
  await expect(page.getByTestId('target')).toHaveValue('sm_75');
});

test('a malformed address loads what it can and says what it ignored', async ({ page }) => {
  await page.goto('./?v=1&instr=fma.rn.f16x3&target=sm_999&ptx=banana&a=0xZZ&b=0x4000&zap=1&a=0x1');
  const notices = page.getByTestId('url-notices');
  await expect(notices).toContainText('Parts of the link were ignored');
  await expect(notices.getByRole('listitem')).toContainText([
    /parameter 'a' appears 2 times/,
    /unknown parameter 'zap'/,
    /instr 'fma\.rn\.f16x3'/,
    /sm_999/,
    /ptx 'banana' is not a known PTX ISA version/,
    /operand a: '0xZZ'/,
  ]);
  // The usable part (b) is kept and the page computes.
  await expect(page.getByTestId('b-hex')).toHaveValue('0x4000');
  await expect(page.getByTestId('result-bits')).toBeVisible();
  await expect(page.getByTestId('verdict')).toBeVisible();
  // The address is rewritten to what is shown; the notice can be dismissed.
  await expect.poll(() => search(page)).not.toContain('banana');
  await notices.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notices).toHaveCount(0);
});

for (const query of [
  '?v=7&instr=add.f16',
  '?%E0%A4%A=1&&&==',
  '?instr=<script>&a=' + 'f'.repeat(300),
]) {
  test(`never a blank page: ${query.slice(0, 30)}`, async ({ page }) => {
    await page.goto(`./${query}`);
    await expect(page.getByTestId('result-bits')).toBeVisible();
    await expect(page.getByTestId('verdict')).toBeVisible();
    await expect(page.getByTestId('url-notices')).toBeVisible();
  });
}
