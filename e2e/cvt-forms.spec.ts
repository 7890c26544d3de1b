import type { Page } from '@playwright/test';
import { commit, expect, openState, test } from './fixtures.ts';

/**
 * cvt in the playground, in a real browser: forms chosen with the pickers, values typed into
 * each element and what they stored, the result register element by element and the steps of
 * each conversion (guard/round/sticky, ties, overflow, the .satfinite clamp to MAX_NORM, NaN,
 * .rs adding its random bits), the target marks with the one-click fix, and .f64 registers.
 */
const instr = (page: Page) => page.getByTestId('instr-text');
const trace = (page: Page, element: number) => page.getByTestId(`steps-${element}`);
const step = (page: Page, element: number, kind: string) =>
  trace(page, element).locator(`li[data-kind="${kind}"]`);
const search = (page: Page) => new URL(page.url()).search;

test('cvt from the pickers: e4m3x2 from two .f32, 500 clamps to MAX_NORM, 4.25 ties to 4', async ({
  page,
}) => {
  await openState(page, '?v=2&instr=add.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x4000');
  await page.getByTestId('opcode').selectOption('cvt');
  await expect(page.getByTestId('dtype')).toBeVisible();
  await page.getByTestId('dtype').selectOption('e4m3x2');
  await page.getByTestId('atype').selectOption('f32');
  await expect(instr(page)).toHaveValue('cvt.rn.satfinite.e4m3x2.f32');
  // .satfinite is mandatory for this form: ticked and locked.
  await expect(page.getByTestId('mod-satfinite')).toBeChecked();
  await expect(page.getByTestId('mod-satfinite')).toBeDisabled();
  await expect(page.getByTestId('verdict')).toContainText('✓ Valid');

  await commit(page, 'a-hex', '0x0');
  await expect(page.getByTestId('a-exact0')).toHaveText('0');
  await commit(page, 'a-value0', '500');
  await expect(page.getByTestId('a-value0-stored')).toHaveText('stored 0x43fa0000 = 500');
  await expect(page.getByTestId('a-hex')).toHaveValue('0x43fa0000');
  await commit(page, 'b-value1', '4.25');
  await expect(page.getByTestId('b-hex')).toHaveValue('0x40880000');
  await expect.poll(() => search(page)).toContain('a=0x43fa0000&b=0x40880000');

  // a goes to the upper byte, b to the lower.
  await expect(page.getByTestId('result-bits')).toHaveText('0x7e48');
  await expect(page.getByTestId('d-class0')).toHaveText('positive normal, MAX_NORM');
  await expect(page.getByTestId('d-exact0')).toHaveText('448');
  await expect(page.getByTestId('d-exact1')).toHaveText('4');

  // Element 0: 500 rounds past MAX_NORM; .satfinite clamps it to 448.
  await expect(step(page, 0, 'exact')).toContainText('= 500');
  await expect(step(page, 0, 'round')).toContainText(
    'beyond MAX_NORM 448 (e4m3 0x7e), and e4m3 has no infinity',
  );
  await expect(step(page, 0, 'round')).toContainText(
    'rounded up (larger magnitude), inexact → past MAX_NORM',
  );
  await expect(step(page, 0, 'satfinite')).toContainText(
    'the value lies past MAX_NORM, so it becomes +MAX_NORM: 448 (e4m3 0x7e)',
  );
  // Element 1: 4.25 lies half way between 4 and 4.5: guard 1, round and sticky 0, a tie to even.
  const grs = step(page, 1, 'round').getByTestId('grs');
  await expect(grs).toHaveAttribute('aria-label', /guard 1, round 0, sticky 0$/);
  await expect(step(page, 1, 'round')).toContainText('between 4 (e4m3 0x48) and 4.5 (e4m3 0x49)');
  await expect(step(page, 1, 'round')).toContainText(
    'exactly half an ulp, a tie: to the even neighbour; rounded down (smaller magnitude), inexact → 4 (e4m3 0x48)',
  );
  await expect(step(page, 1, 'satfinite')).toContainText('is within ±MAX_NORM: unchanged');
  await expect(step(page, 1, 'result')).toContainText('d[7:0] = 4 (e4m3 0x48)');

  // One step up from the tie: the dropped part is above half, 4.5.
  await page.getByRole('button', { name: 'b: next up' }).click();
  await expect(page.getByTestId('result-bits')).toHaveText('0x7e49');

  // NaN in: .satfinite keeps NaN (e4m3's NaN 0x7F), and the interpretation is linked.
  await page.getByTestId('a-pick0').selectOption({ label: 'NaN' });
  await expect(page.getByTestId('a-class0')).toContainText('NaN');
  await expect(page.getByTestId('result-bits')).toHaveText('0x7f49');
  await expect(step(page, 0, 'satfinite')).toContainText('a NaN stays NaN: NaN (e4m3 0x7f)');
  await expect(page.getByTestId('d-class0')).toContainText('NaN');
});

