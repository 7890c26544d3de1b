import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, openState, test } from './fixtures.ts';

/**
 * Compare mode (what if…): B beside the instruction on the same operand values, chosen with a
 * quick variant, by typing or with A's pickers; both results, the bits that differ, the
 * difference in ulps, the unfused sequence and why it differs, B's steps on demand.
 */

// (1 + 2^-10)^2 − (1 + 2^-9) = 2^-20: the fma keeps it; mul then add rounds the product to
// 1 + 2^-9 first and gives 0.
const FMA = '?v=2&instr=fma.rn.f16&target=sm_90&ptx=8.6&a=0x3c01&b=0x3c01&c=0xbc02';
const search = (page: Page) => new URL(page.url()).search;

test('fma against mul then add: one click, both results, the bit that differs and why', async ({
  page,
}) => {
  await openState(page, FMA);
  await expect(page.getByTestId('compare')).toHaveCount(0);
  await page.getByTestId('vs-quick-unfused').click();

  const compare = page.getByTestId('compare');
  await expect(page.getByTestId('compare-result-bits')).toHaveText('0x0000');
  await expect(compare.getByTestId('compare-a-bits')).toHaveText('0x0010');
  await expect(page.getByTestId('result-bits')).toHaveText('0x0010');
  await expect(page.getByTestId('compare-verdict')).toHaveText(
    "B differs from A: B − A = -16 ulps of f16 at A's result.",
  );
  // One bit differs (bit 4), marked in both rows.
  await expect(page.getByTestId('compare-bits').locator('mark')).toHaveCount(2);
  await expect(page.getByTestId('compare-bits')).toContainText('1 of 16 bits differ');
  await expect(page.getByTestId('compare-why')).toContainText(
    'mul rounds a × b to f16 (t − a × b = -9.5367431640625e-7); c cancels most of the product',
  );
  await expect(page.getByTestId('unfused-lines')).toHaveText(
    'mul.rn.f16 t, a, b;\nadd.rn.f16 d, t, c;',
  );
  await expect(page.getByTestId('unfused-product')).toContainText('0x3c02 = 1.001953125');
  // Each side's error against the exact result 2^-20: none for the fma, all of it for B.
  await expect(compare.locator('tr', { hasText: 'error against' })).toContainText('exact');
  await expect(compare.locator('tr', { hasText: 'error against' })).toContainText('-16 ulps');
  // The summaries, A's and B's, read off the traces.
  await expect(page.getByTestId('compare-summary')).toHaveText(
    /^t: 1\.0019540786743164… rounds down to 1\.001953125 .*; d: the exact sum is 0, which is \+0 by the sign rule$/,
  );

  // B's steps on demand: both instructions' traces.
  await expect(page.getByTestId('compare-steps-mul')).toHaveCount(0);
  await page.getByTestId('compare-trace').locator('summary').click();
  await expect(page.getByTestId('compare-steps-mul')).toContainText('Round');
  await expect(page.getByTestId('compare-steps-add')).toContainText('Result');

  await expect.poll(() => search(page)).toContain('&vs=unfused');
});

test('one difference, one ulp: the headline and the table count it in the same ulp, and say whose', async ({
  page,
}) => {
  // The headline said "-1024 ulps of f16" and the table "-512 ulps" for the same difference.
  await openState(
    page,
    '?v=2&instr=fma.rn.f16&target=sm_90&ptx=8.6&a=0x2e66&b=0x4200&c=0xb4cd&vs=unfused',
  );
  const compare = page.getByTestId('compare');
  await expect(page.getByTestId('compare-verdict')).toHaveText(
    "B differs from A: B − A = -1024 ulps of f16 at A's result.",
  );
  const counts = (await compare.innerText()).match(/-?\d+ ulps? of \S+ at [^.;\n]*/g) ?? [];
  expect(counts.length).toBeGreaterThanOrEqual(2);
  expect(new Set(counts)).toEqual(new Set(["-1024 ulps of f16 at A's result"]));
});

