import { describe, expect, it } from 'vitest';
import { ELEMENT_FORMAT_NAMES } from '../../catalog/cvt-types.ts';
import { cvtCornerRows, formatInfo, valueTable } from './format-info.ts';

describe('format pages as data', () => {
  it('describe every format of cvt', () => {
    for (const name of ELEMENT_FORMAT_NAMES) expect(formatInfo(name).name).toBe(name);
    expect(formatInfo('e4m3')).toMatchObject({
      width: 8,
      bias: 7,
      hasInfinity: false,
      nan: 'only 0x7F and 0xFF',
      canonicalNaN: '0x7F',
      maxNorm: { bits: '0x7E', value: '448' },
      minSubnormal: { bits: '0x01', value: '0.001953125' },
    });
    expect(formatInfo('ue8m0')).toMatchObject({
      signed: false,
      hasZero: false,
      minSubnormal: null,
    });
    expect(formatInfo('e2m1')).toMatchObject({
      nan: 'none',
      canonicalNaN: null,
      maxNorm: { value: '6' },
    });
    expect(formatInfo('f64').maxNorm.bits).toBe('0x7FEFFFFFFFFFFFFF');
  });

  it('list every value of the small formats with the gap to the next', () => {
    const e4m3 = valueTable('e4m3');
    expect(e4m3).toHaveLength(256);
    expect(e4m3[0x7e]).toEqual({ bits: '0x7E', class: 'normal', value: '448', gapToNext: null });
    expect(e4m3[0x7d]!.gapToNext).toBe('32');
    expect(e4m3[0x7f]!.class).toBe('qnan');
    expect(e4m3[0x00]!.gapToNext).toBe('0.001953125'); // +0 to the least subnormal
    expect(valueTable('e2m1').map((r) => r.value)).toEqual([
      '0',
      '0.5',
      '1',
      '1.5',
      '2',
      '3',
      '4',
      '6',
      '-0',
      '-0.5',
      '-1',
      '-1.5',
      '-2',
      '-3',
      '-4',
      '-6',
    ]);
    expect(valueTable('ue8m0')[0xfe]!.gapToNext).toBeNull();
    expect(() => valueTable('f16')).toThrow(/8 bits or fewer/);
  });

  it('give the corner cases of a cvt form, converted by the engine', () => {
    const rows = cvtCornerRows('cvt.rn.satfinite.e4m3x2.f32');
    const by = (label: string) => rows.find((r) => r.label === label)!.result.bits;
    expect(by('NaN')).toBe('0x7F');
    expect(by('+inf')).toBe('0x7E');
    expect(by('-inf')).toBe('0xFE');
    expect(by('-0')).toBe('0x80');
    expect(by('MAX_NORM of .e4m3')).toBe('0x7E');
    expect(by('just above MAX_NORM of .e4m3')).toBe('0x7E');
    expect(by('least subnormal of .f32')).toBe('0x00');
    expect(cvtCornerRows('cvt.rn.f16x2.e2m1x2').map((r) => r.label)).not.toContain('NaN');
  });
});
