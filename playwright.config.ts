import { defineConfig, devices } from '@playwright/test';
import { existsSync } from 'node:fs';

// Use the system Chromium when there is one (Debian's, or the path in PTXF_CHROMIUM); elsewhere
// Playwright's own browser, installed with `npx playwright install chromium`.
const systemChromium = process.env.PTXF_CHROMIUM ?? '/usr/bin/chromium';
const launchOptions = existsSync(systemChromium)
  ? {
      executablePath: systemChromium,
      args: [
        '--no-sandbox',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    }
  : {};

// The preview server's port; override to run two suites side by side.
const port = Number(process.env.PTXF_E2E_PORT ?? 4173);
const origin = `http://127.0.0.1:${port}/`;

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  // One retry in CI: a loaded 2-core runner can push a timing-sensitive step past its limit;
  // a test that fails twice is a failure, and the list reporter names every flaky pass.
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: origin,
    trace: 'retain-on-failure',
    launchOptions,
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], launchOptions } }],
  webServer: {
    command: `npx vite preview --strictPort --port ${port} --host 127.0.0.1`,
    url: origin,
    // CI is set by .ci/run: never reuse a stale preview server there.
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
