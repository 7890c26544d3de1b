import type { Page } from '@playwright/test';
import { commit, expect, openState, test } from './fixtures.ts';
import { controlsUnder24px, overflowPastRightEdge } from './layout-checks.ts';

/**
 * A tensor core's element on the page: a person picks mma.sync.aligned.m16n8k16.row.col.f32.f16
 * .f16.f32, types a row and a column, switches the target from sm_80 to sm_90 and sees — in the
 * steps and in one sentence — why the bits changed, with the model's source named; the link
 * carries the row and the column and reopens the same element.
 *
 * The row and the column: 1, then eight products of 2^-24 (2^-12 × 2^-12). Ampere adds them in
 * two halves, truncating each half's sum to f32 (each half loses half an ulp): 1 + 3·2^-23;
 * Hopper keeps 25 fractional bits in one fused sum: 1 + 8·2^-24 = 1 + 4·2^-23, one ulp above.
 */
const TINY = '0.000244140625';
/** 2^-12 as an element field shows it: the shortest decimal that reads back to 0x0c00. */
const TINY_SHOWN = '0.0002441';
const ROW = ['1', ...Array<string>(8).fill(TINY), ...Array<string>(7).fill('0')].join(', ');
const FORM = 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32';

async function pickMma(page: Page) {
  await openState(page, '?v=3&instr=fma.rn.f16&target=sm_80&ptx=8.6');
  await page.getByTestId('opcode').selectOption('mma');
  await expect(page.getByTestId('instr-text')).toHaveValue(FORM);
  await expect(page.getByTestId('matrix-form')).toHaveValue(FORM);
  await commit(page, 'a-list', ROW);
  await commit(page, 'b-list', ROW.replaceAll(', ', ' '));
  await commit(page, 'c-hex', '0x00000000');
}

test('pick mma, type a row and a column, switch sm_80 → sm_90: the steps and the sentence say why', async ({
  page,
}) => {
  await pickMma(page);
  await expect(page.getByTestId('a-el1')).toHaveValue(TINY_SHOWN);
  await expect(page.getByTestId('b-el8')).toHaveValue(TINY_SHOWN);
  await expect(page.getByTestId('b-el9')).toHaveValue('0');
  await expect(page.getByTestId('result-bits')).toHaveText('0x3f800003');
  await expect(page.getByTestId('matrix-model')).toContainText('Ampere model (sm_80)');
  await expect(page.getByTestId('matrix-model')).toContainText('two halves');
  await expect(page.getByTestId('matrix-sources')).toContainText(
    'Numerical behavior of NVIDIA tensor cores',
  );
  await expect(page.getByTestId('steps')).toContainText('half 1 of 2');
  await expect(page.getByTestId('matrix-why-sm_90')).toContainText(
    'On sm_90 (Hopper) the element gives 0x3f800004, 1 ulp above: its terms keep 25 fractional bits (sm_80: 24); it adds all k products in one fused sum',
  );
  await expect(page.getByTestId('matrix-cuts')).toBeVisible();

  await page.getByTestId('matrix-target-sm_90').click();
  await expect(page.getByTestId('target')).toHaveValue('sm_90');
  await expect(page.getByTestId('result-bits')).toHaveText('0x3f800004');
  await expect(page.getByTestId('matrix-model')).toContainText('Hopper model (sm_90)');
  await expect(page.getByTestId('matrix-model')).toContainText('one fused sum');
  await expect(page.getByTestId('steps')).not.toContainText('half 1 of 2');
  await expect(page.getByTestId('matrix-why-sm_80')).toContainText(
    'On sm_80 (Ampere) the element gives 0x3f800003, 1 ulp below: its terms keep 24 fractional bits (sm_90: 25); it splits k in two halves',
  );
  // The exact value and a CUDA-core loop: fma.rn.f32 rounds each 2^-24 away (a tie at 1, to
  // even); f64 keeps them, as Hopper does.
  await expect(page.getByTestId('matrix-exact')).toContainText('Exact c + Σ a_i·b_i = ');
  await expect(page.getByTestId('matrix-exact')).toContainText('d is exact');
  await expect(page.getByTestId('matrix-chain-f32')).toContainText(
    'A loop of fma.rn.f32 from acc = c gives 1 (f32 0x3f800000), 4 ulps below the tensor core: 8 of its 16 fmas rounded to nearest even',
  );
  await expect(page.getByTestId('matrix-chain-f64')).toContainText(
    'the same value as the tensor core: none of its 16 fmas rounded',
  );
});

test('m8n8k4 on sm_90 follows the sequence of f32 additions measured on an H200', async ({
  page,
}) => {
  const form = 'mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32';
  await openState(page, `?v=3&instr=${form}&target=sm_90&a=0x0001,0,0,0&b=1,0,0,0&c=-2`);
  // −2 + 2^-24 is a tie in f32 and rounds to the even −2; one fused sum would truncate it.
  await expect(page.getByTestId('result-bits')).toHaveText('0xc0000000');
  await expect(page.getByTestId('matrix-model')).toContainText(
    'Hopper, as measured on this form (sm_90)',
  );
  await expect(page.getByTestId('matrix-sources')).toContainText('hw/captures/sm_90/h200/mma');
  await expect(page.getByTestId('steps')).toContainText('Addition 4: s4 = s3 + c');
  await expect(page.getByTestId('matrix-why-sm_100')).toContainText(
    'On sm_100 (Blackwell) the element gives 0xbfffffff',
  );
});

