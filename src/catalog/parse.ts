import { FORMS, formsOf, isMixed, typesOf, type Form } from './forms.ts';
import {
  closestForm as closestOf,
  dotted,
  fail,
  formWithModifiers,
  list,
  missingModifiers,
  operandText,
  readName,
  shown,
  syntaxError,
  tooLong,
  type SyntaxError,
  type Token,
} from './parse-parts.ts';
import { REPEATABLE_MODIFIERS, spellingNote, type SpellingNote } from './spelling.ts';
import {
  INSTR_TYPES,
  MODIFIERS,
  OPCODES,
  ROUNDING_MODIFIERS,
  type InstrType,
  type Modifier,
  type Opcode,
  type RoundingMode,
} from './types.ts';

/**
 * Parser for one PTX instruction (`fma.rn.relu.bf16x2`) or one whole line
 * (`fma.rn.relu.bf16x2 d, a, b, c;`). It answers with the catalog form, or a syntax error that
 * says where (a 0-based character offset into the input) and what was expected. Like ptxas, it
 * reads the modifiers and the type in any order (see spelling.ts) and then says how the spec
 * spells the form. Every instruction an error suggests is itself a valid form.
 */

export { shown, type SyntaxError };

export type ParseResult =
  | {
      readonly ok: true;
      readonly form: Form;
      readonly operands: readonly string[] | null;
      /** Set when the name spells the form other than the form does (an order ptxas accepts). */
      readonly spelling: SpellingNote | null;
    }
  | { readonly ok: false; readonly error: SyntaxError };

const TYPE_TOKENS = new Set(['f16', 'f16x2', 'bf16', 'bf16x2', 'f32']);
const MODIFIER_TOKENS = new Set([
  ...MODIFIERS.filter((m) => m !== 'xorsign.abs'),
  'xorsign',
  'abs',
]);
/** What may follow the type: a modifier, or the end of the name. */
const AFTER_TYPE_TOKEN = ['a modifier', 'operands', "';'", 'end of input'];

function allowedModifiers(opcode: Opcode, type: InstrType): Modifier[] {
  const set = new Set<Modifier>();
  for (const f of formsOf(opcode, type)) for (const m of f.modifiers) set.add(m);
  return [...set];
}

