import type { Locator, Page } from '@playwright/test';
import { expect, openState, test } from './fixtures.ts';

/**
 * The everyday tasks a new user tries (issue 23's list), done as a person does them from the
 * default page, at 390 × 844 (touch) and 1280 × 800: each ends with its answer in view, in at
 * most as many actions (a click, a tap, a pick, a field typed and committed) as listed here.
 */

/** Counts what a person does: each click, pick or field committed is one action. */
class Person {
  actions = 0;
  constructor(private readonly page: Page) {}
  async press(target: Locator): Promise<void> {
    this.actions++;
    await target.click();
  }
  async pick(target: Locator, value: string): Promise<void> {
    this.actions++;
    await target.selectOption(value);
  }
  async type(target: Locator, text: string): Promise<void> {
    this.actions++;
    await target.fill(text);
    await target.press('Enter');
  }
  id(testId: string): Locator {
    return this.page.getByTestId(testId);
  }
}

interface Task {
  readonly name: string;
  /** The most actions the task takes. */
  readonly actions: number;
  readonly run: (person: Person, page: Page) => Promise<Locator>;
}

const TASKS: readonly Task[] = [
  {
    name: 'what is 0.1 in bf16',
    actions: 2,
    run: async (p) => {
      await p.type(p.id('instr-text'), 'cvt.rn.bf16.f32');
      await p.type(p.id('a-value0'), '0.1');
      await expect(p.id('result-line')).toHaveText('d 0x3dcd = 0.10009765625');
      return p.id('result-line');
    },
  },
  {
    name: '1000 into e4m3 and e5m2',
    actions: 3,
    run: async (p) => {
      await p.type(p.id('instr-text'), 'cvt.rn.satfinite.e4m3x2.f32');
      await p.type(p.id('a-value0'), '1000');
      // .satfinite: past e4m3's MAX_NORM, 448; e5m2 rounds 1000 to 1024 (a is element 0).
      await expect(p.id('result-line')).toContainText('= 448, ');
      await p.pick(p.id('dtype'), 'e5m2x2');
      await expect(p.id('result-line')).toContainText('= 1024, ');
      return p.id('result-line');
    },
  },
  {
    name: 'why does fma differ from mul then add',
    actions: 1,
    run: async (p) => {
      await p.press(p.id('vs-quick-unfused'));
      await expect(p.id('compare-verdict')).toBeVisible();
      return p.id('compare').getByRole('heading').first();
    },
  },
  {
    name: 'max(−0, +0)',
    actions: 3,
    run: async (p) => {
      await p.pick(p.id('opcode'), 'max');
      await p.type(p.id('a-value0'), '-0');
      await p.type(p.id('b-value0'), '+0');
      await expect(p.id('result-line')).toHaveText('d 0x0000 = +0');
      return p.id('result-line');
    },
  },
  {
    name: 'can sm_80 run add.rn.bf16',
    actions: 2,
    run: async (p) => {
      await p.type(p.id('instr-text'), 'add.rn.bf16');
      await p.pick(p.id('target'), 'sm_80');
      await expect(p.id('verdict')).toContainText('✗ Not valid');
      return p.id('verdict');
    },
  },
  {
    name: '3.3 into FP4 with .rn and .rs',
    actions: 4,
    run: async (p) => {
      await p.type(p.id('instr-text'), 'cvt.rn.satfinite.e2m1x2.f32');
      await p.type(p.id('a-value0'), '3.3');
      await expect(p.id('result-line')).toContainText('= 3, ');
      // .rs has x4 forms only, on sm_100a and later: typed, and the verdict's one click.
      await p.type(p.id('instr-text'), 'cvt.rs.satfinite.e2m1x4.f32');
      await p.press(p.id('verdict-fix'));
      await expect(p.id('rs-odds')).toContainText('with p = 76/256 ≈ 0.30');
      return p.id('result-line');
    },
  },
  {
    name: 'share a comparison',
    actions: 2,
    run: async (p, page) => {
      await p.press(p.id('vs-quick-unfused'));
      await p.press(p.id('copy-link'));
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).toContain('vs=unfused');
      return p.id('copy-link');
    },
  },
  {
    name: 'how accurate is tanh.approx',
    actions: 2,
    run: async (p) => {
      await p.pick(p.id('opcode'), 'tanh');
      await p.press(p.id('tab-sweep'));
      await expect(p.id('approx-summary')).toContainText('within the bound');
      // The plot of every input's error against the spec's bound.
      return p.id('approx-plot').locator('svg, canvas').first();
    },
  },
];

for (const [label, viewport, mobile] of [
  ['390 × 844', { width: 390, height: 844 }, true],
  ['1280 × 800', { width: 1280, height: 800 }, false],
] as const) {
  test.describe(label, () => {
    test.use({ viewport, isMobile: mobile, hasTouch: mobile });
    for (const task of TASKS) {
      test(`${task.name}: the answer in view, in at most ${task.actions} actions`, async ({
        page,
        context,
      }) => {
        await context.grantPermissions(['clipboard-read', 'clipboard-write']);
        await openState(page, '');
        const person = new Person(page);
        const answer = await task.run(person, page);
        await expect(answer).toBeInViewport();
        expect(person.actions).toBeLessThanOrEqual(task.actions);
      });
    }
  });
}
