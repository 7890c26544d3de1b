/**
 * The one parser: any instruction of the catalog (`fma.rn.relu.bf16x2`,
 * `cvt.rn.satfinite.e4m3x2.f32`) or one whole line (`cvt.rn.f16.f32 %h1, %f1; // comment`).
 * The opcode picks the records; their type grammar (record.ts) says how the types are read: one
 * unit (`.f16x2`, the mixed `.f32.bf16`), a destination and a source type (`.dtype.atype`), or a
 * matrix instruction's type per operand (`mma….f32.f16.f16.f32`: D, A, B, C) and layouts.
 * Like ptxas, it reads the modifiers and the types in any order; it also reads a name in another
 * case, which ptxas refuses; and it says how the spec spells the form (spelling-note.ts). It
 * answers with the form, or a syntax error that says where (a 0-based character offset into the
 * input) and what was expected. Every instruction an error suggests is itself a valid form.
 */
import type { FormatName } from './formats.ts';
import type { Form } from './instruction.ts';
import type { AnyModifier } from './modifiers.ts';
import {
  allowedModifiers,
  closestForm,
  continuations,
  diagnoseCombination,
  joinHalves,
  unknownToken,
} from './parse-diagnose.ts';
import { readMatrixOperands, readOperands } from './parse-operands.ts';
import {
  dotted,
  fail,
  formWithModifiers,
  list,
  readName,
  shown,
  tooLong,
  type SyntaxError,
  type SyntaxFailure,
  type Token,
} from './parse-parts.ts';
import { typeParts, type SyntaxLine } from './record.ts';
import { spellingNote, type SpellingNote } from './spelling-note.ts';
import {
  PARSER_OPCODES,
  candidatesOf,
  typesOf,
  vocabularyFor,
  type Candidate,
  type Vocabulary,
} from './vocabulary.ts';

export { shown, type SyntaxError };

export type ParseResult =
  | {
      readonly ok: true;
      readonly form: Form;
      /** Operand names as written (cvt's braces dropped), or null for a name alone. */
      readonly operands: readonly string[] | null;
      /** Set when the name spells the form other than the form does. */
      readonly spelling: SpellingNote | null;
    }
  | { readonly ok: false; readonly error: SyntaxError };

/**
 * The type of a name (as written after the modifiers) and the indices of the tokens it takes
 * (a matrix instruction's layouts among them, and read).
 */
type TypeRead =
  | {
      readonly type: string;
      readonly indices: readonly number[];
      readonly layouts?: { readonly a: string; readonly b: string };
    }
  | SyntaxFailure;

/** What may follow the type: a modifier, or the end of the name. */
const AFTER_TYPE_TOKEN = ['a modifier', 'operands', "';'", 'end of input'];

const unique = <T>(xs: Iterable<T>): T[] => [...new Set(xs)];
const orList = (xs: readonly string[]) => dotted(xs).join(' or ');

/** The tokens a modifier is written as: `xorsign.abs` is two. */
function modifierTokens(vocabulary: Vocabulary): Set<string> {
  return new Set([
    ...vocabulary.modifiers.filter((m) => !m.includes('.')),
    ...vocabulary.halves.keys(),
  ]);
}

/** A token in the catalog's case (`RN` → rn, `nan` → NaN), or as written when it is none. */
function inCatalogCase(vocabulary: Vocabulary, text: string): string {
  const lower = text.toLowerCase();
  const known = [
    ...modifierTokens(vocabulary),
    ...vocabulary.typeTokens,
    ...(vocabulary.pair?.excluded?.tokens ?? []),
  ];
  return known.find((k) => k.toLowerCase() === lower) ?? text;
}