export function parseInstruction(input: string): ParseResult {
  const long = tooLong(input);
  if (long) return long;
  // The instruction head runs up to the first white space, ',' or ';'.
  const name = readName(input, /[\s;,]/);
  const { tokens, end: pos } = name;
  const headStart = name.start;
  if (headStart >= input.length) {
    return fail('empty instruction: expected an opcode such as add or fma', headStart, 1, [
      ...OPCODES,
    ]);
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
      if (before.at(-1) === 'f32' && opcodeTypes.some(isMixed)) {
        return fail("expected the source type .f16 or .bf16 after '.f32.'", tok.start, 1, [
          '.f16',
          '.bf16',
        ]);
      }
      // With the type already written, what may come next is a modifier of that type.
      const typed = before.filter((t) => TYPE_TOKENS.has(t));
      const forms = formsOf(opcode).filter((f) =>
        typed.includes('f32')
          ? isMixed(f.type) && typed.every((t) => f.type.split('.').includes(t))
          : typed.every((t) => t === f.type),
      );
      const next = continuations(
        forms,
        joinXorsign(before.filter((t) => !TYPE_TOKENS.has(t))),
        typed.length === 0,
      );
      return fail(
        typed.length ? "expected a modifier after '.'" : "expected a modifier or type after '.'",
        tok.start,
        1,
        next ?? [...dotted(MODIFIERS), ...dotted(opcodeTypes)],
      );
    }
  }

  // The type: ptxas takes it anywhere among the modifiers, as one unit written once.
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
  const hasMixed = opcodeTypes.some((t) => t.startsWith('f32.'));
  const isSource = (t: Token | undefined) => t?.text === 'f16' || t?.text === 'bf16';
  /** Written modifiers that are known, for a suggestion built from them. */
  const knownModifiers = () =>
    joinXorsign(
      tokens
        .slice(1)
        .filter((t) => MODIFIER_TOKENS.has(t.text))
        .map((t) => t.text),
    ).filter((m): m is Modifier => (MODIFIERS as readonly string[]).includes(m));
  let type: string = typeTok.text;
  const typeTokens = [typeIndex];
  if (type === 'f32') {
    const src = tokens[typeIndex + 1];
    if (!isSource(src) && !hasMixed) {
      // Only add, sub and fma have mixed-precision .f32 forms: suggest none for the others.
      return fail(
        `${opcode} has no .f32 form; it takes one of ${list(dotted(opcodeTypes))}`,
        typeTok.start - 1,
        typeTok.text.length + 1,
        dotted(opcodeTypes),
      );
    }
    if (!isSource(src)) {
      const written = tokens.slice(typeIndex + 1).find(isSource)?.text ?? 'f16';
      const example = closestForm(opcode, `f32.${written}` as InstrType, knownModifiers());
      return fail(
        `.f32 must be followed directly by the source type .f16 or .bf16 (mixed precision: e.g. ${example.text})`,
        src ? src.start - 1 : typeTok.start + typeTok.text.length,
        src ? src.text.length + 1 : 1,
        ['.f16', '.bf16'],
      );
    }
    type = `f32.${src!.text}`;
    typeTokens.push(typeIndex + 1);
  }
  const typeEnd = typeTokens[typeTokens.length - 1]!;
  const typeSpanLength = tokens[typeEnd]!.start + tokens[typeEnd]!.text.length - typeTok.start;
  const second = tokens.find((t, i) => i > typeEnd && TYPE_TOKENS.has(t.text));
  if (second) {
    // `add.rn.bf16.f32`: the mixed type written the other way round.
    const swapped = second.text === 'f32' && isSource(typeTok) && hasMixed;
    return fail(
      swapped
        ? `the mixed-precision type is written .f32.${type}, .f32 first (e.g. ${closestForm(opcode, `f32.${type}` as InstrType, knownModifiers()).text})`
        : `a second type ${shown(`.${second.text}`)}: an instruction has one type, here .${type}`,
      second.start - 1,
      second.text.length + 1,
      AFTER_TYPE_TOKEN,
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

  // The modifiers, before and after the type, in the order written.
  const modifiers: Modifier[] = [];
  const modStarts: number[] = [];
  const modTokens = tokens.filter((_, i) => i > 0 && !typeTokens.includes(i));
  const halves = new Map<string, Token>(); // `xorsign` and `abs`, each written once
  for (const tok of modTokens) {
    if (!MODIFIER_TOKENS.has(tok.text)) return unknownToken(tok, opcode, opcodeTypes, instrType);
    const mod = tok.text;
    const seen =
      mod === 'xorsign' || mod === 'abs' ? halves.has(mod) : modifiers.includes(mod as Modifier);
    if (seen && (REPEATABLE_MODIFIERS as readonly string[]).includes(mod)) continue;
    if (seen) {
      const next = continuations(formsOf(opcode, instrType), modifiers);
      return fail(
        `duplicate modifier .${mod}: ptxas takes .${mod} once`,
        tok.start - 1,
        mod.length + 1,
        next ?? dotted(allowedModifiers(opcode, instrType).filter((m) => !modifiers.includes(m))),
      );
    }
    if (mod === 'xorsign' || mod === 'abs') {
      halves.set(mod, tok);
      if (halves.size < 2) continue;
      // Both halves: the one modifier .xorsign.abs, at the place of the first.
      const first = [...halves.values()].sort((x, y) => x.start - y.start)[0]!;
      modifiers.push('xorsign.abs');
      modStarts.push(first.start - 1);
      continue;
    }
    modifiers.push(mod as Modifier);
    modStarts.push(tok.start - 1);
  }
  if (halves.size === 1) {
    const [[half, tok]] = [...halves] as [[string, Token]];
    return fail(
      `.xorsign and .abs must be specified together (.${half} alone), as .xorsign.abs`,
      tok.start - 1,
      half.length + 1,
      ['.xorsign.abs'],
    );
  }

  const form = candidatesWith(opcode, instrType, modifiers);
  if (!form)
    return diagnoseCombination(
      opcode,
      instrType,
      modifiers,
      modStarts,
      headStart,
      name.text.length,
    );

  // Operands, if the input is a whole line.
  const rest = input.slice(pos);
  const operands = parseOperands(rest, pos, form);
  if ('error' in operands) return { ok: false, error: operands.error };
  const spelling = spellingNote(
    form,
    tokens.slice(1).map((t) => t.text),
  );
  return { ok: true, form, operands: operands.names, spelling };
}

/** The form of this opcode and type with exactly these modifiers, in any order. */
function candidatesWith(
  opcode: Opcode,
  type: InstrType,
  modifiers: readonly Modifier[],
): Form | undefined {
  return formWithModifiers(formsOf(opcode, type), modifiers);
}

/**
 * The form of the opcode and type nearest to these modifiers, for a suggestion: the exact one,
 * or the one that keeps most of them and adds fewest (the spec's forms first on a tie).
 */
function closestForm(opcode: Opcode, type: InstrType, modifiers: readonly Modifier[]): Form {
  return candidatesWith(opcode, type, modifiers) ?? closestOf(formsOf(opcode, type), modifiers);
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
  const where = type ? ` on ${opcode} with .${type}` : '';
  const allowedText = type ? `; allowed: ${allowed.length ? list(dotted(allowed)) : 'none'}` : '';
  return fail(
    `unknown ${type ? 'modifier' : 'modifier or type'} ${shown(`.${tok.text}`)}${where}${hint}${allowedText}`,
    tok.start - 1,
    tok.text.length + 1,
    expected,
  );
}

/** `xorsign` and `abs` tokens, when both are there, as the one modifier `xorsign.abs`. */
function joinXorsign(tokens: readonly string[]): string[] {
  if (!tokens.includes('xorsign') || !tokens.includes('abs')) return [...tokens];
  const first = Math.min(tokens.indexOf('xorsign'), tokens.indexOf('abs'));
  return tokens.flatMap((t, i) =>
    i === first ? ['xorsign.abs'] : t === 'xorsign' || t === 'abs' ? [] : [t],
  );
}

/**
 * What may come next after these modifiers, in a form of the list: another modifier of a form
 * that holds them all (any order: ptxas reads them so), or (unless the type is written
 * already) the type of a form with exactly them; dotted, in the spec's order. Null when no form holds them all (then callers fall back
 * to a wider list).
 */
function continuations(
  forms: readonly Form[],
  given: readonly string[],
  typeToCome = true,
): string[] | null {
  const next = new Set<string>();
  for (const f of forms) {
    if (!given.every((m) => (f.modifiers as readonly string[]).includes(m))) continue;
    for (const m of f.modifiers) if (!given.includes(m)) next.add(`.${m}`);
    if (typeToCome && f.modifiers.length === new Set(given).size) next.add(`.${f.type}`);
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
  // The pair named in words: `fma.bf16` alone would read as an (invalid) instruction.
  const base = `${opcode} with .${type}`;
  for (let i = 0; i < modifiers.length; i++) {
    const m = modifiers[i]!;
    if (!allowed.includes(m)) {
      const others = FORMS.filter((f) => f.opcode === opcode && f.modifiers.includes(m)).map(
        (f) => f.type,
      );
      const onTypes = others.length
        ? ` (${opcode} takes it with ${list(dotted([...new Set(others)]))})`
        : '';
      return fail(
        `modifier .${m} is not allowed on ${base}${onTypes}; allowed: ${allowed.length ? list(dotted(allowed)) : 'none'}`,
        starts[i]!,
        m.length + 1,
        dotted(allowed),
      );
    }
  }
  // Forms that hold every given modifier and some more: something mandatory is missing.
  const incomplete = missingModifiers(candidates, modifiers);
  if (incomplete) {
    const { nearest: closest, missing } = incomplete;
    if (missing.size > 0) {
      const order = (ms: Set<Modifier>) =>
        [...ms].sort((x, y) => MODIFIERS.indexOf(x) - MODIFIERS.indexOf(y));
      const texts = [...missing.values()].map((ms) => dotted(order(ms)).join(' | '));
      const rnd = missing.has('rnd');
      return fail(
        `${base} requires ${texts.join(' and ')}${rnd ? ' (its rounding modifier has no default)' : ''}; e.g. ${closest[0]!.text}`,
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
  // The forms that keep the most of what was written: one per way to resolve the clash.
  const keepMost = fits.filter((f) => f.modifiers.length === best.length);
  // The modifiers that exclude each other: those some of these forms keep and others drop
  // (or, with one such form, the ones it keeps beside what it drops).
  const disputed = modifiers.filter((m) => !keepMost.every((f) => f.modifiers.includes(m)));
  const partner = best.filter((m) => !ROUNDING_MODIFIERS.includes(m as RoundingMode));
  const named = (keepMost.length > 1 ? disputed : [...partner, ...clash]).map((m) => `.${m}`);
  const firstClash = modifiers.indexOf(clash[0] ?? modifiers[0]!);
  const suggestions = (keepMost.length > 0 ? keepMost : candidates.slice(0, 6)).map((f) => f.text);
  return fail(
    `${named.join(' and ')} cannot be combined on ${base}; e.g. ${suggestions.join(' or ')}`,
    starts[firstClash] ?? headStart,
    (clash[0]?.length ?? 0) + 1,
    suggestions,
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
  ): { error: SyntaxError } => ({ error: syntaxError(message, position, length, expected) });
  const text = operandText(rest, offset, expectedNames, ['end of input', "'//' comment"]);
  if ('error' in text) return text;
  const body = text.body;
  if (body === null) return { names: null };
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
