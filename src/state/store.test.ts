import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_STATE } from './url-state.ts';
import { useStore } from './store.ts';
import { urlStateOf } from './url-link.ts';
import { startRegisters } from './registers.ts';
import { findForm } from '../catalog/all-forms.ts';
import { setInstr, setVs, loadFormatValue } from './edits.ts';

/**
 * The one store: picks between any two forms carry the registers over and keep what still
 * applies (the open panel, the comparison of A's kind); a format page's value goes into the form
 * that reads it; the link follows.
 */
describe('the store', () => {
  beforeEach(() => {
    useStore.setState({
      instr: DEFAULT_STATE.instr,
      registers: startRegisters(findForm(DEFAULT_STATE.instr)!),
      tab: null,
      vs: null,
      formatPage: null,
      sweepRange: null,
    });
  });

  it('switches to cvt and back, carrying the values and keeping the link in step', () => {
    setInstr('cvt.rn.satfinite.e4m3x2.f32');
    expect(urlStateOf(useStore.getState())).toMatchObject({
      instr: 'cvt.rn.satfinite.e4m3x2.f32',
      registers: { a: 0x3fc00000n, b: 0x3fc00000n }, // fma's 1.5, in each element
    });
    expect(Object.keys(urlStateOf(useStore.getState()).registers)).toEqual(['a', 'b']);
    useStore.getState().setRegister('a', 0x43fa0000n);
    setInstr('cvt.rn.satfinite.e5m2x2.f32');
    expect(useStore.getState().registers.a).toBe(0x43fa0000n);
    useStore.getState().setTab('sweep');
    setInstr('add.f16');
    const back = useStore.getState();
    expect(back.instr).toBe('add.f16');
    // add has two inputs: no sweep; 500 is past f16's largest value: +inf.
    expect(back.tab).toBeNull();
    expect(back.registers.a).toBe(0x5fd0n);
    setInstr('tanh.approx.f16');
    useStore.getState().setTab('sweep');
    setInstr('neg.f16');
    expect(useStore.getState().tab).toBe('sweep');
  });

  it('loads a format page value into the form that reads the format', () => {
    const s = useStore.getState();
    setInstr('cvt.rn.satfinite.e4m3x2.f32');
    // The page opened on the form's destination format, with no format of its own.
    s.setTab('format');
    expect(urlStateOf(useStore.getState()).format).toBe('e4m3');
    loadFormatValue('e4m3', 0x7en);
    expect(useStore.getState().instr).toBe('cvt.rn.f16x2.e4m3x2');
    expect(useStore.getState().registers.a).toBe(0x7e7en);
    // The new form writes .f16; the page stays on the .e4m3 value just clicked.
    expect(urlStateOf(useStore.getState())).toMatchObject({ tab: 'format', format: 'e4m3' });
    // The current form already reads e4m3: it stays.
    loadFormatValue('e4m3', 0x01n);
    expect(useStore.getState().instr).toBe('cvt.rn.f16x2.e4m3x2');
    expect(useStore.getState().registers.a).toBe(0x0101n);
    // Nothing reads .tf32: its value goes in as the .f32 that holds it, into a form writing .tf32.
    loadFormatValue('tf32', 0x1fe00n); // 1.5
    expect(useStore.getState().instr).toMatch(/^cvt\..*\.tf32\.f32$/);
    expect(useStore.getState().registers.a).toBe(0x3fc00000n);
    // An arithmetic form that reads the format takes the value itself, in every lane.
    setInstr('add.f16x2');
    loadFormatValue('f16', 0x3c00n);
    expect(useStore.getState().instr).toBe('add.f16x2');
    expect(useStore.getState().registers.a).toBe(0x3c003c00n);
    loadFormatValue('e5m2', 0x3cn);
    expect(useStore.getState().instr).toMatch(/^cvt\..*\.e5m2x2$/);
  });

  it('keeps a comparison of the new form’s kind, and ends one of the other kind', () => {
    setVs('unfused');
    expect(useStore.getState().vs).toBe('unfused');
    setInstr('fma.rz.f16');
    expect(useStore.getState().vs).toBe('unfused');
    setInstr('cvt.rn.f16.f32');
    expect(useStore.getState().vs).toBeNull();
  });
});
