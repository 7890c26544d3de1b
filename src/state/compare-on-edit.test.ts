import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { evaluate } from '../engine/pipeline.ts';
import { startCompare } from './compare-on-edit.ts';
import { useStore } from './store.ts';
import { ZERO_REGISTERS } from './registers.ts';

/**
 * Compare mode's state: B follows every edit of A, the operands and B itself, inline (the
 * comparison is in the store when the edit returns), and stops when comparing stops.
 */
describe('startCompare', () => {
  let stop: (() => void) | null = null;
  beforeEach(() => {
    useStore.setState({
      instr: 'fma.rn.f16',
      registers: { ...ZERO_REGISTERS, a: 0x3c01n, b: 0x3c01n, c: 0xbc02n },
      vs: null,
      comparison: null,
      compareError: null,
      historyIntent: 'none',
    });
  });
  afterEach(() => {
    stop?.();
    stop = null;
  });

  it('computes nothing until a variant is chosen, then both sides at once', () => {
    stop = startCompare();
    expect(useStore.getState().comparison).toBeNull();
    useStore.getState().setVs('unfused');
    expect(useStore.getState().historyIntent).toBe('push');
    const c = useStore.getState().comparison!;
    // (1 + 2^-10)^2 - (1 + 2^-9) = 2^-20: the fma keeps it, mul then add loses it.
    expect(c.a.result.d).toBe('0x0010');
    expect(c.b.kind === 'unfused' && c.b.sequence.d).toBe('0x0000');
  });

  it('follows the registers, A and B', () => {
    useStore.setState({ vs: 'fma.rn.bf16' });
    stop = startCompare();
    useStore.getState().setRegister('c', 0x3c00n);
    const carried = useStore.getState().comparison!;
    expect(carried.a.result.d).toBe(
      evaluate('fma.rn.f16', { a: 0x3c01n, b: 0x3c01n, c: 0x3c00n }).d,
    );
    // 1 + 2^-10 is not a bf16 value: it is carried as the nearest, 1.
    expect(carried.b.kind === 'form' && carried.b.result.d).toBe(
      evaluate('fma.rn.bf16', { a: 0x3f80n, b: 0x3f80n, c: 0x3f80n }).d,
    );
    useStore.getState().setVs('fma.rn.ftz.f16');
    const ftz = useStore.getState().comparison!.b;
    expect(ftz.kind === 'form' && ftz.form.text).toBe('fma.rn.ftz.f16');
    useStore.getState().setInstr('fma.rn.relu.f16');
    expect(useStore.getState().comparison!.a.form.text).toBe('fma.rn.relu.f16');
  });

  it('keeps an unfused variant A has none of, and says why', () => {
    useStore.setState({ vs: 'unfused' });
    stop = startCompare();
    useStore.getState().setInstr('fma.rn.relu.f16');
    expect(useStore.getState().comparison!.b).toMatchObject({
      kind: 'refused',
      refusal: { kind: 'modifier', modifier: 'relu' },
    });
  });

  it('stops comparing: the comparison is cleared', () => {
    useStore.setState({ vs: 'unfused' });
    stop = startCompare();
    expect(useStore.getState().comparison).not.toBeNull();
    useStore.getState().setVs(null);
    expect(useStore.getState().comparison).toBeNull();
  });

  it('ignores a variant that names no form, keeping the one it had', () => {
    useStore.setState({ vs: 'unfused' });
    stop = startCompare();
    useStore.getState().setVs('fma.rq.f16');
    expect(useStore.getState().vs).toBe('unfused');
    // A spelling ptxas accepts is the form it spells.
    useStore.getState().setVs('add.sat.rn.f16');
    expect(useStore.getState().vs).toBe('add.rn.sat.f16');
  });

  it('a cvt A with a cvt B: B follows A’s registers; an arithmetic B is taken too', () => {
    useStore.setState({
      instr: 'cvt.rn.satfinite.e4m3x2.f32',
      registers: { ...ZERO_REGISTERS, a: 0x43fa0000n, b: 0x40880000n },
    });
    stop = startCompare();
    // Any form beside any form: fma.rn.f16 reads A's first element's value, 500, as an f16.
    useStore.getState().setVs('fma.rn.f16');
    expect(useStore.getState().vs).toBe('fma.rn.f16');
    expect(useStore.getState().comparison!.b.kind).toBe('form');
    useStore.getState().setVs('cvt.rn.satfinite.e5m2x2.f32');
    const c = useStore.getState().comparison!;
    expect(c.b.kind === 'form' && c.b.result.d).toBe('0x6044'); // 512, 4
    useStore.getState().setRegister('b', 0x3f800000n); // 1.0
    expect(useStore.getState().comparison!.elements[1]!.b!.result.value.decimal).toBe('1');
  });

  it('a change of A keeps a B that still applies and drops unfused beside a cvt', () => {
    useStore.setState({ vs: 'unfused' });
    stop = startCompare();
    useStore.getState().setInstr('cvt.rn.f16.f32');
    expect(useStore.getState().vs).toBeNull();
    expect(useStore.getState().comparison).toBeNull();
    useStore.getState().setVs('cvt.rz.f16.f32');
    expect(useStore.getState().comparison).not.toBeNull();
    useStore.getState().setInstr('cvt.rm.f16.f32');
    expect(useStore.getState().vs).toBe('cvt.rz.f16.f32');
    useStore.getState().setInstr('add.rn.f16');
    expect(useStore.getState().vs).toBe('cvt.rz.f16.f32');
    expect(useStore.getState().comparison).not.toBeNull();
  });
});
