import { describe, expect, it } from 'vitest';
import { CVT_FORMS, findCvtForm } from '../catalog/index.ts';
import {
  chooseCvtForm,
  CVT_DESTINATIONS,
  cvtModifierChoices,
  cvtModifierLimit,
  cvtModifierMandatory,
  cvtPairLimit,
  cvtPairUnavailable,
  DEFAULT_CVT_FORM,
  sourcesOf,
  switchCvtPair,
} from './cvt-form-choice.ts';

const form = (text: string) => findCvtForm(text)!;

describe('cvt form choice', () => {
  it('offers the catalog types and modifiers of each pair', () => {
    expect(CVT_DESTINATIONS).toContain('e4m3x2');
    expect(CVT_DESTINATIONS).toContain('f64');
    expect(sourcesOf('e4m3x2')).toEqual(['f32', 'f16x2']);
    expect(sourcesOf('f16x2')).toEqual(['f32', 'e4m3x2', 'e5m2x2', 'e2m3x2', 'e3m2x2', 'e2m1x2']);
    expect(cvtModifierChoices('e4m3x2', 'f32')).toEqual({
      rounding: ['rn'],
      defaultRounding: null,
      flags: ['relu', 'satfinite'],
    });
    expect(cvtModifierChoices('f16', 'bf16')).toEqual({
      rounding: [null, 'rn', 'rz', 'rm', 'rp'],
      defaultRounding: 'rn',
      flags: [],
    });
    expect(cvtModifierChoices('f32', 'f32').rounding).toEqual([null, 'rni', 'rzi', 'rmi', 'rpi']);
    expect(cvtModifierChoices('f32', 'f32').flags).toEqual(['ftz', 'sat']);
    expect(cvtModifierChoices('f16x2', 'f32').rounding).toEqual(['rn', 'rz', 'rs']);
    expect(cvtModifierChoices('tf32', 'f32').rounding).toEqual(['rn', 'rz', 'rna']);
    expect(cvtPairUnavailable('e4m3x2', 'f64')).toBe('no conversion from .f64');
    expect(cvtPairUnavailable('e4m3x2', 'f32')).toBeNull();
  });

  it('resolves every catalog form from its own modifiers', () => {
    for (const f of CVT_FORMS)
      expect(chooseCvtForm(f.dtype, f.atype, f.modifiers).text).toBe(f.text);
    expect(findCvtForm(DEFAULT_CVT_FORM)).toBeDefined();
  });

  it('keeps the modifier just picked, and modifiers across type switches', () => {
    // .rs has no .satfinite-free … it does: picking .rs keeps it, drops nothing it allows.
    expect(chooseCvtForm('f16x2', 'f32', ['rs', 'relu'], 'rs').text).toBe('cvt.rs.relu.f16x2.f32');
    // .sat is not allowed with .bf16: switching keeps .rn and .ftz.
    expect(switchCvtPair(form('cvt.rn.ftz.sat.f16.f32'), 'bf16').text).toBe('cvt.rn.ftz.bf16.f32');
    // e5m2x2 from the current source (f32), keeping .relu; a source it lacks gives way.
    expect(switchCvtPair(form('cvt.rn.satfinite.relu.e4m3x2.f32'), 'e5m2x2').text).toBe(
      'cvt.rn.satfinite.relu.e5m2x2.f32',
    );
    expect(switchCvtPair(form('cvt.rn.f16x2.e2m1x2'), 'ue8m0x2').atype).toBe('f32');
    expect(switchCvtPair(form('cvt.rn.satfinite.e4m3x2.f32'), 'e4m3x2', 'f16x2').text).toBe(
      'cvt.rn.satfinite.e4m3x2.f16x2',
    );
    // .satfinite is mandatory on FP8 from .f32; .relu is not.
    expect(cvtModifierMandatory(form('cvt.rn.satfinite.e4m3x2.f32'), 'satfinite')).toBe(true);
    expect(cvtModifierMandatory(form('cvt.rn.satfinite.relu.e4m3x2.f32'), 'relu')).toBe(false);
  });

  it('says what a target lacks for a pair or a modifier', () => {
    expect(cvtPairLimit('e4m3x2', 'f32', 'sm_80', '8.6')).toMatch(/needs sm_89\+, PTX ISA 8\.1/);
    expect(cvtPairLimit('e4m3x2', 'f32', 'sm_90', '8.6')).toBeNull();
    // .rs needs sm_100a-family targets: marked on sm_90, not on the form without it.
    expect(cvtModifierLimit(form('cvt.rn.f16x2.f32'), 'rs', 'sm_90', '8.6')).toBe(
      'needs sm_100a, PTX ISA 8.7',
    );
    expect(cvtModifierLimit(form('cvt.rn.f16x2.f32'), 'rs', 'sm_100a', '8.7')).toBeNull();
    expect(cvtModifierLimit(form('cvt.rn.f16.f32'), 'relu', 'sm_75', '7.0')).toMatch(/needs sm_80/);
  });
});