test('cvt.rn.f16.f32: 65520 is the overflow tie; without .satfinite it is +inf, with it MAX_NORM', async ({
  page,
}) => {
  await openState(page, '?v=2&instr=cvt.rn.satfinite.e4m3x2.f32&target=sm_90&ptx=8.6');
  await page.getByTestId('dtype').selectOption('f16');
  await expect(instr(page)).toHaveValue('cvt.rn.satfinite.f16.f32');
  await page.getByTestId('mod-satfinite').uncheck();
  await expect(instr(page)).toHaveValue('cvt.rn.f16.f32');
  await expect(page.getByTestId('editor-b')).toHaveCount(0);

  await commit(page, 'a-hex', '0x477ff000'); // 65520: half way between 65504 and 65536
  await expect(page.getByTestId('a-exact0')).toHaveText('65520');
  await expect(page.getByTestId('result-bits')).toHaveText('0x7c00');
  await expect(page.getByTestId('d-class0')).toContainText('infinity');
  await expect(step(page, 0, 'round').getByTestId('grs')).toHaveAttribute(
    'aria-label',
    'kept bits 11111111111, guard 1, round 0, sticky 0',
  );
  await expect(step(page, 0, 'overflow')).toBeVisible();

  // Just below the tie rounds down to MAX_NORM.
  await page.getByRole('button', { name: 'a: next down' }).click();
  await expect(page.getByTestId('a-hex')).toHaveValue('0x477fefff');
  await expect(page.getByTestId('result-bits')).toHaveText('0x7bff');

  // .satfinite turns the overflow into MAX_NORM.
  await commit(page, 'a-value0', '65520');
  await page.getByTestId('mod-satfinite').check();
  await expect(instr(page)).toHaveValue('cvt.rn.satfinite.f16.f32');
  await expect(page.getByTestId('result-bits')).toHaveText('0x7bff');
  await expect(step(page, 0, 'satfinite')).toContainText('+MAX_NORM: 65504 (f16 0x7bff)');

  // .rz never rounds up: 65520 truncates to 65504.
  await page.getByTestId('rounding').selectOption('rz');
  await expect(instr(page)).toHaveValue('cvt.rz.satfinite.f16.f32');
  await expect(page.getByTestId('result-bits')).toHaveText('0x7bff');
  await expect(step(page, 0, 'round')).toContainText('Round to f16 with .rz');
});

