import { describe, expect, it } from 'vitest';
import type { Sweep, SweepProgress, SweepRequest } from '../src/worker/api.ts';
import {
  EngineClient,
  type Answer,
  type AsyncApi,
  type Endpoint,
  type Health,
} from '../src/worker/client.ts';
import { createEngineApi } from '../src/worker/engine-api.ts';

/**
 * A worker that fails in the middle of the longest job there is, the 65,536-input error sweep of
 * an approximate instruction: the client must notice, start a fresh worker, run the sweep again
 * there, and ignore whatever the failed worker still sends. The "workers" here run the real
 * engine API in this thread (e2e/approx-plot.spec.ts drives the same in a browser); a failed one
 * still sends a wrong answer while its replacement is busy, so the test sees it ignored.
 */

type Fault = 'throws' | 'hangs' | 'none';

const TANH: SweepRequest = { form: 'tanh.approx.f16', inputs: { kind: 'every-pattern' } };

interface FakeWorker extends Endpoint {
  readonly name: string;
  failedAt: number | null;
  lateAnswers: number;
  terminated: boolean;
}

function spawnFake(name: string, fault: Fault, fail: () => void): FakeWorker {
  const real = createEngineApi();
  const worker: FakeWorker = {
    name,
    failedAt: null,
    lateAnswers: 0,
    terminated: false,
    terminate: () => {
      worker.terminated = true;
    },
    api: {
      sweep: async (id: number, request: SweepRequest, onProgress: (p: SweepProgress) => void) => {
        const result = await real.sweep(id, request, (p) => {
          // Fail after the first chunk: the sweep is under way, far from done.
          if (p.done === 4096 && fault === 'throws') {
            worker.failedAt = p.done;
            fail();
            real.cancelSweep(id); // its answer comes at once, while the new worker is busy
          }
          // A terminated worker's messages stop; a hung one sends nothing.
          if (!worker.terminated && !(fault === 'hangs' && p.done >= 4096)) onProgress(p);
        });
        if (fault === 'hangs') return new Promise<Sweep>(() => undefined);
        if (!worker.terminated) return result;
        // The failed worker's answer still arrives, while the new worker is busy with the same
        // sweep, and it is visibly wrong: it must be ignored.
        worker.lateAnswers++;
        return { ...result, worst: { index: -1, input: -1, result: -1, error: -1, ratio: -1 } };
      },
    } as unknown as AsyncApi,
  };
  return worker;
}

function setup(faults: Fault[]) {
  const workers: FakeWorker[] = [];
  const health: [Health, string | null][] = [];
  const client = new EngineClient({
    spawn: (onFailure) => {
      const fault = faults[workers.length] ?? 'none';
      const w = spawnFake(`w${workers.length}`, fault, () => onFailure('worker killed mid-sweep'));
      workers.push(w);
      return w;
    },
    fallback: async () => spawnFake('main', 'none', () => undefined),
    timeoutMs: 1500,
    maxRestarts: 3,
    onHealth: (h, m) => health.push([h, m]),
  });
  const progress: { worker: string; done: number }[] = [];
  const sweep = () =>
    client.request('sweep', (api) => {
      const by = workers.find((w) => w.api === api)!.name;
      return api.sweep(1, TANH, (p) => progress.push({ worker: by, done: p.done }));
    });
  return { client, workers, health, progress, sweep };
}

/** The sweep as an undisturbed engine computes it. */
async function referenceSweep(): Promise<Sweep> {
  return createEngineApi().sweep(1, TANH, () => undefined);
}

/** The value of an answer that must be 'ok'; anything else fails the test, saying what came. */
function okValue<T>(answer: Answer<T>): T {
  if (answer.status !== 'ok')
    throw new Error(`expected an 'ok' answer, got ${JSON.stringify(answer)}`);
  return answer.value;
}

/** The progress of a sweep run in full from its first chunk: 4096, 8192, …, 65536. */
const FULL_PROGRESS = Array.from({ length: 16 }, (_, i) => (i + 1) * 4096);

function expectSameSweep(got: Sweep, want: Sweep): void {
  expect(got.cancelled).toBe(false);
  expect(got.worst).toEqual(want.worst);
  expect(Array.from(got.perInput!.ratio!)).toEqual(Array.from(want.perInput!.ratio!));
  expect(Array.from(got.perInput!.x)).toEqual(Array.from(want.perInput!.x));
}

describe('worker faults in the middle of a sweep', () => {
  it('a worker that throws mid-sweep is replaced and the sweep is redone in full', async () => {
    const { workers, health, sweep } = setup(['throws']);
    const answer = await sweep();
    expect(workers.map((w) => w.name)).toEqual(['w0', 'w1']);
    expect(workers[0]!.terminated).toBe(true);
    expect(workers[0]!.failedAt).toBe(4096);
    expect(health.map(([h]) => h)).toEqual(['restarting', 'ready']);
    expect(health[1]![1]).toMatch(/worker killed mid-sweep.*restarted it/);
    expectSameSweep(okValue(answer), await referenceSweep());
  });

  it('a worker that stops answering mid-sweep is replaced after the timeout', async () => {
    const { workers, health, sweep } = setup(['hangs']);
    const started = performance.now();
    const answer = await sweep();
    expect(performance.now() - started).toBeGreaterThanOrEqual(1500);
    expect(workers.map((w) => w.name)).toEqual(['w0', 'w1']);
    expect(health[0]![1]).toMatch(/did not answer within 1500 ms/);
    expectSameSweep(okValue(answer), await referenceSweep());
  });

  it("the failed worker's late answer is ignored; the new worker redoes the sweep from the start", async () => {
    const { workers, progress, sweep } = setup(['throws']);
    const answer = await sweep();
    // The late answer did arrive (worst input -1), and the client answered with the new one.
    expect(workers[0]!.lateAnswers).toBe(1);
    expect(okValue(answer).worst).toEqual((await referenceSweep()).worst);
    expect(okValue(answer).worst!.index).not.toBe(-1);
    expect(progress.filter((p) => p.worker === 'w1').map((p) => p.done)).toEqual(FULL_PROGRESS);
  });

  it('a sweep that fails a second worker too is reported as an error, not retried forever', async () => {
    const { workers, health, sweep } = setup(['throws', 'throws']);
    const answer = await sweep();
    expect(workers.length).toBe(3);
    expect(answer).toEqual({
      status: 'error',
      message: 'the engine worker failed (worker killed mid-sweep)',
    });
    expect(health.at(-1)![0]).toBe('ready');
  });
});
