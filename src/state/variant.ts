/**
 * The variant B of compare mode as text (the store's `vs`, the share link's `vs=`): any form of
 * the catalog beside any form — a cvt beside an add too, B given A's values carried over into its
 * formats (engine/what-if/comparison.ts) — or `unfused`, an fma's mul-then-add sequence. An
 * arithmetic instruction that is not an fma keeps `unfused` and the panel says why it has none;
 * a conversion refuses it, as its links always did. Beside a tensor-core form B is a tensor-core
 * form of the same k, and a tensor-core B is refused beside any other instruction
 * (engine/what-if/matrix-fit.ts).
 */
import { findForm } from '../catalog/all-forms.ts';
import { parseVariant, variantText } from '../engine/what-if/variant.ts';
import { matrixMismatch } from '../engine/what-if/matrix-fit.ts';
import { matrixMismatchText, variantErrorText } from '../present/variant-words.ts';

/**
 * The variant `vs` read beside instruction `instr`: its canonical text (`unfused` or a form's),
 * or why it does not apply (`unfused` beside a conversion, or text the parser does not read).
 */
export function variantFor(instr: string, vs: string): { vs: string } | { error: string } {
  const t = vs.trim();
  const form = findForm(instr);
  if (t === 'unfused' && form?.family === 'convert')
    return { error: 'unfused: the mul-then-add sequence of an fma; a cvt has none' };
  if (t === 'unfused' && form?.matrix)
    return { error: 'unfused: the mul-then-add sequence of an fma; a tensor-core form has none' };
  const variant = parseVariant(t);
  if ('error' in variant) return { error: variantErrorText(variant.error) };
  const mismatch = form && variant.kind === 'form' ? matrixMismatch(form, variant.form) : null;
  if (mismatch)
    return { error: matrixMismatchText(mismatch, variant.kind === 'form' ? variant.form.text : t) };
  return { vs: variantText(variant) };
}
