import { FORMS, findForm, formsOf, typesOf, type Form } from './forms.ts';
import {
  INSTR_TYPES,
  MODIFIERS,
  OPCODES,
  type InstrType,
  type Modifier,
  type Opcode,
} from './types.ts';

/**
 * Parser for one PTX instruction (`fma.rn.relu.bf16x2`) or one whole line
 * (`fma.rn.relu.bf16x2 d, a, b, c;`). It answers with the catalog form, or a syntax error that
 * says where (a 0-based character offset into the input) and what was expected.
 */

export interface SyntaxError {
  readonly code: 'syntax';
  readonly message: string;
  /** 0-based offset into the input where the problem starts. */
  readonly position: number;
  readonly length: number;
  readonly expected: readonly string[];
}

export type ParseResult =
  | { readonly ok: true; readonly form: Form; readonly operands: readonly string[] | null }
  | { readonly ok: false; readonly error: SyntaxError };

interface Token {
  readonly text: string;
  readonly start: number;
}

const TYPE_TOKENS = new Set(['f16', 'f16x2', 'bf16', 'bf16x2', 'f32']);
const MODIFIER_TOKENS = new Set([
  ...MODIFIERS.filter((m) => m !== 'xorsign.abs'),
  'xorsign',
  'abs',
]);
const MAX_INPUT = 4096;

function fail(
  message: string,
  position: number,
  length: number,
  expected: readonly string[] = [],
): ParseResult {
  return {
    ok: false,
    error: { code: 'syntax', message, position, length: Math.max(length, 1), expected },
  };
}

const dotted = (xs: readonly string[]) => xs.map((x) => `.${x}`);

