import { describe, expect, it } from 'vitest';
import { FORMS } from '../catalog/all-forms.ts';
import { evaluate } from '../engine/pipeline.ts';
import { stochasticOddsLines } from './odds-text.ts';

const form = (text: string) => FORMS.find((f) => f.text === text)!;

describe('stochasticOddsLines: a .rs result’s odds, one line per inexact element', () => {
  it('3.3 into e2m1: 3 or 4, and which one these random bits gave', () => {
    const x4 = form('cvt.rs.satfinite.e2m1x4.f32');
    const zeros = { b: 0n, e: 0n, f: 0n };
    expect(stochasticOddsLines(evaluate(x4, { a: 0x40533333n, ...zeros, rbits: 0n }))).toEqual([
      'element 0: 3 with p = 180/256 ≈ 0.70, 4 with p = 76/256 ≈ 0.30; these random bits gave 3',
    ]);
    const all = stochasticOddsLines(
      evaluate(x4, { a: 0x40533333n, ...zeros, rbits: ~0n & 0xffffffffn }),
    );
    expect(all[0]).toMatch(/gave 4$/);
  });

  it('-3.3: toward zero is -3; an exact value and another rounding have no odds', () => {
    const x4 = form('cvt.rs.satfinite.e2m1x4.f32');
    expect(
      stochasticOddsLines(evaluate(x4, { a: 0xc0533333n, b: 0n, e: 0n, f: 0n, rbits: 0n }))[0],
    ).toBe(
      'element 0: -3 with p = 180/256 ≈ 0.70, -4 with p = 76/256 ≈ 0.30; these random bits gave -3',
    );
    expect(
      stochasticOddsLines(evaluate(x4, { a: 0x40400000n, b: 0n, e: 0n, f: 0n, rbits: 0n })),
    ).toEqual([]);
    const rn = form('cvt.rn.satfinite.e2m1x2.f32');
    expect(stochasticOddsLines(evaluate(rn, { a: 0x40533333n, b: 0n }))).toEqual([]);
  });
});