test('.rs x4: marked targets, the one-click fix, rbits per element and the addition bit by bit', async ({
  page,
}) => {
  await openState(page, '?v=2&instr=cvt.rn.satfinite.e4m3x2.f32&target=sm_90&ptx=8.6');
  // sm_90 has no x4 form: the option says what it needs, and stays pickable.
  await expect(page.getByTestId('dtype').locator('option[value="e2m1x4"]')).toHaveText(
    '.e2m1x4 ✗ needs sm_100a, PTX ISA 8.7',
  );
  await page.getByTestId('dtype').selectOption('e2m1x4');
  await expect(instr(page)).toHaveValue('cvt.rs.satfinite.e2m1x4.f32');
  const verdict = page.getByTestId('verdict');
  await expect(verdict).toContainText('✗ Not valid for sm_90 with PTX ISA 8.6');
  await expect(verdict).toContainText('what-if');
  // The result is computed all the same.
  await expect(page.getByTestId('result-bits')).toBeVisible();
  await expect(page.getByTestId('verdict-fix')).toHaveText(
    'Use sm_100a (B200, GB200) with PTX ISA 8.7',
  );
  await page.getByTestId('verdict-fix').click();
  await expect(page.getByTestId('target')).toHaveValue('sm_100a');
  await expect(page.getByTestId('ptx')).toHaveValue('8.7');
  await expect(verdict).toContainText('✓ Valid');

  // Four sources, a b e f, each an .f32 register, and rbits.
  for (const name of ['a', 'b', 'e', 'f', 'rbits'])
    await expect(page.getByTestId(`editor-${name}`)).toBeVisible();
  await commit(page, 'a-value0', '4.25');
  await commit(page, 'b-value1', '-0.5');
  await commit(page, 'e-value2', '0.25');
  await commit(page, 'f-value3', '6');
  await commit(page, 'rbits-hex', '0x80ff7f01');
  // Each element reads its own byte of rbits: the bits are labelled by the element they serve.
  const rbits = page.getByTestId('editor-rbits');
  await expect(rbits.locator('.bitfield.random .field-label')).toHaveText([
    'for a (8)',
    'for e (8)',
    'for b (8)',
    'for f (8)',
  ]);
  await expect(page.getByTestId('rbits-use')).toContainText(
    'element 0 (a → d[15:12]): rbits[31:24] = 10000000 (8 bits)',
  );
  await expect(page.getByTestId('result-bits')).toHaveText('0x6917');

  // a = 4.25: the discarded bits 00100000 plus rbits 10000000 carry nothing: toward zero, 4.
  const sum = step(page, 0, 'round');
  await expect(sum).toContainText(
    'random bits 10000000 + dropped bits 00100000 = 010100000: carry out 0, toward zero',
  );
  await expect(sum.locator('.random')).toHaveText('10000000');
  await expect(sum.locator('.discarded')).toHaveText('00100000');
  await expect(sum.locator('.carry')).toHaveText('0');
  await expect(page.getByTestId('d-exact0')).toHaveText('4');
  // More random bits for a: now the addition carries out, away from zero, 6.
  await commit(page, 'rbits-hex', '0xe0ff7f01');
  await expect(sum).toContainText('carry out 1, away from zero');
  await expect(sum.locator('.carry')).toHaveText('1');
  await expect(page.getByTestId('d-exact0')).toHaveText('6');
  await expect(page.getByTestId('result-bits')).toHaveText('0x7917');
  await expect.poll(() => search(page)).toContain('rbits=0xe0ff7f01');
});

