import { mkdirSync } from 'node:fs';
import { expect, openState, test } from './fixtures.ts';

/**
 * Screenshots of key states for docs/screenshots, at 1280 px and on a 390 px phone (looked at by
 * a person before committing). Not part of the ordinary run:
 * `npx vite build && PTXF_SCREENSHOTS=1 npx playwright test e2e/screenshots.spec.ts`.
 */
test.skip(!process.env.PTXF_SCREENSHOTS, 'set PTXF_SCREENSHOTS=1 to refresh docs/screenshots');

const DIR = 'docs/screenshots';
mkdirSync(DIR, { recursive: true });

const shots: {
  name: string;
  query: string;
  width: number;
  dark?: boolean;
  tab?: string;
  /** A glossary word to tap before the picture. */
  tap?: string;
  /** Scroll to this element and take the screen there instead of the whole page. */
  at?: string;
}[] = [
  {
    name: 'fma-f16-light',
    query: '?v=2&instr=fma.rn.f16&target=sm_90&ptx=8.6&a=0x3e00&b=0x4000&c=0x3400',
    width: 1280,
  },
  {
    // Lane 1 of b holds the OOB-NaN pattern 0x7ff7: .oob makes that lane of d +0.0.
    name: 'fma-oob-relu-bf16x2-dark',
    query:
      '?v=2&instr=fma.rn.oob.relu.bf16x2&target=sm_90&ptx=8.6&a=0x3f80bf80&b=0x7ff74000&c=0x3e803e80',
    width: 1280,
    dark: true,
  },
  {
    name: 'invalid-target-what-if',
    query: '?v=2&instr=add.rz.sat.f32.bf16&target=sm_80&ptx=7.0&a=0x3fc0&c=0x3e800000',
    width: 1280,
  },
  {
    name: 'tie-to-even-steps-390px',
    query: '?v=2&instr=add.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x1000',
    width: 390,
    at: 'steps',
  },
  // malformed-url.png is written by doc-screenshots.spec.ts.
  {
    name: 'corner-cases',
    query: '?v=2&instr=fma.rn.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x3c00&c=0x0000',
    width: 1280,
    tab: 'corners',
  },
  {
    name: 'corner-cases-390px',
    query: '?v=2&instr=fma.rn.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x3c00&c=0x0000',
    width: 390,
    tab: 'corners',
    at: 'corner-cases',
  },
  {
    name: 'glossary-tap-390px',
    query: '?v=2&instr=fma.rn.oob.relu.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x7ff7&c=0x3c00',
    width: 390,
    tap: 'term-oob',
  },
  {
    // 3.3 into e2m1 with .rs: each neighbour's odds beside the result, and new random bits.
    name: 'rs-odds-390px',
    query:
      '?v=2&instr=cvt.rs.satfinite.e2m1x4.f32&target=sm_100a&ptx=8.7&a=0x40533333&b=0x40880000&e=0xbe99999a&f=0x3a83126f&rbits=0x00000000',
    width: 390,
    at: 'summary',
  },
  {
    name: 'reproduce',
    query: '?v=2&instr=max.NaN.xorsign.abs.bf16&target=sm_90&ptx=8.6&a=0xbf80&b=0x4000',
    width: 1280,
    tab: 'repro',
  },
];

for (const s of shots) {
  test(`screenshot ${s.name}`, async ({ browser }) => {
    const phone = s.width < 500;
    const context = await browser.newContext({
      viewport: { width: s.width, height: phone ? 844 : 900 },
      isMobile: phone,
      hasTouch: phone,
      colorScheme: s.dark ? 'dark' : 'light',
    });
    const page = await context.newPage();
    await openState(page, s.query);
    if (s.tab) {
      await page.getByTestId(`tab-${s.tab}`).click();
      await page.waitForTimeout(800);
    }
    if (s.tap) {
      await page
        .getByTestId(s.tap)
        .first()
        .evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await page.getByTestId(s.tap).first().tap();
      await expect(page.getByTestId(s.tap.replace('term-', 'term-pop-')).first()).toBeVisible();
      await page.screenshot({ path: `${DIR}/${s.name}.png` });
    } else if (s.at) {
      await page.getByTestId(s.at).evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: `${DIR}/${s.name}.png` });
    } else {
      await page.screenshot({ path: `${DIR}/${s.name}.png`, fullPage: true });
    }
    await context.close();
  });
}