export function parseInstruction(input: string): ParseResult {
  const long = tooLong(input);
  if (long) return long;
  // The instruction name runs up to the first white space, ',', ';' or '{'.
  const name = readName(input, /[\s;,{]/);
  if (name.start >= input.length) {
    return fail('empty instruction: expected an opcode such as add or fma', name.start, 1, [
      ...PARSER_OPCODES,
    ]);
  }
  const opTok = name.tokens[0]!;
  // An opcode may be two tokens (wgmma.mma_async); the longest that the name begins with.
  const opcode = [...PARSER_OPCODES]
    .sort((x, y) => y.length - x.length)
    .find((o) => o.split('.').every((part, i) => name.tokens[i]?.text.toLowerCase() === part));
  if (!opcode) {
    return fail(
      opTok.text === ''
        ? 'expected an opcode'
        : `unknown opcode ${shown(opTok.text)}; expected one of ${list(PARSER_OPCODES)}`,
      opTok.start,
      opTok.text.length,
      [...PARSER_OPCODES],
    );
  }
  const opcodeTokens = opcode.split('.').length;
  const lastOpcodeToken = name.tokens[opcodeTokens - 1]!;
  const opcodeEnd = lastOpcodeToken.start + lastOpcodeToken.text.length;
  const vocabulary = vocabularyFor(opcode);
  const tokens: Token[] = [
    { start: opTok.start, text: opcode },
    ...name.tokens
      .slice(opcodeTokens)
      .map((t) => ({ start: t.start, text: inCatalogCase(vocabulary, t.text) })),
  ];
  const read =
    vocabulary.kind === 'unit'
      ? readUnitType(vocabulary, opcode, tokens, name.end)
      : vocabulary.kind === 'pair'
        ? readTypePair(vocabulary, opcode, tokens, name.end)
        : readMatrixType(vocabulary, opcode, tokens, name.end);
  if ('ok' in read) return read;
  const { type, indices, layouts } = read;
  const ofType = candidatesOf(opcode, type);
  const candidates = layouts
    ? ofType.filter(
        (c) => c.form.matrix?.layouts?.a === layouts.a && c.form.matrix.layouts.b === layouts.b,
      )
    : ofType;
  if (candidates.length === 0) return layoutsRefused(opcode, type, tokens, indices, ofType);
  const { repeatable } = candidates[0]!.record;

  // The modifiers, before, between and after the types, in the order written.
  const known = modifierTokens(vocabulary);
  const modifiers: AnyModifier[] = [];
  const starts: number[] = [];
  const halves = new Map<string, Token>(); // `xorsign` and `abs`, each written once
  for (const [i, tok] of tokens.entries()) {
    if (i === 0 || indices.includes(i)) continue;
    if (!known.has(tok.text)) return unknownToken(vocabulary, tok, opcode, type);
    const mod = tok.text;
    const whole = vocabulary.halves.get(mod);
    const seen = whole ? halves.has(mod) : modifiers.includes(mod as AnyModifier);
    if (seen && (repeatable as readonly string[]).includes(mod)) continue;
    if (seen) {
      const next = continuations(vocabulary, candidates, modifiers);
      return fail(
        `duplicate modifier .${mod}: ptxas takes .${mod} once`,
        tok.start - 1,
        mod.length + 1,
        next ?? dotted(allowedModifiers(opcode, type).filter((m) => !modifiers.includes(m))),
      );
    }
    if (whole) {
      halves.set(mod, tok);
      const parts = whole.split('.').map((p) => halves.get(p));
      if (parts.some((p) => p === undefined)) continue;
      // Both halves: the one modifier .xorsign.abs, at the place of the first.
      modifiers.push(whole);
      starts.push(Math.min(...parts.map((p) => p!.start)) - 1);
      continue;
    }
    modifiers.push(mod as AnyModifier);
    starts.push(tok.start - 1);
  }
  for (const [half, tok] of halves) {
    const whole = vocabulary.halves.get(half)!;
    if (modifiers.includes(whole)) continue;
    return fail(
      `${dotted(whole.split('.')).join(' and ')} must be specified together (.${half} alone), as .${whole}`,
      tok.start - 1,
      half.length + 1,
      [`.${whole}`],
    );
  }

  const match = formWithModifiers(candidates, modifiers);
  if (!match) {
    return diagnoseCombination(
      vocabulary,
      opcode,
      type,
      modifiers,
      starts,
      { start: name.start, opcodeEnd },
      layouts ? candidates : undefined,
    );
  }
  // Operands, if the input is a whole line.
  const operands = match.form.matrix
    ? readMatrixOperands(input.slice(name.end), name.end, match.form, operandLists(match.line))
    : readOperands(input.slice(name.end), name.end, match.form, match.line.operands);
  if ('error' in operands) return { ok: false, error: operands.error };
  const spelling = spellingNote(
    match.form,
    name.text,
    tokens.slice(1).map((t) => t.text),
    repeatable,
  );
  return { ok: true, form: match.form, operands: operands.names, spelling };
}

/**
 * A type written as one unit (the arithmetic): one type token, or the mixed `.f32` directly
 * followed by its source type. ptxas takes it anywhere among the modifiers, written once.
 */
function readUnitType(
  vocabulary: Vocabulary,
  opcode: string,
  tokens: readonly Token[],
  nameEnd: number,
): TypeRead {
  const opcodeTypes = typesOf(opcode);
  const typeTokens = new Set(vocabulary.typeTokens);
  const known = modifierTokens(vocabulary);
  const mixed = vocabulary.mixed;
  const isMixed = (t: string) => t.includes('.');
  const hasMixed = opcodeTypes.some(isMixed);

  for (const [i, tok] of tokens.entries()) {
    if (i === 0 || tok.text !== '') continue;
    const before = tokens.slice(1, i).map((t) => t.text);
    if (mixed && before.at(-1) === mixed.wide && hasMixed) {
      return fail(
        `expected the source type ${orList(mixed.sources)} after '.${mixed.wide}.'`,
        tok.start,
        1,
        dotted(mixed.sources),
      );
    }
    // With the type already written, what may come next is a modifier of that type.
    const typed = before.filter((t) => typeTokens.has(t));
    const forms = candidatesOf(opcode).filter((c) =>
      mixed && typed.includes(mixed.wide)
        ? isMixed(c.form.type) && typed.every((t) => c.form.type.split('.').includes(t))
        : typed.every((t) => t === c.form.type),
    );
    const next = continuations(
      vocabulary,
      forms,
      joinHalves(
        vocabulary,
        before.filter((t) => !typeTokens.has(t)),
      ),
      typed.length === 0,
    );
    return fail(
      typed.length ? "expected a modifier after '.'" : "expected a modifier or type after '.'",
      tok.start,
      1,
      next ?? [...dotted(vocabulary.modifiers), ...dotted(opcodeTypes)],
    );
  }

  const typeIndex = tokens.findIndex((t, i) => i > 0 && typeTokens.has(t.text));
  if (typeIndex < 0) {
    const at = tokens.findIndex((t, i) => i > 0 && !known.has(t.text));
    if (at > 0) {
      const before = tokens.slice(1, at).map((t) => t.text);
      return unknownToken(vocabulary, tokens[at]!, opcode, undefined, before);
    }
    return fail(
      `missing instruction type: ${opcode} takes one of ${list(dotted(opcodeTypes))}`,
      nameEnd,
      1,
      dotted(opcodeTypes),
    );
  }
  const typeTok = tokens[typeIndex]!;
  const isSource = (t: Token | undefined) =>
    mixed !== null && mixed.sources.includes(t?.text ?? '');
  /** Written modifiers that are known, for a suggestion built from them. */
  const knownModifiers = () =>
    joinHalves(
      vocabulary,
      tokens
        .slice(1)
        .filter((t) => known.has(t.text))
        .map((t) => t.text),
    ).filter((m): m is AnyModifier => (vocabulary.modifiers as readonly string[]).includes(m));
  let type = typeTok.text;
  const indices = [typeIndex];
  if (mixed && type === mixed.wide) {
    const src = tokens[typeIndex + 1];
    if (!isSource(src) && !hasMixed) {
      // Only add, sub and fma have mixed-precision .f32 forms: suggest none for the others.
      return fail(
        `${opcode} has no .${mixed.wide} form; it takes one of ${list(dotted(opcodeTypes))}`,
        typeTok.start - 1,
        typeTok.text.length + 1,
        dotted(opcodeTypes),
      );
    }
    if (!isSource(src)) {
      const written = tokens.slice(typeIndex + 1).find(isSource)?.text ?? mixed.sources[0]!;
      const example = closestForm(opcode, `${mixed.wide}.${written}`, knownModifiers());
      return fail(
        `.${mixed.wide} must be followed directly by the source type ${orList(mixed.sources)} (mixed precision: e.g. ${example.text})`,
        src ? src.start - 1 : typeTok.start + typeTok.text.length,
        src ? src.text.length + 1 : 1,
        dotted(mixed.sources),
      );
    }
    type = `${mixed.wide}.${src!.text}`;
    indices.push(typeIndex + 1);
  }
  const typeEnd = indices[indices.length - 1]!;
  const typeSpanLength = tokens[typeEnd]!.start + tokens[typeEnd]!.text.length - typeTok.start;
  const second = tokens.find((t, i) => i > typeEnd && typeTokens.has(t.text));
  if (second) {
    // `add.rn.bf16.f32`: the mixed type written the other way round.
    const swapped = mixed !== null && second.text === mixed.wide && isSource(typeTok) && hasMixed;
    return fail(
      swapped
        ? `the mixed-precision type is written .${mixed.wide}.${type}, .${mixed.wide} first (e.g. ${closestForm(opcode, `${mixed.wide}.${type}`, knownModifiers()).text})`
        : `a second type ${shown(`.${second.text}`)}: an instruction has one type, here .${type}`,
      second.start - 1,
      second.text.length + 1,
      AFTER_TYPE_TOKEN,
    );
  }
  if (!opcodeTypes.includes(type)) {
    return fail(
      `${opcode} has no type .${type}; expected one of ${list(dotted(opcodeTypes))}`,
      typeTok.start - 1,
      typeSpanLength + 1,
      dotted(opcodeTypes),
    );
  }
  return { type, indices };
}

/**
 * What may come after these types and modifiers (each once) in a form of the opcode, in the
 * catalog's order: a modifier the form adds, or its next type (the destination type first);
 * every modifier and type when no form holds what is written.
 */
function pairContinuations(
  vocabulary: Vocabulary,
  opcode: string,
  types: readonly string[],
  modifiers: readonly string[],
): string[] {
  const pair = vocabulary.pair!;
  const next = new Set<string>();
  for (const c of candidatesOf(opcode)) {
    const { dtype, atype } = typeParts(c.form.type);
    const parts = [dtype, atype];
    if (!types.every((t, i) => parts[i] === t)) continue;
    if (!modifiers.every((m) => (c.modifiers as readonly string[]).includes(m))) continue;
    for (const m of c.modifiers) if (!modifiers.includes(m)) next.add(m);
    if (types.length < 2) next.add(parts[types.length]!);
  }
  const order = [...vocabulary.modifiers, ...pair.tokens];
  const found = [...next].sort((x, y) => order.indexOf(x) - order.indexOf(y));
  return dotted(found.length > 0 ? found : order);
}

/**
 * A destination and a source type (cvt): two type tokens anywhere among the modifiers, the
 * first written being the destination type, as ptxas 13.0 reads them.
 */
function readTypePair(
  vocabulary: Vocabulary,
  opcode: string,
  tokens: readonly Token[],
  nameEnd: number,
): TypeRead {
  const pair = vocabulary.pair!;
  const typeTokens = new Set(pair.tokens);
  const known = modifierTokens(vocabulary);
  /** What may come after the tokens before `at`: a modifier, or the next type of a form. */
  const next = (at: number) => {
    const before = tokens.slice(1, at).map((t) => t.text);
    return pairContinuations(
      vocabulary,
      opcode,
      before.filter((t) => typeTokens.has(t)),
      before.filter((t) => !typeTokens.has(t)),
    );
  };
  const emptyAt = tokens.findIndex((t, i) => i > 0 && t.text === '');
  if (emptyAt > 0) {
    const typed = tokens.slice(1, emptyAt).filter((t) => typeTokens.has(t.text)).length;
    return fail(
      typed >= 2 ? "expected a modifier after '.'" : "expected a modifier or type after '.'",
      tokens[emptyAt]!.start,
      1,
      next(emptyAt),
    );
  }
  const excluded = pair.excluded;
  const outside = excluded && tokens.find((t, i) => i > 0 && excluded.tokens.includes(t.text));
  if (excluded && outside) {
    return fail(
      `${opcode} with the ${excluded.what} .${outside.text} is not in this catalog: it holds ${excluded.catalogHolds} (${list(dotted(pair.tokens))})`,
      outside.start - 1,
      outside.text.length + 1,
      dotted(pair.tokens),
    );
  }
  const indices = tokens.flatMap((t, i) => (i > 0 && typeTokens.has(t.text) ? [i] : []));
  if (indices.length < 2) {
    const at = tokens.findIndex((t, i) => i > 0 && !typeTokens.has(t.text) && !known.has(t.text));
    if (at > 0) {
      const tok = tokens[at]!;
      return fail(
        `unknown modifier or type ${shown(`.${tok.text}`)} on ${opcode}`,
        tok.start - 1,
        tok.text.length + 1,
        next(at),
      );
    }
    return fail(
      `${opcode} takes a destination type and a source type, in that order (e.g. ${pair.example}); found ${indices.length}`,
      nameEnd,
      1,
      dotted(pair.tokens),
    );
  }
  if (indices.length > 2) {
    const third = tokens[indices[2]!]!;
    return fail(
      `a third type ${shown(`.${third.text}`)}: ${opcode} takes a destination type and a source type`,
      third.start - 1,
      third.text.length + 1,
      dotted(pair.tokens),
    );
  }
  const dTok = tokens[indices[0]!]!;
  const aTok = tokens[indices[1]!]!;
  const [dtype, atype] = [dTok.text, aTok.text];
  const type = `${dtype}.${atype}`;
  if (candidatesOf(opcode, type).length > 0) return { type, indices };
  const fromSource = candidatesOf(opcode).filter((c) => typeParts(c.form.type).atype === atype);
  const to = unique(fromSource.map((c) => typeParts(c.form.type).dtype));
  const swapped = candidatesOf(opcode, `${atype}.${dtype}`).length > 0;
  return fail(
    `${opcode} has no conversion to .${dtype} from .${atype}` +
      (to.length ? `; from .${atype} it converts to ${list(dotted(to))}` : '') +
      (swapped
        ? ` (the destination type comes first: ${opcode}….${atype}.${dtype} converts .${dtype} to .${atype})`
        : ''),
    dTok.start - 1,
    aTok.start + aTok.text.length - dTok.start + 1,
    fromSource.map((c) => c.form.text).slice(0, 8),
  );
}

/** The operand lists a matrix line takes: the spec's, and the other where A may be registers. */
function operandLists(line: SyntaxLine): string[] {
  const other = line.matrix?.otherOperands;
  return other ? [line.operands, other] : [line.operands];
}

/** The types of a matrix opcode's forms that have these layouts (mma's layouts allow few). */
function layoutsRefused(
  opcode: string,
  type: string,
  tokens: readonly Token[],
  indices: readonly number[],
  ofType: readonly Candidate[],
): SyntaxFailure {
  const layoutTokens = indices
    .map((i) => tokens[i]!)
    .filter((t) => t.text === 'row' || t.text === 'col');
  const first = layoutTokens[0] ?? tokens[indices[0]!]!;
  const last = layoutTokens.at(-1) ?? first;
  const allowed = unique(
    ofType.map((c) => `.${c.form.matrix!.layouts!.a}.${c.form.matrix!.layouts!.b}`),
  );
  return fail(
    `${opcode} with .${type} takes the layouts ${allowed.join(' or ')} (.alayout.blayout: A's, then B's)`,
    first.start - 1,
    last.start + last.text.length - first.start + 1,
    allowed,
  );
}

/**
 * A matrix instruction's types, one per operand of its grammar (mma D, A, B, C; wgmma D, A, B)
 * in the order written, and mma's two layouts (A's first), wherever they stand among the
 * modifiers: as ptxas 13.0 reads them.
 */
function readMatrixType(
  vocabulary: Vocabulary,
  opcode: string,
  tokens: readonly Token[],
  nameEnd: number,
): TypeRead {
  const grammar = vocabulary.matrix!;
  const typeTokens = new Set<string>(grammar.tokens);
  const layoutTokens = new Set<string>(grammar.layouts ?? []);
  const known = modifierTokens(vocabulary);
  const roles = grammar.roles.map((r) => `.${r}type`).join('');
  const expectedAll = [
    ...dotted(vocabulary.modifiers),
    ...dotted(grammar.layouts ?? []),
    ...dotted(grammar.tokens),
  ];
  for (const [i, tok] of tokens.entries()) {
    if (i === 0) continue;
    if (tok.text === '')
      return fail(
        `expected a modifier${grammar.layouts ? ', a layout' : ''} or a type after '.'`,
        tok.start,
        1,
        expectedAll,
      );
    if (!known.has(tok.text) && !typeTokens.has(tok.text) && !layoutTokens.has(tok.text))
      return fail(
        `unknown modifier or type ${shown(`.${tok.text}`)} on ${opcode}`,
        tok.start - 1,
        tok.text.length + 1,
        expectedAll,
      );
  }
  const typeIndices = tokens.flatMap((t, i) => (i > 0 && typeTokens.has(t.text) ? [i] : []));
  // A block-scaled form writes its scale type after the roles' types (`.f32.e2m1.e2m1.f32.ue8m0`).
  const scaleTyped =
    typeIndices.length === grammar.roles.length + 1 &&
    (grammar.scaleTokens ?? []).includes(tokens[typeIndices.at(-1)!]!.text as FormatName);
  if (typeIndices.length !== grammar.roles.length && !scaleTyped) {
    const extra = tokens[typeIndices[grammar.roles.length] ?? -1];
    return fail(
      `${opcode} takes ${grammar.roles.length} types, ${roles} in that order (e.g. ${grammar.example}); found ${typeIndices.length}`,
      extra ? extra.start - 1 : nameEnd,
      extra ? extra.text.length + 1 : 1,
      dotted(grammar.tokens),
    );
  }
  const layoutIndices = tokens.flatMap((t, i) => (i > 0 && layoutTokens.has(t.text) ? [i] : []));
  if (grammar.layouts && layoutIndices.length !== 2) {
    const extra = tokens[layoutIndices[2] ?? -1];
    return fail(
      `${opcode} takes two layouts, .alayout.blayout (${list(dotted(grammar.layouts))}: A's, then B's); found ${layoutIndices.length}`,
      extra ? extra.start - 1 : nameEnd,
      extra ? extra.text.length + 1 : 1,
      dotted(grammar.layouts),
    );
  }
  const type = typeIndices.map((i) => tokens[i]!.text).join('.');
  if (candidatesOf(opcode, type).length === 0) {
    const first = tokens[typeIndices[0]!]!;
    const last = tokens[typeIndices.at(-1)!]!;
    const atype = tokens[typeIndices[1]!]!.text;
    const withA = typesOf(opcode).filter((t) => t.split('.')[1] === atype);
    return fail(
      `${opcode} has no form with the types .${type} (${roles})` +
        (withA.length > 0 ? `; with .${atype} inputs: ${list(dotted(withA.slice(0, 8)))}` : ''),
      first.start - 1,
      last.start + last.text.length - first.start + 1,
      dotted((withA.length > 0 ? withA : typesOf(opcode)).slice(0, 8)),
    );
  }
  const layouts =
    layoutIndices.length === 2
      ? { a: tokens[layoutIndices[0]!]!.text, b: tokens[layoutIndices[1]!]!.text }
      : undefined;
  return { type, indices: [...typeIndices, ...layoutIndices], ...(layouts ? { layouts } : {}) };
}
