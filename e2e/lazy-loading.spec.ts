import type { Page } from '@playwright/test';
import { expect, openState, test } from './fixtures.ts';

/**
 * What the first load fetches (issue 24): the default page's scripts are its entry alone; compare
 * mode, the documented decisions' words, the worker client and worker, the tensor cores' editors,
 * block scaling, the panels and the semantics of cvt and of the tensor cores are chunks fetched
 * when a state first needs them, and a link that needs one shows its own result once it has
 * arrived.
 */

/** The script files a page has requested so far, by name without the hash (`ComparePanel`). */
function scriptsOf(page: Page): () => string[] {
  const names: string[] = [];
  page.on('request', (r) => {
    const file = new URL(r.url()).pathname.split('/').pop() ?? '';
    if (file.endsWith('.js')) names.push(file.replace(/-[\w-]{8}\.js$/, ''));
  });
  return () => [...names];
}

/** Chunks the default page does not need: each of them loads with the first state that does. */
const ON_DEMAND = [
  'ComparePanel',
  'compare-on-edit',
  'decisions',
  'worker-client',
  'engine.worker',
  'MatrixOperands',
  'MatrixPickers',
  'BlockPanel',
  'block-scale',
  'SweepPanel',
  'CornerCases',
  'analysis',
  'FormatPage',
  'Reproduce',
  // The families' semantics (engine/family-chunks/): cvt's, and the tensor cores' with the dot
  // products and block scaling.
  'convert',
  'convert-family',
  'tensor-core',
  'block-scaled-dot',
];

test('the default page fetches none of the chunks loaded on demand', async ({ page }) => {
  const scripts = scriptsOf(page);
  await openState(page, '');
  await expect(page.getByTestId('result-bits')).toHaveText('0x4280');
  // Anything fetched right after the page went live would still count.
  await page.waitForLoadState('networkidle');
  expect(scripts().filter((s) => ON_DEMAND.includes(s))).toEqual([]);
  expect(scripts()).toContain('index');
});

test('a tensor-core link loads its editors and shows its own result', async ({ page }) => {
  const scripts = scriptsOf(page);
  // A row of 1 and eight 2^-12, a column the same, c = 0: sm_80 keeps 1 + 3·2^-23 (mma.spec.ts).
  const row = ['1', ...Array<string>(8).fill('0.000244140625'), ...Array<string>(7).fill('0')];
  await openState(
    page,
    `?v=3&instr=mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32&target=sm_80&ptx=8.6&a=${row.join(',')}&b=${row.join(',')}&c=0x00000000`,
  );
  await expect(page.getByTestId('result-bits')).toHaveText('0x3f800003');
  await expect(page.getByTestId('a-list')).toBeVisible();
  expect(scripts()).toContain('MatrixOperands');
  expect(scripts()).toContain('tensor-core');
  expect(scripts()).not.toContain('BlockPanel');
  expect(scripts()).not.toContain('convert');
});

test('a conversion link shows its own result at once, without the tensor cores or block scaling', async ({
  page,
}) => {
  const scripts = scriptsOf(page);
  await openState(page, '?v=3&instr=cvt.rn.satfinite.e4m3x2.f32&target=sm_90&ptx=8.6&a=1.5&b=-2');
  await expect(page.getByTestId('result-bits')).toHaveText('0x3cc0');
  await page.waitForLoadState('networkidle');
  const loaded = scripts();
  expect(loaded).toContain('convert');
  for (const chunk of [
    'MatrixOperands',
    'MatrixPickers',
    'BlockPanel',
    'block-scale',
    'tensor-core',
    'block-scaled-dot',
  ])
    expect(loaded).not.toContain(chunk);
});

test('a link that compares and cites a decision loads compare mode and the decisions’ words', async ({
  page,
}) => {
  const scripts = scriptsOf(page);
  // NaN + 1 is the canonical NaN (a documented decision); B is the bf16 add.
  await openState(
    page,
    '?v=3&instr=add.rn.f16&target=sm_90&ptx=8.6&a=0x7e00&b=0x3c00&vs=add.rn.bf16',
  );
  await expect(page.getByTestId('compare')).toBeVisible();
  await expect(page.getByTestId('compare')).not.toContainText('Computing…');
  await expect(page.locator('.decisions').first()).toBeVisible();
  expect(scripts()).toEqual(
    expect.arrayContaining(['compare-on-edit', 'ComparePanel', 'decisions']),
  );
});
