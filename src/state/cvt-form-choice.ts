import {
  CVT_FORMS,
  CVT_TYPES,
  cvtVerdictFor,
  findTarget,
  isCvtRounding,
  sortCvtModifiers,
  type CvtForm,
  type CvtModifier,
  type CvtRounding,
  type CvtType,
} from '../catalog/index.ts';

/**
 * What the cvt pickers offer, straight from the catalog's forms: the destination types, the
 * source types each converts from, and for a (destination, source) pair its rounding modifiers
 * and other modifiers; and how a pick turns into a form — the form with exactly the chosen
 * modifiers, or else the closest one that keeps the modifier just picked (as form-choice.ts
 * does for the arithmetic).
 */

/** The form the cvt opcode opens with: FP8 from .f32, where .satfinite and ties show. */
export const DEFAULT_CVT_FORM = 'cvt.rn.satfinite.e4m3x2.f32';

const byTypeOrder = (x: CvtType, y: CvtType) => CVT_TYPES.indexOf(x) - CVT_TYPES.indexOf(y);

/** Every type cvt converts to, in the catalog's type order. */
export const CVT_DESTINATIONS: readonly CvtType[] = [
  ...new Set(CVT_FORMS.map((f) => f.dtype)),
].sort(byTypeOrder);

/** Every type cvt converts from, in the catalog's type order. */
export const CVT_SOURCES: readonly CvtType[] = [...new Set(CVT_FORMS.map((f) => f.atype))].sort(
  byTypeOrder,
);

export function cvtFormsOf(dtype: CvtType, atype: CvtType): CvtForm[] {
  return CVT_FORMS.filter((f) => f.dtype === dtype && f.atype === atype);
}

/** The source types a destination type converts from. */
export function sourcesOf(dtype: CvtType): CvtType[] {
  return CVT_SOURCES.filter((a) => cvtFormsOf(dtype, a).length > 0);
}

export interface CvtModifierChoices {
  /** Rounding options; `null` = the slot may be left out (`defaultRounding` or exact then). */
  readonly rounding: readonly (CvtRounding | null)[];
  /** The rounding a form without a written one uses (.rn between .f16 and .bf16), or null. */
  readonly defaultRounding: CvtRounding | null;
  /** The other modifiers (.ftz .sat .relu .satfinite), in catalog order. */
  readonly flags: readonly CvtModifier[];
}

export function cvtModifierChoices(dtype: CvtType, atype: CvtType): CvtModifierChoices {
  const forms = cvtFormsOf(dtype, atype);
  const rounding = new Set<CvtRounding | null>();
  const flags = new Set<CvtModifier>();
  let defaultRounding: CvtRounding | null = null;
  for (const f of forms) {
    const r = f.modifiers.find(isCvtRounding) ?? null;
    rounding.add(r);
    if (!r && f.rounding) defaultRounding = f.rounding;
    for (const m of f.modifiers) if (!isCvtRounding(m)) flags.add(m);
  }
  const list = [...rounding].sort((x, y) =>
    x === null ? -1 : y === null ? 1 : sortCvtModifiers([x, y])[0] === x ? -1 : 1,
  );
  return {
    rounding: list.every((r) => r === null) ? [] : list,
    defaultRounding,
    flags: sortCvtModifiers(flags) as CvtModifier[],
  };
}

/** The form for a wish: exact match first, else the closest that honours `keep`. */
export function chooseCvtForm(
  dtype: CvtType,
  atype: CvtType,
  wanted: readonly CvtModifier[],
  keep?: CvtModifier,
): CvtForm {
  const forms = cvtFormsOf(dtype, atype);
  if (forms.length === 0) throw new Error(`cvt has no conversion to .${dtype} from .${atype}`);
  const want = new Set(wanted);
  const exact = forms.find(
    (f) => f.modifiers.length === want.size && f.modifiers.every((m) => want.has(m)),
  );
  if (exact) return exact;
  const score = (f: CvtForm) => {
    const kept = f.modifiers.filter((m) => want.has(m)).length;
    const extra = f.modifiers.length - kept;
    const hasKeep = keep === undefined || f.modifiers.includes(keep) ? 1 : 0;
    return hasKeep * 1000 + kept * 10 - extra;
  };
  return forms.reduce((best, f) => (score(f) > score(best) ? f : best), forms[0]!);
}

/**
 * Switch the destination or source type, keeping as many modifiers as the new pair allows. A
 * source the new destination does not convert from gives way to the current source where it
 * can, else to the destination's first source.
 */
export function switchCvtPair(current: CvtForm | null, dtype: CvtType, atype?: CvtType): CvtForm {
  const sources = sourcesOf(dtype);
  if (sources.length === 0) throw new Error(`cvt has no conversion to .${dtype}`);
  const a =
    atype && sources.includes(atype)
      ? atype
      : current && sources.includes(current.atype)
        ? current.atype
        : sources.includes('f32')
          ? 'f32'
          : sources[0]!;
  return chooseCvtForm(dtype, a, current?.modifiers ?? []);
}

/** Why the pair has no form ("no conversion to .e4m3x2 from .f64"), or null. */
export function cvtPairUnavailable(dtype: CvtType, atype: CvtType): string | null {
  return cvtFormsOf(dtype, atype).length > 0 ? null : `no conversion from .${atype}`;
}

/** What the target/PTX ISA lacks for a form: the first reason, shortened; null when valid. */
function limitOf(form: CvtForm, targetName: string, ptx: string): string | null {
  const target = findTarget(targetName);
  if (!target) return null;
  const verdict = cvtVerdictFor(form, target, ptx);
  if (verdict.valid) return null;
  // An architecture- or family-specific target (sm_100a) is not "or higher".
  const plus = /[af]$/.test(verdict.minTarget) ? '' : '+';
  return `needs ${verdict.minTarget}${plus}, PTX ISA ${verdict.minPtx}`;
}

/** Why the target/PTX cannot run any form of this pair, or null. */
export function cvtPairLimit(
  dtype: CvtType,
  atype: CvtType,
  target: string,
  ptx: string,
): string | null {
  const forms = cvtFormsOf(dtype, atype);
  if (forms.length === 0) return null;
  const limits = forms.map((f) => limitOf(f, target, ptx));
  return limits.every((l) => l !== null) ? limits[0]! : null;
}

/** Why the target/PTX cannot use `modifier` on the current form's pair (and the form could). */
export function cvtModifierLimit(
  form: CvtForm,
  modifier: CvtModifier,
  target: string,
  ptx: string,
): string | null {
  const on = form.modifiers.includes(modifier);
  const withIt = on
    ? form
    : chooseCvtForm(form.dtype, form.atype, [...form.modifiers, modifier], modifier);
  const without = on
    ? chooseCvtForm(
        form.dtype,
        form.atype,
        form.modifiers.filter((m) => m !== modifier),
      )
    : form;
  if (!withIt.modifiers.includes(modifier)) return null;
  const limit = limitOf(withIt, target, ptx);
  return limit !== null && limitOf(without, target, ptx) === null ? limit : null;
}

/** Whether the modifier is part of every form of the pair that has the others chosen. */
export function cvtModifierMandatory(form: CvtForm, modifier: CvtModifier): boolean {
  if (!form.modifiers.includes(modifier)) return false;
  const wanted = form.modifiers.filter((m) => m !== modifier);
  return chooseCvtForm(form.dtype, form.atype, wanted).modifiers.includes(modifier);
}
