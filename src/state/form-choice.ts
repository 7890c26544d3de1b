import { FORMS, findForm } from '../catalog/all-forms.ts';
import type { Form } from '../catalog/instruction.ts';
import {
  isRounding,
  ROUNDINGS,
  sortModifiers,
  type AnyModifier,
  type Rounding,
} from '../catalog/modifiers.ts';
import { typeParts } from '../catalog/record.ts';
import { findTarget } from '../catalog/targets.ts';
import { verdictFor } from '../catalog/verdict.ts';
import { ALL_OPCODES, typesOf, vocabularyFor } from '../catalog/vocabulary.ts';
import { MATRIX_OPCODES, MATRIX_OPENING_FORMS } from './matrix-choice.ts';

/**
 * What the pickers offer, straight from the catalog's forms, for every instruction alike: the
 * opcodes; an opcode's types — one list where its records write one type (`.f16x2`, the mixed
 * `.f32.bf16`), a destination and a source list where they write two (`cvt`'s `.dtype.atype`);
 * for an opcode and type its rounding modifiers and its other modifiers; and how a pick turns
 * into a form: the form with exactly the chosen modifiers, or else the closest one that keeps the
 * modifier just picked (dropping those it cannot be combined with). Options the chosen target or
 * PTX ISA version cannot run are marked with why, not hidden.
 */

/** Every opcode but the tensor cores', in the catalog's order. */
export const OPCODES: readonly string[] = ALL_OPCODES;

/** The instruction's opcode picker: every opcode, the tensor cores' (mma, wgmma) last. */
export const PICKER_OPCODES: readonly string[] = [...ALL_OPCODES, ...MATRIX_OPCODES];

/**
 * An opcode opens on this form where it is picked (cvt: FP8 from .f32, where .satfinite and ties
 * show; a tensor core: f16 inputs into f32).
 */
const OPENING_FORMS: Readonly<Record<string, string>> = {
  cvt: 'cvt.rn.satfinite.e4m3x2.f32',
  ...MATRIX_OPENING_FORMS,
};

function formsOf(opcode: string, type?: string): Form[] {
  return FORMS.filter((f) => f.opcode === opcode && (type === undefined || f.type === type));
}

/** How an opcode's types are picked: one type, or a destination and a source type. */
export type TypeChoice =
  | { readonly kind: 'one'; readonly types: readonly string[] }
  | {
      readonly kind: 'pair';
      readonly destinations: readonly string[];
      readonly sources: readonly string[];
    };

const unique = <T>(xs: Iterable<T>): T[] => [...new Set(xs)];

/** The types an opcode's picker lists: every type of its kind, those it lacks disabled. */
export function typeChoice(opcode: string): TypeChoice {
  const vocabulary = vocabularyFor(opcode);
  if (vocabulary.kind === 'unit') return { kind: 'one', types: vocabulary.types };
  const order = (t: string) => vocabulary.typeTokens.indexOf(t);
  const types = typesOf(opcode).map(typeParts);
  const byOrder = (x: string, y: string) => order(x) - order(y);
  return {
    kind: 'pair',
    destinations: unique(types.map((t) => t.dtype)).sort(byOrder),
    sources: unique(types.map((t) => t.atype)).sort(byOrder),
  };
}

export interface ModifierChoices {
  /** Rounding options; `null` = the slot may be left out (`defaultRounding`, or none). */
  readonly rounding: readonly (Rounding | null)[];
  /** The rounding a form without a written one uses, or null. */
  readonly defaultRounding: Rounding | null;
  /** The other modifiers, in the catalog's order. */
  readonly flags: readonly AnyModifier[];
}

export function modifierChoices(opcode: string, type: string): ModifierChoices {
  const forms = formsOf(opcode, type);
  const rounding = new Set<Rounding | null>();
  const flags = new Set<AnyModifier>();
  let defaultRounding: Rounding | null = null;
  for (const f of forms) {
    const r = f.modifiers.find(isRounding) ?? null;
    rounding.add(r);
    if (!r && f.rounding) defaultRounding = f.rounding;
    for (const m of f.modifiers) if (!isRounding(m)) flags.add(m);
  }
  const order = (r: Rounding | null) => (r === null ? -1 : ROUNDINGS.indexOf(r));
  const list = [...rounding].sort((x, y) => order(x) - order(y));
  return {
    rounding: list.every((r) => r === null) ? [] : list,
    defaultRounding,
    flags: sortModifiers(flags),
  };
}

/** The form for a wish: exact match first, else the closest that honours `keep`. */
export function chooseForm(
  opcode: string,
  type: string,
  wanted: readonly AnyModifier[],
  keep?: AnyModifier,
): Form {
  const forms = formsOf(opcode, type);
  if (forms.length === 0) throw new Error(`${opcode} has no .${type} form`);
  const want = new Set(wanted);
  const exact = forms.find(
    (f) => f.modifiers.length === want.size && f.modifiers.every((m) => want.has(m)),
  );
  if (exact) return exact;
  const score = (f: Form) => {
    const kept = f.modifiers.filter((m) => want.has(m)).length;
    const extra = f.modifiers.length - kept;
    const hasKeep = keep === undefined || f.modifiers.includes(keep) ? 1 : 0;
    return hasKeep * 1000 + kept * 10 - extra;
  };
  return forms.reduce((best, f) => (score(f) > score(best) ? f : best), forms[0]!);
}

