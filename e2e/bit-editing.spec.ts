import type { Page } from '@playwright/test';
import { commit, expect, openState, test } from './fixtures.ts';

/**
 * Bit-field editors: every way of changing an operand (a bit, keyboard, drag, hex, binary,
 * value, quick pick, next up/down) changes the register, the readouts and the result.
 * add.f16 with a = 1.0 and b = +0 makes the result equal a, so the result shows each edit.
 */
const ADD = '?v=1&instr=add.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x0000';

const mantissaBit = (page: Page, i: number) =>
  page.getByRole('button', { name: `a mantissa bit ${i}`, exact: true });

/** Press on mantissa bit `from` of a, move to bit `to` in `steps` pointer moves, release. */
async function dragMantissa(page: Page, from: number, to: number, steps: number): Promise<void> {
  const start = await mantissaBit(page, from).boundingBox();
  const end = await mantissaBit(page, to).boundingBox();
  if (!start || !end) throw new Error('mantissa bits are not laid out');
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await page.mouse.down();
  await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2, { steps });
  await page.mouse.up();
}

test.describe('bit editors', () => {
  test.beforeEach(async ({ page }) => {
    await openState(page, ADD);
    await expect(page.getByTestId('result-bits')).toHaveText('0x3c00');
  });

  test('clicking a bit toggles it and the result follows', async ({ page }) => {
    const sign = page.getByRole('button', { name: 'a sign bit 15', exact: true });
    await expect(sign).toHaveAttribute('aria-pressed', 'false');
    await sign.click();
    await expect(sign).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('a-hex')).toHaveValue('0xbc00');
    await expect(page.getByTestId('a-shortest0')).toHaveText('-1');
    await expect(page.getByTestId('result-bits')).toHaveText('0xbc00');
  });

  test('Space and Enter toggle the focused bit; arrows move between bits', async ({ page }) => {
    const sign = page.getByRole('button', { name: 'a sign bit 15', exact: true });
    await sign.focus();
    await page.keyboard.press('Space');
    await expect(page.getByTestId('a-hex')).toHaveValue('0xbc00');
    await page.keyboard.press('ArrowRight'); // to exponent bit 14
    await expect(
      page.getByRole('button', { name: 'a exponent bit 14', exact: true }),
    ).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('a-hex')).toHaveValue('0xfc00');
    await expect(page.getByTestId('a-class0')).toHaveText(/inf/i);
    await page.keyboard.press('End');
    await expect(page.getByRole('button', { name: 'a mantissa bit 0', exact: true })).toBeFocused();
    await expect(page.getByTestId('result-bits')).toHaveText('0xfc00');
  });

  test('press and drag paints the pressed bit’s new value over the others', async ({ page }) => {
    await dragMantissa(page, 9, 6, 8);
    // 1.0 with mantissa bits 9..6 painted to 1: 0x3c00 | 0x3c0.
    await expect(page.getByTestId('a-hex')).toHaveValue('0x3fc0');
    await expect(page.getByTestId('result-bits')).toHaveText('0x3fc0');
    // The paint stops at pointer up: moving over another bit changes nothing.
    const other = await mantissaBit(page, 2).boundingBox();
    await page.mouse.move(other!.x + 2, other!.y + 2);
    await expect(page.getByTestId('a-hex')).toHaveValue('0x3fc0');
  });

  test('a fast drag paints every bit it passes over, not only those the pointer lands on', async ({
    page,
  }) => {
    await dragMantissa(page, 9, 0, 3);
    await expect(page.getByTestId('a-hex')).toHaveValue('0x3fff');
  });

  test('hex and binary entry', async ({ page }) => {
    await commit(page, 'a-hex', '0x4248');
    await expect(page.getByTestId('a-shortest0')).toHaveText('3.14');
    await expect(page.getByTestId('a-bin')).toHaveValue('0b0100001001001000');
    await commit(page, 'a-bin', '0b1100000000000000');
    await expect(page.getByTestId('a-hex')).toHaveValue('0xc000');
    await expect(page.getByTestId('result-bits')).toHaveText('0xc000');
    // The binary field reads binary digits, with or without 0b; the hex field reads hex.
    await commit(page, 'a-bin', '0011 1100 0000 0001');
    await expect(page.getByTestId('a-hex')).toHaveValue('0x3c01');
    await commit(page, 'a-bin', '101');
    await expect(page.getByTestId('a-hex')).toHaveValue('0x0005');
    await commit(page, 'a-bin', '0b102');
    await expect(page.getByTestId('a-bin')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('alert').filter({ hasText: '0b102' })).toContainText(
      'not a binary bit pattern',
    );
    await expect(page.getByTestId('a-hex')).toHaveValue('0x0005');
    await commit(page, 'a-hex', '3c00');
    await expect(page.getByTestId('a-bin')).toHaveValue('0b0011110000000000');
  });

  for (const [text, hex, cls] of [
    ['-1.5e-5', '0x80fc', /subnormal/i],
    ['0x1.8p-3', '0x3200', /normal/i],
    ['inf', '0x7c00', /inf/i],
    ['-0', '0x8000', /zero/i],
    ['nan', '0x7fff', /nan/i],
  ] as const) {
    test(`value entry ${text}`, async ({ page }) => {
      await commit(page, 'a-value0', text);
      await expect(page.getByTestId('a-hex')).toHaveValue(hex);
      await expect(page.getByTestId('a-class0')).toHaveText(cls);
    });
  }

  test('a bad value shows why and keeps the previous bits', async ({ page }) => {
    await commit(page, 'a-value0', '1.2.3');
    const field = page.getByTestId('a-value0');
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('alert').filter({ hasText: 'kept 1' })).toContainText(
      'is not a number',
    );
    await expect(page.getByTestId('a-hex')).toHaveValue('0x3c00');
    await expect(page.getByTestId('result-bits')).toHaveText('0x3c00');
    // Escape reverts the draft and clears the message.
    await field.press('Escape');
    await expect(field).toHaveValue('1');
    await expect(field).toHaveAttribute('aria-invalid', 'false');
    // A bad hex is refused the same way.
    await commit(page, 'a-hex', '0x12345');
    await expect(page.getByTestId('a-hex')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('result-bits')).toHaveText('0x3c00');
  });

  test('a refused entry gives way when the value changes elsewhere', async ({ page }) => {
    await commit(page, 'a-value0', 'abc');
    await expect(page.getByTestId('a-value0')).toHaveAttribute('aria-invalid', 'true');
    await page.getByRole('button', { name: 'a: next up' }).click();
    await expect(page.getByTestId('a-hex')).toHaveValue('0x3c01');
    await expect(page.getByTestId('a-value0')).toHaveValue('1.001');
    await expect(page.getByTestId('a-value0')).toHaveAttribute('aria-invalid', 'false');
    await expect(page.getByRole('alert').filter({ hasText: 'abc' })).toHaveCount(0);
  });

  test('quick picks and next up/down', async ({ page }) => {
    await page.getByTestId('a-pick0').selectOption({ label: '+max finite' });
    await expect(page.getByTestId('a-hex')).toHaveValue('0x7bff');
    await expect(page.getByTestId('a-shortest0')).toHaveText('6.55e4');
    await page.getByRole('button', { name: 'a: next up' }).click();
    await expect(page.getByTestId('a-hex')).toHaveValue('0x7c00');
    // +inf has no next value up; the button says so instead of doing nothing.
    await expect(page.getByRole('button', { name: 'a: next up' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'a: next up' })).toHaveAttribute(
      'title',
      /no next value up/,
    );
    await page.getByRole('button', { name: 'a: next down' }).click();
    await expect(page.getByTestId('a-hex')).toHaveValue('0x7bff');
    await page.getByTestId('a-pick0').selectOption({ label: '+min subnormal' });
    await expect(page.getByTestId('a-hex')).toHaveValue('0x0001');
    await page.getByRole('button', { name: 'a: next down' }).click();
    await expect(page.getByTestId('a-hex')).toHaveValue('0x0000');
    await page.getByRole('button', { name: 'a: next down' }).click();
    await expect(page.getByTestId('a-hex')).toHaveValue('0x8001');
    await page.getByTestId('a-pick0').selectOption({ label: 'sNaN' });
    await expect(page.getByTestId('a-class0')).toHaveText(/signaling/i);
    // The quick pick resets to its prompt so the same pick can be made again.
    await expect(page.getByTestId('a-pick0')).toHaveValue('');
  });
});

