import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

/**
 * "Reproduce on a GPU": the program for the linked state holds the instruction and the operand
 * bits, compares with the playground's result, copies to the clipboard, and stays accessible.
 */

const STATE = 'target=sm_90&ptx=8.6&a=0x3c003c00&b=0x3f803f80&c=0x3f003f00';
const LINK = `/?v=1&instr=fma.rn.relu.bf16x2&${STATE}`;

async function openReproduce(page: Page, url: string): Promise<string> {
  await page.goto(url);
  // A link's page is its own once live (until then the served default page is marked pending).
  await expect(page.locator('#root[data-live]')).toBeAttached();
  const shown = await page.getByTestId('result-bits').first().textContent();
  await page.getByTestId('tab-repro').click();
  await expect(page.getByTestId('repro-source')).toBeVisible();
  return (shown ?? '').trim();
}

/** The `expected` constant the program compares with, as a number. */
async function programExpected(page: Page): Promise<number> {
  const source = (await page.getByTestId('repro-source').textContent()) ?? '';
  const m = /const unsigned int expected = (0x[0-9a-f]+)u;/.exec(source);
  expect(m, 'the program has an expected value').not.toBeNull();
  return Number(m![1]);
}

test('the program for a share link holds its instruction, bits and the playground result', async ({
  page,
}) => {
  const shown = await openReproduce(page, LINK);
  const source = page.getByTestId('repro-source');
  await expect(source).toContainText(
    'asm volatile("fma.rn.relu.bf16x2 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));',
  );
  await expect(source).toContainText('{0x3c003c00u, 0x3f803f80u, 0x3f003f00u}');
  await expect(page.getByTestId('repro-command')).toHaveText(
    'nvcc -arch=sm_90 repro.cu -o repro && ./repro',
  );
  // The program compares with exactly the result the page shows.
  await expect.poll(() => programExpected(page)).toBe(Number(shown));
});

test('Copy program puts the whole program on the clipboard', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openReproduce(page, LINK);
  const copy = page.getByTestId('copy-repro');
  await copy.focus();
  await page.keyboard.press('Enter');
  await expect(copy).toContainText('copied');
  const clipboard = await page.evaluate(() => navigator.clipboard.readText());
  expect(clipboard).toBe(await page.getByTestId('repro-source').textContent());
  expect(clipboard).toContain('#include <cuda_runtime.h>');
});

test('OOB-NaN: the program passes the pattern as bits and expects the result the page shows', async ({
  page,
}) => {
  // An old link's mark on lane 1 of a is the pattern 0x7ff7 there: the GPU sees those bits.
  const shown = await openReproduce(page, `/?v=1&instr=fma.rn.oob.relu.bf16x2&${STATE}&oob=a1`);
  expect(shown).toMatch(/^0x0000/); // lane 1 is +0.0
  const source = page.getByTestId('repro-source');
  await expect(source).toContainText('{0x7ff73c00u, 0x3f803f80u, 0x3f003f00u}');
  await expect(page.getByTestId('repro-notes')).toContainText(
    '.oob tests a and b for the OOB-NaN pattern 0x7ff7',
  );
  await expect(source).not.toContainText('cannot hold an OOB-NaN');
  await expect.poll(() => programExpected(page)).toBe(Number(shown));
});

test('the view follows edits: another target rebuilds the program for it', async ({ page }) => {
  await openReproduce(page, LINK.replace('target=sm_90', 'target=sm_75'));
  // sm_75 lacks fma.rn.relu.bf16x2 (sm_80): the program is built for the least target.
  await expect(page.getByTestId('repro-command')).toContainText('-arch=sm_80');
  await expect(page.getByTestId('repro-notes')).toContainText('sm_75 lacks it');
});

for (const theme of ['light', 'dark'] as const) {
  test(`no axe violations in the Reproduce view (${theme} theme); the program scrolls by keyboard`, async ({
    page,
  }) => {
    await openReproduce(page, LINK);
    await page.getByTestId('theme').selectOption(theme);
    const results = await new AxeBuilder({ page })
      .include('[data-testid="reproduce"]')
      .withTags(['wcag2a', 'wcag2aa'])
      .analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    const source = page.getByTestId('repro-source');
    await source.focus();
    await expect(source).toBeFocused();
    await page.keyboard.press('PageDown');
    await expect.poll(() => source.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
  });
}

test('wgmma: a warpgroup program for sm_90a, A from shared memory or from registers', async ({
  page,
}) => {
  const form = 'wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16';
  const row = ['0x3c00', ...Array<string>(15).fill('0x0000')].join(',');
  await openReproduce(
    page,
    `/?v=3&instr=${form}&target=sm_90a&ptx=8.7&a=${row}&b=${row}&c=0x3f800000`,
  );
  const source = page.getByTestId('repro-source');
  await expect(page.getByTestId('repro-command')).toHaveText(
    'nvcc -arch=compute_90a -code=sm_90a repro.cu -o repro && ./repro',
  );
  await expect(source).toContainText('wgmma.fence.sync.aligned;');
  await expect(source).toContainText('reproduce<<<1, 128>>>(dOut);');
  await expect(source).toContainText('a_smem[0] = 0x00003c00u;');
  await expect(source).toContainText(`"${form} {%0, %1, %2, %3}, %4, %5, 1, 1, 1, 0, 0;\\n\\t"`);
  // 1 · 1 + 1 = 2, the expected value the program compares with.
  await expect.poll(() => programExpected(page)).toBe(0x40000000);
  await page.getByTestId('repro-a-source').selectOption('registers');
  await expect(source).not.toContainText('a_smem');
  await expect(source).toContainText('a[0] = 0x00003c00u;');
  await expect(source).toContainText(
    `"${form} {%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, 1, 1, 1, 0;\\n\\t"`,
  );
});

test('an f64 mma: 64-bit fragments and a 64-bit expected value, for sm_80 (m8n8k4)', async ({
  page,
}) => {
  const form = 'mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64';
  const row = '1,2,3,4';
  await openReproduce(page, `/?v=3&instr=${form}&target=sm_80&ptx=8.7&a=${row}&b=${row}&c=0.5`);
  await expect(page.getByTestId('repro-command')).toHaveText(
    'nvcc -arch=sm_80 repro.cu -o repro && ./repro',
  );
  const source = page.getByTestId('repro-source');
  await expect(source).toContainText('"d"(__longlong_as_double(A[lane][0]))');
  // 1 + 4 + 9 + 16 + 0.5 = 30.5
  await expect(source).toContainText('const unsigned long long expected = 0x403e800000000000ull;');
});
