/**
 * What the parser says when the written modifiers match no form of the opcode and type: a
 * modifier the type lacks, a mandatory one missing (and where it belongs), or modifiers that
 * exclude each other, each with the forms that come closest. Every instruction a message
 * suggests is itself a valid form.
 */
import type { Form } from './instruction.ts';
import { sortModifiers, isRounding, type AnyModifier } from './modifiers.ts';
import {
  closestForm as closestOf,
  dotted,
  fail,
  formWithModifiers,
  list,
  missingModifiers,
  shown,
  type SyntaxFailure,
  type Token,
} from './parse-parts.ts';
import { typeParts } from './record.ts';
import { candidatesOf, typesOf, type Candidate, type Vocabulary } from './vocabulary.ts';

/** The opcode and type named in words: `fma.bf16` alone would read as an (invalid) instruction. */
function described(vocabulary: Vocabulary, opcode: string, type: string): string {
  if (vocabulary.kind !== 'pair') return `${opcode} with .${type}`;
  const { dtype, atype } = typeParts(type);
  return `${opcode} to .${dtype} from .${atype}`;
}

/**
 * The modifiers these forms take, in the order the catalog's forms first use them (add.f16:
 * add.f16, add.sat.f16, add.ftz.f16, …, add.rn.f16 give .sat, .ftz, .rn), the order in which
 * `ptxf` has always listed them.
 */
function modifiersOf(candidates: readonly Candidate[]): AnyModifier[] {
  return [...new Set(candidates.flatMap((c) => c.modifiers))];
}

/** The modifiers the forms of an opcode and type take (modifiersOf). */
export function allowedModifiers(opcode: string, type: string): AnyModifier[] {
  return modifiersOf(candidatesOf(opcode, type));
}

/**
 * The form of the opcode and type nearest to these modifiers, for a suggestion: the exact one,
 * or the one that keeps most of them and adds fewest (the spec's forms first on a tie).
 */
export function closestForm(opcode: string, type: string, modifiers: readonly AnyModifier[]): Form {
  const candidates = candidatesOf(opcode, type);
  return (formWithModifiers(candidates, modifiers) ?? closestOf(candidates, modifiers)).form;
}

/** Tokens of two-token modifiers (`xorsign`, `abs`), when both are there, as the one modifier. */
export function joinHalves(vocabulary: Vocabulary, tokens: readonly string[]): string[] {
  let joined = [...tokens];
  for (const modifier of new Set(vocabulary.halves.values())) {
    const parts = modifier.split('.');
    if (!parts.every((p) => joined.includes(p))) continue;
    const first = Math.min(...parts.map((p) => joined.indexOf(p)));
    joined = joined.flatMap((t, i) => (i === first ? [modifier] : parts.includes(t) ? [] : [t]));
  }
  return joined;
}

/**
 * What may come next after these modifiers, in a form of the list: another modifier of a form
 * that holds them all (any order: ptxas reads them so), or (unless the type is written already)
 * the type of a form with exactly them; dotted, in the catalog's order. Null when no form holds
 * them all (then callers fall back to a wider list).
 */
export function continuations(
  vocabulary: Vocabulary,
  forms: readonly Candidate[],
  given: readonly string[],
  typeToCome = true,
): string[] | null {
  const next = new Set<string>();
  for (const f of forms) {
    if (!given.every((m) => (f.modifiers as readonly string[]).includes(m))) continue;
    for (const m of f.modifiers) if (!given.includes(m)) next.add(`.${m}`);
    if (typeToCome && f.modifiers.length === new Set(given).size) next.add(`.${f.form.type}`);
  }
  const order = [...dotted(vocabulary.modifiers), ...dotted(vocabulary.types)];
  return next.size > 0 ? [...next].sort((x, y) => order.indexOf(x) - order.indexOf(y)) : null;
}

/** A token that is neither a modifier nor a type the opcode takes (with the type, when known). */
export function unknownToken(
  vocabulary: Vocabulary,
  tok: Token,
  opcode: string,
  type?: string,
  /** The modifier tokens before `tok` (when the type is not known yet). */
  before?: readonly string[],
): SyntaxFailure {
  const allowed = type ? allowedModifiers(opcode, type) : [];
  const types = typesOf(opcode);
  const expected = type
    ? dotted(allowed)
    : (continuations(vocabulary, candidatesOf(opcode), joinHalves(vocabulary, before ?? [])) ?? [
        ...dotted(vocabulary.modifiers),
        ...dotted(types),
      ]);
  const where = type ? ` on ${described(vocabulary, opcode, type)}` : '';
  const allowedText = type ? `; allowed: ${allowed.length ? list(dotted(allowed)) : 'none'}` : '';
  return fail(
    `unknown ${type ? 'modifier' : 'modifier or type'} ${shown(`.${tok.text}`)}${where}${allowedText}`,
    tok.start - 1,
    tok.text.length + 1,
    expected,
  );
}

