import { expect, openState, test } from './fixtures.ts';

/**
 * Target and PTX ISA pickers: the verdict is always visible; an invalid form lists each reason
 * with the minimal target and version and still computes, flagged as a what-if; options the
 * current form cannot use are marked with why, not hidden.
 */
const FMA =
  '?v=1&instr=fma.rn.relu.bf16x2&target=sm_90&ptx=8.6&a=0x3c003c00&b=0xbf803f80&c=0x3f003f00';

test.beforeEach(async ({ page }) => {
  await openState(page, FMA);
});

test('a valid form says so', async ({ page }) => {
  const verdict = page.getByTestId('verdict');
  await expect(verdict).toContainText('✓ Valid');
  await expect(verdict).toContainText(
    'fma.rn.relu.bf16x2 on sm_90 (H100, H200, GH200) with PTX ISA 8.6',
  );
  await expect(verdict).toHaveClass(/\bok\b/);
});

test('an old target and PTX give each reason and the minimal fix; the result is still shown', async ({
  page,
}) => {
  await page.getByTestId('target').selectOption('sm_70');
  await page.getByTestId('ptx').selectOption('6.0');
  const verdict = page.getByTestId('verdict');
  await expect(verdict).toHaveClass(/\bbad\b/);
  await expect(verdict).toContainText('✗ Not valid for sm_70 with PTX ISA 6.0');
  await expect(verdict.getByRole('listitem')).toHaveText([
    'fma.bf16x2 requires sm_80 or higher; target is sm_70',
    'fma.bf16x2 requires PTX ISA 7.0; PTX ISA version is 6.0',
  ]);
  await expect(verdict).toContainText('Valid from sm_80 with PTX ISA 7.0');
  await expect(verdict).toContainText('what-if');
  // The semantics are still computed, the same as on a valid target.
  await expect(page.getByTestId('result-bits')).toHaveText('0x3efc3f02');
  await expect(page.getByTestId('steps')).toBeVisible();

  // Fixing only the target leaves the PTX reasons (the form's, and the target's own).
  await page.getByTestId('target').selectOption('sm_80');
  await expect(verdict.getByRole('listitem')).toHaveText([
    'fma.bf16x2 requires PTX ISA 7.0; PTX ISA version is 6.0',
    'target sm_80 requires PTX ISA 7.0; PTX ISA version is 6.0',
  ]);
  await page.getByTestId('ptx').selectOption('7.0');
  await expect(verdict).toContainText('✓ Valid');
});

test('a form only ptxas assembles is flagged where the verdict is, with its decision', async ({
  page,
}) => {
  await openState(
    page,
    '?v=1&instr=fma.rz.relu.bf16&target=sm_80&ptx=7.0&a=0x3f81&b=0x3f81&c=0xbf80',
  );
  const verdict = page.getByTestId('verdict');
  await expect(verdict).toContainText('✓ Valid');
  const flag = verdict.getByTestId('undocumented-flag');
  await expect(flag).toContainText('assembles; behaviour not documented, not yet measured');
  await expect(flag).toContainText('ptxas 13.0 assembles fma.rz.relu.bf16');
  // The result is computed under the documented decision the flag links to.
  await expect(page.getByTestId('result-bits')).toHaveText('0x3c80');
  await expect(page.locator('#decision-ptxas-only-forms')).toContainText(
    'Forms ptxas assembles that the spec does not list',
  );
  // The spec's own forms carry no flag.
  await openState(page, FMA);
  await expect(page.getByTestId('verdict')).toContainText('✓ Valid');
  await expect(page.getByTestId('undocumented-flag')).toHaveCount(0);
});

test('targets name their GPUs; those that cannot run the form are marked, not hidden', async ({
  page,
}) => {
  const target = page.getByTestId('target');
  await expect(target.locator('option[value="sm_90"]')).toHaveText('sm_90 — H100, H200, GH200');
  await expect(target.locator('option[value="sm_80"]')).toHaveText('sm_80 — A100, A30');
  await expect(target.locator('option[value="sm_86"]')).toHaveText('sm_86 — RTX 30, A10, A40');
  await expect(target.locator('option[value="sm_89"]')).toHaveText('sm_89 — RTX 40, L4, L40');
  await expect(target.locator('option[value="sm_100"]')).toHaveText('sm_100 — B200, GB200');
  await expect(target.locator('option[value="sm_103"]')).toHaveText('sm_103 — B300, GB300');
  await expect(target.locator('option[value="sm_120"]')).toHaveText(
    'sm_120 — RTX 50, RTX PRO 6000',
  );
  await expect(target.locator('option[value="sm_121"]')).toHaveText('sm_121 — GB10 (DGX Spark)');
  await expect(target.locator('option[value="sm_75"]')).toHaveText('✗ sm_75 — T4, RTX 20');
  await expect(page.getByTestId('target-legend')).toHaveText(
    '✗ marks the targets without this form: fma.bf16x2 requires sm_80 or higher.',
  );
  // Marked, not hidden: the option can still be chosen.
  await expect(target.locator('option[value="sm_75"]')).toBeEnabled();
  const ptx = page.getByTestId('ptx');
  await expect(ptx.locator('option[value="6.0"]')).toHaveText('6.0 ✗ no sm_90');
  await expect(ptx.locator('option[value="8.6"]')).toHaveText('8.6');
  await expect(page.getByTestId('verdict')).toContainText('on sm_90 (H100, H200, GH200)');
});

