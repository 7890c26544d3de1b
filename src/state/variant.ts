/**
 * The variant B of compare mode as text (the store's `vs`, the share link's `vs=`): an instruction
 * of A's kind — a conversion beside a conversion, an arithmetic form or `unfused` (an fma's
 * mul-then-add sequence) beside an arithmetic instruction. The comparison itself takes any two
 * forms (engine/what-if/comparison.ts); the page keeps B to A's kind, so that a comparison's
 * figures speak of the same operation on the same values.
 */
import { findForm } from '../catalog/all-forms.ts';
import type { Form } from '../catalog/instruction.ts';
import { parseVariant, variantText } from '../engine/what-if/comparison.ts';
import { variantErrorText } from '../present/compare-text.ts';

const isConversion = (form: Form) => form.family === 'convert';

/**
 * The variant `vs` read beside instruction `instr`: its canonical text (`unfused` or a form's),
 * or why it does not apply (another kind of instruction, or text the parser does not read).
 */
export function variantFor(instr: string, vs: string): { vs: string } | { error: string } {
  const a = findForm(instr);
  const t = vs.trim();
  const conversion = a !== undefined && isConversion(a);
  if (conversion && t === 'unfused')
    return {
      error: 'unfused: the mul-then-add sequence of an fma; a cvt compares with another cvt form',
    };
  if (!conversion && /^cvt(\.|$)/.test(t))
    return {
      error: `${t} is a cvt; an arithmetic instruction compares with another arithmetic form or unfused`,
    };
  const variant = parseVariant(t);
  if ('error' in variant) return { error: variantErrorText(variant.error) };
  if (variant.kind === 'form' && conversion && !isConversion(variant.form))
    return {
      error: `${variant.form.text} is an arithmetic instruction; a cvt compares with another cvt form`,
    };
  return { vs: variantText(variant) };
}
