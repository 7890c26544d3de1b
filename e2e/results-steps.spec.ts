import type { Page } from '@playwright/test';
import { expect, openState, test } from './fixtures.ts';

/**
 * The result register and the step-by-step trace: guard/round/sticky bits and the rounding
 * decision, overflow, flushes, saturate/relu, NaN rules, min/max branches, spec links,
 * documented interpretations and the number line.
 */
const link = (instr: string, ops: string) => `?v=1&instr=${instr}&target=sm_90&ptx=8.6&${ops}`;
const step = (page: Page, kind: string) =>
  page.getByTestId('steps').locator(`li[data-kind="${kind}"]`);

test('a tie rounds to even: G/R/S bits, the decision and the number line', async ({ page }) => {
  // 1 + 2^-11 is exactly half an ulp above 1.0 in f16.
  await openState(page, link('add.f16', 'a=0x3c00&b=0x1000'));
  await expect(page.getByTestId('result-bits')).toHaveText('0x3c00');
  const round = step(page, 'round');
  await expect(round).toContainText('Round to f16 with .rn (to nearest, ties to even)');
  await expect(round).toContainText(
    'exactly half an ulp, a tie: to the even neighbour; rounded down (smaller magnitude), inexact → 1 (f16 0x3c00)',
  );
  const grs = round.locator('.grs');
  await expect(grs).toHaveAttribute(
    'aria-label',
    'kept bits 10000000000, guard 1, round 0, sticky 0',
  );
  await expect(grs.locator('.kept')).toHaveText('10000000000');
  await expect(grs.locator('.g')).toHaveText('1');
  await expect(grs.locator('.r')).toHaveText('0');
  await expect(grs.locator('.s')).toHaveText('0');
  const line = round.getByRole('img', { name: /^Number line/ });
  await expect(line).toHaveAttribute('aria-label', /between 1 and 1\.001; it rounded to 1\.$/);
  // The steps come in order: inputs, exact value, rounding, result.
  await expect(page.getByTestId('steps').locator('li[data-kind]')).toHaveCount(4);
  await expect(step(page, 'exact')).toContainText('Exact value: a + b = 1.00048828125');
  await expect(step(page, 'result')).toContainText('0x3c00');

  // One more ulp of input: above half → rounds up.
  await page.getByRole('button', { name: 'b: next up' }).click();
  await expect(page.getByTestId('result-bits')).toHaveText('0x3c01');
  await expect(step(page, 'round')).toContainText(
    'the dropped part is above half an ulp; rounded up (larger magnitude)',
  );
});

test('each step links to its spec section', async ({ page }) => {
  await openState(page, link('fma.rn.relu.f16', 'a=0xbc00&b=0x3c00&c=0x0000'));
  const rules = page.getByTestId('steps').locator('.rule a[href^="https://docs.nvidia.com/"]');
  await expect(rules.first()).toHaveText('§9.7.4.4');
  await expect(rules).toHaveCount(await page.getByTestId('steps').locator('li[data-kind]').count());
  // -1 * 1 + 0 = -1 → relu → +0.
  await expect(step(page, 'relu')).toContainText('.relu: a negative value → +0');
  await expect(step(page, 'relu')).toContainText('-1 (f16 0xbc00) → +0 (f16 0x0000)');
  await expect(page.getByTestId('result-bits')).toHaveText('0x0000');
});

test('overflow to infinity under .rn', async ({ page }) => {
  await openState(page, link('add.rn.f16', 'a=0x7bff&b=0x7bff'));
  await expect(page.getByTestId('result-bits')).toHaveText('0x7c00');
  await expect(step(page, 'overflow')).toContainText('under .rn it becomes infinity');
});

test('.ftz flushes a subnormal input, .sat clamps to 1', async ({ page }) => {
  await openState(page, link('mul.ftz.f16', 'a=0x0001&b=0x3c00'));
  await expect(step(page, 'flush-input')).toContainText(
    '.ftz on input a: 5.9604644775390625e-8 (f16 0x0001, subnormal) becomes a zero of its sign, +0',
  );
  await expect(page.getByTestId('result-bits')).toHaveText('0x0000');

  await openState(page, link('mul.rn.sat.f16', 'a=0x4000&b=0x4000'));
  await expect(step(page, 'saturate')).toContainText(
    '.sat: clamps to [0.0, 1.0] (NaN → +0): 4 (f16 0x4400) → 1 (f16 0x3c00)',
  );
  await expect(page.getByTestId('result-bits')).toHaveText('0x3c00');
});

