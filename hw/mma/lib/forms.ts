/**
 * The `mma.sync.aligned` forms the sm_90 capture measures: every floating-point mma form of the
 * one catalog (src/catalog/all-forms.ts, records/matrix.ts) with f16, bf16, tf32, e4m3 or e5m2
 * inputs that sm_90 assembles (verdict.ts at PTX ISA 8.7, the version the FP8 m16n8k16 and
 * f16-result forms need). The f64 forms and the `.kind::f8f6f4` forms (sm_100a/sm_120a
 * families) are not in it. The order here is the order of the capture files and of the
 * generated header.
 */
import { MATRIX_FORMS } from '../../../src/catalog/all-forms.ts';
import type { FormatName } from '../../../src/catalog/formats.ts';
import type { Form } from '../../../src/catalog/instruction.ts';
import { findTarget } from '../../../src/catalog/targets.ts';
import { verdictFor } from '../../../src/catalog/verdict.ts';

/** A catalog form of `mma` (its `matrix` facts present, instruction 'mma'). */
export type MmaForm = Form;

export const CAPTURE_TARGET = 'sm_90';
const CAPTURE_PTX = '8.7';

/** The input type groups: one capture file each. */
export type InputGroup = 'f16' | 'bf16' | 'tf32' | 'fp8';
export const INPUT_GROUPS: readonly InputGroup[] = ['f16', 'bf16', 'tf32', 'fp8'];

export function inputGroupOf(atype: FormatName): InputGroup {
  switch (atype) {
    case 'f16':
    case 'bf16':
    case 'tf32':
      return atype;
    case 'e4m3':
    case 'e5m2':
      return 'fp8';
    default:
      throw new Error(`no capture group for .${atype} inputs`);
  }
}

const CAPTURED_INPUTS: readonly FormatName[] = ['f16', 'bf16', 'tf32', 'e4m3', 'e5m2'];

export const MMA_CAPTURE_FORMS: readonly MmaForm[] = MATRIX_FORMS.filter(
  (f) =>
    f.matrix?.instruction === 'mma' &&
    f.matrix.kind === null &&
    CAPTURED_INPUTS.includes(f.matrix.types.a) &&
    CAPTURED_INPUTS.includes(f.matrix.types.b) &&
    verdictFor(f, findTarget(CAPTURE_TARGET)!, CAPTURE_PTX).valid,
);

/** Products one warp computes per instruction: four for m8n8k4 (9.7.14.5.1), else one. */
export function productsOf(form: MmaForm): 1 | 4 {
  return form.matrix!.threads === 8 ? 4 : 1;
}
