import { describe, expect, it, vi } from 'vitest';
import type { EngineClient } from '../worker/client.ts';
import { ZERO_REGISTERS } from './register-map.ts';

/**
 * The page evaluates a form once its family's semantics have loaded (engine/family-semantics.ts):
 * until then the evaluation is pending, and compare mode waits for B's family too. The tests'
 * setup provides every family; a fresh module graph (vi.resetModules) has none, as the page has
 * before it loads one.
 */

const noWorker: Pick<EngineClient, 'request'> = {
  request: () => Promise.reject(new Error('the worker is not used here')),
};

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

async function freshPage() {
  vi.resetModules();
  return {
    registry: await import('../engine/family-semantics.ts'),
    store: (await import('./store.ts')).useStore,
    evaluation: await import('./evaluate-on-edit.ts'),
    compare: await import('./compare-on-edit.ts'),
  };
}

describe('evaluation after each edit', () => {
  it('waits for the form family to load, then evaluates it', async () => {
    const { registry, store, evaluation } = await freshPage();
    store.setState({
      instr: 'cvt.rn.f16.f32',
      registers: { ...ZERO_REGISTERS, a: 0x3f800000n },
      target: 'sm_90',
    });
    const running = evaluation.startEvaluation({ client: noWorker });
    try {
      expect(store.getState().evalStatus).toBe('pending');
      await registry.loadFamily('convert');
      await flush();
      const s = store.getState();
      expect(s.evalStatus).toBe('done');
      expect(s.result?.d).toBe('0x3c00');
      expect(registry.isFamilyLoaded('tensor-core')).toBe(false);
    } finally {
      running.stop();
    }
  });
});

describe('compare mode', () => {
  it('waits for the families of A and B, then compares', async () => {
    const { registry, store, compare } = await freshPage();
    store.setState({
      instr: 'cvt.rn.f16.f32',
      registers: { ...ZERO_REGISTERS, a: 0x3f800001n },
      target: 'sm_90',
      vs: 'cvt.rz.f16.f32',
      comparison: null,
      compareError: null,
    });
    const stop = compare.startCompare(store);
    try {
      expect(store.getState().comparison).toBeNull();
      await registry.loadFamily('convert');
      await flush();
      const s = store.getState();
      expect(s.compareError).toBeNull();
      expect(s.comparison?.a.result.d).toBe('0x3c00');
    } finally {
      stop();
    }
  });
});
