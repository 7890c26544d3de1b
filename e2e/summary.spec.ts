import { commit, expect, openState, test } from './fixtures.ts';

/**
 * Every result opens with what happened in one sentence, read off the trace, and the reference
 * values beside it: the exact result and what f32 and f64 arithmetic give. An approximate
 * result is said to be one of the values hardware may return, in the result panel itself.
 */

const at = (instr: string, operands: string) =>
  `?v=2&instr=${instr}&target=sm_90&ptx=8.6&${operands}`;

test('a tie: the summary, and the exact, f32 and f64 values', async ({ page }) => {
  // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10: to the even one, 1.
  await openState(page, at('add.rn.f16', 'a=0x3c00&b=0x1000'));
  await expect(page.getByTestId('summary')).toHaveText(
    '1.00048828125 is halfway between 1 and 1.0009765625: the tie goes to the even one, 1; error -0.00048828125 = -0.5 ulp',
  );
  await expect(page.getByTestId('reference-exact0')).toHaveText('1.00048828125');
  // f32 and f64 hold 1 + 2^-11 exactly: f32 code would not round here.
  await expect(page.getByTestId('reference-f32-0')).toHaveText('1.00048828125 0x3f801000');
  await expect(page.getByTestId('reference-f64-0')).toHaveText('1.00048828125 0x3ff0020000000000');
  await expect(page.getByTestId('reference-error0')).toHaveText('-0.00048828125 = -0.5 ulp');
});

test('an overflow', async ({ page }) => {
  await openState(page, at('add.rn.f16', 'a=0x7bff&b=0x5000'));
  await expect(page.getByTestId('summary')).toHaveText(
    'the exact sum 65536 is above the largest f16 (65504): +inf under .rn',
  );
  // f32 arithmetic would keep 65536.
  await expect(page.getByTestId('reference-f32-0')).toHaveText('65536 0x47800000');
  await expect(page.getByTestId('reference-error0')).toContainText('none to measure');
});

test('an invalid operation', async ({ page }) => {
  await openState(page, at('add.f16', 'a=0x7c00&b=0xfc00'));
  await expect(page.getByTestId('summary')).toHaveText('∞ − ∞: invalid, canonical NaN 0x7fff');
});

test('a flush to zero', async ({ page }) => {
  // −2^-14 × 0.5 = −2^-15: subnormal; .ftz flushes it to −0.
  await openState(page, at('mul.ftz.f16', 'a=0x8400&b=0x3800'));
  await expect(page.getByTestId('summary')).toHaveText(/\.ftz flushes it to -0$/);
  await expect(page.getByTestId('result-bits')).toHaveText('0x8000');
});

test('an approximate op: one of the allowed values, said in the summary and the result panel', async ({
  page,
}) => {
  await openState(page, at('tanh.approx.f16', 'a=0x3c00'));
  // tanh.approx.f16 has a table measured on a GPU (the measured tables, src/state/measured-tables.ts): the summary
  // gives the measured value beside the model's.
  await expect(page.getByTestId('summary')).toHaveText(
    /^hardware may return any of 2 values from 0\.76123046875 to 0\.76171875; measured on .+: 0\.76123046875 \(the model gives 0\.76171875\)$/,
  );
  await expect(page.getByTestId('approx-note')).toHaveText(
    /^Not one answer: hardware may return any of 2 values from 0\.76123046875 to 0\.76171875\. d is one of them: the value measured on .+; the model gives 0\.76171875\.$/,
  );
  // The result register is named as one allowed value, not as the answer, and as the measured
  // one; so is the line.
  await expect(page.getByTestId('editor-d').getByRole('heading')).toHaveText(
    /^Result d \(\.f16, 16 bits\): one allowed value, measured on the NVIDIA H100/,
  );
  await expect(page.getByTestId('result-line')).toContainText('hardware may return any of 2');
  await expect(page.getByTestId('reference-exact0')).toContainText('0.76159415595576');
});

test('the summary follows an edit', async ({ page }) => {
  await openState(page, at('add.rn.f16', 'a=0x3c00&b=0x1000'));
  await commit(page, 'b-hex', '0x0000');
  await expect(page.getByTestId('summary')).toHaveText('1 is exact in f16: no rounding');
});

test('typed values say what was stored, and by which rounding', async ({ page }) => {
  await openState(page, at('add.f16', 'a=0x3c00&b=0x0000'));
  await commit(page, 'a-value0', '70000');
  await expect(page.getByTestId('a-value0-stored')).toHaveText(
    '70000 is above the largest f16 (65504): stored 0x7c00 = +inf (rounded to nearest even)',
  );
  await commit(page, 'a-value0', '1e-8');
  await expect(page.getByTestId('a-value0-stored')).toHaveText(
    '1e-8 is below half the smallest f16 subnormal (2^-25 = 2.9802322387695312…e-8): stored 0x0000 = +0 (rounded to nearest even)',
  );
  await commit(page, 'a-value0', '0.1');
  await expect(page.getByTestId('a-value0-stored')).toHaveText(
    '0.1 is not an f16 value: stored 0x2e66 = 0.0999755859375 (rounded to nearest even; error -2.44140625e-5)',
  );
});
