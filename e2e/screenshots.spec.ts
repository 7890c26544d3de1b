import { mkdirSync } from 'node:fs';
import { expect, openState, test } from './fixtures.ts';

/**
 * Screenshots of key states for docs/screenshots (looked at by a person before committing).
 * Not part of the ordinary run: `PTXF_SCREENSHOTS=1 npx playwright test e2e/screenshots.spec.ts`.
 */
test.skip(!process.env.PTXF_SCREENSHOTS, 'set PTXF_SCREENSHOTS=1 to refresh docs/screenshots');

const DIR = 'docs/screenshots';
mkdirSync(DIR, { recursive: true });

const shots: { name: string; query: string; width: number; dark?: boolean; tab?: string }[] = [
  {
    name: 'fma-f16-light',
    query: '?v=1&instr=fma.rn.f16&target=sm_90&ptx=8.6&a=0x3e00&b=0x4000&c=0x3400',
    width: 1280,
  },
  {
    name: 'fma-oob-relu-bf16x2-dark',
    query:
      '?v=1&instr=fma.rn.oob.relu.bf16x2&target=sm_90&ptx=8.6&a=0x3f80bf80&b=0x40004000&c=0x3e803e80&oob=b1',
    width: 1280,
    dark: true,
  },
  {
    name: 'invalid-target-what-if',
    query: '?v=1&instr=add.rz.sat.f32.bf16&target=sm_80&ptx=7.0&a=0x3fc0&c=0x3e800000',
    width: 1280,
  },
  {
    name: 'tie-to-even-steps-360px',
    query: '?v=1&instr=add.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x1000',
    width: 360,
  },
  // malformed-url.png is written by doc-screenshots.spec.ts.
  {
    name: 'corner-cases',
    query: '?v=1&instr=mul.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x3c00',
    width: 1280,
    tab: 'corners',
  },
  {
    name: 'reproduce',
    query: '?v=1&instr=max.NaN.xorsign.abs.bf16&target=sm_90&ptx=8.6&a=0xbf80&b=0x4000',
    width: 1280,
    tab: 'repro',
  },
];

for (const s of shots) {
  test(`screenshot ${s.name}`, async ({ page }) => {
    await page.setViewportSize({ width: s.width, height: 900 });
    await page.emulateMedia({ colorScheme: s.dark ? 'dark' : 'light' });
    if (s.name === 'malformed-url') {
      await page.goto(`./${s.query}`);
      await expect(page.getByTestId('url-notices')).toBeVisible();
    } else {
      await openState(page, s.query);
    }
    if (s.tab) {
      await page.getByTestId(`tab-${s.tab}`).click();
      await page.waitForTimeout(800);
    }
    await page.screenshot({ path: `${DIR}/${s.name}.png`, fullPage: true });
  });
}
