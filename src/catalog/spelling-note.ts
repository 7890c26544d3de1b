/**
 * How ptxas 13.0 reads an instruction name, where it is more liberal than the spec's syntax
 * lines (each line fixes one order and writes each modifier once). Measured by the spelling
 * probes of tests/ptxas/ptxas-agreement.test.ts, which assemble every permutation and every
 * doubled modifier of every form:
 *
 * - the modifiers and the types come in any order; an arithmetic type is one unit written once
 *   (a mixed `.f32` directly followed by its source type `.f16`/`.bf16`); cvt's first type is
 *   the destination type;
 * - `.xorsign` and `.abs` are two tokens, each written once, anywhere, both or neither;
 * - the modifiers of a record's `repeatable` may be written more than once.
 *
 * The parser reads such a spelling as the form it names and says how the spec writes it. It
 * also reads a name written in another case (`ADD.RN.F16`), which ptxas refuses: PTX names are
 * case-sensitive, and the note says so.
 */
import type { Form } from './instruction.ts';
import type { AnyModifier } from './modifiers.ts';

/** A spelling other than the form's own: what differs, and the form's spelling. */
export interface SpellingNote {
  /** The instruction name as written, without guard and operands: `add.sat.ftz.f16`. */
  readonly written: string;
  /** The form's spelling: the spec's (the catalog's, for forms the spec does not list). */
  readonly canonical: string;
  /** Whether the modifiers or the types are in another order than the form's. */
  readonly reordered: boolean;
  /** Modifiers written more than once, with how often. */
  readonly repeated: readonly { readonly modifier: AnyModifier; readonly times: number }[];
  /** Whether a name is written in another case than the form's (ptxas refuses it). */
  readonly caseChanged: boolean;
  /** One sentence for the user: "ptxas accepts this order; the spec writes add.ftz.sat.f16". */
  readonly message: string;
}

const timesText = (n: number) => (n === 2 ? 'twice' : `${n} times`);

/**
 * The note for a name that spells `form` other than the form does, or null when it is the
 * form's own spelling. `written` is the name as written; `tokens` are its tokens after the
 * opcode in the catalog's case; `repeatable` the modifiers that may be written more than once.
 */
export function spellingNote(
  form: Form,
  written: string,
  tokens: readonly string[],
  repeatable: readonly AnyModifier[],
): SpellingNote | null {
  if (written === form.text) return null;
  const counts = new Map<AnyModifier, number>();
  for (const t of tokens) {
    if ((repeatable as readonly string[]).includes(t))
      counts.set(t as AnyModifier, (counts.get(t as AnyModifier) ?? 0) + 1);
  }
  const repeated = [...counts]
    .filter(([, times]) => times > 1)
    .map(([modifier, times]) => ({ modifier, times }));
  // With each repeatable modifier written once, in the form's order, the tokens would spell the
  // form (a type may stand twice: cvt.f16.f16).
  const once = tokens.filter((t, i) => !counts.has(t as AnyModifier) || tokens.indexOf(t) === i);
  const canonical = [form.opcode, ...tokens].join('.');
  const caseChanged = canonical !== written;
  const reordered = [form.opcode, ...once].join('.') !== form.text;
  const who = form.documented ? 'the spec writes' : 'the catalog writes';
  const what = [
    ...(reordered ? ['this order'] : []),
    ...repeated.map((r) => `.${r.modifier} written ${timesText(r.times)}`),
  ].join(' and ');
  const message = caseChanged
    ? `ptxas refuses ${written}: PTX names are case-sensitive; ${who} ${form.text}`
    : `ptxas accepts ${what}; ${who} ${form.text}`;
  return { written, canonical: form.text, reordered, repeated, caseChanged, message };
}