test('a NaN operand gives the canonical NaN, with the interpretation linked', async ({ page }) => {
  await openState(page, link('add.f16', 'a=0x7e00&b=0x3c00'));
  await expect(page.getByTestId('result-bits')).toHaveText('0x7fff');
  await expect(step(page, 'special')).toContainText(
    'NaN input: the result is NaN (f16 0x7fff), the canonical NaN',
  );
  const notes = page.getByTestId('steps').locator('.decisions');
  await expect(notes).toContainText('Documented interpretations this result relies on');
  await expect(notes.locator('#decision-canonical-nan')).toContainText('Engine:');
  const toNote = step(page, 'special').locator('a.decision-link');
  await expect(toNote).toHaveAttribute('href', '#decision-canonical-nan');
  await toNote.click();
  await expect(page).toHaveURL(/#decision-canonical-nan$/);
  await expect(notes.locator('#decision-canonical-nan')).toBeInViewport();
});

test('min/max say which branch of the spec pseudo-code they took', async ({ page }) => {
  await openState(page, link('min.f16', 'a=0x7e00&b=0x3c00'));
  await expect(step(page, 'minmax')).toContainText('a is NaN → the result is b, 1 (f16 0x3c00)');
  await expect(page.getByTestId('result-bits')).toHaveText('0x3c00');

  await openState(page, link('max.NaN.f16', 'a=0x7e00&b=0x3c00'));
  await expect(step(page, 'minmax')).toContainText(
    '.NaN and an input is NaN → NaN (f16 0x7fff), the canonical NaN',
  );
  await expect(page.getByTestId('result-bits')).toHaveText('0x7fff');

  await openState(page, link('min.f16', 'a=0x8000&b=0x0000'));
  await expect(step(page, 'minmax')).toContainText(
    'a and b are zeros of different signs, equal in value; the spec orders -0 < +0: a < b, so min is a',
  );
  await expect(page.getByTestId('result-bits')).toHaveText('0x8000');

  // An ordinary comparison says what was compared, and no word of signed zeros.
  await openState(page, link('max.f16', 'a=0x3c00&b=0x4200'));
  await expect(step(page, 'minmax')).toContainText('a < b, so max is b → 3 (f16 0x4200)');
  await expect(step(page, 'minmax')).not.toContainText('zeros of different signs');
  await expect(page.getByTestId('result-bits')).toHaveText('0x4200');
});

test('a scalar form shows its own statement, an x2 form the x2 one', async ({ page }) => {
  await openState(page, link('add.f16', 'a=0x3c00&b=0x3c00'));
  await expect(step(page, 'exact').locator('.rule')).toContainText('d = a + b;');
  await expect(step(page, 'exact').locator('.rule')).not.toContainText('x2');
  await openState(page, link('add.f16x2', 'a=0x3c003c00&b=0x3c003c00'));
  await expect(step(page, 'exact').first().locator('.rule')).toContainText(
    'd[i] = fA[i] + fB[i] for i = 0, 1',
  );
});

test('past the largest finite value: inexact, upward, no kept bits, IEEE cited', async ({
  page,
}) => {
  await openState(page, link('add.rn.f16', 'a=0x7bff&b=0x5000'));
  const round = step(page, 'round');
  await expect(round).toContainText('rounded up (larger magnitude), inexact');
  await expect(round).not.toContainText('nothing to round');
  await expect(round.locator('.grs')).toHaveCount(0);
  await expect(round.getByRole('img', { name: /^Number line/ })).toHaveAttribute(
    'aria-label',
    /lies between \S+ and \+∞; it rounded past the largest finite value\.$/,
  );
  await expect(step(page, 'overflow').locator('.rule')).toContainText('IEEE 754 §7.4');
});

test('a tiny result says both tininess readings; .ftz says which one decided', async ({ page }) => {
  await openState(page, link('mul.f16', 'a=0x0fff&b=0x3000'));
  await expect(step(page, 'tininess')).toContainText(
    'Tiny before rounding: yes; after rounding (to 11 significant bits with an unbounded exponent): yes',
  );
  await openState(page, link('fma.rn.ftz.f16', 'a=0x0400&b=0x8400&c=0x0400'));
  await expect(step(page, 'flush-result')).toContainText(
    'tininess judged after rounding: not tiny (before rounding it is tiny)',
  );
  await expect(page.getByTestId('result-bits')).toHaveText('0x0400');
});

test('a long exact decimal is shortened, every digit one click away', async ({ page }) => {
  // 2^-133 × 2^-133 = 2^-266: 186 significant digits.
  await openState(page, link('fma.rn.f32.bf16', 'a=0x0001&b=0x0001&c=0x00000000'));
  const exact = step(page, 'exact');
  const summary = exact.locator('details.long-decimal summary');
  await expect(summary).toContainText('8.4337583545844185…e-81');
  await expect(summary).toContainText('(all 186 digits)');
  const all = exact.locator('.all-digits');
  await expect(all).toBeHidden();
  await summary.click();
  await expect(all).toBeVisible();
  await expect(all).toContainText(
    '0.000000000000000000000000000000000000000000000000000000000000000000000000000000008433758354584418579',
  );
});

test('x2 forms trace each lane; the result editor reads out each lane', async ({ page }) => {
  await openState(page, link('fma.rn.relu.bf16x2', 'a=0x3f803f80&b=0xbf803f80&c=0x3f003f00'));
  // lane 0: 1*1 + 0.5 = 1.5; lane 1: 1*-1 + 0.5 = -0.5 → relu → +0.
  await expect(page.getByTestId('result-bits')).toHaveText('0x00003fc0');
  await expect(
    page.getByTestId('steps').getByRole('heading', { name: /^lane [01]: d\[\d+:\d+\] from / }),
  ).toHaveCount(2);
  await expect(page.getByTestId('d-shortest0')).toHaveText('1.5');
  await expect(page.getByTestId('d-shortest1')).toHaveText('0');
  // The result's bits are read-only pictures, not buttons (its only buttons explain words).
  await expect(page.getByTestId('editor-d').getByRole('button', { name: /bit/ })).toHaveCount(0);
  // Each lane's sign bit, named by its place in the register: 15 and 31.
  await expect(
    page.getByTestId('editor-d').getByRole('img', { name: /sign bit (15|31):/ }),
  ).toHaveCount(2);
});
