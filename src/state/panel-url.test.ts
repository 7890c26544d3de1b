import { describe, expect, it } from 'vitest';
import { readSweepBound } from './panel-url.ts';

/** readSweepBound: a sweep range's bound as typed, by the one reading of operand text. */
describe('a sweep bound: the one rule for operand text, finite values only', () => {
  it('reads values as the nearest .f64, and 0x/0b as the source format’s bits', () => {
    expect(readSweepBound('-504', 'f32')).toEqual({ ok: true, value: -504, bits: null });
    expect(readSweepBound(' 0.1 ', 'f32')).toEqual({ ok: true, value: 0.1, bits: null });
    expect(readSweepBound('0x1.8p-3', 'f32')).toEqual({ ok: true, value: 0.1875, bits: null });
    expect(readSweepBound('-0', 'f64')).toEqual({ ok: true, value: -0, bits: null });
    expect(readSweepBound('0b1', 'f32')).toEqual({
      ok: true,
      value: 2 ** -149,
      bits: '0x00000001',
    });
    expect(readSweepBound('0xc3fc0000', 'f32')).toEqual({
      ok: true,
      value: -504,
      bits: '0xc3fc0000',
    });
    expect(readSweepBound('0x3ff0000000000000', 'f64')).toEqual({
      ok: true,
      value: 1,
      bits: '0x3ff0000000000000',
    });
  });

  it('gives each kind of bad bound its own reason', () => {
    const message = (text: string, source: 'f32' | 'f64' = 'f32') => {
      const r = readSweepBound(text, source);
      return r.ok ? null : r.message;
    };
    expect(message('abc')).toMatch(/^'abc' is not a number: expected a decimal/);
    expect(message('1/3')).toMatch(
      /a fraction is not read: type its value as a decimal \(0\.3333\)/,
    );
    expect(message('1,5')).toMatch(/commas are not read: a decimal takes a point \(1\.5\)/);
    expect(message('nan')).toBe('NaN is not a bound; a bound is a finite number');
    expect(message('-inf')).toBe('-inf is not a bound; a bound is a finite number');
    expect(message('1e999')).toBe('+inf is not a bound; a bound is a finite number');
    expect(message('0x7fc00000')).toBe('NaN is not a bound; a bound is a finite number');
    expect(message('0x12345678901234')).toMatch(
      /^'0x12345678901234' has 14 hex digits; the element is 32 bits/,
    );
    expect(message('0x12g')).toMatch(/0x must be followed by hexadecimal digits/);
    expect(message('')).toMatch(/^empty: type a number/);
  });
});
