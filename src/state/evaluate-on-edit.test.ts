import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EvaluateRequest } from '../worker/api.ts';
import type { Answer, AsyncApi, EngineClient } from '../worker/client.ts';
import { createEngineApi } from '../worker/engine-api.ts';
import {
  INLINE_BUDGET_MS,
  INLINE_STRIKES,
  startEvaluation,
  type Evaluation,
} from './evaluate-on-edit.ts';
import { useStore } from './store.ts';
import { ZERO_REGISTERS } from './register-map.ts';
import { setInstr } from './edits.ts';

/**
 * Where evaluations run: inline while they fit the budget (the result lands in the same task as
 * the edit, so in the frame that answers it), in the worker once they keep exceeding it.
 */

const real = createEngineApi();

/** A worker client stand-in that answers with the real engine, after a tick, and logs requests. */
function fakeClient() {
  const requests: EvaluateRequest[] = [];
  const client: Pick<EngineClient, 'request'> = {
    request: (<T>(channel: string, call: (api: AsyncApi) => Promise<T>) => {
      expect(channel).toBe('evaluate');
      const api = {
        evaluate: (req: EvaluateRequest) => {
          requests.push(req);
          return Promise.resolve(real.evaluate(req));
        },
      } as unknown as AsyncApi;
      return call(api).then((value) => ({ status: 'ok', value }) as Answer<T>);
    }) as unknown as EngineClient['request'],
  };
  return { client, requests };
}

/** An inline engine whose calls seem to take `costs[i]` ms (then `costs` last entry). */
function timedInline(costs: number[]) {
  let clock = 0;
  let calls = 0;
  const inline = {
    evaluate: (req: EvaluateRequest) => {
      clock += costs[Math.min(calls, costs.length - 1)]!;
      calls++;
      return real.evaluate(req);
    },
  };
  return { inline, now: () => clock, calls: () => calls };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('startEvaluation', () => {
  let running: Evaluation | null = null;
  beforeEach(() => {
    useStore.setState({
      instr: 'add.f16',
      registers: { ...ZERO_REGISTERS, a: 0x3c00n, b: 0x4000n },
      result: null,
      evalStatus: 'idle',
      evalError: null,
    });
  });
  afterEach(() => {
    running?.stop();
    running = null;
  });

  it('evaluates inline: the result is in the store when the edit returns', () => {
    const { client, requests } = fakeClient();
    const t = timedInline([0.2]);
    running = startEvaluation({ client, inline: t.inline, now: t.now });
    expect(useStore.getState().result?.d).toBe('0x4200'); // 1 + 2 = 3
    useStore.getState().setRegister('a', 0x4000n);
    expect(useStore.getState().evalStatus).toBe('done');
    expect(useStore.getState().result?.d).toBe('0x4400'); // 2 + 2 = 4
    expect(requests).toEqual([]);
    expect(running.where()).toBe('inline');
  });

  it('one slow call (code not yet compiled) keeps evaluations inline', () => {
    const { client, requests } = fakeClient();
    const slow = INLINE_BUDGET_MS + 1;
    const t = timedInline([slow, slow, 0.2, slow, 0.2]);
    running = startEvaluation({ client, inline: t.inline, now: t.now });
    for (const a of [0x4000n, 0x4200n, 0x4400n, 0x4500n]) useStore.getState().setRegister('a', a);
    expect(t.calls()).toBe(5);
    expect(running.where()).toBe('inline');
    expect(requests).toEqual([]);
  });

  it(`${INLINE_STRIKES} over-budget calls in a row move evaluations to the worker`, async () => {
    const { client, requests } = fakeClient();
    const t = timedInline([INLINE_BUDGET_MS + 1]);
    running = startEvaluation({ client, inline: t.inline, now: t.now });
    for (let i = 1; i < INLINE_STRIKES; i++)
      useStore.getState().setRegister('a', 0x3c00n + BigInt(i));
    expect(running.where()).toBe('worker');
    expect(t.calls()).toBe(INLINE_STRIKES);

    // The next edit waits for the worker: pending, then its answer.
    useStore.getState().setRegister('a', 0x4000n);
    expect(useStore.getState().evalStatus).toBe('pending');
    await flush();
    expect(requests.map((r) => r.registers.a)).toEqual(['0x4000']);
    expect(useStore.getState().evalStatus).toBe('done');
    expect(useStore.getState().result?.d).toBe('0x4400');
    expect(t.calls()).toBe(INLINE_STRIKES);
  });

  it('useWorker() sends every later evaluation to the worker', async () => {
    const { client, requests } = fakeClient();
    running = startEvaluation({ client, inline: timedInline([0.1]).inline });
    running.useWorker();
    setInstr('mul.f16');
    await flush();
    expect(requests.map((r) => r.form)).toEqual(['mul.f16']);
    expect(useStore.getState().result?.d).toBe('0x4000'); // 1 × 2 = 2
  });

  it('an engine error is shown as an error, not thrown at the edit', () => {
    const { client } = fakeClient();
    const inline = {
      evaluate: () => ({ ok: false as const, error: 'no such thing' }),
    };
    running = startEvaluation({ client, inline, now: () => 0 });
    expect(() => useStore.getState().setRegister('a', 0x4000n)).not.toThrow();
    expect(useStore.getState().evalStatus).toBe('error');
    expect(useStore.getState().evalError).toBe('no such thing');
  });
});
