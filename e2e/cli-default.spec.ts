import { execFileSync } from 'node:child_process';
import { expect, openState, test } from './fixtures.ts';

/**
 * The CLI and the page answer the same question the same way: with no target given, both
 * evaluate on the page's default target, sm_90 (an H100), whose tanh.approx / ex2.approx are the
 * measured ones. `ptxf --help` is a short overview.
 */

/** Run the CLI as a user would (bin/ptxf.mjs), returning its standard output. */
function ptxf(...args: string[]): string {
  return execFileSync(process.execPath, ['bin/ptxf.mjs', ...args], { encoding: 'utf8' });
}

test('ptxf eval with no target gives what the page gives with no target', async ({ page }) => {
  // The CLI said 0x3b3e (sm_121a, the model) where the page said 0x3b3d (sm_90, measured).
  const cli = JSON.parse(ptxf('eval', 'tanh.approx.f16', '1.5', '--json', '--no-trace')) as {
    d: string;
    verdict: { target: string; ptx: string };
  };
  await openState(page, '?instr=tanh.approx.f16&a=1.5');
  await expect(page.getByTestId('target')).toHaveValue(cli.verdict.target);
  await expect(page.getByTestId('ptx')).toHaveValue(cli.verdict.ptx);
  await expect(page.getByTestId('result-bits')).toHaveText(cli.d);
  expect(cli.d).toBe('0x3b3d');
  const text = ptxf('eval', 'tanh.approx.f16', '1.5', '--no-trace');
  expect(text).toContain('d = 0x3b3d');
  expect(text).toContain('measured on NVIDIA H100');
});

test('ptxf --help is a short overview: one line per command', () => {
  // It printed every command's options, about a hundred lines.
  const lines = ptxf('--help').trimEnd().split('\n');
  expect(lines.length).toBeLessThanOrEqual(20);
  for (const command of ['eval', 'batch', 'check', 'forms'])
    expect(lines.filter((l) => new RegExp(`^  ${command}\\b`).test(l))).toHaveLength(1);
  expect(lines.join('\n')).toContain('ptxf <command> --help');
  expect(lines.join('\n')).not.toContain('--ftz-tininess');
});
