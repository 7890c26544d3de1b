/**
 * The variant B of compare mode as text (the store's `vs`, the share link's `vs=`): a cvt form
 * beside a cvt A, an arithmetic form or 'unfused' beside an arithmetic A.
 */
import { parseVariant, variantText } from '../engine/what-if/compare.ts';
import { parseCvtVariant } from '../engine/what-if/cvt-compare.ts';

/** Whether a variant text is a cvt form (a cvt compares only with a cvt, the arithmetic with the arithmetic). */
export const isCvtText = (text: string) => /^\s*cvt(\.|\s|$)/.test(text);

/**
 * The variant `vs` read beside instruction `instr`: its canonical text, or why it does not apply
 * (a cvt beside an arithmetic instruction or the reverse, or text no parser reads).
 */
export function variantFor(instr: string, vs: string): { vs: string } | { error: string } {
  if (isCvtText(instr)) {
    const cvt = parseCvtVariant(vs);
    return 'error' in cvt ? cvt : { vs: cvt.form.text };
  }
  const variant = parseVariant(vs);
  return 'error' in variant ? variant : { vs: variantText(variant) };
}
