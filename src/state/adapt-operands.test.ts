import { describe, expect, it } from 'vitest';
import { findForm } from '../catalog/index.ts';
import { FORMATS, toDouble } from '../engine/formats.ts';
import { adaptOperands, nearestBits } from './adapt-operands.ts';

const form = (t: string) => findForm(t)!;

describe('adaptOperands', () => {
  it('keeps bits within a format and fills both lanes when widening', () => {
    const out = adaptOperands(form('add.f16'), form('add.f16x2'), { a: 0x3c00, b: 0x4000, c: 0 });
    expect(out.a).toBe(0x3c003c00);
    expect(out.b).toBe(0x40004000);
    const back = adaptOperands(form('add.f16x2'), form('add.f16'), { a: 0x40003c00, b: 1, c: 0 });
    expect(back.a).toBe(0x3c00);
  });

  it('converts values across formats', () => {
    const out = adaptOperands(form('add.f16'), form('add.bf16'), { a: 0x3c00, b: 0xc000, c: 0 });
    expect(out.a).toBe(0x3f80); // 1.0
    expect(out.b).toBe(0xc000); // -2.0
    const mixed = adaptOperands(form('fma.rn.f16'), form('fma.rn.f32.f16'), {
      a: 0x3e00,
      b: 0x4000,
      c: 0x3400,
    });
    expect(mixed.a).toBe(0x3e00);
    expect(mixed.c).toBe(0x3e800000); // 0.25 as f32
  });
});

describe('nearestBits', () => {
  it('finds exact values, rounds to the nearer neighbour, overflows to infinity', () => {
    const f16 = FORMATS.f16;
    expect(nearestBits(1, f16)).toBe(0x3c00);
    expect(nearestBits(-0, f16)).toBe(0x8000);
    expect(nearestBits(65504, f16)).toBe(0x7bff);
    expect(nearestBits(1e6, f16)).toBe(0x7c00);
    expect(nearestBits(-Infinity, f16)).toBe(0xfc00);
    expect(nearestBits(NaN, f16)).toBe(0x7fff);
    expect(toDouble(nearestBits(0.1, f16), f16)).toBeCloseTo(0.1, 3);
    expect(nearestBits(3.4e38, FORMATS.f32)).toBe(0x7f7fc99e);
  });
});
