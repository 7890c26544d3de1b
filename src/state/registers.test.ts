import { describe, expect, it } from 'vitest';
import { findForm, FORMS } from '../catalog/all-forms.ts';
import type { SourceName } from '../catalog/instruction.ts';
import { evaluate } from '../engine/pipeline.ts';
import {
  adaptRegisters,
  bitsAt,
  formRegisters,
  startRegisters,
  withBitsAt,
  withEveryPlace,
} from './registers.ts';
import { ZERO_REGISTERS } from './register-map.ts';

const form = (text: string) => findForm(text)!;

describe('the one register map', () => {
  it('starts every form with values its formats hold, in every element, and evaluates', () => {
    for (const f of FORMS) {
      const regs = startRegisters(f);
      for (const r of f.registers.slice(1))
        expect(regs[r.name as SourceName] >> BigInt(r.bits), `${f.text} ${r.name}`).toBe(0n);
      expect(() => evaluate(f, formRegisters(f, regs))).not.toThrow();
    }
    // The arithmetic: 1.5 × 2 + 0.25, in every lane and in a mixed form's f32 c.
    expect(startRegisters(form('fma.rn.f16'))).toMatchObject({
      a: 0x3e00n,
      b: 0x4000n,
      c: 0x3400n,
    });
    expect(startRegisters(form('fma.rn.bf16x2'))).toMatchObject({
      a: 0x3fc03fc0n,
      b: 0x40004000n,
      c: 0x3e803e80n,
    });
    expect(startRegisters(form('fma.rn.f32.f16'))).toMatchObject({ c: 0x3e800000n });
    // A conversion, element by element: 500 and 4.25.
    expect(startRegisters(form('cvt.rn.satfinite.e4m3x2.f32'))).toMatchObject({
      a: 0x43fa0000n,
      b: 0x40880000n,
    });
    // f16x2 → e4m3x2: a's upper half (element 0) 500, its lower half 4.25.
    expect(startRegisters(form('cvt.rn.satfinite.e4m3x2.f16x2')).a).toBe(0x5fd04440n);
    // e2m1 holds neither 500 (1.5 instead) nor 4.25 (rounded to 4).
    expect(startRegisters(form('cvt.rn.f16x2.e2m1x2')).a).toBe(0x36n);
    expect(startRegisters(form('cvt.rs.satfinite.e2m1x4.f32')).rbits).toBe(0x9e3779b9n);
  });

  it('reads and writes bit ranges, padding apart from the value', () => {
    const f = form('cvt.rn.f16x2.e2m3x2');
    const element0 = f.elements[0]!.inputs[0]!;
    expect(element0.slot).toEqual({ hi: 15, lo: 8 });
    expect(element0.value).toEqual({ hi: 13, lo: 8 });
    let reg = withBitsAt(0n, element0.value, 0x3fn);
    reg = withBitsAt(reg, f.elements[1]!.inputs[0]!.value, 0x01n);
    expect(reg).toBe(0x3f01n);
    reg = withBitsAt(reg, { hi: 15, lo: 14 }, 0b10n);
    expect(reg).toBe(0xbf01n);
    expect(bitsAt(reg, element0.value)).toBe(0x3fn); // padding is not the value
    expect(bitsAt(0xfff0000000000001n, { hi: 63, lo: 0 })).toBe(0xfff0000000000001n);
    // A table's value in every element of a: both lanes of an x2 register.
    expect(withEveryPlace(form('add.f16x2'), ZERO_REGISTERS, 'a', 0x7c00n).a).toBe(0x7c007c00n);
  });

  it('carries the values over when the form changes, any form to any form', () => {
    const from = form('cvt.rn.satfinite.e4m3x2.f32');
    const regs = { ...startRegisters(from), a: 0x3fc00000n, b: 0xc0000000n }; // 1.5, -2
    // The same format: bit for bit.
    expect(adaptRegisters(from, form('cvt.rn.satfinite.e5m2x2.f32'), regs)).toMatchObject({
      a: 0x3fc00000n,
      b: 0xc0000000n,
    });
    // f32 → f64: the same values.
    expect(adaptRegisters(from, form('cvt.rn.f32.f64'), regs).a).toBe(0x3ff8000000000000n);
    // Two f32 elements → the two f16 elements of a (element 0 in the upper half).
    expect(adaptRegisters(from, form('cvt.rn.satfinite.e4m3x2.f16x2'), regs).a).toBe(0x3e00c000n);
    // A scalar widened to x2 fills both lanes; an x2 narrowed keeps lane 0.
    const add = { ...ZERO_REGISTERS, a: 0x3c00n, b: 0x4000n };
    expect(adaptRegisters(form('add.f16'), form('add.f16x2'), add)).toMatchObject({
      a: 0x3c003c00n,
      b: 0x40004000n,
    });
    expect(
      adaptRegisters(form('add.f16x2'), form('add.f16'), { ...ZERO_REGISTERS, a: 0x40003c00n }).a,
    ).toBe(0x3c00n);
    // Another format: the nearest value (1 + 2^-10 has no bf16 value: 1).
    expect(
      adaptRegisters(form('add.f16'), form('add.bf16'), { ...ZERO_REGISTERS, a: 0x3c01n }).a,
    ).toBe(0x3f80n);
    // An input the old form had no value for takes the start value (fma's addend 0.25).
    expect(adaptRegisters(form('add.f16'), form('fma.rn.f16'), add)).toMatchObject({
      a: 0x3c00n,
      b: 0x4000n,
      c: 0x3400n,
    });
    // Arithmetic → cvt: element by element, input by input, as a comparison carries them: the
    // conversion's element 1 reads add's last element (its only one) again, so b gets a's 1.
    expect(adaptRegisters(form('add.f16'), from, add)).toMatchObject({
      a: 0x3f800000n,
      b: 0x3f800000n,
    });
    // Random bits the old form had none of: the start bits.
    expect(adaptRegisters(from, form('cvt.rs.satfinite.e2m1x4.f32'), regs).rbits).toBe(0x9e3779b9n);
    // A register the new form lacks keeps what it held.
    expect(adaptRegisters(form('fma.rn.f16'), form('neg.f16'), { ...add, c: 0x1234n }).c).toBe(
      0x1234n,
    );
  });
});
