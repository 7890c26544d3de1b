import type { Page, Route } from '@playwright/test';

/**
 * `window.__ptxfTest`, the hooks the end-to-end specs drive the engine worker with. None of it is
 * in the site a user opens: the faults come from here, not from the app.
 *
 *   - The page itself, asked before it loads (`__ptxfEnableTestHooks`, set by the init script
 *     below), adds two switches (installTestHooks in src/state/worker-client.ts): send single
 *     evaluations to the worker, and start the worker now.
 *   - The faults are the test's own: the worker script is served with a listener appended (this
 *     file's `route`), which throws outside any call or busy-loops when the test posts it a fault
 *     message; the init script keeps every worker the page starts, so a fault or a silent kill
 *     lands on the newest one. The built worker carries no such code (e2e/security.spec.ts).
 *
 * One declaration for every spec: they share one TypeScript program.
 */
export interface TestHooks {
  /** Send single evaluations to the worker, as on a device too slow to run them inline. */
  evaluateInWorker(): void;
  /**
   * Start the engine worker now (it otherwise starts with the first request that needs it), once
   * the worker client's module has loaded (it is not part of the page's first load).
   */
  startWorker(): Promise<void>;
  /** The worker throws outside any call (an uncaught error in the worker). */
  crashWorker(): Promise<void>;
  /** The worker stops answering for `ms` milliseconds (a busy loop). */
  hangWorker(ms: number): Promise<void>;
  /**
   * The worker's next sweep holds for `ms` milliseconds after its first chunk (a busy loop once
   * that chunk's progress is posted), so a test can act while a sweep is under way however fast
   * the sweep would otherwise finish.
   */
  holdNextSweep(ms: number): Promise<void>;
  /** The worker dies silently (terminated: no error event, no answer), as the browser may do. */
  killWorker(): Promise<void>;
}

declare global {
  interface Window {
    __ptxfTest: TestHooks;
    __ptxfEnableTestHooks?: boolean;
  }
}

/** The message the appended listener acts on. */
interface FaultMessage {
  readonly ptxfFault: 'crash' | 'hang' | 'hold-sweep';
  readonly ms?: number;
}

/** The built worker script (vite names it engine.worker-<hash>.js). */
const WORKER_SCRIPT = /\/engine\.worker-[^/]*\.js(\?.*)?$/;

/**
 * Appended to the worker script: the faults a test posts to the worker. It listens after the
 * worker's own (Comlink) listener, so on a sweep call it runs once the sweep has done its first
 * chunk synchronously and yielded.
 */
const FAULT_LISTENER = `
let holdSweepMs = 0;
const busy = (ms) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    /* busy: the worker stops answering */
  }
};
self.addEventListener('message', (event) => {
  const data = event.data;
  if (data && data.type === 'APPLY' && data.path && data.path[0] === 'sweep' && holdSweepMs > 0) {
    const ms = holdSweepMs;
    holdSweepMs = 0;
    busy(ms);
    return;
  }
  const fault = data && data.ptxfFault;
  if (fault === 'hold-sweep') holdSweepMs = data.ms;
  else if (fault === 'crash')
    setTimeout(() => {
      throw new Error('crash requested by the test hook');
    }, 0);
  else if (fault === 'hang') busy(data.ms);
});
`;

async function withFaultListener(route: Route): Promise<void> {
  const response = await route.fetch();
  await route.fulfill({ response, body: `${await response.text()}\n${FAULT_LISTENER}` });
}

/** Give every page this `page` loads from now on the test hooks. */
export async function enableTestHooks(page: Page): Promise<void> {
  await page.route(WORKER_SCRIPT, withFaultListener);
  await page.addInitScript(() => {
    window.__ptxfEnableTestHooks = true;
    const workers: Worker[] = [];
    window.Worker = new Proxy(window.Worker, {
      construct: (target, args: ConstructorParameters<typeof Worker>) => {
        const worker = new target(...args);
        workers.push(worker);
        return worker;
      },
    });
    // The newest worker, started first where there is none yet (the page starts it lazily).
    const newest = async (): Promise<Worker | undefined> => {
      await window.__ptxfTest.startWorker();
      return workers[workers.length - 1];
    };
    const post = async (message: FaultMessage) => (await newest())?.postMessage(message);
    // The page adds its own two switches to this object when it loads.
    window.__ptxfTest = {
      crashWorker: () => post({ ptxfFault: 'crash' }),
      hangWorker: (ms: number) => post({ ptxfFault: 'hang', ms }),
      holdNextSweep: (ms: number) => post({ ptxfFault: 'hold-sweep', ms }),
      killWorker: async () => (await newest())?.terminate(),
    } as TestHooks;
  });
}
