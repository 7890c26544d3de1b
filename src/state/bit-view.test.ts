import { describe, expect, it } from 'vitest';
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
    const picks = Object.fromEntries(quickPicks('bf16').map((p) => [p.label, p.bits]));
    expect(picks['largest finite']).toBe(0x7f7f);
    expect(picks['canonical NaN']).toBe(0x7fff);
    expect(picks['signaling NaN']).toBe(0x7f81);
  });

  it('splits and joins x2 lanes', () => {
    expect(laneOf(0x40003c00, 2, 0)).toBe(0x3c00);
    expect(laneOf(0x40003c00, 2, 1)).toBe(0x4000);
    expect(withLane(0x40003c00, 2, 1, 0xffff)).toBe(0xffff3c00);
    expect(withLane(0x40003c00, 2, 0, 0x8000)).toBe(0x40008000);
    expect(laneOf(0xffffffff, 1, 0)).toBe(0xffffffff);
  });
});
