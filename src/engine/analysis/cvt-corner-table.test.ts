import { describe, expect, it } from 'vitest';
import { CVT_FORMS } from '../../catalog/cvt-forms.ts';
import { evaluateCvt } from '../ops/cvt.ts';
import { cvtCornerTable } from './cvt-corner-table.ts';

const row = (form: string, name: string) => {
  const r = cvtCornerTable(form).rows.find((x) => x.name === name);
  if (!r) throw new Error(`${form} has no case '${name}'`);
  return r;
};

describe('cvt corner-case tables', () => {
  it('e4m3 from .f32 with .satfinite: NaN, the infinities, MAX_NORM and past it, ties, subnormals', () => {
    const form = 'cvt.rn.satfinite.e4m3x2.f32';
    const names = cvtCornerTable(form).rows.map((r) => r.name);
    expect(names.slice(0, 6)).toEqual(['NaN', 'sNaN', '+inf', '-inf', '+0', '-0']);
    expect(row(form, 'NaN')).toMatchObject({ result: { bits: '0x7F' }, outcomes: ['nan-input'] });
    expect(row(form, '+inf')).toMatchObject({ result: { value: '448' }, outcomes: ['clamp'] });
    expect(row(form, '-inf').result.value).toBe('-448');
    expect(row(form, 'MAX_NORM of .e4m3')).toMatchObject({
      registers: { a: '0x43E00000', b: '0x43E00000' },
      d: '0x7E7E',
      outcomes: [],
    });
    // 464 = 448 + 16 lies half way to 480, whose pattern 0x7F is e4m3's NaN: a tie, to the
    // even 448. Past it the rounding overflows, and .satfinite makes it 448.
    expect(
      row(form, 'half an ulp past MAX_NORM of .e4m3 (a tie: the .rn threshold)'),
    ).toMatchObject({
      input: { value: '464' },
      result: { value: '448' },
      outcomes: ['tie'],
    });
    expect(row(form, 'just above that threshold')).toMatchObject({
      result: { value: '448' },
      outcomes: ['overflow', 'clamp'],
    });
    // .f16 has infinity: its tie past MAX_NORM (65520) goes to the even neighbour, infinity.
    expect(
      row('cvt.rn.f16.f32', 'half an ulp past MAX_NORM of .f16 (a tie: the .rn threshold)'),
    ).toMatchObject({
      input: { value: '65520' },
      result: { value: '+inf' },
      outcomes: ['overflow', 'tie'],
    });
    expect(row(form, 'tie between 1 and the next .e4m3 value')).toMatchObject({
      input: { value: '1.0625' },
      result: { value: '1' },
      outcomes: ['tie'],
    });
    expect(row(form, 'just above that tie').result.value).toBe('1.125');
    expect(row(form, 'tie between the next two .e4m3 values').result.value).toBe('1.25');
    expect(row(form, 'half the least subnormal of .e4m3 (a tie with 0)')).toMatchObject({
      result: { bits: '0x00' },
      outcomes: ['tie'],
    });
    expect(row(form, '3/4 of the least subnormal of .e4m3')).toMatchObject({
      result: { bits: '0x01' },
      outcomes: ['underflow', 'subnormal'],
    });
  });

  it('formats without NaN or infinity, ue8m0, .relu, integer rounding, and sources of every width', () => {
    expect(row('cvt.rn.satfinite.e2m1x2.f32', 'NaN')).toMatchObject({
      result: { value: '6' },
      outcomes: ['nan-input', 'clamp'],
    });
    expect(cvtCornerTable('cvt.rn.f16x2.e2m1x2').rows.map((r) => r.name)).not.toContain('NaN');
    expect(row('cvt.rn.relu.f16.f32', '-1')).toMatchObject({
      result: { value: '0' },
      outcomes: ['clamp'],
    });
    expect(row('cvt.rni.f16.f16', '2.5 (a tie between 2 and 3)')).toMatchObject({
      result: { value: '2' },
      outcomes: ['tie'],
    });
    expect(
      row('cvt.rna.satfinite.tf32.f32', 'tie between 1 and the next .tf32 value'),
    ).toMatchObject({ result: { bits: '0x1FC01' }, outcomes: ['tie'] });
    expect(row('cvt.rp.satfinite.ue8m0x2.f32', '+0').result.value).toBe(
      '0.000000000000000000000000000000000000005877471754111437539843682686111228389093327783860437607543758531392086297273635864257812' +
        '5',
    );
    expect(row('cvt.f64.f32', 'least subnormal of .f32').result.bits).toBe('0x36A0000000000000');
  });

  it('agree with the traced engine on every row of every form, and every row loads as it says', () => {
    let rows = 0;
    for (const form of CVT_FORMS) {
      const table = cvtCornerTable(form);
      expect(table.rows.length, form.text).toBeGreaterThan(2);
      for (const r of table.rows) {
        const input = Object.fromEntries(
          Object.entries(r.registers).map(([k, v]) => [k, BigInt(v!)]),
        ) as { a: bigint };
        const out = evaluateCvt(form, input);
        expect(out.d, `${form.text} ${r.name}`).toBe(r.d);
        // Every element holds the case's value, so every element gives the same result.
        for (const e of out.elements) expect(e.result).toBe(r.result.bits);
        rows++;
      }
    }
    expect(rows).toBeGreaterThan(CVT_FORMS.length * 5);
  });
});
