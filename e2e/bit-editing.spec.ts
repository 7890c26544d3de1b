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
  await mantissaBit(page, to).scrollIntoViewIfNeeded();
  await mantissaBit(page, from).scrollIntoViewIfNeeded();
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
    // Grouping spaces are allowed in a bit pattern.
    await commit(page, 'a-bin', '0b0011 1100 0000 0001');
    await expect(page.getByTestId('a-hex')).toHaveValue('0x3c01');
    await commit(page, 'a-bin', '0b102');
    await expect(page.getByTestId('a-bin')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('a-bin-error')).toContainText(
      "a binary: '0b102' is not binary: type the digits 0 and 1 (0b optional)",
    );
    await expect(page.getByTestId('a-hex')).toHaveValue('0x3c01');
  });

  test('the hex and binary fields read digits of their base, prefix optional; the value field reads values', async ({
    page,
  }) => {
    // They read bare digits as a decimal value: "1000" in "a hex" stored 0x63d0 (the value
    // 1000), "101" in "a binary" the value 101; and refused "3c00".
    await commit(page, 'a-hex', '1000');
    await expect(page.getByTestId('a-hex')).toHaveValue('0x1000');
    await expect(page.getByTestId('a-hex-stored')).toHaveCount(0);
    await commit(page, 'a-hex', '0010');
    await expect(page.getByTestId('a-hex')).toHaveValue('0x0010');
    await commit(page, 'a-hex', '3c01');
    await expect(page.getByTestId('a-hex')).toHaveValue('0x3c01');
    await expect(page.getByTestId('result-bits')).toHaveText('0x3c01');
    await commit(page, 'a-hex', '0x3E00');
    await expect(page.getByTestId('a-hex')).toHaveValue('0x3e00');
    await commit(page, 'a-bin', '101');
    await expect(page.getByTestId('a-hex')).toHaveValue('0x0005');
    await expect(page.getByTestId('a-bin-stored')).toHaveCount(0);
    await commit(page, 'a-bin', '0b0011 1100 0000 0000');
    await expect(page.getByTestId('a-hex')).toHaveValue('0x3c00');

    // A value, or the other base, in a bits field is refused with where it goes.
    await commit(page, 'a-hex', '1.5');
    await expect(page.getByTestId('a-hex-error')).toHaveText(
      "a hex: '1.5' is not hex: type the digits 0-9 and a-f (0x optional); a value goes in the value field; kept 0x3c00",
    );
    await commit(page, 'a-bin', '0x3c00');
    await expect(page.getByTestId('a-bin-error')).toContainText(
      "'0x3c00' is not binary: type the digits 0 and 1 (0b optional)",
    );
    await commit(page, 'a-hex', '12345');
    await expect(page.getByTestId('a-hex-error')).toContainText(
      "'12345' has 5 hex digits; the register is 16 bits (at most 4 hex digits)",
    );
    await expect(page.getByTestId('result-bits')).toHaveText('0x3c00');

    // The value field reads a value, rounded to the format, and says what it stored.
    await commit(page, 'a-value0', '1000');
    await expect(page.getByTestId('a-hex')).toHaveValue('0x63d0');
    await expect(page.getByTestId('a-value0-stored')).toHaveText('stored 0x63d0 = 1000');
    await commit(page, 'a-value0', '0.1');
    await expect(page.getByTestId('a-hex')).toHaveValue('0x2e66');
    await expect(page.getByTestId('a-value0-stored')).toHaveText(
      '0.1 is not an f16 value: stored 0x2e66 = 0.0999755859375 (rounded to nearest even; error -2.44140625e-5)',
    );
    // By the one rule of links and the CLI, 0x… in a value field is bits.
    await commit(page, 'a-value0', '0x3c00');
    await expect(page.getByTestId('a-hex')).toHaveValue('0x3c00');
    await expect(page.getByTestId('a-value0-stored')).toHaveCount(0);
    await expect(page.getByTestId('field-help')).toContainText(
      "The hex and binary fields take the register's bits in their base",
    );
  });

  test('an empty field names itself and what to type; its message goes when another field commits', async ({
    page,
  }) => {
    // It used to say " is not a hexadecimal bit pattern", and stay on screen.
    await commit(page, 'a-hex', '');
    const error = page.getByTestId('a-hex-error');
    await expect(error).toHaveText('a hex: empty: type hex digits (3c00); kept 0x3c00');
    await commit(page, 'b-value0', '2');
    await expect(page.getByTestId('b-hex')).toHaveValue('0x4000');
    await expect(error).toHaveCount(0);
    await expect(page.getByTestId('a-hex')).toHaveValue('0x3c00');
    await expect(page.getByTestId('a-hex')).toHaveAttribute('aria-invalid', 'false');
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
      "a value: '1.2.3' is neither bits (0x…, 0b…) nor a value",
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
    await expect(page.getByTestId('a-value0')).toHaveValue('1.0009765625');
    await expect(page.getByTestId('a-value0')).toHaveAttribute('aria-invalid', 'false');
    await expect(page.getByRole('alert').filter({ hasText: 'abc' })).toHaveCount(0);
  });

  test('quick picks and next up/down', async ({ page }) => {
    await page.getByTestId('a-pick0').selectOption({ label: '+max finite' });
    await expect(page.getByTestId('a-hex')).toHaveValue('0x7bff');
    await expect(page.getByTestId('a-shortest0')).toHaveText('65500');
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

test.describe('one number style (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the field, the readouts, the bar and the reference values write a number one way', async ({
    page,
  }) => {
    // The field said "6e-8" where the bar said 5.9604644775390625e-8; the bar said "1e3" where
    // the panel said 1000.
    await openState(page, '?v=2&instr=add.rn.f16&target=sm_90&ptx=8.6&a=0x0001&b=0x0000');
    await expect(page.getByTestId('a-value0')).toHaveValue('5.9604644775390625e-8');
    await expect(page.getByTestId('result-line')).toContainText('0x0001 = 5.9604644775390625e-8');
    await commit(page, 'a-hex', '0x63d0');
    await expect(page.getByTestId('result-line')).toHaveText('d 0x63d0 = 1000');
    await expect(page.getByTestId('a-value0')).toHaveValue('1000');
    // The shortest decimal positional too: 65500, not 6.55e4.
    await commit(page, 'a-hex', '0x7bff');
    await expect(page.getByTestId('a-shortest0')).toHaveText('65500');
    // The f64 bits of the reference values on one line (they wrapped mid-number).
    const f64Bits = page.getByTestId('reference-f64-0').locator('.pattern');
    await expect(f64Bits).toHaveText('0x40effc0000000000');
    expect(await f64Bits.evaluate((el) => el.getClientRects().length)).toBe(1);
    expect(
      await page
        .getByTestId('reference-f64-0')
        .evaluate((el) => el.getBoundingClientRect().right <= window.innerWidth),
    ).toBe(true);
  });

  for (const format of ['f16', 'bf16'] as const) {
    test(`a value typed in ${format} stays as typed; the field holds its value uncut`, async ({
      page,
    }) => {
      // 0.1 stayed "0.1" in f16 but became "0.10009765625" in bf16, in a field that cut it.
      await openState(page, `?v=2&instr=add.rn.${format}&target=sm_90&ptx=8.6`);
      await commit(page, 'a-value0', '0.1');
      const stored = format === 'f16' ? '0x2e66 = 0.0999755859375' : '0x3dcd = 0.10009765625';
      await expect(page.getByTestId('a-value0-stored')).toContainText(`stored ${stored}`);
      await expect(page.getByTestId('a-value0')).toHaveValue('0.1');
      // Bits from elsewhere: the exact value, in a field wide enough for it.
      await commit(page, 'a-hex', format === 'f16' ? '0x2e67' : '0x3dce');
      const field = page.getByTestId('a-value0');
      await expect(field).toHaveValue(format === 'f16' ? '0.10003662109375' : '0.1005859375');
      expect(await field.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      await commit(page, 'a-value0', '-2.2250738585072014e-8');
      expect(await field.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    });
  }
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

test('a v1 link with an OOB-NaN mark loads the OOB-NaN pattern into that lane', async ({
  page,
}) => {
  // The mark state is gone: the lane holds 0x7ff7, the pattern .oob tests a and b for.
  await openState(
    page,
    '?v=1&instr=fma.rn.oob.f16x2&target=sm_90&ptx=8.6&a=0x3c003c00&b=0x3c003c00&c=0x0&oob=a0',
  );
  await expect(page.getByTestId('a-hex')).toHaveValue('0x3c007ff7');
  await expect(page.getByTestId('a-class0')).toHaveText('OOB-NaN pattern (0x7ff7)');
  await expect(page.getByTestId('a-class1')).toHaveText('positive normal');
  await expect(page.getByTestId('result-bits')).toHaveText('0x3c000000'); // lane 0 zeroed
  await expect(page.getByRole('checkbox', { name: 'OOB-NaN' })).toHaveCount(0);
  await expect(page).toHaveURL(/a=0x3c007ff7/);
  await expect(page).not.toHaveURL(/oob=/);
  // Without .oob the same bits are an ordinary NaN, and say so.
  await page.getByTestId('instr-text').fill('add.f16x2');
  await expect(page.getByTestId('a-class0')).toHaveText('positive quiet NaN');
  await expect(page.getByTestId('result-bits')).toHaveText('0x40007fff'); // NaN + 1 in lane 0
});

test('the OOB-NaN quick pick puts 0x7ff7 in the lane, for a and b of an .oob form only', async ({
  page,
}) => {
  await openState(
    page,
    '?v=2&instr=fma.rn.oob.relu.bf16x2&target=sm_90&ptx=8.6&a=0x3f803f80&b=0x3f803f80&c=0x0',
  );
  await expect(page.getByTestId('result-bits')).toHaveText('0x3f803f80');
  await page.getByTestId('b-pick1').selectOption({ label: 'OOB-NaN (0x7ff7)' });
  // .oob: lane 1 of d is +0.0; lane 0 is untouched.
  await expect(page.getByTestId('result-bits')).toHaveText('0x00003f80');
  await expect(page.getByTestId('b-hex')).toHaveValue('0x7ff73f80');
  await expect(page.getByTestId('b-class1')).toHaveText('OOB-NaN pattern (0x7ff7)');
  await expect(page.getByTestId('b-shortest1')).toHaveText('NaN');
  await expect(page).toHaveURL(/b=0x7ff73f80/);
  await expect(page).not.toHaveURL(/oob=/);
  // c is not tested by .oob: no such pick there; nor on a form without .oob.
  await expect(page.getByTestId('c-pick0').locator('option', { hasText: 'OOB-NaN' })).toHaveCount(
    0,
  );
  await openState(page, '?v=2&instr=add.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x0000');
  await expect(page.getByTestId('a-pick0').locator('option', { hasText: 'OOB-NaN' })).toHaveCount(
    0,
  );
});

test('readouts put the exact value first, name the shortest decimal, and spell out the bias', async ({
  page,
}) => {
  // +max finite: the readout beside "exact" used to be labelled "value" and read 6.55e4.
  await openState(page, '?v=2&instr=neg.f16&target=sm_90&ptx=8.6&a=0x7bff');
  const lane = page.getByTestId('a-lane0');
  await expect(lane.locator('dl.readout dt')).toHaveText([
    'class',
    'exact value',
    'shortest decimal giving these bits',
    'exponent (bias)',
    'significand',
    'ulp here',
  ]);
  await expect(page.getByTestId('a-ulp0')).toHaveText('2⁵');
  await expect(page.getByTestId('a-exact0')).toHaveText('65504');
  await expect(page.getByTestId('a-shortest0')).toHaveText('65500');
  await expect(page.getByTestId('a-value0')).toHaveValue('65504');
  await expect(page.getByTestId('a-exponent0')).toHaveText('stored 11110 = 30, bias 15 → 2¹⁵');
  await commit(page, 'a-value0', '1.0078125');
  await expect(page.getByTestId('a-value0')).toHaveValue('1.0078125');
  await expect(page.getByTestId('a-shortest0')).toHaveText('1.008');
  await expect(page.getByTestId('a-exponent0')).toHaveText('stored 01111 = 15, bias 15 → 2⁰');
});

test('lanes read in one order everywhere: lane 0 (bits 15:0), then lane 1 (bits 31:16)', async ({
  page,
}) => {
  await openState(page, '?v=2&instr=add.f16x2&target=sm_90&ptx=8.6&a=0x40003c00&b=0x00000000');
  // The editors used to list lane 1 first while the steps listed lane 0 first.
  for (const name of ['a', 'b', 'd']) {
    await expect(page.getByTestId(`editor-${name}`).locator('.lane h4')).toHaveText([
      'Lane 0 (bits 15:0)',
      'Lane 1 (bits 31:16)',
    ]);
  }
  await expect(page.getByTestId('a-shortest0')).toHaveText('1');
  await expect(page.getByTestId('a-shortest1')).toHaveText('2');
  await expect(page.getByTestId('steps').locator('.lane-trace h4')).toHaveText([
    'lane 0: d[15:0] from a[15:0], b[15:0]',
    'lane 1: d[31:16] from a[31:16], b[31:16]',
  ]);
});
