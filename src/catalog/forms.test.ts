import { describe, expect, it } from 'vitest';
import { FORMS, findForm, formsOf, typesOf, type Form } from './forms.ts';
import { INSTRUCTIONS } from './instructions.ts';
import { OPCODES, type InstrType, type Opcode } from './types.ts';

/**
 * Form counts worked out by hand from the spec's syntax lines (each optional slot doubles the
 * count, a choice slot multiplies it by its options), so a change in the generator or the data
 * that adds or loses a variant fails here.
 */
const EXPECTED_COUNTS: Record<Opcode, Partial<Record<InstrType, number>>> = {
  // {.rnd}{.ftz}{.sat} = 2*2*2 on f16; {.rnd} on bf16; mixed {.rnd: none|rn|rz|rm|rp}{.sat} = 5*2.
  add: { f16: 8, f16x2: 8, bf16: 2, bf16x2: 2, 'f32.f16': 10, 'f32.bf16': 10 },
  sub: { f16: 8, f16x2: 8, bf16: 2, bf16x2: 2, 'f32.f16': 10, 'f32.bf16': 10 },
  mul: { f16: 8, f16x2: 8, bf16: 2, bf16x2: 2 },
  // f16: .rn{.ftz}{.sat} (4) + .rn{.ftz}.relu (2) + .rn.oob{.relu} (2) + ptxas's .rn.oob.sat (1);
  // bf16: .rn{.relu} (2) + .rn.oob{.relu} (2) + ptxas's {.rz,.rm,.rp}{.oob}{.relu} (3*2*2);
  // mixed: .rnd (4 choices, mandatory) {.sat} = 8.
  fma: { f16: 9, f16x2: 9, bf16: 16, bf16x2: 16, 'f32.f16': 8, 'f32.bf16': 8 },
  neg: { f16: 2, f16x2: 2, bf16: 1, bf16x2: 1 },
  abs: { f16: 2, f16x2: 2, bf16: 1, bf16x2: 1 },
  // {.ftz}{.NaN}{.xorsign.abs} on f16; {.NaN}{.xorsign.abs} on bf16.
  min: { f16: 8, f16x2: 8, bf16: 4, bf16x2: 4 },
  max: { f16: 8, f16x2: 8, bf16: 4, bf16x2: 4 },
  tanh: { f16: 1, f16x2: 1, bf16: 1, bf16x2: 1 },
  ex2: { f16: 1, f16x2: 1, bf16: 1, bf16x2: 1 },
};

const form = (text: string): Form => {
  const f = findForm(text);
  if (!f) throw new Error(`catalog lacks ${text}`);
  return f;
};

