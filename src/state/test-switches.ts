import type { Evaluation } from './evaluate-on-edit.ts';

/**
 * The end-to-end tests' switches, installed only when a test asked for them before the page
 * loaded (main.tsx): send single evaluations to the worker, and start the worker now (once the
 * worker client, a chunk of its own, has loaded: a promise). The faults
 * themselves (a worker that throws, hangs or dies) are the tests' own (e2e/test-hooks.ts):
 * nothing in the page or the worker can crash or hang the engine.
 */
export function installTestSwitches(evaluation: Promise<Evaluation>): void {
  const hooks = window as unknown as { __ptxfTest?: object };
  hooks.__ptxfTest = Object.assign(hooks.__ptxfTest ?? {}, {
    evaluateInWorker: () => evaluation.then((e) => e.useWorker()),
    startWorker: () =>
      import('./worker-client.ts').then(({ engineClient }) => engineClient.start()),
  });
}
