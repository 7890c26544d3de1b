import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { commit, expect, openState, test } from './fixtures.ts';
import { controlsUnder24px, overflowPastRightEdge } from './layout-checks.ts';

/**
 * Qualities a user notices: no axe (WCAG 2 A/AA) violations in the main states in both themes,
 * keyboard-only use with a visible focus ring, no horizontal page scroll at 360 px. (No console
 * errors is checked by the fixture on every spec.)
 */
const STATES: Record<string, string> = {
  'x2 fma with relu':
    '?v=1&instr=fma.rn.relu.bf16x2&target=sm_90&ptx=8.6&a=0x3c003c00&b=0xbf803f80&c=0x3f003f00',
  'invalid for its target':
    '?v=1&instr=fma.rn.oob.relu.f16x2&target=sm_70&ptx=6.0&a=0x3c003c00&b=0x3c00bc00&c=0x0000&oob=a0',
  'mixed precision':
    '?v=1&instr=fma.rn.sat.f32.bf16&target=sm_100&ptx=8.6&a=0x3f80&b=0x4000&c=0x3f800000',
  'malformed link': '?v=1&instr=add.f16x9&target=sm_1&ptx=x&a=zz',
  'min with NaN': '?v=1&instr=min.NaN.xorsign.abs.f16&target=sm_90&ptx=8.6&a=0x7e00&b=0xbc00',
  'form only ptxas documents':
    '?v=1&instr=fma.rz.relu.bf16&target=sm_80&ptx=7.0&a=0x3f81&b=0x3f81&c=0xbf80',
  'tensor core element':
    '?v=3&instr=mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32&target=sm_80&ptx=8.6&a=1,0.000244140625,0.5,0,0,0,0,0,0,0,0,0,0,0,0,0&b=1,0.000244140625,2,0,0,0,0,0,0,0,0,0,0,0,0,0&c=-1',
};

async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  return results.violations.map(
    (v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`axe, ${scheme} theme`, () => {
    test.use({ colorScheme: scheme });
    for (const [name, query] of Object.entries(STATES)) {
      test(name, async ({ page }) => {
        await openState(page, query);
        await expect(page.getByTestId('steps')).toBeVisible();
        expect(await axeViolations(page)).toEqual([]);
      });
    }
    test('parse error and a refused value', async ({ page }) => {
      await openState(page, '?v=1&instr=add.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x4000');
      await page.getByTestId('instr-text').fill('add.bogus.f16');
      await expect(page.getByTestId('parse-error')).toBeVisible();
      await commit(page, 'a-value0', 'one');
      await expect(page.getByTestId('a-value0')).toHaveAttribute('aria-invalid', 'true');
      expect(await axeViolations(page)).toEqual([]);
    });
  });
}

/** The focused element's outline, as drawn (a focus ring must be visible, not `none`). */
const focusRing = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const s = getComputedStyle(el);
    return {
      label: el.getAttribute('aria-label') ?? el.getAttribute('data-testid') ?? el.tagName,
      visible: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2,
    };
  });

test('keyboard only: every stop shows its focus, and an edit can be made', async ({ page }) => {
  await openState(page, '?v=1&instr=add.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x4000');
  const seen: string[] = [];
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const ring = await focusRing(page);
    if (!ring) continue;
    expect(ring.visible, `focus ring on ${ring.label}`).toBe(true);
    seen.push(ring.label);
    if (ring.label === 'a sign bit 15') break;
  }
  // The skip link comes first; the pickers and the operand's fields come before its bits.
  expect(seen[0]).toBe('A');
  expect(seen).toContain('instr-text');
  expect(seen).toContain('target');
  expect(seen).toContain('a-hex');
  expect(seen.at(-1)).toBe('a sign bit 15');
  await page.keyboard.press('Space');
  await expect(page.getByTestId('result-bits')).toHaveText('0x3c00'); // -1 + 2 = 1
  // Within a lane the arrows move along the bits; Tab leaves the bit group in one stop.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Tab');
  expect((await focusRing(page))?.label).toBe('a-value0');
});

test('the skip link jumps to the playground', async ({ page }) => {
  await openState(page, '?v=1&instr=add.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x4000');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to the playground' })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#main$/);
});

test.describe('360 px wide', () => {
  test.use({ viewport: { width: 360, height: 740 } });
  for (const [name, query] of Object.entries(STATES)) {
    test(`no horizontal page overflow: ${name}`, async ({ page }) => {
      await openState(page, query);
      await expect(page.getByTestId('steps')).toBeVisible();
      const overflow = await overflowPastRightEdge(page);
      expect(overflow.scroll).toBeLessThanOrEqual(overflow.client);
      expect(overflow.wide, 'elements past the right edge').toEqual([]);
    });
  }
});

test.describe('a 390 px touch screen', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  for (const [name, query] of Object.entries({
    ...STATES,
    'corner cases open': '?v=2&instr=fma.rn.oob.relu.f16x2&target=sm_90&ptx=8.6&tab=corners',
    'error plot open': '?v=2&instr=tanh.approx.f16&target=sm_90&ptx=8.6&a=0x3c00&tab=approx',
    'reproduce open': '?v=2&instr=max.NaN.bf16&target=sm_90&ptx=8.6&tab=repro',
  })) {
    test(`every control is at least 24 × 24 px (WCAG 2.5.8): ${name}`, async ({ page }) => {
      // The bit buttons were 23 × 27 px, the checkboxes 13 px.
      await openState(page, query);
      await page.waitForLoadState('networkidle');
      const small = await controlsUnder24px(page);
      expect(small).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        390,
      );
    });
  }
});
