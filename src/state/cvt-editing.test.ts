import { describe, expect, it } from 'vitest';
import { CVT_FORMS, findCvtForm } from '../catalog/index.ts';
import { evaluateCvt } from '../engine/index.ts';
import {
  elementNeighbours,
  elementQuickPicks,
  elementReadout,
  fieldsOf,
} from './cvt-element-view.ts';
import { parseCvtElementText, parseCvtRegisterText } from './cvt-operand-text.ts';
import {
  adaptCvtRegisters,
  defaultCvtRegisters,
  elementBits,
  elementsIn,
  paddingOf,
  withBits,
  withElement,
} from './cvt-operands.ts';

const form = (text: string) => findCvtForm(text)!;

describe('cvt registers', () => {
  it('start every form with values its source formats hold, and evaluate', () => {
    for (const f of CVT_FORMS) {
      const regs = defaultCvtRegisters(f);
      for (const op of f.operands.slice(1))
        expect(regs[op.name as 'a'] >> BigInt(op.bits), `${f.text} ${op.name}`).toBe(0n);
      expect(() => evaluateCvt(f, regs)).not.toThrow();
    }
    const e4 = defaultCvtRegisters(form('cvt.rn.satfinite.e4m3x2.f32'));
    expect([e4.a, e4.b]).toEqual([0x43fa0000n, 0x40880000n]); // 500, 4.25
    // f16x2 → e4m3x2: a's upper half 500, lower half 4.25.
    expect(defaultCvtRegisters(form('cvt.rn.satfinite.e4m3x2.f16x2')).a).toBe(0x5fd04440n);
    // e2m1 holds neither 500 (past its MAX_NORM 6: 1.5 instead) nor 4.25 (rounded to 4).
    expect(defaultCvtRegisters(form('cvt.rn.f16x2.e2m1x2')).a).toBe(0x36n);
  });

  it('read and write elements by the catalog layout: a in the upper bits, padding beside 6-bit values', () => {
    const f = form('cvt.rn.f16x2.e2m3x2');
    const [hi, lo] = elementsIn(f, 'a');
    expect(hi!.source.slot).toEqual({ hi: 15, lo: 8 });
    expect(hi!.source.value).toEqual({ hi: 13, lo: 8 });
    let reg = withElement(0n, hi!.source, 0x3fn);
    reg = withElement(reg, lo!.source, 0x01n);
    expect(reg).toBe(0x3f01n);
    expect(paddingOf(reg, hi!.source)).toEqual({ bits: 0n, width: 2, hi: 15, lo: 14 });
    reg = withBits(reg, 15, 14, 0b10n);
    expect(reg).toBe(0xbf01n);
    expect(elementBits(reg, hi!.source)).toBe(0x3fn); // padding is not the value
    // .f64: all 64 bits, exact.
    const w = form('cvt.rn.f32.f64');
    expect(elementBits(0xfff0000000000001n, elementsIn(w, 'a')[0]!.source)).toBe(
      0xfff0000000000001n,
    );
  });

  it('keep what carries over when the form changes', () => {
    const from = form('cvt.rn.satfinite.e4m3x2.f32');
    const regs = { ...defaultCvtRegisters(from), a: 0x3fc00000n, b: 0xc0000000n }; // 1.5, -2
    // Same operand types: kept bit for bit.
    expect(adaptCvtRegisters(from, form('cvt.rn.satfinite.e5m2x2.f32'), regs)).toMatchObject({
      a: 0x3fc00000n,
      b: 0xc0000000n,
    });
    // f32 → f64: the same values.
    expect(adaptCvtRegisters(from, form('cvt.rn.f32.f64'), regs).a).toBe(0x3ff8000000000000n);
    // f32 a, b → f16x2 a: a becomes two f16 values (1.5 and the start value for the second).
    expect(adaptCvtRegisters(from, form('cvt.rn.satfinite.e4m3x2.f16x2'), regs).a >> 16n).toBe(
      0x3e00n,
    );
  });
});

