import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findForm } from '../catalog/all-forms.ts';
import { matrixRegisters } from '../engine/matrix-registers.ts';
import { evaluate } from '../engine/pipeline.ts';
import { startCompare } from './compare-on-edit.ts';
import { useStore } from './store.ts';
import { ZERO_REGISTERS } from './register-map.ts';
import { variantFor } from './variant.ts';
import { setInstr, setVs } from './edits.ts';

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
      target: 'sm_90',
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
    setVs('unfused');
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
    setVs('fma.rn.ftz.f16');
    const ftz = useStore.getState().comparison!.b;
    expect(ftz.kind === 'form' && ftz.form.text).toBe('fma.rn.ftz.f16');
    setInstr('fma.rn.relu.f16');
    expect(useStore.getState().comparison!.a.form.text).toBe('fma.rn.relu.f16');
  });

  it('keeps an unfused variant A has none of, and says why', () => {
    useStore.setState({ vs: 'unfused' });
    stop = startCompare();
    setInstr('fma.rn.relu.f16');
    expect(useStore.getState().comparison!.b).toMatchObject({
      kind: 'refused',
      refusal: { kind: 'modifier', modifier: 'relu' },
    });
  });

  it('stops comparing: the comparison is cleared', () => {
    useStore.setState({ vs: 'unfused' });
    stop = startCompare();
    expect(useStore.getState().comparison).not.toBeNull();
    setVs(null);
    expect(useStore.getState().comparison).toBeNull();
  });

  it('ignores a variant that names no form, keeping the one it had', () => {
    useStore.setState({ vs: 'unfused' });
    stop = startCompare();
    setVs('fma.rq.f16');
    expect(useStore.getState().vs).toBe('unfused');
    // A spelling ptxas accepts is the form it spells.
    setVs('add.sat.rn.f16');
    expect(useStore.getState().vs).toBe('add.rn.sat.f16');
  });

  it('a cvt A with a cvt B: B follows A’s registers; an arithmetic B is taken too', () => {
    useStore.setState({
      instr: 'cvt.rn.satfinite.e4m3x2.f32',
      registers: { ...ZERO_REGISTERS, a: 0x43fa0000n, b: 0x40880000n },
    });
    stop = startCompare();
    // Any form beside any form: fma.rn.f16 reads A's first element's value, 500, as an f16.
    setVs('fma.rn.f16');
    expect(useStore.getState().vs).toBe('fma.rn.f16');
    expect(useStore.getState().comparison!.b.kind).toBe('form');
    setVs('cvt.rn.satfinite.e5m2x2.f32');
    const c = useStore.getState().comparison!;
    expect(c.b.kind === 'form' && c.b.result.d).toBe('0x6044'); // 512, 4
    useStore.getState().setRegister('b', 0x3f800000n); // 1.0
    expect(useStore.getState().comparison!.elements[1]!.b!.result.value.decimal).toBe('1');
  });

  it('a change of A keeps a B that still applies and drops unfused beside a cvt', () => {
    useStore.setState({ vs: 'unfused' });
    stop = startCompare();
    setInstr('cvt.rn.f16.f32');
    expect(useStore.getState().vs).toBeNull();
    expect(useStore.getState().comparison).toBeNull();
    setVs('cvt.rz.f16.f32');
    expect(useStore.getState().comparison).not.toBeNull();
    setInstr('cvt.rm.f16.f32');
    expect(useStore.getState().vs).toBe('cvt.rz.f16.f32');
    setInstr('add.rn.f16');
    expect(useStore.getState().vs).toBe('cvt.rz.f16.f32');
    expect(useStore.getState().comparison).not.toBeNull();
  });

  it('a tensor-core A with a tensor-core B of the same k: both on the page’s target, which B follows', () => {
    const a = 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32';
    // 1 and fifteen products 2^-25: Hopper's 25 alignment bits keep them (1 + 3.75 · 2^-23,
    // truncated: 0x3f800003), Ampere's 24 cut them (0x3f800000).
    const registers = matrixRegisters(findForm(a)!, {
      a: [0x3c00n, ...Array<bigint>(15).fill(0x0c00n)],
      b: [0x3c00n, ...Array<bigint>(15).fill(0x0800n)],
      c: 0n,
    });
    if (!registers.ok) throw new Error(registers.error.message);
    useStore.setState({
      instr: a,
      target: 'sm_90',
      registers: { ...ZERO_REGISTERS, ...registers.registers },
    });
    stop = startCompare();
    setVs('wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16');
    const onSm90 = useStore.getState().comparison!;
    expect(onSm90.b.kind === 'form' && onSm90.b.result.d).toBe(onSm90.a.result.d);
    expect(onSm90.a.result.d).toBe(evaluate(a, registers.registers, { target: 'sm_90' }).d);
    expect(onSm90.a.result.d).toBe('0x3f800003');
    useStore.getState().setTarget('sm_80');
    const onSm80 = useStore.getState().comparison!;
    expect(onSm80.a.result.d).toBe('0x3f800000');
    expect(onSm80.b.kind === 'form' && onSm80.b.result.d).toBe('0x3f800000');
  });

  it('refuses a B whose operands do not fit a tensor-core A, and says why', () => {
    useStore.setState({ instr: 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32', vs: null });
    stop = startCompare();
    setVs('mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32');
    expect(useStore.getState().vs).toBeNull();
    const k8 = variantFor(
      useStore.getState().instr,
      'mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32',
    );
    expect('error' in k8 && k8.error).toMatch(
      /column of B of 8 elements each, A's have 16: pick a tensor-core form with k = 16/,
    );
    const fma = variantFor(useStore.getState().instr, 'fma.rn.f16');
    expect('error' in fma && fma.error).toMatch(/fma\.rn\.f16 is not a tensor-core form/);
    // A link's B that stopped fitting (A changed under it) leaves the comparison with why.
    useStore.setState({ vs: 'fma.rn.f16' });
    expect(useStore.getState().compareError).toMatch(/not a tensor-core form/);
    expect(useStore.getState().comparison).toBeNull();
  });
});
