import {
  findTarget,
  formsOf,
  INSTR_TYPES,
  MODIFIERS,
  isRoundingModifier,
  targetProvides,
  baselineTarget,
  comparePtx,
  typesOf,
  type Form,
  type InstrType,
  type Modifier,
  type Opcode,
  type RoundingMode,
} from '../catalog/index.ts';

/**
 * What the pickers offer for the current opcode and type, straight from the catalog forms, and
 * how a pick turns into a form: the form with exactly the chosen modifiers, or else the closest
 * one that keeps the modifier just picked (dropping those it cannot be combined with).
 */

export interface ModifierChoices {
  /** Rounding options; `null` = the slot may be left out (its default applies). */
  readonly rounding: readonly (RoundingMode | null)[];
  readonly defaultRounding: RoundingMode | null;
  /** Other modifiers, in spec order. */
  readonly flags: readonly Modifier[];
}

export function modifierChoices(opcode: Opcode, type: InstrType): ModifierChoices {
  const forms = formsOf(opcode, type);
  const rounding = new Set<RoundingMode | null>();
  const flags: Modifier[] = [];
  let defaultRounding: RoundingMode | null = null;
  for (const f of forms) {
    const r = f.modifiers.find(isRoundingModifier);
    rounding.add(r ?? null);
    if (!r && f.rounding) defaultRounding = f.rounding;
    for (const m of f.modifiers) if (!isRoundingModifier(m) && !flags.includes(m)) flags.push(m);
  }
  // If no form spells a rounding modifier, there is no rounding picker.
  const list = [...rounding];
  flags.sort((x, y) => MODIFIERS.indexOf(x) - MODIFIERS.indexOf(y));
  return { rounding: list.every((r) => r === null) ? [] : list, defaultRounding, flags };
}

/** The form for a wish: exact match first, else the closest that honours `keep`. */
export function chooseForm(
  opcode: Opcode,
  type: InstrType,
  wanted: readonly Modifier[],
  keep?: Modifier,
): Form {
  const forms = formsOf(opcode, type);
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

/** Switch opcode or type, keeping as many of the current modifiers as the new pair allows. */
export function switchForm(current: Form, opcode: Opcode, type?: InstrType): Form {
  const types = typesOf(opcode);
  const t =
    type && types.includes(type) ? type : types.includes(current.type) ? current.type : types[0]!;
  return chooseForm(opcode, t, current.modifiers);
}

/** Why the pair (opcode, type) has no form, or null when it has. */
export function typeUnavailable(opcode: Opcode, type: InstrType): string | null {
  return typesOf(opcode).includes(type) ? null : `${opcode} has no .${type} form`;
}

export const ALL_TYPES = INSTR_TYPES;

/**
 * Why the chosen target/PTX cannot use a modifier on this opcode and type (e.g. ".oob needs
 * sm_90+, PTX ISA 8.1"), or null. Used to mark options without hiding them.
 */
export function modifierLimit(
  opcode: Opcode,
  type: InstrType,
  modifier: Modifier,
  targetName: string,
  ptx: string,
): string | null {
  const target = findTarget(targetName);
  if (!target) return null;
  const forms = formsOf(opcode, type).filter((f) => f.modifiers.includes(modifier));
  if (forms.length === 0) return null;
  const needs = forms.flatMap((f) => f.requirements.filter((r) => r.modifier === modifier));
  const missing = needs.filter(
    (r) => !targetProvides(target, baselineTarget(r.sm)) || comparePtx(ptx, r.ptx) < 0,
  );
  if (missing.length === 0) return null;
  const r = missing[0]!;
  return `needs sm_${r.sm}+, PTX ISA ${r.ptx}`;
}

/** Why the chosen target/PTX cannot run this opcode on this type at all, or null. */
export function typeLimit(
  opcode: Opcode,
  type: InstrType,
  targetName: string,
  ptx: string,
): string | null {
  const target = findTarget(targetName);
  const forms = formsOf(opcode, type);
  if (!target || forms.length === 0) return null;
  const base = forms.reduce((a, b) => (a.requirements.length <= b.requirements.length ? a : b));
  const missing = base.requirements.filter(
    (r) =>
      !r.modifier && (!targetProvides(target, baselineTarget(r.sm)) || comparePtx(ptx, r.ptx) < 0),
  );
  return missing.length ? `sm_${missing[0]!.sm}+, PTX ISA ${missing[0]!.ptx}` : null;
}
