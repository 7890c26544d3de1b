import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORMS, findForm } from '../catalog/all-forms.ts';
import type { Form, RegisterName } from '../catalog/instruction.ts';
import { exactValueOfBits, FORMATS, hexOf } from './format.ts';
import { readElementText, readRegisterText, registerPlaces } from './register-text.ts';
import { readValueText } from './stored-value.ts';

const form = (text: string): Form => {
  const f = findForm(text);
  if (!f) throw new Error(`no form ${text}`);
  return f;
};

/** The arithmetic registers the operand rule has always served: one f16, f16x2, bf16, f32. */
const F16 = [form('add.f16'), 'a'] as const;
const F16X2 = [form('add.f16x2'), 'a'] as const;
const BF16 = [form('add.bf16'), 'a'] as const;
const F32 = [form('add.f32.f16'), 'c'] as const;
type Operand = readonly [Form, RegisterName];

const read = (text: string, [f, name]: Operand = F16) => readRegisterText(f, name, text);
const bitsOf = (text: string, operand: Operand = F16) => {
  const r = read(text, operand);
  if (!r.ok) throw new Error(r.error.message);
  return r.bits;
};
const messageOf = (text: string, operand: Operand = F16) => {
  const r = read(text, operand);
  return r.ok ? `read as ${hexOf(r.bits, r.width)}` : r.error.message;
};

