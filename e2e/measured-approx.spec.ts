import { expect, test, type Page } from '@playwright/test';

/**
 * On sm_90 the playground evaluates tanh.approx / ex2.approx with the results measured on an
 * H100 (public/measured, loaded on first need): the result is the GPU's, shown with the model's
 * value and the allowed set beside it, and the error plot shows the measured error against the
 * bound, marking the inputs over it. On sm_100 (nothing measured) the model is back.
 */

const MEASURED_ON = 'NVIDIA H100 80GB HBM3 (driver 580.159.04, CUDA 13.0)';

async function open(page: Page, link: string): Promise<string[]> {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console.error: ${m.text()}`);
  });
  await page.goto(`./${link}`);
  await expect(page.getByTestId('result-bits')).toBeVisible();
  return problems;
}

/** The canvas pixels painted in a colour close to `css` (the theme's `--bad`). */
function pixelsOfColour(page: Page, variable: string): Promise<number> {
  return page.getByTestId('approx-canvas').evaluate((el, name) => {
    const canvas = el as HTMLCanvasElement;
    const probe = document.createElement('canvas').getContext('2d')!;
    probe.fillStyle = getComputedStyle(el).getPropertyValue(name).trim();
    probe.fillRect(0, 0, 1, 1);
    const [r, g, b] = probe.getImageData(0, 0, 1, 1).data;
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let n = 0;
    for (let i = 0; i < data.length; i += 4)
      if (
        data[i + 3]! > 200 &&
        Math.abs(data[i]! - r!) < 24 &&
        Math.abs(data[i + 1]! - g!) < 24 &&
        Math.abs(data[i + 2]! - b!) < 24
      )
        n++;
    return n;
  }, variable);
}

test.describe('measured approximate results on sm_90', () => {
  test('tanh.approx.f16 of 1.0: the H100 value, with the model and the allowed set beside it', async ({
    page,
  }) => {
    const problems = await open(page, '?v=1&instr=tanh.approx.f16&target=sm_90&ptx=8.6&a=0x3c00');
    // The H100 returns 0x3A17 where the correctly rounded tanh(1) is 0x3A18.
    await expect(page.getByTestId('result-bits').first()).toHaveText(/^0x3a17$/i);
    await page.getByTestId('tab-sweep').click();
    const measured = page.getByTestId('approx-measured-lane-0');
    await expect(measured).toContainText(`Measured on ${MEASURED_ON}`);
    await expect(measured).toContainText('0x3a17');
    await expect(measured.getByTestId('approx-measured-verdict')).toHaveText('within the bound');
    await expect(measured.getByTestId('approx-model-result')).toContainText('0x3a18');
    const lane = page.getByTestId('approx-allowed-lane-0');
    await expect(lane.getByRole('listitem').filter({ hasText: /0x3a17/i })).toContainText(
      '← measured',
    );
    await expect(lane.getByRole('listitem').filter({ hasText: /0x3a18/i })).toContainText(
      '← model',
    );
    await expect(page.getByTestId('approx-summary')).toContainText(`Measured on ${MEASURED_ON}`, {
      timeout: 30_000,
    });
    expect(problems).toEqual([]);

    // On sm_100 no GPU was measured: the model's value.
    await open(page, '?v=1&instr=tanh.approx.f16&target=sm_100&ptx=8.6&a=0x3c00');
    await expect(page.getByTestId('result-bits').first()).toHaveText(/^0x3a18$/i);
  });

  test('every label of the result says whether it is the measured value or the model’s', async ({
    page,
  }) => {
    // tanh(1.5): the H100 gives 0x3b3d, the model (correctly rounded) 0x3b3e. The summary said
    // so, while the result panel, the note and the bar called the measured value the model's.
    const problems = await open(page, '?v=2&instr=tanh.approx.f16&target=sm_90&ptx=8.6&a=0x3e00');
    await expect(page.getByTestId('result-bits')).toHaveText('0x3b3d');
    const heading = page.getByTestId('editor-d').getByRole('heading');
    await expect(heading).toHaveText(
      'Result d (.f16, 16 bits): one allowed value, measured on the NVIDIA H100 80GB HBM3',
    );
    await expect(page.getByTestId('approx-note')).toHaveText(
      `Not one answer: hardware may return any of 2 values from 0.90478515625 to 0.9052734375. d is one of them: the value measured on ${MEASURED_ON}; the model gives 0.9052734375.`,
    );
    const line = page.getByTestId('result-line');
    await expect(line).toContainText(
      '(measured on the NVIDIA H100 80GB HBM3; hardware may return any of 2)',
    );
    for (const label of [heading, page.getByTestId('approx-note'), line])
      await expect(label).not.toContainText(/the model’s|this model gives/);

    // On sm_100 nothing was measured: each label names the model.
    await open(page, '?v=2&instr=tanh.approx.f16&target=sm_100&ptx=8.6&a=0x3e00');
    await expect(page.getByTestId('result-bits')).toHaveText('0x3b3e');
    await expect(heading).toHaveText('Result d (.f16, 16 bits): one allowed value, the model’s');
    await expect(page.getByTestId('approx-note')).toContainText(
      'd is one of them: the value this model gives.',
    );
    await expect(line).toContainText('(the model’s value; hardware may return any of 2)');
    expect(problems).toEqual([]);
  });

  test('tanh.approx.bf16: the plot marks the two inputs where the H100 exceeds the bound', async ({
    page,
  }) => {
    const problems = await open(page, '?v=1&instr=tanh.approx.bf16&target=sm_90&ptx=8.6&a=0x3f80');
    await page.getByTestId('tab-sweep').click();
    await expect(page.getByTestId('approx-summary')).toBeVisible({ timeout: 30_000 });
    await expect(
      page.getByRole('heading', { name: /Error of the NVIDIA H100 80GB HBM3's results/ }),
    ).toBeVisible();
    await expect(page.getByTestId('approx-summary')).toContainText('2 exceed it');
    const over = page.getByTestId('approx-over-input');
    await expect(over).toHaveCount(2);
    await expect(over.nth(0)).toContainText('0xbf3f');
    await expect(over.nth(1)).toContainText('0x3f3f');
    // The over-bound bars and their triangles are drawn in the theme's --bad colour.
    expect(await pixelsOfColour(page, '--bad')).toBeGreaterThan(20);
    await expect(page.getByText('a column with an input over the bound')).toBeVisible();

    // Loading one shows the measured result outside the allowed set, the model's inside.
    await over.nth(1).click();
    await expect(page.getByTestId('a-hex')).toHaveValue('0x3f3f');
    await expect(page.getByTestId('result-bits').first()).toHaveText(/^0x3f21$/i);
    const measured = page.getByTestId('approx-measured-lane-0');
    await expect(measured.getByTestId('approx-measured-verdict')).toHaveText('outside the bound');
    await expect(measured.getByTestId('approx-model-result')).toContainText('0x3f22');
    expect(problems).toEqual([]);
  });
});
