import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startCompareWhenAsked } from './compare-when-asked.ts';
import { ZERO_REGISTERS } from './register-map.ts';
import { useStore } from './store.ts';
import { setVs } from './edits.ts';

/**
 * Compare mode's code loads with the first state that compares: until then nothing is computed;
 * once it is in, B follows the edits inline (compare-on-edit.test.ts).
 */
describe('startCompareWhenAsked', () => {
  let stop: (() => void) | null = null;
  beforeEach(() => {
    useStore.setState({
      instr: 'fma.rn.f16',
      registers: { ...ZERO_REGISTERS, a: 0x3c01n, b: 0x3c01n, c: 0xbc02n },
      vs: null,
      comparison: null,
      compareError: null,
    });
  });
  afterEach(() => {
    stop?.();
    stop = null;
  });

  it('computes nothing until B is chosen, then B beside A', async () => {
    stop = startCompareWhenAsked();
    await new Promise((r) => setTimeout(r, 50));
    expect(useStore.getState().comparison).toBeNull();
    setVs('unfused');
    await vi.waitFor(() => expect(useStore.getState().comparison).not.toBeNull());
    const c = useStore.getState().comparison!;
    expect(c.a.result.d).toBe('0x0010');
    expect(c.b.kind === 'unfused' && c.b.sequence.d).toBe('0x0000');
    // Loaded: the next edit is compared at once.
    setVs('fma.rn.bf16');
    expect(useStore.getState().comparison!.b.kind).toBe('form');
  });

  it('a link that compares loads compare mode at start', async () => {
    useStore.setState({ vs: 'unfused' });
    stop = startCompareWhenAsked();
    await vi.waitFor(() => expect(useStore.getState().comparison).not.toBeNull());
  });

  it('stopped before its code has come, it computes nothing', async () => {
    useStore.setState({ vs: 'unfused' });
    startCompareWhenAsked()();
    await new Promise((r) => setTimeout(r, 200));
    expect(useStore.getState().comparison).toBeNull();
  });
});