describe('register text: one rule for links, fields and the CLI', () => {
  it('reads 0x… and 0b… as register bits, with grouping allowed', () => {
    expect(read('0x3c00')).toEqual({ ok: true, written: 'bits', bits: 0x3c00n, width: 16 });
    expect(bitsOf(' 0X3C_00 ')).toBe(0x3c00n);
    expect(bitsOf('0x00003c00', F16X2)).toBe(0x3c00n);
    expect(bitsOf('0b0011 1100 0000 0000')).toBe(0x3c00n);
    expect(bitsOf('0x2')).toBe(2n);
    expect(bitsOf('0xffffffff', F16X2)).toBe(0xffffffffn);
  });

  it('reads anything else as a value, rounded to nearest even, in every element', () => {
    // A hand-written link's b=2 is the value 2, not the bit pattern 0x0002.
    expect(read('2')).toMatchObject({
      ok: true,
      written: 'value',
      bits: 0x4000n,
      places: [{ elements: [0], value: { text: '2', exact: true } }],
    });
    expect(bitsOf('1.5')).toBe(0x3e00n);
    expect(bitsOf('-0')).toBe(0x8000n);
    expect(bitsOf('inf')).toBe(0x7c00n);
    expect(bitsOf('-inf', BF16)).toBe(0xff80n);
    expect(bitsOf('nan')).toBe(0x7fffn);
    expect(read('1e-3')).toMatchObject({ bits: 0x1419n, places: [{ value: { exact: false } }] });
    expect(read('1.5', F16X2)).toMatchObject({
      bits: 0x3e003e00n,
      places: [
        { elements: [0], place: { value: { hi: 15, lo: 0 } }, value: { bits: 0x3e00n } },
        { elements: [1], place: { value: { hi: 31, lo: 16 } }, value: { bits: 0x3e00n } },
      ],
    });
    expect(read('0.25', F32)).toMatchObject({
      bits: 0x3e800000n,
      places: [{ value: { exact: true } }],
    });
    // A hex float is a value: it has a point or a binary exponent.
    expect(read('0x1.8p1')).toMatchObject({
      bits: 0x4200n,
      places: [{ value: { text: '0x1.8p1' } }],
    });
    // 2049 lies halfway between 2048 and 2050: the even pattern (2048) wins.
    expect(read('2049')).toMatchObject({
      bits: 0x6800n,
      places: [{ value: { exact: false, rounding: { reason: 'tie-to-even' } } }],
    });
    // Letters in either case.
    expect(bitsOf('INF')).toBe(0x7c00n);
    expect(bitsOf('NaN')).toBe(0x7fffn);
    expect(bitsOf('1E0')).toBe(0x3c00n);
  });

  it('refuses what is neither, with a code and a message that says how to write bits', () => {
    expect(read('3c00')).toMatchObject({ ok: false, error: { code: 'not-a-number' } });
    expect(messageOf('3c00')).toMatch(/take the 0x prefix \(0x3c00\)/);
    expect(messageOf('0011 1100')).toMatch(/0b00111100 \(binary\) or 0x00111100 \(hex\)/);
    expect(read('0x12345')).toMatchObject({ ok: false, error: { code: 'bits-too-wide' } });
    expect(messageOf('0x12345')).toMatch(/has 5 hex digits; the register is 16 bits/);
    // Eight hex digits for a 16-bit register: a 32-bit pattern given by mistake, even if it
    // starts with zeros.
    expect(read('0x00003c00').ok).toBe(false);
    expect(read('0b' + '1'.repeat(17)).ok).toBe(false);
    expect(read('0xzz')).toMatchObject({ ok: false, error: { code: 'bits-digits', position: 2 } });
    expect(read('0b102')).toMatchObject({ ok: false, error: { code: 'bits-digits', position: 4 } });
    expect(read('0x').ok).toBe(false);
    // An empty field names what to type.
    expect(read('')).toMatchObject({ ok: false, error: { code: 'empty' } });
    expect(messageOf('')).toMatch(/^empty: type register bits/);
    // The slips of issue 23: a decimal comma, a fraction.
    expect(messageOf('1,5')).toMatch(/commas are not read/);
    expect(messageOf('1/3')).toMatch(/a fraction is not read/);
    // A 1 MB paste gets a one-line message.
    const paste = read('z'.repeat(1_000_000));
    expect(!paste.ok && paste.error.message.length).toBeLessThan(200);
    expect(read('1.5', [form('add.f16'), 'c'])).toMatchObject({
      ok: false,
      error: { code: 'no-register' },
    });
  });

  it('agrees with readValueText on every value text, and reads its own hex back (property)', () => {
    const operands = [F16, F16X2, BF16, F32];
    fc.assert(
      fc.property(
        fc.constantFrom(...operands),
        fc.oneof(
          fc.double({ noNaN: false }).map(String),
          fc.string({ maxLength: 12 }),
          fc.nat(0xffffffff).map((n) => `0x${n.toString(16)}`),
        ),
        (operand, text) => {
          const r = read(text, operand);
          if (!r.ok) return;
          expect(r.bits >= 0n && r.bits >> BigInt(r.width) === 0n).toBe(true);
          if (r.written === 'value') {
            for (const { place, value } of r.places) {
              const lane = readValueText(text, FORMATS[place.format]);
              expect(lane.ok && lane.value.bits).toBe(value.bits);
              expect((r.bits >> BigInt(place.value.lo)) & 0xffffn).toBe(value.bits & 0xffffn);
            }
          }
          expect(read(hexOf(r.bits, r.width), operand)).toEqual({
            ok: true,
            written: 'bits',
            bits: r.bits,
            width: r.width,
          });
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('register text for cvt: every width and element layout', () => {
  const f = form('cvt.rn.satfinite.e4m3x2.f16x2');
  it('reads register bits of the full width, and values into each element', () => {
    expect(read('0x3c004000', [f, 'a'])).toMatchObject({ written: 'bits', bits: 0x3c004000n });
    expect(read('1.5', [f, 'a'])).toMatchObject({
      written: 'value',
      bits: 0x3e003e00n,
      width: 32,
      places: [{ value: { bits: 0x3e00n, exact: true } }, { value: { bits: 0x3e00n } }],
    });
    expect(read('0x1_0000_0000', [f, 'a'])).toMatchObject({ ok: false });
    const wide = form('cvt.rn.f32.f64');
    expect(read('0xffffffffffffffff', [wide, 'a'])).toMatchObject({
      bits: 0xffffffffffffffffn,
      width: 64,
    });
    const tenth = read('0.1', [wide, 'a']);
    expect(tenth).toMatchObject({
      bits: 0x3fb999999999999an,
      places: [{ value: { exact: false } }],
    });
    expect(exactValueOfBits(0x3fb999999999999an, FORMATS.f64).decimal).toBe(
      '0.1000000000000000055511151231257827021181583404541015625',
    );
    const rs = form('cvt.rs.f16x2.f32');
    expect(read('1.5', [rs, 'rbits'])).toMatchObject({
      ok: false,
      error: { code: 'bits-only', message: expect.stringContaining('random bits') as unknown },
    });
    expect(read('0xdeadbeef', [rs, 'rbits'])).toMatchObject({ bits: 0xdeadbeefn });
    expect(read('3c00', [f, 'a'])).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('0x3c00') as unknown },
    });
  });

  it('puts a value in the value bits of each slot, padding zero (e2m3 in 8 bits, tf32 high in 32)', () => {
    // e2m3x2 → f16x2: a holds two 6-bit values, each low in its byte; 1 is 0b001000.
    expect(read('1', [form('cvt.rn.f16x2.e2m3x2'), 'a'])).toMatchObject({ bits: 0x0808n });
    // tf32's 19 bits sit in bits 31…13 of d: 1.5 is 0x1fe00 there, the 13 bits below zero.
    expect(read('1.5', [form('cvt.rna.tf32.f32'), 'd'])).toMatchObject({
      bits: 0x1fe00n << 13n,
      places: [{ place: { value: { hi: 31, lo: 13 } }, value: { format: 'tf32', bits: 0x1fe00n } }],
    });
    // A value e4m3 cannot hold is refused for the register as for the element.
    expect(read('500', [form('cvt.rn.f16x2.e4m3x2'), 'a'])).toMatchObject({
      ok: false,
      error: { code: 'beyond-range' },
    });
  });

  it('reads element bits of the value width (6 bits for e2m3) and refuses values the format lacks', () => {
    expect(readElementText('0x3f', FORMATS.e2m3)).toEqual({
      ok: true,
      written: 'bits',
      bits: 0x3fn,
    });
    expect(readElementText('0x40', FORMATS.e2m3)).toMatchObject({
      ok: false,
      error: { code: 'bits-too-wide' },
    });
    expect(readElementText('0b111111', FORMATS.e2m3)).toEqual({
      ok: true,
      written: 'bits',
      bits: 0x3fn,
    });
    expect(readElementText('500', FORMATS.e4m3)).toMatchObject({
      ok: false,
      error: { code: 'beyond-range', message: expect.stringContaining('448') as unknown },
    });
    expect(readElementText('4.25', FORMATS.e4m3)).toMatchObject({
      ok: true,
      written: 'value',
      bits: 0x48n,
      value: { exact: false, text: '4.25' },
    });
    expect(exactValueOfBits(0x48n, FORMATS.e4m3).decimal).toBe('4');
    expect(readElementText('', FORMATS.tf32)).toMatchObject({
      ok: false,
      error: { code: 'empty', message: expect.stringContaining('19 bits') as unknown },
    });
  });
});

describe('one element field, as a sweep bound is (issue 23 point 10)', () => {
  const bound = (text: string) => readElementText(text, FORMATS.f16);
  it('reads 0x/0b as bits and says what is wrong with each kind of slip', () => {
    expect(bound('0b1')).toEqual({ ok: true, written: 'bits', bits: 1n });
    expect(bound('0x3c00')).toEqual({ ok: true, written: 'bits', bits: 0x3c00n });
    expect(bound('0x1234567890abcdef1234')).toMatchObject({
      ok: false,
      error: { code: 'bits-too-wide' },
    });
    // nan is a value; whether a bound may be NaN is the sweep's to say.
    expect(bound('nan')).toMatchObject({ ok: true, written: 'value', bits: 0x7fffn });
    const messages = ['abc', '1/3', '1,5'].map((text) => {
      const r = bound(text);
      return r.ok ? 'read' : `${r.error.code}: ${r.error.message}`;
    });
    expect(messages[0]).toMatch(/^not-a-number: 'abc' is neither bits/);
    expect(messages[1]).toMatch(/a fraction is not read/);
    expect(messages[2]).toMatch(/commas are not read/);
  });
});

describe('any text, any form, any register name', () => {
  it('gives bits or a structured error, never an exception (property)', () => {
    const names = ['d', 'a', 'b', 'c', 'e', 'f', 'rbits'] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...FORMS),
        fc.constantFrom(...names),
        fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 10 })),
        (f, name, text) => {
          const r = readRegisterText(f, name, text);
          if (r.ok) expect(r.bits >> BigInt(r.width)).toBe(0n);
          else expect(r.error.position >= 0 && r.error.position <= text.length).toBe(true);
        },
      ),
      { numRuns: 5000 },
    );
  });
});

