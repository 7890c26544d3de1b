import type { Page } from '@playwright/test';

/**
 * `window.__ptxfTest`, the page's test hooks (installTestHooks in src/state/worker-client.ts), as the
 * end-to-end specs see them. One declaration for every spec: they share one TypeScript program.
 * The page installs them only when asked before it loads (`enableTestHooks`), so the site that
 * users open carries no way to crash its own worker.
 */
export interface TestHooks {
  /** Send single evaluations to the worker, as on a device too slow to run them inline. */
  evaluateInWorker(): void;
  crashWorker(): void;
  hangWorker(ms: number): void;
  killWorker(): void;
}

declare global {
  interface Window {
    __ptxfTest: TestHooks;
    __ptxfEnableTestHooks?: boolean;
  }
}

/** Ask every page this `page` loads from now on to install its test hooks. */
export async function enableTestHooks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__ptxfEnableTestHooks = true;
  });
}
