import { describe, expect, it } from 'vitest';
import { findForm, FORMS } from '../catalog/all-forms.ts';
import {
  chooseForm,
  destinationLimit,
  modifierChoices,
  modifierLimit,
  modifierMandatory,
  OPCODES,
  pairUnavailable,
  sourcesOf,
  switchOpcode,
  switchPair,
  switchType,
  typeChoice,
  typeLimit,
  typeUnavailable,
} from './form-choice.ts';

const form = (text: string) => findForm(text)!;

describe('form choice, for every instruction', () => {
  it('offers the opcodes, and the types as one list or as a destination and a source', () => {
    expect(OPCODES).toEqual([
      'add',
      'sub',
      'mul',
      'fma',
      'neg',
      'abs',
      'min',
      'max',
      'tanh',
      'ex2',
      'cvt',
    ]);
    expect(typeChoice('add')).toEqual({
      kind: 'one',
      types: ['f16', 'f16x2', 'bf16', 'bf16x2', 'f32.f16', 'f32.bf16'],
    });
    const cvt = typeChoice('cvt');
    expect(cvt.kind).toBe('pair');
    if (cvt.kind !== 'pair') return;
    expect(cvt.destinations).toContain('e4m3x2');
    expect(cvt.destinations).toContain('f64');
    expect(sourcesOf('cvt', 'e4m3x2')).toEqual(['f32', 'f16x2']);
    expect(sourcesOf('cvt', 'f16x2')).toEqual([
      'f32',
      'e4m3x2',
      'e5m2x2',
      'e2m3x2',
      'e3m2x2',
      'e2m1x2',
    ]);
    expect(typeUnavailable('tanh', 'f32.f16')).toBe('tanh has no .f32.f16 form');
    expect(pairUnavailable('cvt', 'e4m3x2', 'f64')).toBe('no conversion from .f64');
    expect(pairUnavailable('cvt', 'e4m3x2', 'f32')).toBeNull();
  });

  it('offers the catalog modifiers of an opcode and type', () => {
    expect(modifierChoices('fma', 'f16')).toEqual({
      rounding: ['rn'],
      defaultRounding: null,
      flags: ['ftz', 'sat', 'relu', 'oob'],
    });
    expect(modifierChoices('add', 'f32.bf16')).toEqual({
      rounding: [null, 'rn', 'rz', 'rm', 'rp'],
      defaultRounding: 'rn',
      flags: ['sat'],
    });
    expect(modifierChoices('neg', 'bf16')).toEqual({
      rounding: [],
      defaultRounding: null,
      flags: [],
    });
    expect(modifierChoices('cvt', 'e4m3x2.f32')).toEqual({
      rounding: ['rn'],
      defaultRounding: null,
      flags: ['relu', 'satfinite'],
    });
    expect(modifierChoices('cvt', 'f16.bf16')).toEqual({
      rounding: [null, 'rn', 'rz', 'rm', 'rp'],
      defaultRounding: 'rn',
      flags: [],
    });
    expect(modifierChoices('cvt', 'f32.f32').rounding).toEqual([null, 'rni', 'rzi', 'rmi', 'rpi']);
    expect(modifierChoices('cvt', 'f32.f32').flags).toEqual(['ftz', 'sat']);
    expect(modifierChoices('cvt', 'f16x2.f32').rounding).toEqual(['rn', 'rz', 'rs']);
    expect(modifierChoices('cvt', 'tf32.f32').rounding).toEqual(['rn', 'rz', 'rna']);
  });

  it('every pickable combination resolves to a catalog form', () => {
    for (const f of FORMS) expect(chooseForm(f.opcode, f.type, f.modifiers).text).toBe(f.text);
  });

  it('drops a modifier that cannot go with the one just picked', () => {
    expect(chooseForm('fma', 'f16', ['rn', 'sat', 'relu'], 'relu').text).toBe('fma.rn.relu.f16');
    expect(chooseForm('fma', 'f16', ['rn', 'sat', 'relu'], 'sat').text).toBe('fma.rn.sat.f16');
    expect(chooseForm('fma', 'bf16', ['rn', 'oob', 'relu'], 'oob').text).toBe(
      'fma.rn.oob.relu.bf16',
    );
    expect(chooseForm('cvt', 'f16x2.f32', ['rs', 'relu'], 'rs').text).toBe('cvt.rs.relu.f16x2.f32');
  });

  it('keeps modifiers across opcode and type switches where possible', () => {
    expect(switchType(form('fma.rn.relu.f16'), 'bf16x2').text).toBe('fma.rn.relu.bf16x2');
    expect(switchOpcode(form('add.rz.sat.f32.f16'), 'fma').text).toBe('fma.rz.sat.f32.f16');
    expect(switchOpcode(form('add.f16'), 'tanh').text).toBe('tanh.approx.f16');
    // cvt opens on FP8 from .f32; back to the arithmetic, the rounding it can take is kept.
    expect(switchOpcode(form('add.f16'), 'cvt').text).toBe('cvt.rn.satfinite.e4m3x2.f32');
    expect(switchOpcode(form('cvt.rn.satfinite.e4m3x2.f32'), 'add').text).toBe('add.rn.f16');
    // .sat is not allowed with .bf16: switching keeps .rn and .ftz.
    expect(switchPair(form('cvt.rn.ftz.sat.f16.f32'), 'bf16').text).toBe('cvt.rn.ftz.bf16.f32');
    expect(switchPair(form('cvt.rn.satfinite.relu.e4m3x2.f32'), 'e5m2x2').text).toBe(
      'cvt.rn.satfinite.relu.e5m2x2.f32',
    );
    expect(switchPair(form('cvt.rn.f16x2.e2m1x2'), 'ue8m0x2').type).toMatch(/\.f32$/);
    expect(switchPair(form('cvt.rn.satfinite.e4m3x2.f32'), 'e4m3x2', 'f16x2').text).toBe(
      'cvt.rn.satfinite.e4m3x2.f16x2',
    );
  });

  it('says which modifiers a form cannot do without', () => {
    expect(modifierMandatory(form('cvt.rn.satfinite.e4m3x2.f32'), 'satfinite')).toBe(true);
    expect(modifierMandatory(form('cvt.rn.satfinite.relu.e4m3x2.f32'), 'relu')).toBe(false);
    expect(modifierMandatory(form('tanh.approx.f16'), 'approx')).toBe(true);
    expect(modifierMandatory(form('fma.rn.relu.f16'), 'relu')).toBe(false);
  });

  it('names what a target lacks for a modifier, a type or a destination', () => {
    expect(modifierLimit(form('fma.rn.f16'), 'oob', 'sm_80', '9.1')).toBe(
      'needs sm_90+, PTX ISA 8.1',
    );
    expect(modifierLimit(form('fma.rn.f16'), 'oob', 'sm_90', '9.1')).toBeNull();
    expect(typeLimit('add', 'f32.f16', 'sm_90', '9.1')).toBe('needs sm_100+, PTX ISA 8.6');
    expect(typeLimit('add', 'bf16', 'sm_90', '7.8')).toBeNull();
    expect(typeLimit('cvt', 'e4m3x2.f32', 'sm_80', '8.6')).toMatch(/needs sm_89\+, PTX ISA 8\.1/);
    expect(typeLimit('cvt', 'e4m3x2.f32', 'sm_90', '8.6')).toBeNull();
    expect(destinationLimit('cvt', 'e2m1x4', 'sm_90', '8.6')).toBe('needs sm_100a, PTX ISA 8.7');
    // .rs needs an sm_100a-family target: marked on sm_90, not on the form without it.
    expect(modifierLimit(form('cvt.rn.f16x2.f32'), 'rs', 'sm_90', '8.6')).toBe(
      'needs sm_100a, PTX ISA 8.7',
    );
    expect(modifierLimit(form('cvt.rn.f16x2.f32'), 'rs', 'sm_100a', '8.7')).toBeNull();
    expect(modifierLimit(form('cvt.rn.f16.f32'), 'relu', 'sm_75', '7.0')).toMatch(/needs sm_80/);
  });
});
