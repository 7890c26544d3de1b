import { describe, expect, it } from 'vitest';
import { findForm } from '../catalog/all-forms.ts';
import { FORMATS, formatHex } from '../engine/format.ts';
import { readRegisterText } from '../engine/register-text.ts';
import { readValueText } from '../engine/stored-value.ts';
import { registerStoredText, storedValueText } from './stored-text.ts';

/** What `text` typed into format `f` stored, in words. */
function words(text: string, format: keyof typeof FORMATS): string {
  const f = FORMATS[format];
  const r = readValueText(text, f);
  if (!r.ok) throw new Error(r.error.message);
  return storedValueText(r.value, formatHex(r.value.bits, f));
}

describe('what a typed value stored, in words', () => {
  it('an exact value: the bits and the value', () => {
    expect(words('1.5', 'f16')).toBe('stored 0x3e00 = 1.5');
    expect(words('-0', 'f16')).toBe('stored 0x8000 = -0');
    expect(words('nan', 'bf16')).toBe('stored 0x7fff = NaN');
  });

  it('a rounded value: not a value of the format, the stored one, the rounding and its error', () => {
    expect(words('0.1', 'f16')).toBe(
      '0.1 is not an f16 value: stored 0x2e66 = 0.0999755859375 (rounded to nearest even; error -2.44140625e-5)',
    );
    expect(words('500', 'e5m2')).toBe(
      '500 is not an e5m2 value: stored 0x60 = 512 (rounded to nearest even; error +12)',
    );
  });

  it('past the largest value: the infinity of its sign, said which way', () => {
    expect(words('70000', 'f16')).toBe(
      '70000 is above the largest f16 (65504): stored 0x7c00 = +inf (rounded to nearest even)',
    );
    expect(words('-1e39', 'f32')).toBe(
      '-1e39 is below the most negative f32 (-3.4028234663852885…e38): stored 0xff800000 = -inf (rounded to nearest even)',
    );
  });

  it('below half the least value: a zero, and at exactly half the tie to the even zero', () => {
    expect(words('1e-8', 'f16')).toBe(
      '1e-8 is below half the smallest f16 subnormal (2^-25 = 2.9802322387695312…e-8): stored 0x0000 = +0 (rounded to nearest even)',
    );
    expect(words('-0x1p-25', 'f16')).toBe(
      '-0x1p-25 is exactly half the smallest f16 subnormal (2^-25 = 2.9802322387695312…e-8) in magnitude: stored 0x8000 = -0 (rounded to nearest even: the tie goes to the even value, 0)',
    );
  });

  it('a whole register: the value in each of its lanes or elements', () => {
    const stored = (form: string, register: 'a', text: string) => {
      const f = findForm(form)!;
      const r = readRegisterText(f, register, text);
      if (!r.ok || r.written !== 'value') throw new Error(`${text} is no value`);
      return registerStoredText(f, r, r.places);
    };
    expect(stored('neg.bf16x2', 'a', '-0.25')).toBe('stored 0xbe80be80 = -0.25 in each lane');
    expect(stored('cvt.rn.f16x2.e4m3x2', 'a', '448')).toBe('stored 0x7e7e = 448 in each element');
    expect(stored('neg.f16', 'a', '2')).toBe('stored 0x4000 = 2');
  });
});