test('one element typed as bits, a bad list refused with its reason', async ({ page }) => {
  await pickMma(page);
  await commit(page, 'a-el0', '0x4000');
  await expect(page.getByTestId('a-el0')).toHaveValue('2');
  // With 2 first, E = 1: each 2^-24 product is below sm_80's 24 kept bits, cut to zero.
  await expect(page.getByTestId('result-bits')).toHaveText('0x40000000');
  await commit(page, 'a-list', '1, 2, 3');
  await expect(page.getByTestId('a-list-error')).toContainText(
    'a is a list of 16 .f16 elements; 3 given',
  );
  await expect(page.getByTestId('result-bits')).toHaveText('0x40000000');
});

test('the link carries the row, the column and C, and reopens the same element', async ({
  page,
  context,
}) => {
  await pickMma(page);
  await expect(page.getByTestId('result-bits')).toHaveText('0x3f800003');
  const list = ['0x3c00', ...Array<string>(8).fill('0x0c00'), ...Array<string>(7).fill('0x0000')];
  await expect
    .poll(() => new URL(page.url()).search)
    .toBe(
      `?v=3&instr=${FORM}&target=sm_80&ptx=8.6&a=${list.join(',')}&b=${list.join(',')}&c=0x00000000`,
    );
  const other = await context.newPage();
  await other.goto(page.url());
  await expect(other.getByTestId('result-bits')).toHaveText('0x3f800003');
  await expect(other.getByTestId('a-el1')).toHaveValue(TINY_SHOWN);
  await expect(other.getByTestId('url-notices')).toHaveCount(0);
  expect(new URL(other.url()).search).toBe(new URL(page.url()).search);
});

for (const width of [390, 1280]) {
  test.describe(`${width} px`, () => {
    // 390 px: a phone, with touch (controls at least 24 × 24 px, WCAG 2.5.8).
    const phone = width === 390;
    test.use({ viewport: { width, height: 900 }, isMobile: phone, hasTouch: phone });
    test(`the tensor-core element fits without horizontal overflow`, async ({ page }) => {
      await pickMma(page);
      await expect(page.getByTestId('matrix-cuts')).toBeVisible();
      const overflow = await overflowPastRightEdge(page);
      expect(overflow.scroll).toBeLessThanOrEqual(overflow.client);
      expect(overflow.wide, 'elements past the right edge').toEqual([]);
      if (phone) expect(await controlsUnder24px(page)).toEqual([]);
      await page.screenshot({ path: test.info().outputPath(`mma-${width}.png`), fullPage: true });
    });
  });
}

test('a block-scaled mma: picked by its shape, its scales edited as lists, the link carries sa= and sb=', async ({
  page,
}) => {
  const nvf4 =
    'mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3';
  await openState(page, `?v=3&instr=${FORM}&target=sm_120a&ptx=8.7`);
  await page.getByTestId('matrix-shape').selectOption('m16n8k64 kind::mxf4nvf4');
  await page.getByTestId('matrix-form').selectOption(nvf4);
  await expect(page.getByTestId('instr-text')).toHaveValue(nvf4);
  await expect(page.getByTestId('block-scale-help')).toContainText('4 chunks of 16 elements');
  const ones = Array<string>(64).fill('1').join(', ');
  await commit(page, 'a-list', ones);
  await commit(page, 'b-list', ones);
  await commit(page, 'c-hex', '0x00000000');
  // Scales 1, 2, 0.5, 1 of the row; 1 of the column: 16 × (1 + 2 + 0.5 + 1) = 72.
  await commit(page, 'scale_a-list', '1, 2, 0.5, 0xb8');
  await commit(page, 'scale_b-list', '1, 1, 1, 1');
  await expect(page.getByTestId('result-bits')).toHaveText('0x42900000');
  await expect(page.getByTestId('steps')).toContainText(
    'Block scaling: .kind::mxf4nvf4, .scale_vec::4X (4 scales each, 16 elements per scale)',
  );
  await expect(page).toHaveURL(/[?&]sa=0xb8,0x30,0x40,0x38|[?&]sa=0x38,0x40,0x30,0xb8/);
  // No other target runs the form; the CUDA-core loops dequantize by the scales first.
  await expect(page.getByTestId('matrix-block-targets')).toContainText(
    'from sm_120a at PTX ISA 8.7',
  );
  await expect(page.getByTestId('matrix-why')).toHaveCount(0);
  await expect(page.getByTestId('matrix-exact')).toHaveText(
    'Exact c + Σ (a_i·SF_A)·(b_i·SF_B) = 72; d is exact.',
  );
  await expect(page.getByTestId('matrix-chain-f32')).toContainText('gives 72');
  await commit(page, 'scale_a-list', '1, 2');
  await expect(page.getByTestId('scale_a-list-error')).toContainText(
    'scale_a is a list of 4 .ue4m3 elements; 2 given',
  );
  await page.reload();
  await expect(page.getByTestId('result-bits')).toHaveText('0x42900000');
});
