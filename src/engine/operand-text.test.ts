import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FORMATS, toDouble } from './formats.ts';
import { describeStored, hexBits, parseOperandText, type OperandShape } from './operand-text.ts';
import { parseValue } from './values-text.ts';

const F16: OperandShape = { format: 'f16', lanes: 1, bits: 16 };
const F16X2: OperandShape = { format: 'f16', lanes: 2, bits: 32 };
const BF16: OperandShape = { format: 'bf16', lanes: 1, bits: 16 };
const F32: OperandShape = { format: 'f32', lanes: 1, bits: 32 };

const read = (text: string, shape = F16) => parseOperandText(text, shape);

describe('operand text: one rule for links, fields and the CLI', () => {
  it('reads 0x… and 0b… as register bits, with grouping allowed', () => {
    expect(read('0x3c00')).toEqual({ ok: true, bits: 0x3c00 });
    expect(read(' 0X3C_00 ')).toEqual({ ok: true, bits: 0x3c00 });
    expect(read('0x00003c00', F16X2)).toEqual({ ok: true, bits: 0x3c00 });
    expect(read('0b0011 1100 0000 0000')).toEqual({ ok: true, bits: 0x3c00 });
    expect(read('0x2')).toEqual({ ok: true, bits: 2 });
    expect(read('0xffffffff', F16X2)).toEqual({ ok: true, bits: 0xffffffff });
  });

  it('reads anything else as a value, rounded to nearest even, in every lane', () => {
    // The hand-written link: b=2 is the value 2, not the bit pattern 0x0002.
    expect(read('2')).toEqual({ ok: true, bits: 0x4000, value: { text: '2', exact: true } });
    expect(read('1.5')).toMatchObject({ bits: 0x3e00 });
    expect(read('-0')).toMatchObject({ bits: 0x8000 });
    expect(read('inf')).toMatchObject({ bits: 0x7c00 });
    expect(read('-inf', BF16)).toMatchObject({ bits: 0xff80 });
    expect(read('nan')).toMatchObject({ bits: 0x7fff });
    expect(read('1e-3')).toMatchObject({ bits: 0x1419, value: { exact: false } });
    expect(read('1.5', F16X2)).toMatchObject({ bits: 0x3e003e00 });
    expect(read('0.25', F32)).toMatchObject({ bits: 0x3e800000, value: { exact: true } });
    // A hex float is a value: it has a point or a binary exponent.
    expect(read('0x1.8p1')).toMatchObject({ bits: 0x4200, value: { text: '0x1.8p1' } });
    // 2049 lies halfway between 2048 and 2050: the even significand (2048) wins.
    expect(read('2049')).toMatchObject({ bits: 0x6800, value: { exact: false } });
  });

  it('refuses what is neither, with a message that says how to write bits', () => {
    const bare = read('3c00');
    expect(bare.ok).toBe(false);
    expect(!bare.ok && bare.message).toMatch(/take the 0x prefix \(0x3c00\)/);
    const binary = read('0011 1100');
    expect(!binary.ok && binary.message).toMatch(/0b00111100 \(binary\) or 0x00111100 \(hex\)/);
    const wide = read('0x12345');
    expect(!wide.ok && wide.message).toMatch(/has 5 hex digits; the register is 16 bits/);
    // Eight hex digits for a 16-bit register: a 32-bit pattern given by mistake, even if it
    // starts with zeros.
    expect(read('0x00003c00').ok).toBe(false);
    expect(read('0b' + '1'.repeat(17)).ok).toBe(false);
    expect(read('0xzz').ok).toBe(false);
    expect(read('0b102').ok).toBe(false);
    expect(read('0x').ok).toBe(false);
    // An empty field names what to type (it used to say " is not a hexadecimal bit pattern").
    const empty = read('');
    expect(!empty.ok && empty.message).toMatch(/^empty: type register bits/);
    // A 1 MB paste gets a one-line message.
    const paste = read('z'.repeat(1_000_000));
    expect(!paste.ok && paste.message.length).toBeLessThan(200);
  });

  it('says what a value stored', () => {
    const r = read('1.5');
    expect(r.ok && r.value && describeStored(r.bits, F16, r.value)).toBe('stored 0x3e00 = 1.5');
    const x2 = read('0.1', F16X2);
    expect(x2.ok && x2.value && describeStored(x2.bits, F16X2, x2.value)).toBe(
      '0.1 is not an f16 value: stored 0x2e662e66 = 0.0999755859375 in each lane (rounded to nearest even; error -2.44e-5)',
    );
  });

  const said = (text: string, shape = F16) => {
    const r = read(text, shape);
    if (!r.ok || !r.value) throw new Error(`${text} is not a value`);
    return describeStored(r.bits, shape, r.value);
  };

  it('says when a value is beyond the largest finite value: stored as infinity', () => {
    expect(said('70000')).toBe(
      '70000 is above the largest f16 (65504): stored 0x7c00 = +inf (rounded to nearest even)',
    );
    expect(said('-70000')).toBe(
      '-70000 is below the most negative f16 (-65504): stored 0xfc00 = -inf (rounded to nearest even)',
    );
    // 65519 is nearer 65504 than the (virtual) next step 65536: the largest finite, not inf;
    // 65520 is the halfway point, and the tie goes to the even one, inf.
    expect(said('65519')).toBe(
      '65519 is not an f16 value: stored 0x7bff = 65504 (rounded to nearest even; error -15)',
    );
    expect(said('65520')).toMatch(
      /^65520 is above the largest f16 \(65504\): stored 0x7c00 = \+inf/,
    );
    expect(said('1e300', BF16)).toMatch(
      /^1e300 is above the largest bf16 \(3\.39e38\): stored 0x7f80/,
    );
    expect(said('1e39', F32)).toMatch(/^1e39 is above the largest f32 \(3\.4028235e38\)/);
  });

  it('says when a value is at most half the smallest subnormal: stored as zero', () => {
    expect(said('1e-8')).toBe(
      '1e-8 is below half the smallest f16 subnormal (2^-25 = 2.98e-8): stored 0x0000 = 0 (rounded to nearest even)',
    );
    expect(said('-1e-8')).toMatch(/ in magnitude: stored 0x8000 = -0 /);
    // Exactly half: a tie, to the even neighbour 0 (2^-24 has an odd significand).
    expect(said('0x1p-25')).toBe(
      '0x1p-25 is exactly half the smallest f16 subnormal (2^-25 = 2.98e-8): stored 0x0000 = 0 (rounded to nearest even: the tie goes to the even value, 0)',
    );
    // Just above half rounds up to the smallest subnormal.
    expect(said('0x1.000002p-25')).toMatch(
      /^0x1\.000002p-25 is not an f16 value: stored 0x0001 = /,
    );
    expect(said('1e-300', F32)).toMatch(
      /below half the smallest f32 subnormal \(2\^-150 = 7\.01e-46\)/,
    );
  });

  it('gives the rounding error of a rounded value, stored minus typed, to three digits', () => {
    const shapes = [F16, BF16, F32];
    fc.assert(
      fc.property(
        fc.constantFrom(...shapes),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        (shape, x) => {
          const text = String(x);
          const r = read(text, shape);
          if (!r.ok || !r.value || r.value.exact) return;
          const f = FORMATS[shape.format];
          const stored = toDouble(r.bits, f);
          const message = describeStored(r.bits, shape, r.value);
          if (!Number.isFinite(stored) || stored === 0) {
            expect(message).not.toMatch(/error/);
            return;
          }
          const m = /; error (\S+)\)$/.exec(message);
          expect(m, message).not.toBeNull();
          // A double's text is the double exactly, and stored − x is exact to far more than
          // three digits in double arithmetic (both are doubles within a factor of 2).
          const want = stored - x;
          expect(Math.abs(Number(m![1]) - want)).toBeLessThanOrEqual(Math.abs(want) * 5e-3);
        },
      ),
      { numRuns: 3000, seed: 15 },
    );
  });

  it('agrees with parseValue on every value text, and reads its own hex back', () => {
    const shapes = [F16, F16X2, BF16, F32];
    fc.assert(
      fc.property(
        fc.constantFrom(...shapes),
        fc.oneof(
          fc.double({ noNaN: false }).map(String),
          fc.string({ maxLength: 12 }),
          fc.nat(0xffffffff).map((n) => `0x${n.toString(16)}`),
        ),
        (shape, text) => {
          const r = parseOperandText(text, shape);
          if (!r.ok) return;
          expect(Number.isInteger(r.bits) && r.bits >= 0 && r.bits < 2 ** shape.bits).toBe(true);
          if (r.value) {
            const lane = parseValue(text, FORMATS[shape.format]);
            expect(lane.ok && (shape.lanes === 2 ? lane.bits * 65537 : lane.bits)).toBe(r.bits);
          }
          expect(parseOperandText(hexBits(r.bits, shape.bits), shape)).toEqual({
            ok: true,
            bits: r.bits,
          });
        },
      ),
      { numRuns: 2000 },
    );
  });
});
