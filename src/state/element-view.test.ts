import { describe, expect, it } from 'vitest';
import { cornerTable } from '../engine/analysis/index.ts';
import { caseWords } from '../present/analysis-words.ts';
import { findForm } from '../catalog/all-forms.ts';
import { elementReadout, holdsOobNaN, neighbours, quickPicks } from './element-view.ts';

describe('element readouts, for every format', () => {
  it('read out a normal, a subnormal and specials of f16 and bf16', () => {
    expect(elementReadout(0x3e00n, 'f16')).toEqual({
      className: 'positive normal',
      exact: '1.5',
      shortest: '1.5',
      fieldText: '1.5',
      exponentText: 'stored 01111 = 15, bias 15 → 2⁰',
      significand: '+1.1000000000b',
      ulp: '2⁻¹⁰',
      canonicalNaN: false,
      maxNorm: false,
      nan: false,
    });
    expect(elementReadout(0x0001n, 'f16').ulp).toBe('2⁻²⁴');
    expect(elementReadout(0x7bffn, 'f16')).toMatchObject({ ulp: '2⁵', maxNorm: true });
    expect(elementReadout(0x7c00n, 'f16').ulp).toBeNull();
    expect(elementReadout(0x7fffn, 'f16')).toMatchObject({ canonicalNaN: true, nan: true });
    expect(elementReadout(0x7e00n, 'f16').canonicalNaN).toBe(false);
    const sub = elementReadout(0x8001n, 'f16');
    expect(sub.className).toBe('negative subnormal');
    expect(sub.exponentText).toBe('stored 00000: subnormal, 1 − bias 15 → 2⁻¹⁴');
    expect(sub.significand).toBe('−0.0000000001b');
    expect(elementReadout(0x7c01n, 'f16').className).toBe('positive signaling NaN');
    expect(elementReadout(0x7f80n, 'bf16').exponentText).toBe(
      'stored 11111111: all ones, infinity or NaN',
    );
    expect(elementReadout(0x4000n, 'bf16').exponentText).toBe(
      'stored 10000000 = 128, bias 127 → 2¹',
    );
    expect(elementReadout(0x0000n, 'f16').exponentText).toBe('stored 00000: zero');
  });

  it('show the exact value in the value field where 17 digits hold it, the shortest decimal otherwise; one style for every format', () => {
    expect(elementReadout(0x7bffn, 'f16')).toMatchObject({
      fieldText: '65504',
      shortest: '65500',
    });
    expect(elementReadout(0x3c08n, 'f16')).toMatchObject({
      fieldText: '1.0078125',
      shortest: '1.008',
    });
    // As the result line and the readouts write it (issue 23 point 7: "6e-8" there).
    expect(elementReadout(0x0001n, 'f16')).toMatchObject({
      exact: '0.000000059604644775390625',
      fieldText: '5.9604644775390625e-8',
    });
    // 0.1 in f16 and in bf16 alike: the exact value (it was "0.1" for f16 only).
    expect(elementReadout(0x2e66n, 'f16').fieldText).toBe('0.0999755859375');
    expect(elementReadout(0x3dcdn, 'bf16').fieldText).toBe('0.10009765625');
    // f32's 0.1 needs 27 digits: the shortest decimal that reads back.
    expect(elementReadout(0x3dcccccdn, 'f32').fieldText).toBe('0.1');
    expect(elementReadout(0x7f7fffffn, 'f32').fieldText).toBe('3.4028235e38');
    // The shortest decimal positional where the style is: 450 reads back as e4m3's 448.
    expect(elementReadout(0x7en, 'e4m3').shortest).toBe('450');
    expect(elementReadout(0x7c00n, 'f16').fieldText).toBe('inf');
  });

  it('read out the narrow formats, ue8m0 and 64-bit values', () => {
    expect(elementReadout(0x7en, 'e4m3')).toMatchObject({
      className: 'positive normal',
      exact: '448',
      fieldText: '448',
      exponentText: 'stored 1111 = 15, bias 7 → 2⁸',
      significand: '+1.110b',
      ulp: '2⁵',
      maxNorm: true,
    });
    expect(elementReadout(0x7fn, 'e4m3')).toMatchObject({
      className: 'positive quiet NaN',
      canonicalNaN: true,
      exponentText: 'stored 1111: the NaN pattern',
    });
    expect(elementReadout(0x00n, 'ue8m0')).toMatchObject({
      className: 'positive normal',
      exponentText: 'stored 00000000 = 0, bias 127 → 2⁻¹²⁷',
    });
    expect(elementReadout(0x8000000000000001n, 'f64')).toMatchObject({
      className: 'negative subnormal',
      ulp: '2⁻¹⁰⁷⁴',
    });
  });

  it('know the OOB-NaN pattern of 16-bit elements only', () => {
    expect(holdsOobNaN(0x7ff7n, 'f16')).toBe(true);
    expect(holdsOobNaN(0xfff7n, 'bf16')).toBe(true);
    expect(holdsOobNaN(0x7fffn, 'f16')).toBe(false);
    expect(holdsOobNaN(0x7ff7n, 'f32')).toBe(false);
  });

  it('offer the special values each format has, as the corner-case tables name them', () => {
    const picks = Object.fromEntries(quickPicks('bf16').map((p) => [p.name, p.bits]));
    expect(picks['+max finite']).toBe(0x7f7fn);
    expect(picks['-min normal']).toBe(0x8080n);
    expect(picks['NaN']).toBe(0x7fffn);
    expect(picks['sNaN']).toBe(0x7f81n);
    const names = (f: 'e2m1' | 'e4m3' | 'ue8m0') => quickPicks(f).map((p) => p.name);
    expect(names('e2m1')).not.toContain('NaN');
    expect(names('e4m3')).toContain('NaN');
    expect(names('e4m3')).not.toContain('+inf');
    expect(names('ue8m0')).not.toContain('+0');
    expect(quickPicks('f64').find((p) => p.name === '+inf')!.bits).toBe(0x7ff0000000000000n);
    for (const text of ['neg.f16', 'neg.bf16']) {
      const form = findForm(text)!;
      const inputs = cornerTable(form).rows.map((r) => ({
        name: caseWords(r.inputs[0]!.case, form),
        bits: BigInt(r.inputs[0]!.value.bits),
      }));
      const format = form.elements[0]!.inputs[0]!.format;
      expect(inputs).toEqual(quickPicks(format).map((p) => ({ name: p.name, bits: p.bits })));
    }
  });

  it('step to the neighbours; a NaN and the ends stay', () => {
    expect(neighbours(0x7en, 'e4m3')).toEqual({ up: 0x7en, down: 0x7dn });
    expect(neighbours(0n, 'f64')).toEqual({ up: 1n, down: 0x8000000000000001n });
    expect(neighbours(0x8000000000000001n, 'f64')).toEqual({ up: 0n, down: 0x8000000000000002n });
    expect(neighbours(0x7ff0000000000000n, 'f64').up).toBe(0x7ff0000000000000n);
    expect(neighbours(0x7fffn, 'f16')).toEqual({ up: 0x7fffn, down: 0x7fffn });
  });
});
