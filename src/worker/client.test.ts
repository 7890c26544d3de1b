import { describe, expect, it, vi } from 'vitest';
import type { AsyncApi, Endpoint, Health } from './client.ts';
import { EngineClient } from './client.ts';

/** A fake worker whose `ping` answers are released by hand, so ordering can be controlled. */
function fakeEndpoint(log: string[], name: string) {
  const waiting: { arg: string; release: () => void }[] = [];
  let terminated = false;
  const api = {
    ping: () => Promise.resolve('pong'),
    evaluate: (req: { form: string }) =>
      new Promise((resolve) => {
        log.push(`${name} got ${req.form}`);
        waiting.push({
          arg: req.form,
          release: () => resolve({ ok: true, form: req.form, by: name }),
        });
      }),
  } as unknown as AsyncApi;
  const endpoint: Endpoint & { waiting: typeof waiting; isTerminated: () => boolean } = {
    api,
    terminate: () => {
      terminated = true;
    },
    waiting,
    isTerminated: () => terminated,
  };
  return endpoint;
}

function setup(maxRestarts = 2) {
  const log: string[] = [];
  const workers: ReturnType<typeof fakeEndpoint>[] = [];
  const failures: ((why: string) => void)[] = [];
  const health: [Health, string | null][] = [];
  const client = new EngineClient({
    spawn: (onFailure) => {
      const w = fakeEndpoint(log, `w${workers.length}`);
      workers.push(w);
      failures.push(onFailure);
      return w;
    },
    fallback: async () => {
      const w = fakeEndpoint(log, 'main');
      workers.push(w);
      return w;
    },
    timeoutMs: 1000,
    maxRestarts,
    onHealth: (h, m) => health.push([h, m]),
  });
  const evaluate = (form: string) =>
    client.request('eval', (api) => api.evaluate({ form, registers: {} }));
  return { client, log, workers, failures, health, evaluate };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('EngineClient', () => {
  it('drops queued requests superseded by newer ones and never computes them', async () => {
    const { workers, log, evaluate } = setup();
    const first = evaluate('one');
    const second = evaluate('two');
    const third = evaluate('three');
    await flush();
    expect(log).toEqual(['w0 got one']);
    expect(await second).toEqual({ status: 'superseded' });
    workers[0]!.waiting[0]!.release();
    // The answer to `one` is stale once `three` is waiting: it is ignored, `three` is sent.
    expect(await first).toEqual({ status: 'superseded' });
    await flush();
    expect(log).toEqual(['w0 got one', 'w0 got three']);
    workers[0]!.waiting[1]!.release();
    expect(await third).toMatchObject({ status: 'ok', value: { form: 'three' } });
  });

  it('restarts a hung worker and re-sends the pending request to the new one', async () => {
    vi.useFakeTimers();
    try {
      const { workers, log, health, evaluate } = setup();
      const answer = evaluate('slow');
      await vi.advanceTimersByTimeAsync(1001);
      expect(workers[0]!.isTerminated()).toBe(true);
      expect(log).toEqual(['w0 got slow', 'w1 got slow']);
      expect(health.map((h) => h[0])).toEqual(['restarting', 'ready']);
      expect(health[1]![1]).toMatch(/did not answer within 1000 ms/);
      // A late answer from the terminated worker is ignored.
      workers[0]!.waiting[0]!.release();
      workers[1]!.waiting[0]!.release();
      expect(await answer).toMatchObject({ status: 'ok', value: { by: 'w1' } });
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives up on a request that hangs two workers, and keeps serving newer ones', async () => {
    vi.useFakeTimers();
    try {
      const { workers, evaluate } = setup();
      const answer = evaluate('poison');
      await vi.advanceTimersByTimeAsync(2002);
      expect(await answer).toMatchObject({ status: 'error' });
      const next = evaluate('fine');
      await vi.advanceTimersByTimeAsync(0);
      workers[2]!.waiting[0]!.release();
      expect(await next).toMatchObject({ status: 'ok', value: { form: 'fine', by: 'w2' } });
    } finally {
      vi.useRealTimers();
    }
  });

  it('restarts on a worker error and falls back to the main thread after repeated failures', async () => {
    const { client, failures, health, workers, evaluate } = setup(1);
    client.start();
    failures[0]!('boom');
    await flush();
    expect(health.at(-1)).toEqual(['ready', 'the engine worker failed (boom); restarted it']);
    failures[1]!('boom again');
    await flush();
    expect(health.at(-1)![0]).toBe('main-thread');
    const answer = evaluate('x');
    await flush();
    workers.at(-1)!.waiting[0]!.release();
    expect(await answer).toMatchObject({ status: 'ok', value: { by: 'main' } });
    // A failure report from an old worker changes nothing.
    failures[0]!('late');
    await flush();
    expect(health.at(-1)![0]).toBe('main-thread');
  });
});
