/**
 * Parser for one float-to-float `cvt` instruction (`cvt.rn.satfinite.e4m3x2.f32`) or one whole
 * line (`cvt.rn.satfinite.e4m3x2.f32 %rs1, %f1, %f2;`), read as ptxas 13.0 reads it (measured
 * by the spelling probes of tests/ptxas): the modifiers and the two types in any order, the
 * first type written being the destination type; `.sat`, `.relu` and `.satfinite` may be
 * written more than once, a rounding modifier or `.ftz` only once. It answers with the catalog
 * form, or a syntax error that says where and what was expected; every instruction an error
 * suggests is itself a valid form.
 */
import { CVT_FORMS, sortCvtModifiers, type CvtForm } from './cvt-forms.ts';
import {
  CVT_MODIFIERS,
  CVT_TYPES,
  isCvtRounding,
  type CvtModifier,
  type CvtType,
} from './cvt-types.ts';
import {
  closestForm,
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

/** Modifiers ptxas 13.0 takes written more than once on cvt. */
export const CVT_REPEATABLE_MODIFIERS: readonly CvtModifier[] = ['sat', 'relu', 'satfinite'];

/** A spelling ptxas accepts that is not the form's own (see spelling.ts for the arithmetic's). */
export interface CvtSpellingNote {
  readonly written: string;
  readonly canonical: string;
  readonly reordered: boolean;
  readonly repeated: readonly { readonly modifier: CvtModifier; readonly times: number }[];
  readonly message: string;
}

export type CvtParseResult =
  | {
      readonly ok: true;
      readonly form: CvtForm;
      /** Operand names as written (the braces of `{a, b, e, f}` dropped), or null. */
      readonly operands: readonly string[] | null;
      readonly spelling: CvtSpellingNote | null;
    }
  | { readonly ok: false; readonly error: SyntaxError };

const TYPES = new Set<string>(CVT_TYPES);
const MODIFIERS = new Set<string>(CVT_MODIFIERS);
const INTEGER_TYPES = new Set(['u8', 'u16', 'u32', 'u64', 's8', 's16', 's32', 's64']);

const formsOfPair = (dtype: string, atype: string) =>
  CVT_FORMS.filter((f) => f.dtype === dtype && f.atype === atype);

export function parseCvtInstruction(input: string): CvtParseResult {
  const long = tooLong(input);
  if (long) return long;
  const name = readName(input, /[\s;,{]/);
  const { tokens, end: pos } = name;
  const headStart = name.start;
  if (tokens[0]!.text !== 'cvt') {
    return fail(
      `expected cvt, found ${shown(tokens[0]!.text)}`,
      headStart,
      tokens[0]!.text.length,
      ['cvt'],
    );
  }

  const types: Token[] = [];
  const modifiers: CvtModifier[] = [];
  const starts: number[] = [];
  const counts = new Map<CvtModifier, number>();
  for (const tok of tokens.slice(1)) {
    if (tok.text === '') {
      return fail("expected a modifier or type after '.'", tok.start, 1, [
        ...dotted(CVT_MODIFIERS),
        ...dotted(CVT_TYPES),
      ]);
    }
    if (TYPES.has(tok.text)) {
      types.push(tok);
      continue;
    }
    if (INTEGER_TYPES.has(tok.text)) {
      return fail(
        `cvt with the integer type .${tok.text} is not in this catalog: it holds the conversions between floating-point types (${list(dotted(CVT_TYPES))})`,
        tok.start - 1,
        tok.text.length + 1,
        dotted(CVT_TYPES),
      );
    }
    if (!MODIFIERS.has(tok.text)) {
      const caseHint = [...CVT_MODIFIERS, ...CVT_TYPES].find(
        (m) => m.toLowerCase() === tok.text.toLowerCase(),
      );
      const hint = caseHint ? ` (names are case-sensitive: did you mean .${caseHint}?)` : '';
      return fail(
        `unknown modifier or type ${shown(`.${tok.text}`)} on cvt${hint}`,
        tok.start - 1,
        tok.text.length + 1,
        [...dotted(CVT_MODIFIERS), ...dotted(CVT_TYPES)],
      );
    }
    const mod = tok.text as CvtModifier;
    const times = (counts.get(mod) ?? 0) + 1;
    counts.set(mod, times);
    if (times > 1) {
      if (CVT_REPEATABLE_MODIFIERS.includes(mod)) continue;
      const rounding = isCvtRounding(mod);
      return fail(
        rounding
          ? `a second rounding modifier .${mod}: ptxas takes one rounding modifier`
          : `duplicate modifier .${mod}: ptxas takes .${mod} once`,
        tok.start - 1,
        mod.length + 1,
      );
    }
    const otherRounding = isCvtRounding(mod) ? modifiers.find(isCvtRounding) : undefined;
    if (otherRounding) {
      return fail(
        `.${otherRounding} and .${mod}: ptxas takes one rounding modifier`,
        tok.start - 1,
        mod.length + 1,
      );
    }
    modifiers.push(mod);
    starts.push(tok.start - 1);
  }

  if (types.length !== 2) {
    const where = types[2] ?? tokens.at(-1)!;
    return fail(
      types.length < 2
        ? `cvt takes a destination type and a source type, in that order (e.g. cvt.rn.f16.f32); found ${types.length}`
        : `a third type ${shown(`.${types[2]!.text}`)}: cvt takes a destination type and a source type`,
      types.length < 2 ? pos : where.start - 1,
      types.length < 2 ? 1 : where.text.length + 1,
      dotted(CVT_TYPES),
    );
  }
  const [dTok, aTok] = types as [Token, Token];
  const dtype = dTok.text as CvtType;
  const atype = aTok.text as CvtType;
  const pairForms = formsOfPair(dtype, atype);
  if (pairForms.length === 0) {
    const from = [...new Set(CVT_FORMS.filter((f) => f.atype === atype).map((f) => f.dtype))];
    const swapped = formsOfPair(atype, dtype).length > 0;
    return fail(
      `cvt has no conversion to .${dtype} from .${atype}` +
        (from.length ? `; from .${atype} it converts to ${list(dotted(from))}` : '') +
        (swapped
          ? ` (the destination type comes first: cvt….${atype}.${dtype} converts .${dtype} to .${atype})`
          : ''),
      dTok.start - 1,
      aTok.start + aTok.text.length - dTok.start + 1,
      CVT_FORMS.filter((f) => f.atype === atype)
        .map((f) => f.text)
        .slice(0, 8),
    );
  }
  const form = formWithModifiers(pairForms, modifiers);
  if (!form)
    return diagnose(dtype, atype, pairForms, modifiers, starts, headStart, name.text.length);

  const operands = parseOperands(input.slice(pos), pos, form);
  if ('error' in operands) return { ok: false, error: operands.error };
  return {
    ok: true,
    form,
    operands: operands.names,
    spelling: spellingNote(
      form,
      tokens.slice(1).map((t) => t.text),
      counts,
    ),
  };
}

function diagnose(
  dtype: CvtType,
  atype: CvtType,
  forms: readonly CvtForm[],
  modifiers: readonly CvtModifier[],
  starts: readonly number[],
  headStart: number,
  headLength: number,
): CvtParseResult {
  // The pair named in words: `cvt.f16.f32` alone would read as an (invalid) instruction.
  const base = `cvt to .${dtype} from .${atype}`;
  const allowed = sortCvtModifiers(new Set(forms.flatMap((f) => f.modifiers)));
  for (let i = 0; i < modifiers.length; i++) {
    const m = modifiers[i]!;
    if (!allowed.includes(m)) {
      return fail(
        `modifier .${m} is not allowed on ${base}; allowed: ${allowed.length ? list(dotted(allowed)) : 'none'}`,
        starts[i]!,
        m.length + 1,
        dotted(allowed),
      );
    }
  }
  // Forms holding every written modifier and more: something mandatory is missing.
  const incomplete = missingModifiers(forms, modifiers);
  if (incomplete) {
    const { nearest, missing } = incomplete;
    const texts = [...missing.values()].map((ms) => dotted(sortCvtModifiers(ms)).join(' | '));
    return fail(
      `${base} requires ${texts.join(' and ')}; e.g. ${nearest[0]!.text}`,
      headStart,
      headLength,
      nearest.map((f) => f.text),
    );
  }
  const best = closestForm(forms, modifiers);
  const clash = modifiers.filter((m) => !best.modifiers.includes(m));
  const suggestions = forms
    .filter((f) => f.modifiers.every((m) => modifiers.includes(m)))
    .sort((x, y) => y.modifiers.length - x.modifiers.length)
    .slice(0, 4)
    .map((f) => f.text);
  const shownForms = suggestions.length > 0 ? suggestions : [best.text];
  return fail(
    `${dotted(modifiers).join(' and ')} cannot be combined on ${base}; e.g. ${shownForms.join(' or ')}`,
    starts[modifiers.indexOf(clash[0] ?? modifiers[0]!)] ?? headStart,
    (clash[0]?.length ?? 0) + 1,
    shownForms,
  );
}

function spellingNote(
  form: CvtForm,
  tokens: readonly string[],
  counts: ReadonlyMap<CvtModifier, number>,
): CvtSpellingNote | null {
  const written = ['cvt', ...tokens].join('.');
  if (written === form.text) return null;
  const repeated = [...counts]
    .filter(([, times]) => times > 1)
    .map(([modifier, times]) => ({ modifier, times }));
  const once = tokens.filter((t, i) => tokens.indexOf(t) === i);
  const reordered = ['cvt', ...once].join('.') !== form.text;
  const what = [
    ...(reordered ? ['this order'] : []),
    ...repeated.map(
      (r) => `.${r.modifier} written ${r.times === 2 ? 'twice' : `${r.times} times`}`,
    ),
  ].join(' and ');
  return {
    written,
    canonical: form.text,
    reordered,
    repeated,
    message: `ptxas accepts ${what}; the spec writes ${form.text}`,
  };
}

/** The operand list as the syntax line gives it: `d, a`, …, `d, {a, b, e, f}, rbits`. */
function parseOperands(
  rest: string,
  offset: number,
  form: CvtForm,
): { names: string[] | null } | { error: SyntaxError } {
  const expected = form.line.operands;
  const text = operandText(rest, offset, expected, [expected]);
  if ('error' in text) return text;
  const body = text.body;
  if (body === null) return { names: null };
  const vector = expected.includes('{');
  // The shape, with register names in place of the spec's operand names.
  const name = String.raw`[%$A-Za-z_][\w$]*`;
  const shape = vector
    ? new RegExp(
        String.raw`^\s*(${name})\s*,\s*\{\s*(${name})\s*,\s*(${name})\s*,\s*(${name})\s*,\s*(${name})\s*\}\s*,\s*(${name})\s*$`,
      )
    : new RegExp(
        String.raw`^\s*(${name})` +
          String.raw`\s*,\s*(${name})`.repeat(form.operands.length - 1) +
          String.raw`\s*$`,
      );
  const m = shape.exec(body);
  if (!m) {
    return {
      error: syntaxError(
        `${form.text} takes operands ${expected}; found ${shown(body.trim())}`,
        offset + body.search(/\S/),
        body.trim().length,
        [expected],
      ),
    };
  }
  return { names: m.slice(1) };
}
