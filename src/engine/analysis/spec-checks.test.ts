import { describe, expect, it } from 'vitest';
import { FORMS } from '../../catalog/all-forms.ts';
import { evaluate } from '../pipeline.ts';
import { registersOfHex } from './form-registers.ts';
import { specCornerChecks } from './spec-checks.ts';

describe("the spec's corner-case tables", () => {
  it('every form with spec tables (tanh, ex2): the pipeline agrees with every row', () => {
    const withTables = FORMS.filter((f) => f.cornerCases !== undefined);
    expect(withTables.map((f) => f.operation).sort()).toEqual(
      FORMS.filter((f) => f.operation === 'tanh' || f.operation === 'ex2')
        .map((f) => f.operation)
        .sort(),
    );
    for (const form of withTables) {
      const checks = specCornerChecks(form);
      expect(checks.length, form.text).toBe(form.cornerCases!.flatMap((t) => t.rows).length);
      for (const c of checks) {
        expect(c.agrees, `${form.text} ${c.input}`).toBe(true);
        const direct = evaluate(form, registersOfHex(c.registers));
        expect(c.result.bits).toBe(direct.elements[0]!.result);
      }
    }
  });

  it('tries each input as the table names it, in every element of a', () => {
    const checks = specCornerChecks('ex2.approx.ftz.bf16x2');
    const by = Object.fromEntries(checks.map((c) => [c.input, c]));
    expect(by['-subnormal']).toMatchObject({ inputBits: '0x8001', registers: { a: '0x80018001' } });
    expect(by['-inf']).toMatchObject({ expected: '+0.0', result: { bits: '0x0000' } });
    expect(by['nan']).toMatchObject({ expected: 'nan', result: { class: 'qnan' } });
    expect(specCornerChecks('tanh.approx.f16').map((c) => [c.input, c.result.bits])).toEqual([
      ['-inf', '0xbc00'],
      ['-0', '0x8000'],
      ['+0', '0x0000'],
      ['+inf', '0x3c00'],
      ['nan', '0x7fff'],
    ]);
  });

  it('forms without a table have no checks', () => {
    expect(specCornerChecks('add.f16')).toEqual([]);
    expect(specCornerChecks('cvt.rn.f16.f32')).toEqual([]);
  });
});
