/**
 * What reading an instruction means for every opcode, shared by the parser
 * (parse-instruction.ts, parse-operands.ts) and its diagnosis (parse-diagnose.ts): the syntax
 * error and how it quotes user text, the instruction name after an optional guard predicate,
 * the operand text of a line, and how a set of written modifiers is matched against the forms
 * of one type (or type pair).
 */

export interface SyntaxError {
  readonly code: 'syntax';
  readonly message: string;
  /** 0-based offset into the input where the problem starts. */
  readonly position: number;
  readonly length: number;
  readonly expected: readonly string[];
}

export interface SyntaxFailure {
  readonly ok: false;
  readonly error: SyntaxError;
}

export function syntaxError(
  message: string,
  position: number,
  length: number,
  expected: readonly string[] = [],
): SyntaxError {
  return { code: 'syntax', message, position, length: Math.max(length, 1), expected };
}

export function fail(
  message: string,
  position: number,
  length: number,
  expected: readonly string[] = [],
): SyntaxFailure {
  return { ok: false, error: syntaxError(message, position, length, expected) };
}

export const dotted = (xs: readonly string[]) => xs.map((x) => `.${x}`);
export const list = (xs: readonly string[]) => xs.join(', ');

/** Quotes user text for a message, escaping control and invisible characters (NUL, tabs, BOM). */
export function shown(text: string): string {
  const invisible = (code: number) =>
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0xad ||
    (code >= 0x200b && code <= 0x200f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0xfeff ||
    (code >= 0xd800 && code <= 0xdfff); // a lone surrogate half
  let escaped = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const pair = code >= 0xd800 && code <= 0xdbff && /[\udc00-\udfff]/.test(text[i + 1] ?? '');
    if (pair) {
      escaped += text.slice(i, i + 2);
      i++;
    } else {
      escaped += invisible(code) ? `\\u${code.toString(16).padStart(4, '0')}` : text[i];
    }
  }
  return `'${escaped}'`;
}

const MAX_INPUT = 4096;

/** The error for an input longer than any instruction line is read, or null. */
export function tooLong(input: string): SyntaxFailure | null {
  return input.length > MAX_INPUT
    ? fail(`input is too long (${input.length} characters; at most ${MAX_INPUT})`, MAX_INPUT, 1, [
        `at most ${MAX_INPUT} characters`,
      ])
    : null;
}

/** One dot-separated part of an instruction name, with its offset into the input. */
export interface Token {
  readonly text: string;
  readonly start: number;
}

export interface InstructionName {
  /** Offset of the name: after leading white space and a guard predicate (`@%p1`). */
  readonly start: number;
  /** The name as written. */
  readonly text: string;
  /** Offset just past the name, where the operands begin. */
  readonly end: number;
  /** The name split at its dots: the opcode first, then the modifiers and types as written. */
  readonly tokens: readonly Token[];
}

/** The instruction name of a line: it runs up to the first character `stop` matches. */
export function readName(input: string, stop: RegExp): InstructionName {
  let pos = 0;
  while (pos < input.length && /\s/.test(input[pos]!)) pos++;
  // An optional guard predicate, as in `@%p1 add.f16 ...`.
  const guard = /^@!?%?[A-Za-z_$][\w$]*\s+/.exec(input.slice(pos));
  if (guard) pos += guard[0].length;
  const start = pos;
  while (pos < input.length && !stop.test(input[pos]!)) pos++;
  const text = input.slice(start, pos);
  const tokens: Token[] = [];
  let offset = start;
  for (const part of text.split('.')) {
    tokens.push({ text: part, start: offset });
    offset += part.length + 1;
  }
  return { start, text, end: pos, tokens };
}

/**
 * The operand text of a line, `rest` being what follows the name (at `offset` in the input):
 * what precedes the `;`, with a `//` comment dropped; null for a name alone. An error for text
 * after the `;` (`afterSemicolon`: what may stand there) or a `;` with no operands before it
 * (`operands`: the operand list the form takes).
 */
export function operandText(
  rest: string,
  offset: number,
  operands: string,
  afterSemicolon: readonly string[],
): { readonly body: string | null } | { readonly error: SyntaxError } {
  // A `//` comment ends the line; only what precedes it is the instruction.
  const comment = rest.indexOf('//');
  const code = comment >= 0 ? rest.slice(0, comment) : rest;
  const semi = code.indexOf(';');
  const body = semi >= 0 ? code.slice(0, semi) : code;
  if (semi >= 0) {
    const after = code.slice(semi + 1);
    const junk = /\S/.exec(after);
    if (junk) {
      return {
        error: syntaxError(
          `unexpected text ${shown(after.trim())} after ';'`,
          offset + semi + 1 + junk.index,
          after.trim().length,
          afterSemicolon,
        ),
      };
    }
  }
  if (body.trim() === '') {
    return semi >= 0
      ? {
          error: syntaxError(`expected operands ${operands} before ';'`, offset + semi, 1, [
            operands,
          ]),
        }
      : { body: null };
  }
  return { body };
}

/** A form as far as matching written modifiers goes: its modifiers and its syntax line's slots. */
interface ModifierForm<M extends string> {
  readonly modifiers: readonly M[];
  readonly documented: boolean;
  readonly line: {
    readonly slots: readonly {
      readonly name: string;
      readonly optional: boolean;
      readonly options: readonly M[];
    }[];
  };
}

/** The form with exactly these modifiers, in any order (ptxas reads them so). */
export function formWithModifiers<M extends string, F extends ModifierForm<M>>(
  forms: readonly F[],
  modifiers: readonly M[],
): F | undefined {
  return forms.find(
    (f) =>
      f.modifiers.length === modifiers.length && f.modifiers.every((m) => modifiers.includes(m)),
  );
}

/**
 * The form that keeps most of these modifiers and adds fewest, for a suggestion (the spec's
 * forms first on a tie, then the first in catalog order).
 */
export function closestForm<M extends string, F extends ModifierForm<M>>(
  forms: readonly F[],
  modifiers: readonly M[],
): F {
  const score = (f: F) => {
    const kept = f.modifiers.filter((m) => modifiers.includes(m)).length;
    return kept * 100 - (f.modifiers.length - kept) * 10 + (f.documented ? 1 : 0);
  };
  return forms.reduce((best, f) => (score(f) > score(best) ? f : best), forms[0]!);
}

/**
 * When the written modifiers are a part of some forms' modifiers, something mandatory is
 * missing: the forms that add the fewest (`nearest`), and per slot (the rounding, say) every
 * option one of them takes there (`missing`). Null when no form holds all that is written.
 */
export function missingModifiers<M extends string, F extends ModifierForm<M>>(
  forms: readonly F[],
  modifiers: readonly M[],
): { readonly nearest: F[]; readonly missing: Map<string, Set<M>> } | null {
  const extended = forms.filter((f) => modifiers.every((m) => f.modifiers.includes(m)));
  if (extended.length === 0) return null;
  const fewest = Math.min(...extended.map((f) => f.modifiers.length));
  const nearest = extended.filter((f) => f.modifiers.length === fewest);
  const missing = new Map<string, Set<M>>();
  for (const f of nearest) {
    for (const slot of f.line.slots) {
      if (slot.optional || slot.options.some((o) => modifiers.includes(o))) continue;
      const options = missing.get(slot.name) ?? new Set<M>();
      for (const o of slot.options) if (f.modifiers.includes(o)) options.add(o);
      missing.set(slot.name, options);
    }
  }
  return { nearest, missing };
}
