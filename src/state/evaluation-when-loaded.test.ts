import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EvaluateAnswer } from '../worker/api.ts';
import type { Evaluation } from './evaluate-on-edit.ts';

/**
 * The evaluation loads after the page's entry; what renders the answer waits for
 * `evaluationStarted`, which must not resolve before the state as it was has been answered —
 * else the answer's views would render without a result where the served page shows one.
 */

/** A fresh copy of the module (its start is once per page) and of the store. */
async function fresh() {
  vi.resetModules();
  const { evaluationStarted } = await import('./evaluation-when-loaded.ts');
  const { useStore } = await import('./store.ts');
  return { evaluationStarted, useStore };
}

describe('evaluationStarted', () => {
  let running: Evaluation | null = null;
  beforeEach(() => {
    running = null;
  });
  afterEach(() => running?.stop());

  it('resolves with the first result in the store', async () => {
    const { evaluationStarted, useStore } = await fresh();
    useStore.setState({ instr: 'add.rn.f16' });
    useStore.getState().loadRegisters({ a: 0x3c00n, b: 0x4000n });
    running = await evaluationStarted();
    expect(useStore.getState().evalStatus).toBe('done');
    expect(useStore.getState().result?.d).toBe('0x4200');
  });

  it('waits while the first evaluation is on its way in the worker', async () => {
    const { evaluationStarted, useStore } = await fresh();
    useStore.setState({ instr: 'add.rn.f16' });
    let answer: (a: EvaluateAnswer) => void = () => {};
    const client = {
      request: () =>
        new Promise<{ status: 'ok'; value: EvaluateAnswer }>((resolve) => {
          answer = (value) => resolve({ status: 'ok', value });
        }),
    };
    let settled = false;
    const started = evaluationStarted({ inline: null, client: client as never }).then((e) => {
      settled = true;
      return e;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(useStore.getState().evalStatus).toBe('pending');
    expect(settled).toBe(false);
    answer({ ok: false, error: 'the worker is gone' });
    running = await started;
    expect(useStore.getState().evalStatus).toBe('error');
  });

  it('starts once: a second call shares the first start', async () => {
    const { evaluationStarted } = await fresh();
    const first = evaluationStarted();
    expect(evaluationStarted()).toBe(first);
    running = await first;
  });
});
