import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORMATS, type Format } from './format.ts';
import { readNumberText, type TypedNumber } from './number-text.ts';
import { readValueText } from './stored-value.ts';

const { f16, bf16, f32 } = FORMATS;
const bits = (text: string, f: Format = f16) => {
  const r = readValueText(text, f);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.bits;
};
const number = (text: string): TypedNumber => {
  const r = readNumberText(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.number;
};

describe('readNumberText', () => {
  it('reads decimals, hex floats, infinities, signed zeros and NaNs exactly', () => {
    expect(number('1.5')).toEqual({ kind: 'finite', negative: false, num: 15n, den: 10n });
    expect(number('-1.5e-5')).toEqual({ kind: 'finite', negative: true, num: 15n, den: 10n ** 6n });
    expect(number('0x1.8p-3')).toEqual({ kind: 'finite', negative: false, num: 0x18n, den: 128n });
    expect(number('1_000')).toEqual({ kind: 'finite', negative: false, num: 1000n, den: 1n });
    expect(number('+.5')).toEqual({ kind: 'finite', negative: false, num: 5n, den: 10n });
    expect(number('-0')).toEqual({ kind: 'finite', negative: true, num: 0n, den: 1n });
    expect(number('inf')).toEqual({ kind: 'inf', negative: false });
    expect(number('-∞')).toEqual({ kind: 'inf', negative: true });
    expect(number('qnan')).toEqual({ kind: 'nan', negative: false });
    expect(number('-snan')).toEqual({ kind: 'snan', negative: true });
    // Far past every format: no power of ten is built.
    expect(number('1e999999999')).toEqual({ kind: 'beyond', negative: false });
    expect(number('-1e-999999999')).toEqual({ kind: 'below', negative: true });
    expect(number('0x1p5000')).toEqual({ kind: 'beyond', negative: false });
    expect(number('0x1p-5000')).toEqual({ kind: 'below', negative: false });
    // Within reach of f64, exactly: 10^-400 is below its least subnormal but still a number.
    expect(number('1e-400')).toMatchObject({ kind: 'finite', num: 1n, den: 10n ** 400n });
    // A zero with a huge exponent is an exact zero, read at once.
    expect(number('-0e-999999999')).toEqual({ kind: 'finite', negative: true, num: 0n, den: 1n });
  });

  it('reads letters in either case', () => {
    expect(number('INF')).toEqual({ kind: 'inf', negative: false });
    expect(number('-Infinity')).toEqual({ kind: 'inf', negative: true });
    expect(number('NaN')).toEqual({ kind: 'nan', negative: false });
    expect(number('SNAN')).toEqual({ kind: 'snan', negative: false });
    expect(number('1E-3')).toEqual(number('1e-3'));
    expect(number('0X1.8P-3')).toEqual(number('0x1.8p-3'));
  });

  it('rejects what is not a number with a code, a message and a position', () => {
    for (const [text, code, position] of [
      ['', 'empty', 0],
      ['   ', 'empty', 3],
      ['abc', 'not-a-number', 0],
      ['1.2.3', 'not-a-number', 0],
      ['0x', 'not-a-number', 0],
      ['--1', 'not-a-number', 0],
      ['1e', 'not-a-number', 0],
      ['  1?', 'not-a-number', 3],
      ['x'.repeat(2000), 'too-long', 0],
      ['\u0000', 'not-a-number', 0],
      ['1 2', 'not-a-number', 0],
      ['1e99999999999999999999', 'exponent-range', 1],
      ['0x1p99999999999999999999', 'exponent-range', 3],
    ] as const) {
      const r = readNumberText(text);
      expect(r.ok, text).toBe(false);
      if (!r.ok) {
        expect(r.error.code, text).toBe(code);
        expect(r.error.position, text).toBe(position);
        expect(r.error.message.length).toBeGreaterThan(5);
        expect(r.error.message.length).toBeLessThan(300);
      }
    }
  });

  it('says how to write the common slips: a decimal comma, a fraction', () => {
    const comma = readNumberText('1,5');
    expect(!comma.ok && comma.error.message).toMatch(
      /commas are not read: a decimal takes a point/,
    );
    expect(!comma.ok && comma.error.position).toBe(1);
    const fraction = readNumberText('1/3');
    expect(!fraction.ok && fraction.error.message).toMatch(/a fraction is not read/);
    expect(!fraction.ok && fraction.error.position).toBe(1);
  });

  it('never throws (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => void readNumberText(s)),
      { numRuns: 5000 },
    );
  });
});

describe('readValueText in f16, bf16 and f32 (the arithmetic formats)', () => {
  it('rounds to nearest even, overflows to infinity, underflows to a signed zero', () => {
    expect(bits('1')).toBe(0x3c00n);
    expect(bits('-1.5e-5')).toBe(0x80fcn);
    expect(bits('0x1.8p-3')).toBe(0x3200n);
    expect(bits('inf')).toBe(0x7c00n);
    expect(bits('-inf')).toBe(0xfc00n);
    expect(bits('-0')).toBe(0x8000n);
    expect(bits('nan')).toBe(0x7fffn);
    expect(bits('-nan')).toBe(0xffffn);
    expect(bits('snan')).toBe(0x7c01n);
    expect(bits('65504')).toBe(0x7bffn);
    expect(bits('65520')).toBe(0x7c00n); // halfway to 2^16: rounds to even, which overflows
    expect(bits('1e-8')).toBe(0x0000n);
    expect(bits('6e-8')).toBe(0x0001n);
    expect(bits('1.00390625', bf16)).toBe(0x3f80n); // tie → even
    expect(bits('0.1', f32)).toBe(0x3dcccccdn);
    expect(bits('1e999999999', f32)).toBe(0x7f800000n);
    expect(bits('-1e-999999999', f32)).toBe(0x80000000n);
    expect(readValueText('-0e-999999999', f16)).toMatchObject({
      ok: true,
      value: { bits: 0x8000n, exact: true, outcome: 'exact' },
    });
    expect(readValueText('0.000e999999999', f32)).toMatchObject({
      ok: true,
      value: { bits: 0n, exact: true },
    });
  });

  it('never throws (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 60 }),
        fc.constantFrom(...Object.values(FORMATS)),
        (s, f) => void readValueText(s, f),
      ),
      { numRuns: 5000 },
    );
  });
});
