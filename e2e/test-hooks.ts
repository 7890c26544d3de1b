/**
 * `window.__ptxfTest`, the page's test hooks (installTestHooks in src/state/engine.ts), as the
 * end-to-end specs see them. One declaration for every spec: they share one TypeScript program.
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
  }
}