/** Where a written name lacks a mandatory modifier: after what precedes it in the form's spelling. */
function missingAt(
  form: Form,
  modifiers: readonly AnyModifier[],
  starts: readonly number[],
  opcodeEnd: number,
): number {
  const first = form.modifiers.findIndex((m) => !modifiers.includes(m));
  const before = form.modifiers[first - 1];
  if (before === undefined) return opcodeEnd;
  const i = modifiers.indexOf(before);
  return starts[i]! + before.length + 1;
}

/**
 * Why no form of this opcode and type has exactly these modifiers (each written once, `starts`
 * the offset of each one's dot). Every modifier is one the opcode's records know.
 */
export function diagnoseCombination(
  vocabulary: Vocabulary,
  opcode: string,
  type: string,
  modifiers: readonly AnyModifier[],
  starts: readonly number[],
  name: { readonly start: number; readonly opcodeEnd: number },
  /** The forms to match against, where fewer than the type's (a matrix form's layouts as written). */
  within?: readonly Candidate[],
): SyntaxFailure {
  const candidates = within ?? candidatesOf(opcode, type);
  const allowed = modifiersOf(within ?? candidatesOf(opcode, type));
  const layouts = within?.[0]?.form.matrix?.layouts;
  const base =
    described(vocabulary, opcode, type) + (layouts ? ` and .${layouts.a}.${layouts.b}` : '');
  for (let i = 0; i < modifiers.length; i++) {
    const m = modifiers[i]!;
    if (!allowed.includes(m)) {
      const others = [
        ...new Set(
          candidatesOf(opcode)
            .filter((c) => c.modifiers.includes(m))
            .map((c) => c.form.type),
        ),
      ];
      // Named where they are few (the arithmetic's at most six types; cvt's rarer modifiers).
      const onTypes =
        others.length > 0 && others.length <= 6
          ? ` (${opcode} takes it with ${list(dotted(others))})`
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
  if (incomplete && incomplete.missing.size > 0) {
    const { nearest, missing } = incomplete;
    // The rounding slots of several lines are one choice (cvt.tf32.f32: .rna, or .rn | .rz).
    const isRoundingSlot = (ms: Set<AnyModifier>) => [...ms].every(isRounding);
    const roundings = [...missing.values()].filter(isRoundingSlot).flatMap((ms) => [...ms]);
    const slots = [
      ...(roundings.length > 0 ? [new Set(roundings)] : []),
      ...[...missing.values()].filter((ms) => !isRoundingSlot(ms)),
    ];
    const texts = slots.map((ms) => dotted(sortModifiers(ms)).join(' | '));
    const rounding = roundings.length > 0;
    const closest = nearest[0]!.form;
    return fail(
      `${base} requires ${texts.join(' and ')}${rounding ? ' (its rounding modifier has no default)' : ''}; e.g. ${closest.text}`,
      missingAt(closest, modifiers, starts, name.opcodeEnd),
      1,
      nearest.map((c) => c.form.text),
    );
  }
  // Name the modifiers that cannot go together: those outside the largest valid subset.
  const fits = candidates.filter((c) => c.modifiers.every((m) => modifiers.includes(m)));
  const best = fits.reduce<readonly AnyModifier[]>(
    (acc, c) => (c.modifiers.length > acc.length ? c.modifiers : acc),
    [],
  );
  const clash = modifiers.filter((m) => !best.includes(m));
  // The forms that keep the most of what was written: one per way to resolve the clash.
  const keepMost = fits.filter((c) => c.modifiers.length === best.length);
  // The modifiers that exclude each other: those some of these forms keep and others drop
  // (or, with one such form, the ones it keeps beside what it drops).
  const disputed = modifiers.filter((m) => !keepMost.every((c) => c.modifiers.includes(m)));
  // With one such form, what it keeps that no form takes beside the first clashing modifier
  // (a second rounding clashes with the first).
  const against = clash[0];
  const partner =
    against !== undefined && isRounding(against) && best.some(isRounding)
      ? best.filter(isRounding)
      : best.filter(
          (m) =>
            !candidates.some(
              (c) =>
                c.modifiers.includes(m) && against !== undefined && c.modifiers.includes(against),
            ),
        );
  const named = (keepMost.length > 1 ? disputed : [...partner, ...clash]).map((m) => `.${m}`);
  const firstClash = modifiers.indexOf(clash[0] ?? modifiers[0]!);
  const suggestions = (keepMost.length > 0 ? keepMost : candidates.slice(0, 6)).map(
    (c) => c.form.text,
  );
  return fail(
    `${named.join(' and ')} cannot be combined on ${base}; e.g. ${suggestions.join(' or ')}`,
    starts[firstClash] ?? name.start,
    (clash[0]?.length ?? 0) + 1,
    suggestions,
  );
}
