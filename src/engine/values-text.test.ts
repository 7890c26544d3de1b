import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORMATS, nextDown, nextUp, toDouble } from './formats.ts';
import { parseValue, shortestDecimal } from './values-text.ts';

const { f16, bf16, f32 } = FORMATS;
const bits = (text: string, f = f16) => {
  const r = parseValue(text, f);
  if (!r.ok) throw new Error(r.error.message);
  return r.bits;
};

describe('parseValue', () => {
  it('reads decimals, hex floats, infinities, signed zeros and NaNs', () => {
    expect(bits('1')).toBe(0x3c00);
    expect(bits('-1.5e-5')).toBe(0x80fc);
    expect(bits('0x1.8p-3')).toBe(0x3200);
    expect(bits('inf')).toBe(0x7c00);
    expect(bits('-inf')).toBe(0xfc00);
    expect(bits('-0')).toBe(0x8000);
    expect(bits('nan')).toBe(0x7fff);
    expect(bits('snan')).toBe(0x7c01);
    expect(bits('65504')).toBe(0x7bff);
    expect(bits('65520')).toBe(0x7c00); // halfway to 2^16: rounds to even, which overflows
    expect(bits('1e-8')).toBe(0x0000);
    expect(bits('6e-8')).toBe(0x0001);
    expect(bits('1.00390625', bf16)).toBe(0x3f80); // tie → even
    expect(bits('0.1', f32)).toBe(0x3dcccccd);
    expect(bits('1e999999999', f32)).toBe(0x7f800000);
    expect(bits('-1e-999999999', f32)).toBe(0x80000000);
    // A zero with a huge exponent is an exact zero, read at once (it built 10^999999999).
    expect(parseValue('-0e-999999999', f16)).toEqual({ ok: true, bits: 0x8000, exact: true });
    expect(parseValue('0.000e999999999', f32)).toEqual({ ok: true, bits: 0, exact: true });
  });

  it('rejects what is not a number with a message and a position', () => {
    for (const text of [
      '',
      '   ',
      'abc',
      '1.2.3',
      '0x',
      '--1',
      '1e',
      'x'.repeat(2000),
      '\u0000',
      '1 2',
    ]) {
      const r = parseValue(text, f16);
      expect(r.ok, text).toBe(false);
      if (!r.ok) {
        expect(r.error.message.length).toBeGreaterThan(5);
        expect(r.error.position).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it('says what to type for a fraction or a decimal comma', () => {
    const message = (text: string) => {
      const r = parseValue(text, f16);
      return r.ok ? null : r.error.message;
    };
    expect(message('1/3')).toBe(
      "'1/3' is not a number: a fraction is not read; type its decimal, 0.3333333333333333",
    );
    expect(message('-1,5')).toBe(
      "'-1,5' is not a number: write the decimal point as a point (1.5)",
    );
    expect(message('1,000')).toBe(
      "'1,000' is not a number: a comma is not read: write 1000 (thousands) or 1.000 (a decimal point)",
    );
    expect(message('1/0')).toMatch(/expected a decimal/);
    expect(message('abc')).toBe(
      "'abc' is not a number: expected a decimal (-1.5e-5), a hex float (0x1.8p-3), inf, -0 or nan",
    );
  });

  it('never throws (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => void parseValue(s, f16)),
      { numRuns: 5000 },
    );
  });
});

describe('shortestDecimal', () => {
  it.each([
    ['f16', f16],
    ['bf16', bf16],
  ] as const)('reads back to the same bits for every finite %s pattern', (_n, f) => {
    for (let b = 0; b < 65536; b++) {
      if (!Number.isFinite(toDouble(b, f))) continue;
      const s = shortestDecimal(b, f);
      const back = parseValue(s, f);
      if (!back.ok || back.bits !== b) expect.fail(`${b.toString(16)} → ${s}`);
    }
  });

  it('gives short forms', () => {
    expect(shortestDecimal(0x3555, f16)).toBe('0.3333');
    expect(shortestDecimal(0x3dcccccd, f32)).toBe('0.1');
    expect(shortestDecimal(0x8000, f16)).toBe('-0');
  });
});

describe('nextUp / nextDown', () => {
  it('walk the value order through zero and stop at infinities', () => {
    expect(nextUp(0x8000, f16)).toBe(0x0001);
    expect(nextUp(0x8001, f16)).toBe(0x0000);
    expect(nextDown(0x0000, f16)).toBe(0x8001);
    expect(nextUp(0x7bff, f16)).toBe(0x7c00);
    expect(nextUp(0x7c00, f16)).toBe(0x7c00);
    expect(nextDown(0xfc00, f16)).toBe(0xfc00);
    for (let b = 0; b < 65536; b++) {
      const v = toDouble(b, f16);
      if (!Number.isFinite(v) || (v === 0 && b === 0)) continue;
      const up = nextUp(b, f16);
      expect(toDouble(up, f16) > v || Object.is(v, -0)).toBe(true);
      expect(nextDown(up, f16) === b || (v === 0 && toDouble(nextDown(up, f16), f16) === 0)).toBe(
        true,
      );
    }
  });
});

describe('encode / decode', () => {
  it('are inverse on every 16-bit pattern and reject out-of-range fields', async () => {
    const { decode, encode } = await import('./formats.ts');
    for (const f of [f16, bf16]) {
      for (let b = 0; b < 65536; b++) expect(encode(decode(b, f), f)).toBe(b);
    }
    expect(encode({ negative: true, exponent: 127, mantissa: 0 }, f32)).toBe(0xbf800000);
    expect(() => encode({ negative: false, exponent: 32, mantissa: 0 }, f16)).toThrow(RangeError);
    expect(() => encode({ negative: false, exponent: 1, mantissa: 1024 }, f16)).toThrow(RangeError);
  });
});
