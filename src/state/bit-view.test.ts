import { describe, expect, it } from 'vitest';
import { cornerTable } from '../engine/index.ts';
import { laneOf, laneReadout, quickPicks, withLane } from './bit-view.ts';

describe('bit view', () => {
  it('reads out a normal, a subnormal and specials', () => {
    expect(laneReadout(0x3e00, 'f16')).toEqual({
      className: 'positive normal',
      exact: '1.5',
      shortest: '1.5',
      exponent: 0,
      significand: '+1.1000000000b',
    });
    const sub = laneReadout(0x8001, 'f16');
    expect(sub.className).toBe('negative subnormal');
    expect(sub.exponent).toBe(-14);
    expect(sub.significand).toBe('−0.0000000001b');
    expect(laneReadout(0x7c01, 'f16').className).toBe('positive signaling NaN');
    expect(laneReadout(0x7f80, 'bf16').exponent).toBeNull();
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