describe('forms generated from the syntax lines', () => {
  it.each(OPCODES)('%s has the expected number of forms per type', (opcode) => {
    const counts: Partial<Record<InstrType, number>> = {};
    for (const f of formsOf(opcode)) counts[f.type] = (counts[f.type] ?? 0) + 1;
    expect(counts).toEqual(EXPECTED_COUNTS[opcode]);
    expect(typesOf(opcode).sort()).toEqual(Object.keys(EXPECTED_COUNTS[opcode]).sort());
  });

  it('has 234 forms in all (26 of them only ptxas documents), each spelled once', () => {
    expect(FORMS).toHaveLength(234);
    expect(
      FORMS.filter((f) => !f.documented)
        .map((f) => f.text)
        .sort(),
    ).toEqual(
      [
        ...['bf16', 'bf16x2'].flatMap((t) =>
          ['rz', 'rm', 'rp'].flatMap((r) =>
            ['', '.relu', '.oob', '.oob.relu'].map((m) => `fma.${r}${m}.${t}`),
          ),
        ),
        'fma.rn.oob.sat.f16',
        'fma.rn.oob.sat.f16x2',
      ].sort(),
    );
    expect(new Set(FORMS.map((f) => f.text)).size).toBe(FORMS.length);
  });

  it('spells every form as opcode, modifiers in slot order, then the type', () => {
    for (const f of FORMS) {
      expect(f.text).toBe([f.opcode, ...f.modifiers, f.type].join('.'));
      expect(findForm(f.text)).toBe(f);
      // Modifiers appear in the order of the slots of the line the form came from.
      const slotIndex = f.modifiers.map((m) =>
        f.line.slots.findIndex((s) => s.options.includes(m)),
      );
      expect(slotIndex.every((i) => i >= 0)).toBe(true);
      expect([...slotIndex].sort((a, b) => a - b)).toEqual(slotIndex);
      // Every mandatory slot is filled.
      for (const slot of f.line.slots.filter((s) => !s.optional)) {
        expect(slot.options.some((o) => f.modifiers.includes(o))).toBe(true);
      }
    }
  });

  it('every syntax line produces at least one form and every form has a source line', () => {
    for (const record of INSTRUCTIONS) {
      for (const line of record.lines) {
        expect(
          FORMS.some((f) => f.line === line),
          line.text,
        ).toBe(true);
      }
    }
  });

  it('uses .rn as the default where {.rnd} is optional', () => {
    expect(form('add.f16').rounding).toBe('rn');
    expect(form('add.rn.f16').rounding).toBe('rn');
    expect(form('mul.bf16x2').rounding).toBe('rn');
    expect(form('add.f32.bf16').rounding).toBe('rn');
    expect(form('sub.rz.sat.f32.f16').rounding).toBe('rz');
  });

  it('has no rounding mode for instructions without a .rnd slot', () => {
    for (const text of [
      'neg.f16',
      'abs.bf16x2',
      'min.NaN.f16',
      'tanh.approx.bf16',
      'ex2.approx.f16',
    ]) {
      expect(form(text).rounding).toBeNull();
    }
  });

  it('requires .rnd on fma: no form of fma lacks a rounding modifier', () => {
    for (const f of formsOf('fma')) expect(f.modifiers[0]).toMatch(/^r[nzmp]$/);
    expect(findForm('fma.f16')).toBeUndefined();
    expect(findForm('fma.f32.f16')).toBeUndefined();
    // The spec's half fma allows only .rn; mixed fma allows all four; ptxas also assembles the
    // directed roundings on bf16 fma (forms the spec does not document).
    expect(findForm('fma.rz.f16')).toBeUndefined();
    expect(findForm('fma.rp.f32.bf16')?.rounding).toBe('rp');
    expect(findForm('fma.rp.oob.relu.bf16x2')).toMatchObject({ rounding: 'rp', documented: false });
    expect(findForm('fma.rn.oob.bf16')?.documented).toBe(true);
  });

  it('makes .xorsign.abs one modifier and keeps .relu and .sat apart on fma', () => {
    expect(form('min.ftz.NaN.xorsign.abs.f16x2').modifiers).toEqual(['ftz', 'NaN', 'xorsign.abs']);
    expect(
      formsOf('fma').some((f) => f.modifiers.includes('sat') && f.modifiers.includes('relu')),
    ).toBe(false);
    expect(
      formsOf('fma').some((f) => f.modifiers.includes('oob') && f.modifiers.includes('ftz')),
    ).toBe(false);
  });

  it('gives operands and register widths from the spec', () => {
    const widths = (text: string) =>
      form(text).operands.map((o) => `${o.name}:${o.bits}/${o.lanes}/${o.format}`);
    expect(widths('add.f16')).toEqual(['d:16/1/f16', 'a:16/1/f16', 'b:16/1/f16']);
    expect(widths('fma.rn.relu.bf16x2')).toEqual([
      'd:32/2/bf16',
      'a:32/2/bf16',
      'b:32/2/bf16',
      'c:32/2/bf16',
    ]);
    expect(widths('add.f32.bf16')).toEqual(['d:32/1/f32', 'a:16/1/bf16', 'c:32/1/f32']);
    expect(widths('fma.rn.f32.f16')).toEqual([
      'd:32/1/f32',
      'a:16/1/f16',
      'b:16/1/f16',
      'c:32/1/f32',
    ]);
    expect(widths('neg.bf16')).toEqual(['d:16/1/bf16', 'a:16/1/bf16']);
  });

  it('derives the minimal target and PTX version from the requirements that apply', () => {
    const min = (text: string) => `${form(text).minTarget}@${form(text).minPtx}`;
    expect(min('add.f16')).toBe('sm_53@4.2');
    expect(min('add.bf16')).toBe('sm_90@7.8');
    expect(min('neg.f16')).toBe('sm_53@6.0');
    expect(min('abs.f16x2')).toBe('sm_53@6.5');
    expect(min('fma.rn.relu.f16')).toBe('sm_80@7.0');
    expect(min('fma.rn.oob.relu.bf16')).toBe('sm_90@8.1');
    expect(min('min.xorsign.abs.bf16')).toBe('sm_86@7.2');
    expect(min('tanh.approx.f16')).toBe('sm_75@7.0');
    expect(min('ex2.approx.ftz.bf16x2')).toBe('sm_90@7.8');
    expect(min('fma.rm.sat.f32.bf16')).toBe('sm_100@8.6');
    // The forms only ptxas documents: gated as ptxas gates them (its fma.rn siblings' gates).
    expect(min('fma.rz.bf16')).toBe('sm_80@7.0');
    expect(min('fma.rp.relu.bf16x2')).toBe('sm_80@7.0');
    expect(min('fma.rm.oob.bf16')).toBe('sm_90@8.1');
    expect(min('fma.rn.oob.sat.f16x2')).toBe('sm_90@8.1');
  });
});