/** Quotes user text for a message, escaping control and invisible characters (NUL, tabs, BOM). */
function shown(text: string): string {
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

/** What may follow a complete instruction name. */
const AFTER_TYPE = ['operands', "';'", 'end of input'];
const list = (xs: readonly string[]) => xs.join(', ');

function allowedModifiers(opcode: Opcode, type: InstrType): Modifier[] {
  const set = new Set<Modifier>();
  for (const f of formsOf(opcode, type)) for (const m of f.modifiers) set.add(m);
  return [...set];
}

export function parseInstruction(input: string): ParseResult {
  if (input.length > MAX_INPUT) {
    return fail(
      `input is too long (${input.length} characters; at most ${MAX_INPUT})`,
      MAX_INPUT,
      1,
      [`at most ${MAX_INPUT} characters`],
    );
  }
  let pos = 0;
  const skipSpace = () => {
    while (pos < input.length && /\s/.test(input[pos]!)) pos++;
  };
  skipSpace();
  // An optional guard predicate, as in `@%p1 add.f16 ...`.
  const guard = /^@!?%?[A-Za-z_$][\w$]*\s+/.exec(input.slice(pos));
  if (guard) pos += guard[0].length;
  if (pos >= input.length) {
    return fail('empty instruction: expected an opcode such as add or fma', pos, 1, [...OPCODES]);
  }

  // The instruction head runs up to the first white space or ';'.
  const headStart = pos;
  while (pos < input.length && !/[\s;,]/.test(input[pos]!)) pos++;
  const head = input.slice(headStart, pos);
  const tokens: Token[] = [];
  let offset = headStart;
  for (const part of head.split('.')) {
    tokens.push({ text: part, start: offset });
    offset += part.length + 1;
  }

  const opTok = tokens[0]!;
  if (!(OPCODES as readonly string[]).includes(opTok.text)) {
    const lower = opTok.text.toLowerCase();
    const hint = (OPCODES as readonly string[]).includes(lower)
      ? ` (opcodes are lower case: ${lower})`
      : '';
    return fail(
      opTok.text === ''
        ? 'expected an opcode'
        : `unknown opcode ${shown(opTok.text)}${hint}; expected one of ${list(OPCODES)}`,
      opTok.start,
      opTok.text.length,
      [...OPCODES],
    );
  }
  const opcode = opTok.text as Opcode;
  const opcodeTypes = typesOf(opcode);

  for (const [i, tok] of tokens.entries()) {
    if (i > 0 && tok.text === '') {
      const before = tokens.slice(1, i).map((t) => t.text);
      const next = continuations(formsOf(opcode), joinXorsign(before));
      return fail(
        "expected a modifier or type after '.'",
        tok.start,
        1,
        next ?? [...dotted(MODIFIERS), ...dotted(opcodeTypes)],
      );
    }
  }

  // Find the type: the first type token; `f32` must be followed by the 16-bit source type.
  const typeIndex = tokens.findIndex((t, i) => i > 0 && TYPE_TOKENS.has(t.text));
  if (typeIndex < 0) {
    const at = tokens.findIndex((t, i) => i > 0 && !MODIFIER_TOKENS.has(t.text));
    if (at > 0) {
      const before = tokens.slice(1, at).map((t) => t.text);
      return unknownToken(tokens[at]!, opcode, opcodeTypes, undefined, before);
    }
    return fail(
      `missing instruction type: ${opcode} takes one of ${list(dotted(opcodeTypes))}`,
      pos,
      1,
      dotted(opcodeTypes),
    );
  }
  const typeTok = tokens[typeIndex]!;
  let type: string = typeTok.text;
  let afterType = typeIndex + 1;
  if (type === 'f32') {
    const src = tokens[typeIndex + 1];
    const hasSource = src && (src.text === 'f16' || src.text === 'bf16');
    if (!hasSource && !opcodeTypes.some((t) => t.startsWith('f32.'))) {
      // Only add, sub and fma have mixed-precision .f32 forms: suggest none for the others.
      return fail(
        `${opcode} has no .f32 form; it takes one of ${list(dotted(opcodeTypes))}`,
        typeTok.start - 1,
        typeTok.text.length + 1,
        dotted(opcodeTypes),
      );
    }
    if (!src || !hasSource) {
      return fail(
        `.f32 must be followed by the source type .f16 or .bf16 (mixed precision: ${opcode}.f32.f16)`,
        src ? src.start : typeTok.start + typeTok.text.length,
        src ? src.text.length : 1,
        ['.f16', '.bf16'],
      );
    }
    type = `f32.${src.text}`;
    afterType++;
  }
  const typeSpanLength =
    tokens[afterType - 1]!.start + tokens[afterType - 1]!.text.length - typeTok.start;
  const trailing = tokens[afterType];
  if (trailing) {
    if (MODIFIER_TOKENS.has(trailing.text)) {
      return fail(
        `modifier .${trailing.text} must come before the type .${type}`,
        trailing.start - 1,
        trailing.text.length + 1,
        AFTER_TYPE,
      );
    }
    return fail(
      `unexpected ${shown(`.${trailing.text}`)} after the type .${type}`,
      trailing.start - 1,
      trailing.text.length + 1,
      AFTER_TYPE,
    );
  }
  if (
    !(INSTR_TYPES as readonly string[]).includes(type) ||
    !opcodeTypes.includes(type as InstrType)
  ) {
    return fail(
      `${opcode} has no type .${type}; expected one of ${list(dotted(opcodeTypes))}`,
      typeTok.start - 1,
      typeSpanLength + 1,
      dotted(opcodeTypes),
    );
  }
  const instrType = type as InstrType;

  // Modifiers between the opcode and the type.
  const modifiers: Modifier[] = [];
  const modStarts: number[] = [];
  const modTokens = tokens.slice(1, typeIndex);
  for (let i = 0; i < modTokens.length; i++) {
    const tok = modTokens[i]!;
    if (!MODIFIER_TOKENS.has(tok.text)) return unknownToken(tok, opcode, opcodeTypes, instrType);
    let mod = tok.text;
    if (mod === 'xorsign' || mod === 'abs') {
      const next = modTokens[i + 1];
      if (mod === 'xorsign' && next?.text === 'abs') {
        mod = 'xorsign.abs';
        i++;
      } else {
        return fail(
          '.xorsign and .abs must be specified together, as .xorsign.abs',
          tok.start - 1,
          tok.text.length + 1,
          ['.xorsign.abs'],
        );
      }
    }
    if (modifiers.includes(mod as Modifier)) {
      const next = continuations(formsOf(opcode, instrType), modifiers);
      return fail(
        `duplicate modifier .${mod}`,
        tok.start - 1,
        mod.length + 1,
        next ?? dotted(allowedModifiers(opcode, instrType).filter((m) => !modifiers.includes(m))),
      );
    }
    modifiers.push(mod as Modifier);
    modStarts.push(tok.start - 1);
  }

  const text = [opcode, ...modifiers, instrType].join('.');
  const form = findForm(text);
  if (!form)
    return diagnoseCombination(opcode, instrType, modifiers, modStarts, headStart, head.length);

  // Operands, if the input is a whole line.
  const rest = input.slice(pos);
  const operands = parseOperands(rest, pos, form);
  if ('error' in operands) return { ok: false, error: operands.error };
  return { ok: true, form, operands: operands.names };
}

function unknownToken(
  tok: Token,
  opcode: Opcode,
  types: readonly InstrType[],
  type?: InstrType,
  /** The modifier tokens before `tok` (when the type is not known yet). */
  before?: readonly string[],
): ParseResult {
  const allowed = type ? allowedModifiers(opcode, type) : [];
  const caseHint = [...MODIFIERS, ...types].find(
    (m) => m.toLowerCase() === tok.text.toLowerCase() && m !== tok.text,
  );
  const hint = caseHint ? ` (names are case-sensitive: did you mean .${caseHint}?)` : '';
  const expected = type
    ? dotted(allowed)
    : (continuations(formsOf(opcode), joinXorsign(before ?? [])) ?? [
        ...dotted(MODIFIERS),
        ...dotted(types),
      ]);
  const where = type ? ` on ${opcode}.${type}` : '';
  const allowedText = type ? `; allowed: ${allowed.length ? list(dotted(allowed)) : 'none'}` : '';
  return fail(
    `unknown ${type ? 'modifier' : 'modifier or type'} ${shown(`.${tok.text}`)}${where}${hint}${allowedText}`,
    tok.start - 1,
    tok.text.length + 1,
    expected,
  );
}

/** `xorsign`, `abs` tokens as the one modifier `xorsign.abs`, as forms list it. */
function joinXorsign(tokens: readonly string[]): string[] {
  const joined: string[] = [];
  for (const t of tokens) {
    if (t === 'abs' && joined[joined.length - 1] === 'xorsign')
      joined[joined.length - 1] = 'xorsign.abs';
    else joined.push(t);
  }
  return joined;
}

/**
 * What may follow these modifiers in a form of the list: the next modifier or the type, dotted
 * and in the spec's order; null when no form starts with them (then callers fall back to a
 * wider list).
 */
function continuations(forms: readonly Form[], prefix: readonly string[]): string[] | null {
  const next = new Set<string>();
  for (const f of forms) {
    if (prefix.length > f.modifiers.length) continue;
    if (!prefix.every((m, i) => f.modifiers[i] === m)) continue;
    next.add(`.${f.modifiers[prefix.length] ?? f.type}`);
  }
  const order = [...dotted(MODIFIERS), ...dotted(INSTR_TYPES)];
  return next.size > 0 ? [...next].sort((x, y) => order.indexOf(x) - order.indexOf(y)) : null;
}

function diagnoseCombination(
  opcode: Opcode,
  type: InstrType,
  modifiers: readonly Modifier[],
  starts: readonly number[],
  headStart: number,
  headLength: number,
): ParseResult {
  const candidates = formsOf(opcode, type);
  const allowed = allowedModifiers(opcode, type);
  const base = `${opcode}.${type}`;
  for (let i = 0; i < modifiers.length; i++) {
    const m = modifiers[i]!;
    if (!allowed.includes(m)) {
      const others = FORMS.filter((f) => f.opcode === opcode && f.modifiers.includes(m)).map(
        (f) => f.type,
      );
      const onTypes = others.length
        ? ` (it exists on ${list([...new Set(others)].map((t) => `${opcode}.${t}`))})`
        : '';
      return fail(
        `modifier .${m} is not allowed on ${base}${onTypes}; allowed: ${allowed.length ? list(dotted(allowed)) : 'none'}`,
        starts[i]!,
        m.length + 1,
        dotted(allowed),
      );
    }
  }
  const key = (ms: readonly Modifier[]) => [...ms].sort().join('.');
  const reordered = candidates.find((f) => key(f.modifiers) === key(modifiers));
  if (reordered) {
    const firstWrong = modifiers.findIndex((m, i) => reordered.modifiers[i] !== m);
    return fail(
      `modifiers out of order: the spec's order is ${reordered.text}`,
      starts[Math.max(firstWrong, 0)] ?? headStart,
      1,
      [reordered.text],
    );
  }
  // Forms that contain every given modifier, in order, plus some more: something mandatory is missing.
  const isSubsequence = (small: readonly Modifier[], big: readonly Modifier[]) => {
    let j = 0;
    for (const m of big) if (m === small[j]) j++;
    return j === small.length;
  };
  const extended = candidates.filter((f) => isSubsequence(modifiers, f.modifiers));
  if (extended.length > 0) {
    // The closest valid forms add the fewest modifiers; what they add is what is missing.
    const fewest = Math.min(...extended.map((f) => f.modifiers.length));
    const closest = extended.filter((f) => f.modifiers.length === fewest);
    const missing = new Set<string>();
    for (const f of closest) {
      for (const slot of f.line.slots) {
        if (!slot.optional && !slot.options.some((o) => modifiers.includes(o))) {
          missing.add(slot.options.map((o) => `.${o}`).join(' | '));
        }
      }
    }
    if (missing.size > 0) {
      const rnd = [...missing].some((m) => m.startsWith('.rn'));
      return fail(
        `${base} requires ${[...missing].join(' and ')}${rnd ? ' (its rounding modifier has no default)' : ''}; e.g. ${closest[0]!.text}`,
        headStart,
        headLength,
        closest.map((f) => f.text),
      );
    }
  }
  // Name the modifiers that cannot go together: those outside the largest valid subset.
  const fits = candidates.filter((f) => f.modifiers.every((m) => modifiers.includes(m)));
  const best = fits.reduce<readonly Modifier[]>(
    (acc, f) => (f.modifiers.length > acc.length ? f.modifiers : acc),
    [],
  );
  const clash = modifiers.filter((m) => !best.includes(m));
  const partner = best.filter((m) => !['rn', 'rz', 'rm', 'rp'].includes(m));
  const named = [...partner, ...clash].map((m) => `.${m}`);
  const firstClash = modifiers.indexOf(clash[0] ?? modifiers[0]!);
  return fail(
    `${named.join(' and ')} cannot be combined on ${base}; valid forms include ${list(candidates.slice(0, 6).map((f) => f.text))}`,
    starts[firstClash] ?? headStart,
    (clash[0]?.length ?? 0) + 1,
    candidates.map((f) => f.text),
  );
}

function parseOperands(
  rest: string,
  offset: number,
  form: Form,
): { names: string[] | null } | { error: SyntaxError } {
  const expectedNames = form.operands.map((o) => o.name).join(', ');
  const err = (
    message: string,
    position: number,
    length: number,
    expected: readonly string[],
  ): { error: SyntaxError } => ({
    error: { code: 'syntax', message, position, length: Math.max(length, 1), expected },
  });
  // A `//` comment ends the line; only what precedes it is the instruction.
  const comment = rest.indexOf('//');
  const code = comment >= 0 ? rest.slice(0, comment) : rest;
  const semi = code.indexOf(';');
  const body = semi >= 0 ? code.slice(0, semi) : code;
  if (semi >= 0) {
    const after = code.slice(semi + 1);
    const junk = /\S/.exec(after);
    if (junk) {
      return err(
        `unexpected text ${shown(after.trim())} after ';'`,
        offset + semi + 1 + junk.index,
        after.trim().length,
        ['end of input', "'//' comment"],
      );
    }
  }
  if (body.trim() === '') {
    if (semi >= 0) {
      return err(`expected operands ${expectedNames} before ';'`, offset + semi, 1, [
        expectedNames,
      ]);
    }
    return { names: null };
  }
  const names: string[] = [];
  let cursor = offset;
  const parts = body.split(',');
  for (const part of parts) {
    const name = part.trim();
    const start = cursor + part.indexOf(name === '' ? part : name);
    const twoWords = /^([%$A-Za-z_][\w$]*)(\s+)(\S[\s\S]*)$/.exec(name);
    if (twoWords) {
      const [first, gap, rest] = [twoWords[1]!, twoWords[2]!, twoWords[3]!];
      // After the last operand: junk before the ';'. Before it: "d a b", spaces for commas.
      return names.length + 1 >= form.operands.length
        ? err(
            `unexpected text ${shown(rest)} after the operands`,
            start + first.length + gap.length,
            rest.length,
            [';'],
          )
        : err(
            `expected ',' between operands (${form.text} takes ${expectedNames})`,
            start + first.length,
            1,
            [','],
          );
    }
    if (!/^[%$A-Za-z_][\w$]*$/.test(name)) {
      return err(
        name === ''
          ? `expected an operand (${form.text} takes ${expectedNames})`
          : `${shown(name)} is not a register name (${form.text} takes ${expectedNames})`,
        Math.max(start, cursor),
        Math.max(name.length, 1),
        ['register name such as %r1'],
      );
    }
    names.push(name);
    cursor += part.length + 1;
  }
  if (names.length !== form.operands.length) {
    return err(
      `${form.text} takes ${form.operands.length} operands (${expectedNames}); found ${names.length}`,
      offset + body.search(/\S/),
      body.trim().length,
      [expectedNames],
    );
  }
  return { names };
}
