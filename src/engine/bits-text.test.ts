import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBitsText, readPrefixedBits } from './bits-text.ts';

describe('parseBitsText: a field labelled hex or binary', () => {
  it('reads digits of its base, the prefix optional (issue 23: 1000 in the hex field is 0x1000)', () => {
    expect(parseBitsText('1000', 16, 16)).toEqual({ ok: true, bits: 0x1000n });
    expect(parseBitsText('0010', 16, 16)).toEqual({ ok: true, bits: 0x0010n });
    expect(parseBitsText('3c00', 16, 16)).toEqual({ ok: true, bits: 0x3c00n });
    expect(parseBitsText('0x3c00', 16, 16)).toEqual({ ok: true, bits: 0x3c00n });
    expect(parseBitsText(' 0X3C_00 ', 16, 16)).toEqual({ ok: true, bits: 0x3c00n });
    expect(parseBitsText('ABCD', 16, 16)).toEqual({ ok: true, bits: 0xabcdn });
    expect(parseBitsText('101', 2, 16)).toEqual({ ok: true, bits: 0b101n });
    expect(parseBitsText('0b101', 2, 16)).toEqual({ ok: true, bits: 0b101n });
    expect(parseBitsText('0011 1100 0000 0000', 2, 16)).toEqual({ ok: true, bits: 0x3c00n });
    expect(parseBitsText('ffffffffffffffff', 16, 64)).toEqual({
      ok: true,
      bits: 0xffffffffffffffffn,
    });
    // A 6-bit element: two hex digits, below 0x40.
    expect(parseBitsText('3f', 16, 6)).toEqual({ ok: true, bits: 0x3fn });
  });

  it('refuses what is not of its base or does not fit, with a code, a position and a way out', () => {
    const cases = [
      [
        '1a',
        2,
        16,
        'bits-digits',
        1,
        /^'1a' is not binary: type the digits 0 and 1 \(0b optional\)$/,
      ],
      ['12', 2, 16, 'bits-digits', 1, /\(0b optional\); a value goes in the value field$/],
      ['1.5', 2, 16, 'bits-digits', 1, /a value goes in the value field/],
      ['0x3c00', 2, 16, 'bits-digits', 1, /is not binary/],
      ['3g00', 16, 16, 'bits-digits', 1, /is not hex: type the digits 0-9 and a-f \(0x optional\)/],
      ['-1', 16, 16, 'bits-digits', 0, /a value goes in the value field/],
      ['0x', 16, 16, 'bits-digits', 2, /is not hex/],
      ['', 16, 16, 'empty', 0, /^empty: type hex digits/],
      ['  ', 2, 8, 'empty', 2, /^empty: type binary digits/],
      ['12345', 16, 16, 'bits-too-wide', 0, /has 5 hex digits; the field is 16 bits \(at most 4/],
      ['00003c00', 16, 16, 'bits-too-wide', 0, /has 8 hex digits/],
      ['1'.repeat(17), 2, 16, 'bits-too-wide', 0, /has 17 binary digits/],
      ['40', 16, 6, 'bits-too-wide', 0, /the field is 6 bits \(at most 0x3f\)/],
      ['f'.repeat(900), 16, 16, 'too-long', 0, /too long/],
    ] as const;
    for (const [text, base, width, code, position, message] of cases) {
      const r = parseBitsText(text, base, width);
      expect(r.ok, text).toBe(false);
      if (r.ok) continue;
      expect(r.error.code, text).toBe(code);
      expect(r.error.position, text).toBe(position);
      expect(r.error.message, text).toMatch(message);
    }
  });

  it('reads back what it writes, at every width (property)', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 64 })
          .chain((width) =>
            fc.tuple(fc.constant(width), fc.bigInt({ min: 0n, max: (1n << BigInt(width)) - 1n })),
          ),
        ([width, bits]) => {
          const hex = bits.toString(16).padStart(Math.ceil(width / 4), '0');
          expect(parseBitsText(hex, 16, width)).toEqual({ ok: true, bits });
          expect(parseBitsText(bits.toString(2).padStart(width, '0'), 2, width)).toEqual({
            ok: true,
            bits,
          });
          // One more leading digit is one too many.
          expect(parseBitsText(`0${hex}`, 16, width).ok).toBe(false);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('never throws (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.constantFrom(16 as const, 2 as const),
        fc.integer({ min: 1, max: 64 }),
        (text, base, width) => void parseBitsText(text, base, width),
      ),
      { numRuns: 3000 },
    );
  });
});

describe('readPrefixedBits: operand text written as bits', () => {
  it('takes 0x… (hex digits only) and 0b…, and leaves values (hex floats included) alone', () => {
    expect(readPrefixedBits('0x3c00', 16)).toEqual({ ok: true, bits: 0x3c00n });
    expect(readPrefixedBits('0B0011_1100_0000_0000', 16)).toEqual({ ok: true, bits: 0x3c00n });
    expect(readPrefixedBits('0x1.8p1', 16)).toBeNull();
    expect(readPrefixedBits('0x1p-3', 16)).toBeNull();
    expect(readPrefixedBits('1.5', 16)).toBeNull();
    expect(readPrefixedBits('3c00', 16)).toBeNull();
    expect(readPrefixedBits('0x3f', 6, 'element')).toEqual({ ok: true, bits: 0x3fn });
    expect(readPrefixedBits('0x40', 6, 'element')).toMatchObject({
      ok: false,
      error: { code: 'bits-too-wide', message: expect.stringContaining('element is 6 bits') },
    });
    expect(readPrefixedBits('0xzz', 16)).toMatchObject({
      ok: false,
      error: { code: 'bits-digits', position: 2 },
    });
    expect(readPrefixedBits(' 0b102', 16)).toMatchObject({
      ok: false,
      error: { code: 'bits-digits', position: 5 },
    });
  });
});