/** Another opcode: its opening form, else the current type where it has it, the modifiers kept. */
export function switchOpcode(current: Form, opcode: string): Form {
  const opening = OPENING_FORMS[opcode];
  if (opening && current.opcode !== opcode) return findForm(opening)!;
  const types = typesOf(opcode);
  const type = types.includes(current.type) ? current.type : types[0]!;
  return chooseForm(opcode, type, current.modifiers);
}

/** Another type of the current opcode, keeping as many modifiers as it allows. */
export function switchType(current: Form, type: string): Form {
  return chooseForm(current.opcode, type, current.modifiers);
}

/**
 * Another destination or source type of a `.dtype.atype` opcode. A source the new destination
 * does not convert from gives way to the current source where it can, else .f32, else the
 * destination's first source.
 */
export function switchPair(current: Form, dtype: string, atype?: string): Form {
  const sources = sourcesOf(current.opcode, dtype);
  if (sources.length === 0) throw new Error(`${current.opcode} has no .${dtype} destination`);
  const now = typeParts(current.type).atype;
  const a =
    atype && sources.includes(atype)
      ? atype
      : sources.includes(now)
        ? now
        : sources.includes('f32')
          ? 'f32'
          : sources[0]!;
  return chooseForm(current.opcode, `${dtype}.${a}`, current.modifiers);
}

/** The source types a destination type converts from, in the catalog's order of types. */
export function sourcesOf(opcode: string, dtype: string): string[] {
  const order = vocabularyFor(opcode).typeTokens;
  return typesOf(opcode)
    .map(typeParts)
    .filter((t) => t.dtype === dtype)
    .map((t) => t.atype)
    .sort((x, y) => order.indexOf(x) - order.indexOf(y));
}

/** Why an opcode has no form of a type ("tanh has no .f32.f16 form"), or null. */
export function typeUnavailable(opcode: string, type: string): string | null {
  return formsOf(opcode, type).length > 0 ? null : `${opcode} has no .${type} form`;
}

/** Why a destination has no form from a source ("no conversion from .f64"), or null. */
export function pairUnavailable(opcode: string, dtype: string, atype: string): string | null {
  return formsOf(opcode, `${dtype}.${atype}`).length > 0 ? null : `no conversion from .${atype}`;
}

/** What the target and PTX ISA version lack for a form ("needs sm_90+, PTX ISA 8.1"); null when valid. */
export function formLimit(form: Form, targetName: string, ptx: string): string | null {
  const target = findTarget(targetName);
  if (!target) return null;
  const verdict = verdictFor(form, target, ptx);
  if (verdict.valid) return null;
  // An architecture- or family-specific target (sm_100a) is not "or higher".
  const plus = /[af]$/.test(verdict.minTarget) ? '' : '+';
  return `needs ${verdict.minTarget}${plus}, PTX ISA ${verdict.minPtx}`;
}

/** Why the target cannot run any of these forms (the first's limit), or null when one runs. */
function limitOfAll(forms: readonly Form[], target: string, ptx: string): string | null {
  if (forms.length === 0) return null;
  const limits = forms.map((f) => formLimit(f, target, ptx));
  return limits.every((l) => l !== null) ? limits[0]! : null;
}

/** Why the target cannot run an opcode on a type at all, or null. */
export function typeLimit(
  opcode: string,
  type: string,
  target: string,
  ptx: string,
): string | null {
  return limitOfAll(formsOf(opcode, type), target, ptx);
}

/** Why the target cannot run any form into a destination type, or null. */
export function destinationLimit(
  opcode: string,
  dtype: string,
  target: string,
  ptx: string,
): string | null {
  return limitOfAll(
    formsOf(opcode).filter((f) => typeParts(f.type).dtype === dtype),
    target,
    ptx,
  );
}

/**
 * Why the target cannot use `modifier` on the form's opcode and type where the form could do
 * without it (".oob needs sm_90+, PTX ISA 8.1"), or null.
 */
export function modifierLimit(
  form: Form,
  modifier: AnyModifier,
  target: string,
  ptx: string,
): string | null {
  const on = form.modifiers.includes(modifier);
  const withIt = on
    ? form
    : chooseForm(form.opcode, form.type, [...form.modifiers, modifier], modifier);
  const without = on
    ? chooseForm(
        form.opcode,
        form.type,
        form.modifiers.filter((m) => m !== modifier),
      )
    : form;
  if (!withIt.modifiers.includes(modifier)) return null;
  const limit = formLimit(withIt, target, ptx);
  return limit !== null && formLimit(without, target, ptx) === null ? limit : null;
}

/** Whether the modifier is part of every form of the opcode and type that has the others chosen. */
export function modifierMandatory(form: Form, modifier: AnyModifier): boolean {
  if (!form.modifiers.includes(modifier)) return false;
  const wanted = form.modifiers.filter((m) => m !== modifier);
  return chooseForm(form.opcode, form.type, wanted).modifiers.includes(modifier);
}
