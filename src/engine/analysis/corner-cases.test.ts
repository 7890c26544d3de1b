import { describe, expect, it } from 'vitest';
import { FORMS } from '../../catalog/all-forms.ts';
import { evaluate } from '../pipeline.ts';
import { cornerTable, type CaseId, type CornerRow } from './corner-cases.ts';
import { registersOfHex } from './form-registers.ts';
import { namedValues } from './named-values.ts';
import { caseOutcomes } from './outcomes.ts';

/** The row whose inputs are these cases, in order. */
const rowOf = (form: string, ...cases: CaseId[]): CornerRow => {
  const r = cornerTable(form).rows.find((x) => cases.every((c, i) => x.inputs[i]?.case === c));
  if (!r) throw new Error(`${form} has no case ${cases.join(', ')}`);
  return r;
};

describe('corner-case tables of the arithmetic', () => {
  it('add.f16: every pair of the 15 special values, (+inf)+(-inf) is the canonical NaN', () => {
    const rows = cornerTable('add.f16').rows;
    expect(rows).toHaveLength(225);
    const pair = rowOf('add.f16', '+inf', '-inf');
    expect(pair.registers).toEqual({ a: '0x7c00', b: '0xfc00' });
    expect(pair.result).toMatchObject({ bits: '0x7fff', class: 'qnan' });
    expect(pair.result.number).toBeNaN();
    expect(pair.outcomes).toEqual(['invalid']);
    expect(pair.inputs.map((i) => [i.operand, i.value.bits])).toEqual([
      ['a', '0x7c00'],
      ['b', '0xfc00'],
    ]);
  });

  it('fma: 15 × 15 × 6 addends; unary ops: one row per special value', () => {
    expect(cornerTable('fma.rn.bf16').rows).toHaveLength(1350);
    expect(cornerTable('tanh.approx.f16').rows).toHaveLength(15);
    const addends = new Set(cornerTable('fma.rn.f16').rows.map((r) => r.inputs[2]!.case));
    expect([...addends]).toEqual(['+zero', '-zero', '+one', '-max-norm', '-inf', 'nan']);
  });

  it('x2 forms hold the value in both lanes; mixed forms show a 32-bit result', () => {
    const x2 = rowOf('mul.rn.f16x2', '+one', '+one');
    expect(x2.registers.a).toBe('0x3c003c00');
    expect(x2.d).toBe('0x3c003c00');
    const mixed = rowOf('add.rn.f32.f16', '+one', '+one');
    expect(mixed.inputs.map((i) => i.operand)).toEqual(['a', 'c']);
    expect(mixed.registers).toEqual({ a: '0x3c00', c: '0x3f800000' });
    expect(mixed.d).toBe('0x40000000');
    expect(mixed.result).toMatchObject({ format: 'f32', class: 'normal', number: 2 });
    expect(mixed.result.value.decimal).toBe('2');
  });

  it("a unary form's inputs are its format's named values, in their order", () => {
    for (const format of ['f16', 'bf16'] as const) {
      const rows = cornerTable(`neg.${format}`).rows;
      expect(rows.map((r) => [r.inputs[0]!.case, BigInt(r.registers.a!)])).toEqual(
        namedValues(format).map((v) => [v.id, v.bits]),
      );
    }
  });
});

