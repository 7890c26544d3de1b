import type { Form } from './forms.ts';
import type { Modifier } from './types.ts';

/**
 * How ptxas 13.0 reads an instruction name, where it is more liberal than the spec's syntax
 * lines (each line fixes one order and writes each modifier once). Measured by the spelling
 * probes of tests/ptxas/ptxas-agreement.test.ts, which assemble every permutation and every
 * doubled modifier of every form:
 *
 * - the modifiers and the type come in any order; the type is one unit written once (a mixed
 *   `.f32` directly followed by its source type `.f16`/`.bf16`);
 * - `.xorsign` and `.abs` are two tokens, each written once, anywhere, both or neither;
 * - `.approx`, `.sat`, `.relu` and `.NaN` may be written more than once; a second rounding
 *   modifier, `.ftz`, `.oob`, `.xorsign` or `.abs` is an error.
 *
 * The parser reads such a spelling as the form it names and says how the spec writes it.
 */
export const REPEATABLE_MODIFIERS: readonly Modifier[] = ['approx', 'sat', 'relu', 'NaN'];

/** A spelling ptxas accepts that is not the form's own: what differs, and the form's spelling. */
export interface SpellingNote {
  /** The instruction name as written, without guard and operands: `add.sat.ftz.f16`. */
  readonly written: string;
  /** The form's spelling: the spec's (the catalog's, for forms the spec does not list). */
  readonly canonical: string;
  /** Whether the modifiers or the type are in another order than the form's. */
  readonly reordered: boolean;
  /** Modifiers written more than once, with how often. */
  readonly repeated: readonly { readonly modifier: Modifier; readonly times: number }[];
  /** One sentence for the user: "ptxas accepts this order; the spec writes add.ftz.sat.f16". */
  readonly message: string;
}

const timesText = (n: number) => (n === 2 ? 'twice' : `${n} times`);

/**
 * The note for a name that spells `form` other than the form does, or null when it is the
 * form's own spelling. `tokens` are the name's tokens after the opcode, as written.
 */
export function spellingNote(form: Form, tokens: readonly string[]): SpellingNote | null {
  const written = [form.opcode, ...tokens].join('.');
  if (written === form.text) return null;
  const counts = new Map<Modifier, number>();
  for (const t of tokens) {
    if ((REPEATABLE_MODIFIERS as readonly string[]).includes(t))
      counts.set(t as Modifier, (counts.get(t as Modifier) ?? 0) + 1);
  }
  const repeated = [...counts]
    .filter(([, times]) => times > 1)
    .map(([modifier, times]) => ({ modifier, times }));
  // Written once each, in the form's order, the tokens would spell the form.
  const once = tokens.filter((t, i) => tokens.indexOf(t) === i);
  const reordered = [form.opcode, ...once].join('.') !== form.text;
  const what = [
    ...(reordered ? ['this order'] : []),
    ...repeated.map((r) => `.${r.modifier} written ${timesText(r.times)}`),
  ].join(' and ');
  const who = form.documented ? 'the spec writes' : 'the catalog writes';
  return {
    written,
    canonical: form.text,
    reordered,
    repeated,
    message: `ptxas accepts ${what}; ${who} ${form.text}`,
  };
}