test('x2 forms show both lanes; each lane edits its own half of the register', async ({ page }) => {
  await openState(page, '?v=1&instr=add.bf16x2&target=sm_90&ptx=8.6&a=0x3f803f80&b=0x00000000');
  await expect(page.getByTestId('a-lane0')).toBeVisible();
  await expect(page.getByTestId('a-lane1')).toBeVisible();
  await commit(page, 'a-value1', '2');
  await expect(page.getByTestId('a-hex')).toHaveValue('0x40003f80');
  await page.getByRole('button', { name: 'a lane 0 sign bit 15', exact: true }).click();
  await expect(page.getByTestId('a-hex')).toHaveValue('0x4000bf80');
  await expect(page.getByTestId('result-bits')).toHaveText('0x4000bf80');
  await expect(page.getByTestId('d-shortest1')).toHaveText('2');
  await expect(page.getByTestId('d-shortest0')).toHaveText('-1');
});

test('mixed-precision forms give the f32 operand a 32-bit editor', async ({ page }) => {
  await openState(
    page,
    '?v=1&instr=fma.rn.f32.f16&target=sm_100&ptx=8.6&a=0x3c00&b=0x3c00&c=0x3f800000',
  );
  const c = page.getByTestId('editor-c');
  await expect(c).toContainText('.f32');
  await expect(c.getByRole('button', { name: /^c exponent bit/ })).toHaveCount(8);
  await expect(c.getByRole('button', { name: /^c mantissa bit/ })).toHaveCount(23);
  await expect(
    page.getByTestId('editor-a').getByRole('button', { name: /mantissa bit/ }),
  ).toHaveCount(10);
  await commit(page, 'c-value0', '0.5');
  await expect(page.getByTestId('c-hex')).toHaveValue('0x3f000000');
  // 1 * 1 + 0.5 = 1.5 in f32.
  await expect(page.getByTestId('result-bits')).toHaveText('0x3fc00000');
});