test('a PTX ISA version too old for one modifier names that modifier', async ({ page }) => {
  await openState(page, '?v=1&instr=fma.rn.oob.relu.bf16x2&target=sm_90&ptx=8.6');
  const ptx = page.getByTestId('ptx');
  await expect(ptx.locator('option[value="8.0"]')).toHaveText('8.0 ✗ .oob needs 8.1');
  await expect(ptx.locator('option[value="8.1"]')).toHaveText('8.1');
});

test('an invalid form offers one click to its minimal target (and PTX ISA version)', async ({
  page,
}) => {
  // With the default sm_90, a mixed .f32.f16 form is invalid as soon as it is picked.
  await openState(page, '?v=2&instr=add.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x3c00');
  await page.getByRole('combobox', { name: /^Type/ }).selectOption('f32.f16');
  const verdict = page.getByTestId('verdict');
  await expect(verdict).toContainText('✗ Not valid');
  const fix = page.getByTestId('verdict-fix');
  // sm_100 exists at PTX ISA 8.6: the version stays.
  await expect(fix).toHaveText('Use sm_100 (B200, GB200)');
  await fix.click();
  await expect(page.getByTestId('target')).toHaveValue('sm_100');
  await expect(page.getByTestId('ptx')).toHaveValue('8.6');
  await expect(verdict).toContainText('✓ Valid');
  await expect(page).toHaveURL(/target=sm_100/);
  // Too old a target and version: both change, to the least that has the form.
  await openState(page, FMA.replace('sm_90', 'sm_70').replace('ptx=8.6', 'ptx=6.0'));
  await expect(page.getByTestId('verdict-fix')).toHaveText(
    'Use sm_80 (A100, A30) with PTX ISA 7.0',
  );
  await page.getByTestId('verdict-fix').click();
  await expect(page.getByTestId('target')).toHaveValue('sm_80');
  await expect(page.getByTestId('ptx')).toHaveValue('7.0');
  await expect(page.getByTestId('verdict')).toContainText('✓ Valid');
  // Back returns to the state before the switch.
  await page.goBack();
  await expect(page.getByTestId('target')).toHaveValue('sm_70');
});

test('after the one-click fix, focus stays on the verdict instead of falling to the page', async ({
  page,
}) => {
  // The button went away with the problem, and focus fell to <body>.
  await openState(page, '?v=2&instr=add.f32.f16&target=sm_90&ptx=8.6&a=0x3c00&c=0x3f800000');
  const fix = page.getByTestId('verdict-fix');
  await fix.focus();
  await page.keyboard.press('Enter');
  const verdict = page.getByTestId('verdict');
  await expect(verdict).toContainText('✓ Valid');
  await expect(verdict).toBeFocused();
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(false);
  // Keyboard use goes on from there: the next stop is after the target panel.
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByTestId('ptx')).toBeFocused();
});

test.describe('on a 390 px phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('no option text of any picker is wider than its select', async ({ page }) => {
    // Long texts ("sm_75 — cannot: fma.bf16x2 requires sm_80 or higher") were cut off.
    for (const query of [
      FMA.replace('sm_90', 'sm_70').replace('ptx=8.6', 'ptx=6.0'),
      '?v=2&instr=fma.rn.oob.relu.bf16x2&target=sm_90&ptx=8.6',
      '?v=2&instr=add.f32.f16&target=sm_75&ptx=6.3',
      // "8.6 ✗ .rs rounding mode and cvt.rs{.e2m1x4/…} needs 8.7" was cut off.
      '?v=2&instr=cvt.rs.satfinite.e2m1x4.f32&target=sm_100a&ptx=8.6',
    ]) {
      await openState(page, query);
      const overflowing = await page.evaluate(() => {
        // A select shows its chosen option's text in its own width; one whose natural width
        // (as wide as its longest option) is more than it has cuts that option off.
        const out: string[] = [];
        for (const select of document.querySelectorAll('select')) {
          const natural = select.cloneNode(true) as HTMLSelectElement;
          natural.style.maxWidth = 'none';
          natural.style.width = 'auto';
          natural.style.position = 'absolute';
          select.after(natural); // beside it: the same inherited font

          const wanted = natural.offsetWidth;
          natural.remove();
          if (wanted > select.offsetWidth + 1) {
            const longest = [...select.options].reduce((a, b) =>
              b.text.length > a.text.length ? b : a,
            );
            out.push(`${longest.text} (${wanted} > ${select.offsetWidth} px)`);
          }
        }
        return out;
      });
      expect(overflowing, query).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        390,
      );
    }
  });
});

test('modifiers the target cannot use are marked with why', async ({ page }) => {
  await page.getByTestId('target').selectOption('sm_80');
  await page.getByTestId('ptx').selectOption('7.0');
  await expect(page.getByTestId('verdict')).toContainText('✓ Valid');
  const oob = page.locator('fieldset.modifiers label', { hasText: '.oob' });
  await expect(oob).toContainText('sm_80:');
  await expect(oob).toHaveClass(/limited/);
  await oob.getByRole('checkbox').check();
  await expect(page.getByTestId('instr-text')).toHaveValue('fma.rn.oob.relu.bf16x2');
  await expect(page.getByTestId('verdict')).toContainText('✗ Not valid');
  await expect(page.getByTestId('verdict')).toContainText('Valid from sm_90 with PTX ISA 8.1');
});