test('B by typing, then with the same pickers as A; the operands carried by value', async ({
  page,
}) => {
  await openState(page, FMA);
  await page.getByTestId('vs-text').fill('fma.rn.bf16');
  await expect.poll(() => search(page)).toContain('&vs=fma.rn.bf16');
  // 1 + 2^-10 has no bf16 value: carried as the nearest, 1; so B computes 1 × 1 − 1.
  await expect(page.getByTestId('compare-carried')).toContainText(
    'a: 1.0009765625 (f16 0x3c01) is not a bf16 value: it becomes the nearest, 1 (bf16 0x3f80)',
  );
  await expect(page.getByTestId('compare-result-bits')).toHaveText('0x0000');
  await expect(page.getByTestId('compare-bits')).toContainText('Different registers');

  // B's own rounding picker: .rz (fma.rz.bf16 is a form ptxas assembles).
  await page.getByLabel('B Rounding').selectOption('rz');
  await expect.poll(() => search(page)).toContain('&vs=fma.rz.bf16');
  await expect(page.getByTestId('vs-text')).toHaveValue('fma.rz.bf16');

  // A typo is said, and the comparison stays.
  await page.getByTestId('vs-text').fill('fma.rq.bf16');
  await expect(page.getByTestId('vs-error')).toContainText('fma.rq.bf16');
  await expect(page.getByTestId('vs-error')).toContainText('still comparing with fma.rz.bf16');
  await expect(page.getByTestId('compare-result-bits')).toBeVisible();
});

test('an operand edit changes A and B in the same frame', async ({ page }) => {
  await openState(page, `${FMA}&vs=unfused`);
  await expect(page.getByTestId('compare-result-bits')).toHaveText('0x0000');
  // c = −(1 + 2^-10): the fma gives 2^-10 + 2^-20 (exact in f16), mul then add 2^-10.
  await page.getByRole('button', { name: 'c mantissa bit 1', exact: true }).click();
  await page.getByRole('button', { name: 'c mantissa bit 0', exact: true }).click();
  await expect(page.getByTestId('c-hex')).toHaveValue('0xbc01');
  await expect(page.getByTestId('result-bits')).toHaveText('0x1401');
  await expect(page.getByTestId('compare-result-bits')).toHaveText('0x1400');
  await expect(page.getByTestId('compare-verdict')).toHaveText(
    "B differs from A: B − A = -1 ulp of f16 at A's result.",
  );
});

test('where there is no unfused variant, it is not offered, and a link asking for it says why', async ({
  page,
}) => {
  await openState(page, FMA.replace('fma.rn.f16', 'fma.rn.relu.f16'));
  await expect(page.getByTestId('vs-quick-unfused')).toHaveCount(0);
  await expect(page.getByTestId('unfused-refused')).toContainText('.relu has no unfused variant');
  await openState(page, `${FMA.replace('fma.rn.f16', 'fma.rn.oob.f16')}&vs=unfused`);
  await expect(page.getByTestId('compare-refused')).toContainText('.oob has no unfused variant');
  await expect(page.getByTestId('result-line')).toContainText('B none');
});

test('quick variants: each other rounding mode, .ftz, the other format, the mixed form', async ({
  page,
}) => {
  await openState(page, '?v=2&instr=add.rn.f32.f16&target=sm_100&ptx=8.6&a=0x3c00&c=0x33800001');
  const quick = page.getByRole('group', { name: 'Quick variants' }).getByRole('button');
  await expect(quick).toHaveText(['.rz', '.rm', '.rp', '.f32.bf16', '.f16']);
  // 1 + (2^-24 + 2^-47): .rn rounds up to 1 + 2^-23, .rz keeps 1.
  await page.getByTestId('vs-quick-add.rz.f32.f16').click();
  await expect(page.getByTestId('vs-quick-add.rz.f32.f16')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('result-bits')).toHaveText('0x3f800001');
  await expect(page.getByTestId('compare-result-bits')).toHaveText('0x3f800000');
  await expect(page.getByTestId('compare-verdict')).toHaveText(
    "B differs from A: B − A = -1 ulp of f32 at A's result.",
  );
  // A second click stops comparing; so does the button.
  await page.getByTestId('vs-quick-add.rz.f32.f16').click();
  await expect(page.getByTestId('compare')).toHaveCount(0);
  await expect.poll(() => search(page)).not.toContain('vs=');
  await page.getByTestId('vs-quick-add.rn.f32.bf16').click();
  await expect(page.getByTestId('compare')).toBeVisible();
  await page.getByTestId('vs-stop').click();
  await expect(page.getByTestId('compare')).toHaveCount(0);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`compare mode has no axe violations (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await openState(page, '?v=2&instr=add.rn.f16x2&a=0x2e663c00&b=0x2e661000&vs=add.rn.bf16x2');
    await page.getByTestId('compare-trace').locator('summary').click();
    await expect(page.getByTestId('compare-steps')).toBeVisible();
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    expect(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`),
    ).toEqual([]);
  });
}
