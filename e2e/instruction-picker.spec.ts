import { commit, expect, openState, test } from './fixtures.ts';

/**
 * The instruction pickers (opcode, type, rounding, modifiers) and the text field always show
 * the same form; the canonical PTX line follows and can be copied.
 */
const START = '?v=1&instr=add.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x4000';

test.beforeEach(async ({ page }) => {
  await openState(page, START);
  await expect(page.getByTestId('result-bits')).toHaveText('0x4200');
});

test('picking opcode, type and modifiers changes the form everywhere', async ({ page }) => {
  const text = page.getByTestId('instr-text');
  await page.getByRole('combobox', { name: /^Opcode/ }).selectOption('fma');
  await expect(text).toHaveValue('fma.rn.f16');
  await expect(page.getByTestId('editor-c')).toBeVisible();
  await page.getByRole('combobox', { name: /^Type/ }).selectOption('bf16x2');
  await expect(text).toHaveValue('fma.rn.bf16x2');
  await expect(page.getByTestId('a-lane1')).toBeVisible();
  await page.getByRole('checkbox', { name: /\.relu/ }).check();
  await expect(text).toHaveValue('fma.rn.relu.bf16x2');
  await expect(page.getByTestId('canonical')).toHaveText('fma.rn.relu.bf16x2 d, a, b, c;');
  await page.getByRole('checkbox', { name: /\.relu/ }).uncheck();
  await expect(text).toHaveValue('fma.rn.bf16x2');

  // A mixed-precision form offers all four rounding modes.
  await page.getByRole('combobox', { name: /^Opcode/ }).selectOption('add');
  await page.getByRole('combobox', { name: /^Type/ }).selectOption('f32.f16');
  await page.getByRole('combobox', { name: /^Rounding/ }).selectOption('rz');
  await expect(text).toHaveValue('add.rz.f32.f16');
  await commit(page, 'a-value0', '1');
  await commit(page, 'c-value0', '2'); // mixed add is d = a + c, c in f32
  await expect(page.getByTestId('result-bits')).toHaveText('0x40400000');
});

test('types the opcode does not have are listed but disabled, with the reason', async ({
  page,
}) => {
  await page.getByRole('combobox', { name: /^Opcode/ }).selectOption('tanh');
  const mixed = page
    .getByRole('combobox', { name: /^Type/ })
    .locator('option', { hasText: '.f32.f16' });
  await expect(mixed).toBeDisabled();
  await expect(mixed).toHaveText(/\.f32\.f16 — .+/);
});

test('typing or pasting a PTX line moves the pickers', async ({ page }) => {
  const text = page.getByTestId('instr-text');
  await text.fill('  fma.rn.relu.bf16x2 %r1, %r2, %r3, %r4;');
  await expect(page.getByRole('combobox', { name: /^Opcode/ })).toHaveValue('fma');
  await expect(page.getByRole('combobox', { name: /^Type/ })).toHaveValue('bf16x2');
  await expect(page.getByRole('checkbox', { name: /\.relu/ })).toBeChecked();
  await expect(page.getByTestId('canonical')).toHaveText('fma.rn.relu.bf16x2 d, a, b, c;');
  // What was typed stays as typed while it means the current form.
  await expect(text).toHaveValue('  fma.rn.relu.bf16x2 %r1, %r2, %r3, %r4;');

  // A paste over the selected field inserts the whole line in one input event.
  await text.selectText();
  await page.keyboard.insertText('mul.rn.ftz.sat.f16 %h1, %h2, %h3;');
  await expect(page.getByRole('combobox', { name: /^Opcode/ })).toHaveValue('mul');
  await expect(page.getByRole('checkbox', { name: /\.ftz/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /\.sat/ })).toBeChecked();
});