test('cvt.f32.bf16 is exact; an .f64 source is edited as 64 exact bits', async ({ page }) => {
  await openState(page, '?v=2&instr=cvt.rn.satfinite.e4m3x2.f32&target=sm_90&ptx=8.6');
  await page.getByTestId('dtype').selectOption('f32');
  await page.getByTestId('atype').selectOption('bf16');
  await expect(instr(page)).toHaveValue('cvt.f32.bf16');
  // No rounding: .f32 holds every .bf16 value.
  await expect(page.getByTestId('rounding')).toHaveValue('');
  await commit(page, 'a-value0', '1.5');
  await expect(page.getByTestId('a-hex')).toHaveValue('0x3fc0');
  await expect(page.getByTestId('result-bits')).toHaveText('0x3fc00000');
  await expect(step(page, 0, 'exact')).toContainText('— a value of f32');

  await page.getByTestId('atype').selectOption('f64');
  await expect(instr(page)).toHaveValue('cvt.rn.f32.f64');
  await expect(page.getByTestId('editor-a').locator('h3')).toHaveText('Operand a (.f64, 64 bits)');
  // 1 + 2^-52: beyond any JS-number-safe integer as bits; rounds to 1.0 in .f32.
  await commit(page, 'a-hex', '0x3ff0000000000001');
  await expect(page.getByTestId('a-exact0')).toHaveText(
    '1.0000000000000002220446049250313080847263336181640625',
  );
  await expect(
    page.getByTestId('editor-a').getByRole('button', { name: /mantissa bit/ }),
  ).toHaveCount(52);
  await expect(page.getByTestId('result-bits')).toHaveText('0x3f800000');
  await page.getByRole('button', { name: 'a: next up' }).click();
  await expect(page.getByTestId('a-hex')).toHaveValue('0x3ff0000000000002');
  // 1 + 2^-24 is half an .f32 ulp above 1: a tie, to even (1.0); one .f64 ulp more rounds up.
  await commit(page, 'a-hex', '0x3ff0000010000000');
  await expect(step(page, 0, 'round')).toContainText(
    'a tie: to the even neighbour; rounded down (smaller magnitude)',
  );
  await expect(page.getByTestId('result-bits')).toHaveText('0x3f800000');
  await page.getByRole('button', { name: 'a: next up' }).click();
  await expect(page.getByTestId('result-bits')).toHaveText('0x3f800001');
  await expect.poll(() => search(page)).toContain('a=0x3ff0000010000001');
});

test('a value the element format cannot hold is refused with the reason; nothing changes', async ({
  page,
}) => {
  await openState(page, '?v=2&instr=cvt.rn.f16x2.e4m3x2&target=sm_90&ptx=8.6&a=0x3c3c');
  const before = await page.getByTestId('result-bits').textContent();
  await commit(page, 'a-value0', '500');
  const field = page.getByTestId('a-value0');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('editor-a')).toContainText("past e4m3's largest finite value 448");
  await expect(page.getByTestId('a-hex')).toHaveValue('0x3c3c');
  await expect(page.getByTestId('result-bits')).toHaveText(before!);
  // e2m1 has no NaN at all.
  await openState(page, '?v=2&instr=cvt.rn.f16x2.e2m1x2&target=sm_100a&ptx=8.6&a=0x22');
  await commit(page, 'a-value0', 'nan');
  await expect(page.getByTestId('a-value0')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('editor-a')).toContainText('e2m1 has no NaN');
});

test("a register's hex and binary fields read digits of their base; an element's value field reads values", async ({
  page,
}) => {
  await openState(
    page,
    '?v=2&instr=cvt.rn.satfinite.e4m3x2.f32&target=sm_90&ptx=8.6&a=0x43fa0000&b=0x40880000',
  );
  // "500" in "a hex" was the value 500 in each element; it is the hex digits 0x500.
  await commit(page, 'a-hex', '500');
  await expect(page.getByTestId('a-hex')).toHaveValue('0x00000500');
  await expect(page.getByTestId('a-hex-stored')).toHaveCount(0);
  await commit(page, 'a-hex', '43fa0000');
  await expect(page.getByTestId('a-hex')).toHaveValue('0x43fa0000');
  await commit(page, 'b-bin', '1');
  await expect(page.getByTestId('b-hex')).toHaveValue('0x00000001');
  await commit(page, 'b-hex', '448');
  await expect(page.getByTestId('b-hex')).toHaveValue('0x00000448');
  await commit(page, 'a-hex', '1.5');
  await expect(page.getByTestId('a-hex-error')).toContainText("'1.5' is not hex");
  await expect(page.getByTestId('a-hex-error')).toContainText('kept 0x43fa0000');
  // The element's value field: a value, rounded to the element's format.
  await commit(page, 'b-value1', '448');
  await expect(page.getByTestId('b-hex')).toHaveValue('0x43e00000');
  await expect(page.getByTestId('field-help')).toContainText(
    "The hex and binary fields take the register's bits in their base",
  );
});