test('an OOB-NaN mark on a form without .oob stays visible and can be cleared', async ({
  page,
}) => {
  // Marked on fma.oob, then the form changes to add.f16x2 (no .oob): the mark still makes lane 0
  // of a the OOB-NaN pattern, so it must stay in sight, explained, and clearable.
  await openState(
    page,
    '?v=1&instr=fma.rn.oob.f16x2&target=sm_90&ptx=8.6&a=0x3c003c00&b=0x3c003c00&c=0x0&oob=a0',
  );
  await page.getByTestId('instr-text').fill('add.f16x2');
  await page.getByTestId('instr-text').press('Enter');
  await expect(page.getByTestId('instr-text')).toHaveValue('add.f16x2');
  await expect(page.getByTestId('a-oob-note0')).toContainText('this form has no .oob');
  await expect(page.getByTestId('result-bits')).toHaveText('0x40007fff'); // NaN + 1 in lane 0
  // Both lanes of a show their toggle (lane 1 first, as the register reads); only lane 0 is set.
  const marks = page.getByTestId('editor-a').getByRole('checkbox', { name: 'OOB-NaN' });
  await expect(marks).toHaveCount(2);
  await expect(marks.nth(0)).not.toBeChecked();
  // click, not uncheck(): clearing the last mark removes the toggles (uncheck() would wait to
  // see the box unchecked).
  await marks.nth(1).click();
  await expect(page.getByTestId('result-bits')).toHaveText('0x40004000'); // 1 + 1 in each lane
  await expect(page.getByTestId('a-oob-note0')).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: 'OOB-NaN' })).toHaveCount(0);
});

test('OOB-NaN is a quick pick where .oob applies; a marked lane reads as the OOB-NaN pattern', async ({
  page,
}) => {
  await openState(
    page,
    '?v=1&instr=fma.rn.oob.relu.bf16x2&target=sm_90&ptx=8.6&a=0x3f803f80&b=0x3f803f80&c=0x0',
  );
  await expect(page.getByTestId('result-bits')).toHaveText('0x3f803f80');
  await page.getByTestId('b-pick1').selectOption({ label: 'OOB-NaN (marks the lane)' });
  // .oob: lane 1 of d is +0.0; lane 0 is untouched.
  await expect(page.getByTestId('result-bits')).toHaveText('0x00003f80');
  await expect(page.getByTestId('b-class1')).toHaveText(/OOB-NaN \(marked; positive quiet NaN\)/);
  await expect(page.getByTestId('b-shortest1')).toHaveText('NaN');
  await expect(page.getByTestId('b-oob-note1')).toContainText('read as 0x7fff');
  // The register keeps its own bits, which come back when the mark is cleared.
  await expect(page.getByTestId('b-hex')).toHaveValue('0x3f803f80');
  await expect(page).toHaveURL(/oob=b1/);
  // Forms without .oob offer no such pick.
  await openState(page, '?v=1&instr=add.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x0000');
  await expect(page.getByTestId('a-pick0').locator('option', { hasText: 'OOB-NaN' })).toHaveCount(
    0,
  );
});
