/**
 * The link from the block panel's tensor-core hand-off to the same element on the main page:
 * the catalog's block-scaled mma form (records/block-scaled-mma.ts) with the quantized row and
 * column, c = +0 and the two blocks' scales in its registers, on the least target and PTX ISA
 * version that have the form — where its editors, steps and what-if are those of every mma form.
 */
import { findForm } from '../catalog/all-forms.ts';
import type { BlockDotHandOff } from '../engine/block-scale/block-dot.ts';
import { givenPlace, placesOf, type MatrixOperand } from '../engine/matrix-registers.ts';
import { encodeUrl } from './url-codec.ts';
import { DEFAULT_STATE } from './url-state.ts';

export function blockMmaQuery(handOff: BlockDotHandOff): string {
  const form = findForm(handOff.form);
  if (!form?.matrix?.blockScale) throw new Error(`not a block-scaled mma form: ${handOff.form}`);
  // Each element's bits at its place: its value bits, or a UE4M3 scale's whole byte.
  const pack = (name: MatrixOperand, bits: readonly bigint[]) =>
    placesOf(form, name).reduce((acc, p, i) => acc | (bits[i]! << BigInt(givenPlace(p).lo)), 0n);
  const r = handOff.request;
  return encodeUrl({
    ...DEFAULT_STATE,
    instr: form.text,
    target: form.minTarget,
    ptx: form.minPtx,
    registers: {
      a: pack('a', r.a),
      b: pack('b', r.b),
      c: r.c,
      scale_a: pack('scale_a', r.scaleA),
      scale_b: pack('scale_b', r.scaleB),
    },
  });
}
