import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, openState, test } from './fixtures.ts';
import { controlsUnder24px, overflowPastRightEdge } from './layout-checks.ts';

/**
 * The cvt screens' qualities, as quality.spec.ts checks them for the arithmetic: no axe (WCAG 2
 * A/AA) violations in either theme, and on a 390 px phone nothing reaching past the right edge
 * outside a scrolling box (a .f64 source's 53-digit exact value once did) and every control at
 * least 24 × 24 px.
 */
const STATES: Record<string, { query: string; shows: string }> = {
  'e4m3x2 from .f32, clamped': {
    query: '?v=2&instr=cvt.rn.satfinite.e4m3x2.f32&target=sm_90&ptx=8.6&a=0x43fa0000&b=0x7fc00000',
    shows: 'steps',
  },
  '.rs x4 with rbits, not valid on sm_90': {
    query:
      '?v=2&instr=cvt.rs.satfinite.e2m1x4.f32&target=sm_90&ptx=8.6&a=0x40880000&b=0xbf000000&e=0x3e800000&f=0x40c00000&rbits=0x80ff7f01',
    shows: 'steps',
  },
  '.f64 source': {
    query: '?v=2&instr=cvt.rn.f32.f64&target=sm_90&ptx=8.6&a=0x3ff0000000000001',
    shows: 'steps',
  },
  '6-bit elements with padding': {
    query: '?v=2&instr=cvt.rn.f16x2.e2m3x2&target=sm_100a&ptx=8.6&a=0xff01',
    shows: 'steps',
  },
  'corner cases open': {
    query: '?v=2&instr=cvt.rn.satfinite.e4m3x2.f32&target=sm_90&ptx=8.6&tab=corners',
    shows: 'corner-table',
  },
  'sweep done': {
    query: '?v=2&instr=cvt.rn.satfinite.e5m2x2.f32&target=sm_90&ptx=8.6&tab=sweep',
    shows: 'sweep-plot',
  },
  'format page': {
    query: '?v=2&instr=cvt.rn.satfinite.e4m3x2.f32&target=sm_90&ptx=8.6&tab=format&format=e4m3',
    shows: 'format-table',
  },
};

async function open(page: Page, { query, shows }: { query: string; shows: string }) {
  await openState(page, query);
  await expect(page.getByTestId(shows).first()).toBeVisible();
}

async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  return results.violations.map(
    (v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`cvt, axe, ${scheme} theme`, () => {
    test.use({ colorScheme: scheme });
    for (const [name, state] of Object.entries(STATES)) {
      test(name, async ({ page }) => {
        await open(page, state);
        expect(await axeViolations(page)).toEqual([]);
      });
    }
  });
}

test.describe('cvt on a 390 px touch screen', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  for (const [name, state] of Object.entries(STATES)) {
    test(`nothing past the right edge, no control under 24 px: ${name}`, async ({ page }) => {
      await open(page, state);
      const overflow = await overflowPastRightEdge(page);
      expect(overflow.scroll).toBeLessThanOrEqual(overflow.client);
      expect(overflow.wide, 'elements past the right edge').toEqual([]);
      const small = await controlsUnder24px(page);
      expect(small).toEqual([]);
    });
  }
});
