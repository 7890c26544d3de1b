/**
 * The link from one element of a quantized block to the cvt that converts it, on the main page:
 * the catalog cvt form with the registers that reproduce that element (engine/block-scale's
 * CvtCall), on the least target and PTX ISA version that have the form.
 */
import type { SourceName } from '../catalog/instruction.ts';
import type { CvtCall } from '../engine/block-scale/index.ts';
import { encodeUrl } from './url-codec.ts';
import { DEFAULT_STATE } from './url-state.ts';

export function cvtTraceQuery(
  call: CvtCall,
  forms: readonly { form: string; minTarget: string; minPtx: string }[],
): string {
  const form = forms.find((f) => f.form === call.form);
  const registers = Object.fromEntries(
    Object.entries(call.registers).map(([name, hex]) => [name as SourceName, BigInt(hex)]),
  );
  return encodeUrl({
    ...DEFAULT_STATE,
    instr: call.form,
    target: form?.minTarget ?? DEFAULT_STATE.target,
    ptx: form?.minPtx ?? DEFAULT_STATE.ptx,
    registers,
  });
}
