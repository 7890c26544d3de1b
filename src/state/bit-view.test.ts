import { describe, expect, it } from 'vitest';
import { cornerTable } from '../engine/index.ts';
import { holdsOobNaN, laneOf, laneReadout, powerOfTwo, quickPicks, withLane } from './bit-view.ts';

describe('bit view', () => {
  it('reads out a normal, a subnormal and specials', () => {
    expect(laneReadout(0x3e00, 'f16')).toEqual({
      className: 'positive normal',
      exact: '1.5',
      shortest: '1.5',
      fieldText: '1.5',
      exponent: 0,
      exponentText: 'stored 01111 = 15, bias 15 → 2⁰',
      significand: '+1.1000000000b',
      ulp: '2⁻¹⁰',
      canonicalNaN: false,
    });
    expect(laneReadout(0x0001, 'f16').ulp).toBe('2⁻²⁴');
    expect(laneReadout(0x7bff, 'f16').ulp).toBe('2⁵');
    expect(laneReadout(0x7c00, 'f16').ulp).toBeNull();
    expect(laneReadout(0x7fff, 'f16').canonicalNaN).toBe(true);
    expect(laneReadout(0x7e00, 'f16').canonicalNaN).toBe(false);
    const sub = laneReadout(0x8001, 'f16');
    expect(sub.className).toBe('negative subnormal');
    expect(sub.exponent).toBe(-14);
    expect(sub.exponentText).toBe('stored 00000: subnormal, 1 − bias 15 → 2⁻¹⁴');
    expect(sub.significand).toBe('−0.0000000001b');
    expect(laneReadout(0x7c01, 'f16').className).toBe('positive signaling NaN');
    expect(laneReadout(0x7f80, 'bf16').exponent).toBeNull();
    expect(laneReadout(0x7f80, 'bf16').exponentText).toBe(
      'stored 11111111: all ones, infinity or NaN',
    );
    expect(laneReadout(0x4000, 'bf16').exponentText).toBe('stored 10000000 = 128, bias 127 → 2¹');
    expect(laneReadout(0x0000, 'f16').exponentText).toBe('stored 00000: zero');
  });

  it('shows the exact value in the value field when it is short, the shortest decimal otherwise', () => {
    // 65504 and 1.0078125 are what the bits hold: the field shows them, not 6.55e4 and 1.008.
    expect(laneReadout(0x7bff, 'f16')).toMatchObject({ fieldText: '65504', shortest: '6.55e4' });
    expect(laneReadout(0x3c08, 'f16')).toMatchObject({ fieldText: '1.0078125', shortest: '1.008' });
    // A subnormal's exact value has 24 digits: the field shows its shortest decimal.
    expect(laneReadout(0x0001, 'f16')).toMatchObject({
      exact: '0.000000059604644775390625',
      fieldText: '6e-8',
    });
    expect(laneReadout(0x7c00, 'f16').fieldText).toBe('inf');
  });

  it('writes powers of two as a reader does, and knows the OOB-NaN pattern', () => {
    expect(powerOfTwo(0)).toBe('2⁰');
    expect(powerOfTwo(-126)).toBe('2⁻¹²⁶');
    expect(holdsOobNaN(0x7ff7, 'f16')).toBe(true);
    expect(holdsOobNaN(0xfff7, 'bf16')).toBe(true);
    expect(holdsOobNaN(0x7fff, 'f16')).toBe(false);
    expect(holdsOobNaN(0x7ff7, 'f32')).toBe(false);
  });

  it('lists the quick picks with their bits', () => {
    const picks = Object.fromEntries(quickPicks('bf16').map((p) => [p.name, p.bits]));
    expect(picks['+max finite']).toBe(0x7f7f);
    expect(picks['-min normal']).toBe(0x8080);
    expect(picks['NaN']).toBe(0x7fff);
    expect(picks['sNaN']).toBe(0x7f81);
  });

  it("the quick picks are the corner-case tables' special values, under the same names", () => {
    for (const format of ['f16', 'bf16'] as const) {
      const table = cornerTable(format === 'f16' ? 'neg.f16' : 'neg.bf16');
      const inputs = table.rows.map((r) => ({ name: r.names.a, bits: r.a }));
      expect(inputs).toEqual(quickPicks(format).map((p) => ({ name: p.name, bits: p.bits })));
    }
  });

  it('splits and joins x2 lanes', () => {
    expect(laneOf(0x40003c00, 2, 0)).toBe(0x3c00);
    expect(laneOf(0x40003c00, 2, 1)).toBe(0x4000);
    expect(withLane(0x40003c00, 2, 1, 0xffff)).toBe(0xffff3c00);
    expect(withLane(0x40003c00, 2, 0, 0x8000)).toBe(0x40008000);
    expect(laneOf(0xffffffff, 1, 0)).toBe(0xffffffff);
  });
});
