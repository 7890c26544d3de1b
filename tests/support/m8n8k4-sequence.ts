/**
 * m8n8k4 on sm_90 as an H200 computes it, by the fit's exact reference (hw/mma/lib/fit-reference.ts,
 * no engine code; decision mma-sm90-differing-forms): an .f32 result adds the products one after
 * another in f32 from +0 and then c (kind product-chain), an .f16 result adds the pair sums
 * (kind pair-chain), each addition rounded to nearest even. tests/measured-sequence.test.ts checks
 * the engine against it, tests/hw/mma-capture-h200.test.ts every captured element.
 */
import type { Form } from '../../src/catalog/instruction.ts';
import {
  fitElement,
  type FitForm,
  type FitFormat,
  type FitParams,
} from '../../hw/mma/lib/fit-reference.ts';

/** The fit's parameters of the measured sequences, less the kind the result type picks. */
const SEQUENCE: Omit<FitParams, 'kind'> = {
  n: 0,
  cut: 'trunc',
  group: 4,
  c: 'aligned',
  productExponent: 'sum',
  f32: 'rne',
  f16: 'rne',
  overflow: 'inf',
  f32FracBits: 23,
  f16Via: 'direct',
  zero: '+0',
  read: { tf32: 'trunc', subnormals: 'keep' },
};

/** An m8n8k4 form's element d (its bits) from the bits of A's row, B's column and c. */
export function m8n8k4SequenceElement(
  form: Form,
  a: readonly number[],
  b: readonly number[],
  c: number,
): number {
  const t = form.matrix!.types;
  const formats: FitForm = {
    a: t.a as FitFormat,
    b: t.b as FitFormat,
    c: t.c as FitForm['c'],
    d: t.d as FitForm['d'],
  };
  const kind = t.d === 'f32' ? 'product-chain' : 'pair-chain';
  return fitElement({ ...SEQUENCE, kind }, formats, a, b, c);
}
