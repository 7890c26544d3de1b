import { describe, expect, it } from 'vitest';
import { CVT_FORMS } from '../catalog/index.ts';
import { defaultCvtRegisters } from './cvt-operands.ts';
import { useStore, urlStateOf } from './store.ts';
import { decodeUrl, encodeUrl } from './url-codec.ts';

describe('share links of cvt forms', () => {
  it('carry the registers by the spec names, .f64 as 16 hex digits', () => {
    const url = '?v=2&instr=cvt.rn.f32.f64&target=sm_90&ptx=8.6&a=0x3ff0000000000001';
    const { state, ignored } = decodeUrl(url);
    expect(ignored).toEqual([]);
    expect(state).toMatchObject({ instr: 'cvt.rn.f32.f64', cvt: { a: 0x3ff0000000000001n } });
    expect(encodeUrl(state)).toBe(url);
    const x4 =
      '?v=2&instr=cvt.rs.satfinite.e4m3x4.f32&target=sm_100a&ptx=8.7&a=0x43fa0000&b=0x40880000&e=0xbe99999a&f=0x3a83126f&rbits=0x9e3779b9';
    expect(encodeUrl(decodeUrl(x4).state)).toBe(x4);
    expect(decodeUrl(x4).state.cvt).toMatchObject({ e: 0xbe99999an, rbits: 0x9e3779b9n });
  });

  it('read values by the one rule, and say what they stored or could not use', () => {
    const r = decodeUrl('?instr=cvt.rn.satfinite.e4m3x2.f16x2&a=500&b=1');
    expect(r.state.cvt!.a).toBe(0x5fd05fd0n);
    expect(r.stored).toEqual(['a = 500: stored 0x5fd05fd0 = 500 in each element']);
    expect(r.ignored).toEqual(['operand b: cvt.rn.satfinite.e4m3x2.f16x2 has no operand b']);
    const bad = decodeUrl('?v=2&instr=cvt.rn.f16x2.e4m3x2&a=500&c=0x1&rbits=0x0');
    expect(bad.ignored).toEqual([
      expect.stringMatching(
        /^operand a: 500 is past \.e4m3's largest finite value 448.*; using 0x/,
      ),
      'operand rbits: cvt.rn.f16x2.e4m3x2 has no operand rbits',
      'operand c: cvt.rn.f16x2.e4m3x2 has no operand c',
    ]);
    expect(decodeUrl('?v=2&instr=add.f16&e=0x1').ignored).toEqual([
      'operand e: add.f16 has no operand e',
    ]);
    expect(decodeUrl('?v=2&instr=cvt.rn.f32.f64&a=0x1ffffffffffffffff').ignored[0]).toMatch(
      /does not fit: the field holds 64 bits/,
    );
  });

  it('open the sweep and the format pages, and refuse the arithmetic-only panels for cvt', () => {
    expect(decodeUrl('?v=2&instr=cvt.rn.f16.f32&tab=sweep').state.tab).toBe('sweep');
    expect(decodeUrl('?v=2&instr=add.f16&tab=sweep').ignored[0]).toMatch(/sweep/);
    expect(decodeUrl('?v=2&instr=cvt.rn.f16.f32&tab=repro').state.tab).toBeNull();
    const page = decodeUrl('?v=2&instr=add.f16&tab=format&format=e4m3');
    expect(page.state).toMatchObject({ tab: 'format', format: 'e4m3' });
    expect(encodeUrl(page.state)).toMatch(/&tab=format&format=e4m3$/);
    // Without a format: the form's destination format.
    expect(decodeUrl('?v=2&instr=cvt.rn.satfinite.e2m1x2.f32&tab=format').state.format).toBe(
      'e2m1',
    );
    expect(decodeUrl('?v=2&instr=add.f16&tab=format&format=e9m9').ignored[0]).toMatch(
      /format 'e9m9' is not a format/,
    );
    expect(decodeUrl('?v=2&instr=add.f16&format=e4m3').ignored[0]).toMatch(/tab=format/);
  });

  it('every cvt form loads from its canonical link and goes out again unchanged', () => {
    for (const form of CVT_FORMS) {
      const state = decodeUrl(`?v=2&instr=${form.text}`).state;
      expect(state.instr).toBe(form.text);
      expect(state.cvt).toEqual(defaultCvtRegisters(form));
      const again = decodeUrl(encodeUrl(state));
      expect(again.ignored).toEqual([]);
      expect(again.state).toEqual(state);
    }
  });
});

describe('the store with cvt forms', () => {
  it('switches to cvt and back, keeping the link in step', () => {
    const { setInstr } = useStore.getState();
    setInstr('cvt.rn.satfinite.e4m3x2.f32');
    expect(urlStateOf(useStore.getState())).toMatchObject({
      instr: 'cvt.rn.satfinite.e4m3x2.f32',
      cvt: { a: 0x43fa0000n, b: 0x40880000n },
    });
    useStore.getState().setCvtRegister('a', 0x3fc00000n);
    setInstr('cvt.rn.satfinite.e5m2x2.f32');
    expect(useStore.getState().cvtRegisters.a).toBe(0x3fc00000n);
    useStore.getState().setTab('sweep');
    setInstr('add.f16');
    const back = useStore.getState();
    expect(back.instr).toBe('add.f16');
    expect(back.tab).toBeNull();
    expect(back.operands.a).toBe(0x3e00);
    expect(urlStateOf(back).cvt).toBeUndefined();
  });

  it('loads a format page value into the form that reads the format', () => {
    const s = useStore.getState();
    s.setInstr('cvt.rn.satfinite.e4m3x2.f32');
    // The page opened on the form's destination format, with no format of its own.
    s.setTab('format');
    expect(urlStateOf(useStore.getState()).format).toBe('e4m3');
    s.loadFormatValue('e4m3', 0x7en);
    expect(useStore.getState().instr).toBe('cvt.rn.f16x2.e4m3x2');
    expect(useStore.getState().cvtRegisters.a).toBe(0x7e7en);
    // The new form writes .f16; the page stays on the .e4m3 value just clicked.
    expect(urlStateOf(useStore.getState())).toMatchObject({ tab: 'format', format: 'e4m3' });
    // The current form already reads e4m3: it stays.
    useStore.getState().loadFormatValue('e4m3', 0x01n);
    expect(useStore.getState().instr).toBe('cvt.rn.f16x2.e4m3x2');
    expect(useStore.getState().cvtRegisters.a).toBe(0x0101n);
    // Nothing reads .tf32: its value goes in as the .f32 that holds it, into a form writing .tf32.
    useStore.getState().loadFormatValue('tf32', 0x1fe00n); // 1.5
    expect(useStore.getState()).toMatchObject({
      instr: 'cvt.rna.tf32.f32',
      cvtRegisters: { a: 0x3fc00000n },
    });
    useStore.getState().loadFormatValue('f16', 0x3c00n);
    expect(useStore.getState().instr).toBe('cvt.f32.f16');
  });
});
