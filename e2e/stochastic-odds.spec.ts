import { expect, openState, test } from './fixtures.ts';

/**
 * A .rs result is one draw: beside it, each neighbour with its probability over every pattern of
 * the random bits, and a button that draws new random bits into rbits (one history entry, in
 * the link).
 */

// 3.3 (f32 0x40533333) into e2m1: between 3 and 4; the 8 random bits of element 0 are added to
// the discarded bits 0b01001100 = 76, so 76 of the 256 patterns carry to 4.
const RS = '?v=2&instr=cvt.rs.satfinite.e2m1x4.f32&target=sm_100a&ptx=8.7&a=3.3&b=0&e=0&f=0';

test('3.3 into e2m1 with .rs: each neighbour with its odds, and new random bits on a click', async ({
  page,
}) => {
  // The draw is the browser's; fixed here so the test knows which neighbour it gives.
  await page.addInitScript(() => {
    crypto.getRandomValues = <T extends ArrayBufferView | null>(array: T): T => {
      if (array instanceof Uint32Array) array.fill(0xffffffff);
      return array;
    };
  });
  await openState(page, `${RS}&rbits=0x00000000`);
  const odds = page.getByTestId('rs-odds');
  // Elements 1 to 3 are exact zeros: one line, element 0's.
  await expect(odds.getByTestId('rs-odds-line')).toHaveText(
    'element 0: 3 with p = 180/256 ≈ 0.70, 4 with p = 76/256 ≈ 0.30; these random bits gave 3.',
  );
  const before = await page.getByTestId('result-line-a').textContent();

  await page.getByTestId('draw-rbits').click();
  await expect(page.getByTestId('rbits-hex')).toHaveValue('0xffffffff');
  await expect(odds.getByTestId('rs-odds-line')).toContainText('these random bits gave 4.');
  await expect(page.getByTestId('result-line-a')).not.toHaveText(before!);
  await expect(page).toHaveURL(/[?&]rbits=0xffffffff(&|$)/);

  // One history entry: Back returns to the bits before the draw.
  await page.goBack();
  await expect(page.getByTestId('rbits-hex')).toHaveValue('0x00000000');
  await expect(odds.getByTestId('rs-odds-line')).toContainText('these random bits gave 3.');
});

test('a form without .rs has no odds and no draw; an exact .rs result says the bits change nothing', async ({
  page,
}) => {
  await openState(page, '?v=2&instr=cvt.rn.satfinite.e2m1x4.f32&target=sm_100a&ptx=8.7&a=3.3');
  await expect(page.getByTestId('summary')).toBeVisible();
  await expect(page.getByTestId('rs-odds')).toHaveCount(0);
  await expect(page.getByTestId('draw-rbits')).toHaveCount(0);

  await openState(page, `${RS.replace('a=3.3', 'a=3')}&rbits=0x12345678`);
  await expect(page.getByTestId('rs-odds')).toContainText(
    'every element is exact, so they change nothing',
  );
  await expect(page.getByTestId('draw-rbits')).toBeVisible();
});