test('an order ptxas accepts is read as its form, with the spec spelling beside it', async ({
  page,
}) => {
  const text = page.getByTestId('instr-text');
  await text.fill('add.sat.ftz.f16 %h1, %h2, %h3;');
  await expect(page.getByRole('checkbox', { name: /\.ftz/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /\.sat/ })).toBeChecked();
  await expect(page.getByTestId('canonical')).toHaveText('add.ftz.sat.f16 d, a, b;');
  const note = page.getByTestId('spelling-note');
  await expect(note).toHaveText('ptxas accepts this order; the spec writes add.ftz.sat.f16.');
  await expect(text).toHaveAttribute('aria-invalid', 'false');
  await expect(page.getByTestId('parse-error')).toHaveCount(0);
  // What was typed stays as typed; the spec's own spelling needs no note.
  await expect(text).toHaveValue('add.sat.ftz.f16 %h1, %h2, %h3;');
  await text.fill('add.ftz.sat.f16');
  await expect(note).toHaveCount(0);
});

test('a parse error is shown at its position and the last good form stays', async ({ page }) => {
  const text = page.getByTestId('instr-text');
  await text.fill('add.foo.f16');
  const error = page.getByTestId('parse-error');
  await expect(error).toContainText("At column 4: unknown modifier '.foo' on add with .f16");
  await expect(error).toContainText('Still showing add.f16');
  // The caret line marks the offending text under it.
  await expect(error.locator('pre')).toHaveText('add.foo.f16\n   ^^^^');
  await expect(text).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('combobox', { name: /^Opcode/ })).toHaveValue('add');
  await expect(page.getByTestId('result-bits')).toHaveText('0x4200');

  await text.fill('add.rn.f16');
  await expect(error).toHaveCount(0);
  await expect(text).toHaveAttribute('aria-invalid', 'false');
  await expect(page.getByTestId('canonical')).toHaveText('add.rn.f16 d, a, b;');
});

test('a cvt line and an x2 line are both kept as typed; another case is read, with why ptxas refuses it; a missing .satfinite is shown where it goes', async ({
  page,
}) => {
  // cvt.rn.f16.f32 %h1, %f1; was cut to its form while fma.rn.f16x2 %r1, …; was kept; ADD.RN.F16
  // was refused; a missing .satfinite was reported "at column 1".
  const text = page.getByTestId('instr-text');
  for (const [line, canonical] of [
    ['cvt.rn.f16.f32 %h1, %f1;', 'cvt.rn.f16.f32 d, a;'],
    ['fma.rn.f16x2 %r1, %r2, %r3, %r4;', 'fma.rn.f16x2 d, a, b, c;'],
  ] as const) {
    await text.fill(line);
    await expect(page.getByTestId('canonical')).toHaveText(canonical);
    await text.press('Tab');
    await expect(text).toHaveValue(line);
  }

  // ptxas 13.0: "Not a name of any known instruction: 'ADD'".
  await text.fill('ADD.RN.F16');
  await expect(page.getByTestId('canonical')).toHaveText('add.rn.f16 d, a, b;');
  await expect(page.getByTestId('spelling-note')).toHaveText(
    'ptxas refuses ADD.RN.F16: PTX names are case-sensitive; the spec writes add.rn.f16.',
  );
  await expect(text).toHaveValue('ADD.RN.F16');
  await expect(page.getByTestId('parse-error')).toHaveCount(0);

  await text.fill('cvt.rn.e4m3x2.f32 %h1, %f1, %f2;');
  const error = page.getByTestId('parse-error');
  await expect(error).toContainText('At column 7: cvt to .e4m3x2 from .f32 requires .satfinite');
  // The caret stands where .satfinite goes, after "cvt.rn.".
  await expect(error.locator('pre')).toHaveText('cvt.rn.e4m3x2.f32 %h1, %f1, %f2;\n      ^');
});

test('Copy PTX puts the canonical line on the clipboard', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('instr-text').fill('min.NaN.xorsign.abs.bf16');
  await expect(page.getByTestId('canonical')).toHaveText('min.NaN.xorsign.abs.bf16 d, a, b;');
  await page.getByTestId('copy-ptx').click();
  await expect(page.getByTestId('copy-ptx')).toContainText('copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    'min.NaN.xorsign.abs.bf16 d, a, b;',
  );
});
