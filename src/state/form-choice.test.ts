import { describe, expect, it } from 'vitest';
import { findForm, FORMS } from '../catalog/index.ts';
import {
  chooseForm,
  modifierChoices,
  modifierLimit,
  switchForm,
  typeLimit,
} from './form-choice.ts';

describe('form choice', () => {
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
  });

  it('every pickable combination resolves to a catalog form', () => {
    for (const form of FORMS) {
      expect(chooseForm(form.opcode, form.type, form.modifiers).text).toBe(form.text);
    }
  });

  it('drops a modifier that cannot go with the one just picked', () => {
    expect(chooseForm('fma', 'f16', ['rn', 'sat', 'relu'], 'relu').text).toBe('fma.rn.relu.f16');
    expect(chooseForm('fma', 'f16', ['rn', 'sat', 'relu'], 'sat').text).toBe('fma.rn.sat.f16');
    expect(chooseForm('fma', 'bf16', ['rn', 'oob', 'relu'], 'oob').text).toBe(
      'fma.rn.oob.relu.bf16',
    );
  });

  it('keeps modifiers across opcode and type switches where possible', () => {
    expect(switchForm(findForm('fma.rn.relu.f16')!, 'fma', 'bf16x2').text).toBe(
      'fma.rn.relu.bf16x2',
    );
    expect(switchForm(findForm('add.rz.sat.f32.f16')!, 'fma').text).toBe('fma.rz.sat.f32.f16');
    expect(switchForm(findForm('add.f16')!, 'tanh').text).toBe('tanh.approx.f16');
  });

  it('names what a target lacks for a modifier or type', () => {
    expect(modifierLimit('fma', 'f16', 'oob', 'sm_80', '9.1')).toBe('needs sm_90+, PTX ISA 8.1');
    expect(modifierLimit('fma', 'f16', 'oob', 'sm_90', '9.1')).toBeNull();
    expect(typeLimit('add', 'f32.f16', 'sm_90', '9.1')).toBe('sm_100+, PTX ISA 8.6');
    expect(typeLimit('add', 'bf16', 'sm_90', '7.8')).toBeNull();
  });
});
