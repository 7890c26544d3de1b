import { describe, expect, it } from 'vitest';
import { parseRegisterDigits } from './register-digits.ts';

describe('register digits: a field labelled hex or binary reads its base', () => {
  it('reads bare digits in the field’s base, and the same digits with the prefix', () => {
    expect(parseRegisterDigits('1000', 'hex', 16)).toEqual({ ok: true, bits: 0x1000n });
    expect(parseRegisterDigits('0x1000', 'hex', 16)).toEqual({ ok: true, bits: 0x1000n });
    expect(parseRegisterDigits('0010', 'hex', 16)).toEqual({ ok: true, bits: 0x10n });
    expect(parseRegisterDigits('3C00', 'hex', 16)).toEqual({ ok: true, bits: 0x3c00n });
    expect(parseRegisterDigits('101', 'binary', 16)).toEqual({ ok: true, bits: 5n });
    expect(parseRegisterDigits('0b101', 'binary', 16)).toEqual({ ok: true, bits: 5n });
    expect(parseRegisterDigits(' 0011 1100_0000 0000 ', 'binary', 16)).toEqual({
      ok: true,
      bits: 0x3c00n,
    });
    expect(parseRegisterDigits('7ff0000000000000', 'hex', 64)).toEqual({
      ok: true,
      bits: 0x7ff0000000000000n,
    });
  });

  it('refuses a value, naming where values go', () => {
    for (const text of ['1.5', '-0', 'inf', '1e-3x', '0x1.8p-3']) {
      const r = parseRegisterDigits(text, 'hex', 16);
      expect(r.ok, text).toBe(false);
    }
    expect(parseRegisterDigits('1.5', 'hex', 16)).toEqual({
      ok: false,
      message:
        "'1.5' is not hex digits: this field takes the register's bits in hex (3c00 or 0x3c00); type a value such as 1.5 in a value field",
    });
    expect(parseRegisterDigits('2', 'binary', 16)).toMatchObject({
      ok: false,
      message: expect.stringContaining("'2' is not binary digits"),
    });
  });

  it('sends the other base to its own field instead of guessing', () => {
    // "0b1" is also three hex digits: neither reading is taken silently.
    expect(parseRegisterDigits('0b1', 'hex', 16)).toEqual({
      ok: false,
      message: "'0b1' is binary: type it in the binary field",
    });
    expect(parseRegisterDigits('0x3c00', 'binary', 16)).toEqual({
      ok: false,
      message: "'0x3c00' is hex: type it in the hex field",
    });
  });

  it('holds no more digits than the register, and no bits above it', () => {
    expect(parseRegisterDigits('12345', 'hex', 16)).toEqual({
      ok: false,
      message: "'12345' has 5 hex digits; the register is 16 bits (at most 4 hex digits)",
    });
    expect(parseRegisterDigits('00003c00', 'hex', 32)).toEqual({ ok: true, bits: 0x3c00n });
    expect(parseRegisterDigits('1'.repeat(17), 'binary', 16).ok).toBe(false);
    // A 6-bit register: two hex digits, but below 0x40.
    expect(parseRegisterDigits('3f', 'hex', 6)).toEqual({ ok: true, bits: 0x3fn });
    expect(parseRegisterDigits('40', 'hex', 6)).toEqual({
      ok: false,
      message: "'40' does not fit: the register is 6 bits (below 0x40)",
    });
  });

  it('says what an empty field takes', () => {
    expect(parseRegisterDigits('  ', 'hex', 16)).toEqual({
      ok: false,
      message: "empty: type the register's bits in hex (3c00 or 0x3c00)",
    });
    expect(parseRegisterDigits('', 'binary', 32)).toEqual({
      ok: false,
      message: "empty: type the register's bits in binary (0 and 1, 0b optional)",
    });
  });
});