describe('every register of every form', () => {
  it('has places that fit it, one format each, and takes a value in each of them', () => {
    let registers = 0;
    for (const f of FORMS) {
      for (const { name, bits: width } of f.registers) {
        const places = registerPlaces(f, name);
        const formats = new Set(places.map((p) => p.place.format));
        expect(formats.size, `${f.text} ${name}`).toBeLessThanOrEqual(1);
        for (const { place } of places) {
          const { value, slot } = place;
          expect(value.hi - value.lo + 1, `${f.text} ${name}`).toBe(FORMATS[place.format].width);
          expect(slot.lo <= value.lo && value.hi <= slot.hi && slot.hi < width).toBe(true);
        }
        const r = readRegisterText(f, name, '1');
        if (name === 'rbits') {
          expect(r).toMatchObject({ ok: false, error: { code: 'bits-only' } });
          continue;
        }
        registers++;
        if (!r.ok || r.written !== 'value')
          throw new Error(`${f.text} ${name}: ${JSON.stringify(r)}`);
        expect(r.places.length).toBe(places.length);
        let rest = r.bits;
        for (const { place } of places) {
          const one = readElementText('1', FORMATS[place.format]);
          const mask = (1n << BigInt(FORMATS[place.format].width)) - 1n;
          expect(one.ok && (r.bits >> BigInt(place.value.lo)) & mask).toBe(one.ok && one.bits);
          rest &= ~(mask << BigInt(place.value.lo));
        }
        // Nothing outside the places: padding and unused bits are zero.
        expect(rest, `${f.text} ${name}`).toBe(0n);
      }
    }
    expect(registers).toBeGreaterThan(1000);
  });
});
