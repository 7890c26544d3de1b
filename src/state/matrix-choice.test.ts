import { describe, expect, it } from 'vitest';
import { MATRIX_FORMS, findForm } from '../catalog/all-forms.ts';
import { evaluateRequest } from '../worker/evaluate-requests.ts';
import { PICKER_OPCODES, switchOpcode } from './form-choice.ts';
import {
  formChoiceText,
  formsOfShape,
  MATRIX_OPCODES,
  shapeOf,
  shapesOf,
  switchShape,
} from './matrix-choice.ts';
import { formRegistersHex, startRegisters } from './registers.ts';

const MMA = 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32';

describe('the tensor-core pickers', () => {
  it('the opcode picker offers mma and wgmma; picking one opens on f16 into f32', () => {
    expect(MATRIX_OPCODES).toEqual(['mma', 'wgmma.mma_async']);
    expect(PICKER_OPCODES.slice(-2)).toEqual(['mma', 'wgmma.mma_async']);
    const fma = findForm('fma.rn.f16')!;
    expect(switchOpcode(fma, 'mma').text).toBe(MMA);
    expect(switchOpcode(fma, 'wgmma.mma_async').text).toBe(
      'wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16',
    );
    // And back: a tensor-core form picks another opcode's form.
    expect(switchOpcode(findForm(MMA)!, 'fma').opcode).toBe('fma');
  });

  it('every matrix form is reachable: by its opcode, its shape, then its layouts and types', () => {
    for (const form of MATRIX_FORMS) {
      expect(shapesOf(form.opcode)).toContain(shapeOf(form));
      const choices = formsOfShape(form.opcode, shapeOf(form));
      expect(choices).toContain(form);
      // Within a shape, the layouts and types tell the forms apart.
      expect(choices.filter((f) => formChoiceText(f) === formChoiceText(form))).toEqual([form]);
    }
  });

  it('another shape keeps the layouts and types where it has them', () => {
    const mma = findForm(MMA)!;
    expect(shapeOf(mma)).toBe('m16n8k16');
    expect(switchShape(mma, 'm16n8k8').text).toBe(
      'mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32',
    );
    expect(shapeOf(switchShape(mma, 'm16n8k32 kind::f8f6f4'))).toBe('m16n8k32 kind::f8f6f4');
  });
});

describe("the page's evaluation of a tensor-core form", () => {
  it("carries the target: the element is the target's model", () => {
    const form = findForm(MMA)!;
    const registers = formRegistersHex(form, startRegisters(form));
    const on = (target: string) => {
      const answer = evaluateRequest({ form: MMA, registers, target });
      if (!answer.ok) throw new Error(answer.error);
      const model = answer.result.elements[0]!.steps.find((s) => s.kind === 'tensor-model');
      return model?.kind === 'tensor-model' ? model.name : null;
    };
    expect(on('sm_80')).toBe('Ampere');
    expect(on('sm_90')).toBe('Hopper');
    const none = evaluateRequest({ form: MMA, registers, target: 'sm_60' });
    expect(none.ok).toBe(false);
  });
});