describe('corner-case tables of cvt', () => {
  it('e4m3 from .f32 with .satfinite: NaN, the infinities, MAX_NORM and past it, ties, subnormals', () => {
    const form = 'cvt.rn.satfinite.e4m3x2.f32';
    const cases = cornerTable(form).rows.map((r) => r.inputs[0]!.case);
    expect(cases.slice(0, 6)).toEqual(['nan', 'snan', '+inf', '-inf', '+zero', '-zero']);
    expect(rowOf(form, 'nan')).toMatchObject({
      result: { bits: '0x7f' },
      outcomes: ['nan-input'],
    });
    expect(rowOf(form, '+inf')).toMatchObject({ result: { number: 448 }, outcomes: ['clamp'] });
    expect(rowOf(form, '-inf').result.number).toBe(-448);
    expect(rowOf(form, '+dest-max-norm')).toMatchObject({
      registers: { a: '0x43e00000', b: '0x43e00000' },
      d: '0x7e7e',
      outcomes: [],
    });
    // 464 = 448 + 16 lies half way to 480, whose pattern 0x7f is e4m3's NaN: a tie, to the
    // even 448. Past it the rounding overflows, and .satfinite makes it 448.
    expect(rowOf(form, 'dest-overflow-tie')).toMatchObject({
      inputs: [{ value: { number: 464 } }],
      result: { number: 448 },
      outcomes: ['tie'],
    });
    expect(rowOf(form, 'above-dest-overflow-tie')).toMatchObject({
      result: { number: 448 },
      outcomes: ['overflow', 'clamp'],
    });
    // .f16 has infinity: its tie past MAX_NORM (65520) goes to the even neighbour, infinity.
    expect(rowOf('cvt.rn.f16.f32', 'dest-overflow-tie')).toMatchObject({
      inputs: [{ value: { number: 65520 } }],
      result: { bits: '0x7c00' },
      outcomes: ['overflow', 'tie'],
    });
    expect(rowOf(form, 'dest-tie-above-one')).toMatchObject({
      inputs: [{ value: { number: 1.0625 } }],
      result: { number: 1 },
      outcomes: ['tie'],
    });
    expect(rowOf(form, 'above-dest-tie-above-one').result.number).toBe(1.125);
    expect(rowOf(form, 'dest-second-tie-above-one').result.number).toBe(1.25);
    // Half the least subnormal rounds to 0: a tie, and tiny and inexact, an underflow.
    expect(rowOf(form, 'dest-half-least-subnormal')).toMatchObject({
      result: { bits: '0x00' },
      outcomes: ['underflow', 'tie'],
    });
    expect(rowOf(form, 'dest-three-quarters-least-subnormal')).toMatchObject({
      result: { bits: '0x01' },
      outcomes: ['underflow', 'subnormal'],
    });
  });

  it('formats without NaN or infinity, ue8m0, .relu, integer rounding, and sources of every width', () => {
    expect(rowOf('cvt.rn.satfinite.e2m1x2.f32', 'nan')).toMatchObject({
      result: { number: 6 },
      outcomes: ['nan-input', 'clamp'],
    });
    expect(cornerTable('cvt.rn.f16x2.e2m1x2').rows.map((r) => r.inputs[0]!.case)).not.toContain(
      'nan',
    );
    expect(rowOf('cvt.rn.relu.f16.f32', '-one')).toMatchObject({
      result: { bits: '0x0000' },
      outcomes: ['clamp'],
    });
    expect(rowOf('cvt.rni.f16.f16', '+two-and-half')).toMatchObject({
      result: { number: 2 },
      outcomes: ['tie'],
    });
    expect(rowOf('cvt.rna.satfinite.tf32.f32', 'dest-tie-above-one')).toMatchObject({
      result: { bits: '0x1fc01' },
      outcomes: ['tie'],
    });
    expect(rowOf('cvt.rp.satfinite.ue8m0x2.f32', '+zero').result.value.decimal).toBe(
      '0.000000000000000000000000000000000000005877471754111437539843682686111228389093327783860437607543758531392086297273635864257812' +
        '5',
    );
    expect(rowOf('cvt.f64.f32', '+least-subnormal').result.bits).toBe('0x36a0000000000000');
    // .rs: the random bits are zero, so an inexact case rounds toward zero.
    const rs = rowOf('cvt.rs.satfinite.e4m3x4.f32', 'above-dest-tie-above-one');
    expect(rs.registers.rbits).toBe('0x00000000');
    expect(rs.result.number).toBe(1);
  });
});

describe('every form of the catalog', () => {
  it('has a corner-case table, each row the pipeline evaluated on its registers', () => {
    let rows = 0;
    for (const form of FORMS) {
      const table = cornerTable(form);
      expect(table.form).toBe(form.text);
      expect(table.rows.length, form.text).toBeGreaterThan(2);
      // All rows of the small tables, a sample of fma's 1,350.
      const step = table.rows.length > 300 ? 7 : 1;
      for (const row of table.rows.filter((_, i) => i % step === 0)) {
        const direct = evaluate(form, registersOfHex(row.registers));
        const what = `${form.text} ${row.inputs.map((i) => i.case).join(' ')}`;
        expect(row.d, what).toBe(direct.d);
        expect(row.result.bits, what).toBe(direct.elements[0]!.result);
        expect(row.outcomes, what).toEqual(caseOutcomes(direct));
        // Every element reads the case's values, so every element gives the same result.
        for (const e of direct.elements) expect(e.result, what).toBe(row.result.bits);
        for (const [i, input] of row.inputs.entries()) {
          const place = form.elements[0]!.inputs[i]!;
          expect(input.operand).toBe(place.operand);
          expect(input.value.format).toBe(place.format);
        }
        rows++;
      }
    }
    expect(rows).toBeGreaterThan(FORMS.length * 5);
  });

  it('an unknown form is an engine error, not an empty table', () => {
    expect(() => cornerTable('add.f17')).toThrow(/not a catalog form/);
  });
});
