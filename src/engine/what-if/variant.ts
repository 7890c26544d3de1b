import type { Form } from '../../catalog/instruction.ts';
import { parseInstruction } from '../../catalog/parse-instruction.ts';

/**
 * Compare mode's B as the parser reads it: a form of the catalog or an fma's unfused sequence.
 * Kept apart from the comparison itself (comparison.ts) so that reading a link's `vs=` needs no
 * engine.
 */
export type Variant = { readonly kind: 'form'; readonly form: Form } | { readonly kind: 'unfused' };

/** Why a variant's text names no variant: the text, and the parser's message. */
export interface VariantTextError {
  readonly text: string;
  readonly message: string;
}

/**
 * `unfused`, or any instruction of the catalog as typed: any spelling ptxas accepts, which the
 * parser reads. A name in another case (ADD.F16) is refused, as ptxas refuses it. A matrix
 * instruction is a variant too; whether its operands fit A's is matrix-fit.ts's question (a
 * tensor-core B beside a tensor-core A of the same k).
 */
export function parseVariant(text: string): Variant | { readonly error: VariantTextError } {
  const t = text.trim();
  if (t === 'unfused') return { kind: 'unfused' };
  const parsed = parseInstruction(t);
  if (!parsed.ok) return { error: { text: t, message: parsed.error.message } };
  if (parsed.spelling?.caseChanged) return { error: { text: t, message: parsed.spelling.message } };
  return { kind: 'form', form: parsed.form };
}

/** How a variant is written back: `unfused`, or the form's canonical text. */
export function variantText(variant: Variant): string {
  return variant.kind === 'unfused' ? 'unfused' : variant.form.text;
}
