import { describe, expect, it } from 'vitest';
import { EngineClient, type AsyncApi, type Endpoint, type Health } from '../src/worker/client.ts';

/**
 * A long job (the approx sweep) keeps its request alive by reporting progress: the client judges
 * a worker hung by a silence of `timeoutMs`, not by the job's total length. Without keep-alives
 * the same job is judged hung (EngineClient.keepAlive, which the worker-request hook calls on
 * every progress report).
 */

const TIMEOUT_MS = 100;
const JOB_MS = 400;

function setup() {
  const health: Health[] = [];
  let spawned = 0;
  const client = new EngineClient({
    spawn: (): Endpoint => {
      spawned++;
      return {
        api: {
          ping: () => new Promise((resolve) => setTimeout(() => resolve('pong'), JOB_MS)),
        } as unknown as AsyncApi,
        terminate: () => undefined,
      };
    },
    fallback: () => Promise.reject(new Error('not used')),
    timeoutMs: TIMEOUT_MS,
    maxRestarts: 3,
    onHealth: (h) => health.push(h),
  });
  return { client, health, spawned: () => spawned };
}

describe('EngineClient.keepAlive', () => {
  it('a job that reports progress within the timeout is not judged hung', async () => {
    const { client, health, spawned } = setup();
    const beat = setInterval(() => client.keepAlive('long'), TIMEOUT_MS / 4);
    const answer = await client.request('long', (api) => api.ping());
    clearInterval(beat);
    expect(answer).toEqual({ status: 'ok', value: 'pong' });
    expect(health).toEqual([]);
    expect(spawned()).toBe(1);
  });

  it('the same job without keep-alives is judged hung and the worker replaced', async () => {
    const { client, health, spawned } = setup();
    const answer = await client.request('long', (api) => api.ping());
    expect(health).toContain('restarting');
    expect(spawned()).toBeGreaterThan(1);
    // Sent twice, timed out twice: reported as an error, never a silent hang.
    expect(answer).toEqual({
      status: 'error',
      message: `the engine did not answer within ${TIMEOUT_MS} ms`,
    });
  });

  it('keepAlive on a channel with nothing in flight does nothing', () => {
    const { client, spawned } = setup();
    client.keepAlive('idle');
    expect(spawned()).toBe(0);
  });
});