describe('cvt operand text', () => {
  const f = form('cvt.rn.satfinite.e4m3x2.f16x2');
  it('reads register bits of the full width, and values into each element', () => {
    expect(parseCvtRegisterText('0x3c004000', f, 'a')).toEqual({ ok: true, bits: 0x3c004000n });
    expect(parseCvtRegisterText('1.5', f, 'a')).toEqual({
      ok: true,
      bits: 0x3e003e00n,
      stored: 'stored 0x3e003e00 = 1.5 in each element',
    });
    expect(parseCvtRegisterText('0x1_0000_0000', f, 'a')).toMatchObject({ ok: false });
    const wide = form('cvt.rn.f32.f64');
    expect(parseCvtRegisterText('0xffffffffffffffff', wide, 'a')).toEqual({
      ok: true,
      bits: 0xffffffffffffffffn,
    });
    expect(parseCvtRegisterText('0.1', wide, 'a')).toMatchObject({
      bits: 0x3fb999999999999an,
      stored:
        'stored 0x3fb999999999999a = 0.1000000000000000055511151231257827021181583404541015625 (0.1 rounded to nearest even)',
    });
    const rs = form('cvt.rs.f16x2.f32');
    expect(parseCvtRegisterText('1.5', rs, 'rbits')).toMatchObject({
      ok: false,
      message: expect.stringContaining('random bits') as unknown,
    });
    expect(parseCvtRegisterText('3c00', f, 'a')).toMatchObject({
      ok: false,
      message: expect.stringContaining('0x3c00') as unknown,
    });
  });

  it('reads element bits of the value width (6 bits for e2m3) and refuses values the format lacks', () => {
    expect(parseCvtElementText('0x3f', 'e2m3', 6)).toEqual({ ok: true, bits: 0x3fn });
    expect(parseCvtElementText('0x40', 'e2m3', 6)).toMatchObject({ ok: false });
    expect(parseCvtElementText('0b111111', 'e2m3', 6)).toEqual({ ok: true, bits: 0x3fn });
    expect(parseCvtElementText('500', 'e4m3', 8)).toMatchObject({
      ok: false,
      message: expect.stringContaining('448') as unknown,
    });
    expect(parseCvtElementText('4.25', 'e4m3', 8)).toEqual({
      ok: true,
      bits: 0x48n,
      stored: 'stored 0x48 = 4 (4.25 rounded to nearest even)',
    });
  });
});

describe('cvt element readouts', () => {
  it('name the fields, the class and MAX_NORM of every width', () => {
    expect(fieldsOf('e2m1')).toEqual([
      { name: 'sign', from: 3, to: 3 },
      { name: 'exponent', from: 2, to: 1 },
      { name: 'mantissa', from: 0, to: 0 },
    ]);
    expect(fieldsOf('ue8m0')).toEqual([{ name: 'exponent', from: 7, to: 0 }]);
    expect(fieldsOf('f64')[2]).toEqual({ name: 'mantissa', from: 51, to: 0 });
    expect(elementReadout(0x7en, 'e4m3')).toMatchObject({
      className: 'positive normal',
      exact: '448',
      fieldText: '448',
      exponentText: 'stored 1111 = 15, bias 7 → 2⁸',
      significand: '+1.110b',
      ulp: '2⁵',
      maxNorm: true,
    });
    expect(elementReadout(0x7fn, 'e4m3')).toMatchObject({
      className: 'positive quiet NaN',
      canonicalNaN: true,
    });
    expect(elementReadout(0x00n, 'ue8m0')).toMatchObject({
      className: 'positive normal',
      exponentText: 'stored 00000000 = 0, bias 127 → 2⁻¹²⁷',
    });
    expect(elementReadout(0x8000000000000001n, 'f64')).toMatchObject({
      className: 'negative subnormal',
      ulp: '2⁻¹⁰⁷⁴',
    });
  });

  it('offer the special values each format has, and step to the neighbours', () => {
    const names = (f: 'e2m1' | 'e4m3' | 'ue8m0' | 'f64') => elementQuickPicks(f).map((p) => p.name);
    expect(names('e2m1')).not.toContain('NaN');
    expect(names('e4m3')).toContain('NaN');
    expect(names('e4m3')).not.toContain('+inf');
    expect(names('ue8m0')).not.toContain('+0');
    expect(elementQuickPicks('f64').find((p) => p.name === '+inf')!.bits).toBe(0x7ff0000000000000n);
    expect(elementNeighbours(0x7en, 'e4m3')).toEqual({ up: 0x7en, down: 0x7dn });
    expect(elementNeighbours(0n, 'f64')).toEqual({ up: 1n, down: 0x8000000000000001n });
    expect(elementNeighbours(0x8000000000000001n, 'f64')).toEqual({
      up: 0n,
      down: 0x8000000000000002n,
    });
    expect(elementNeighbours(0x7ff0000000000000n, 'f64').up).toBe(0x7ff0000000000000n);
  });
});
