/**
 * A comparison (engine/what-if/comparison.ts) in words, for the page's compare panel and
 * `ptxf eval --vs`: the verdict, B − A and each one's error per element — every figure in ulps of
 * A's format at A's result (decision compare-ulp), said once per figure — why an unfused
 * sequence differs, why there is none, and the one-click variants' labels.
 */
import { findForm } from '../catalog/all-forms.ts';
import type { Comparison, ElementComparison, Measured, Ulp } from '../engine/what-if/comparison.ts';
import type { VariantChange } from '../engine/what-if/quick-variants.ts';
import type { UnfusedEvaluation, UnfusedRefusal } from '../engine/what-if/unfused-sequence.ts';
import { signedText, ulpsText } from './numbers.ts';
import { valueText } from './values.ts';

/** Whose ulp a figure counts: "ulps of f16 at A's result" (the unit of every figure). */
export function inUnit(ulps: number, unit: Ulp): string {
  return `${ulpsText(ulps)} of ${unit.format} at A's result`;
}

/** How comparison elements are named: lanes of the arithmetic, elements of cvt (A's kind). */
function elementWord(c: Comparison): string {
  return c.a.form.family === 'convert' || c.a.form.family === 'matrix' ? 'element' : 'lane';
}

/** B − A of one element in words, in ulps of A's format at A's result, or why no number. */
export function differenceText(e: ElementComparison): string {
  switch (e.relation) {
    case 'unpaired':
      return `B has no element ${e.index}`;
    case 'same-bits':
      return 'the same bits';
    case 'same-value':
      return 'the same value';
    case 'both-nan':
      return 'both are NaN';
  }
  if (e.difference === null || e.difference.ulps === null || e.unit === null)
    return `A is ${valueText(e.a.result)}, B is ${valueText(e.b!.result)}: no finite difference`;
  return `B − A = ${inUnit(e.difference.ulps, e.unit)}`;
}

/** An error against A's exact value: "exact", "+12 = +0.375 ulp of e4m3 at A's result". */
export function errorText(error: Measured | null, unit: Ulp | null): string {
  if (!error) return 'none (not finite)';
  if (error.value.kind === 'finite' && /^-?0$/.test(error.value.decimal)) return 'exact';
  const value = signedText(error.value);
  if (error.ulps === null || unit === null) return `${value} (A's result is not finite: no ulp)`;
  return `${value} = ${inUnit(error.ulps, unit)}`;
}

/**
 * B's error in words: as errorText, or that B computes another operation than A (its error
 * against its own exact value is in its own reference values).
 */
export function bErrorText(c: Comparison, e: ElementComparison): string {
  if (!e.b) return 'no element';
  if (!c.sameOperation) return 'not measured: B computes another operation';
  return errorText(e.b.error, e.unit);
}

/** Why an fma has no unfused sequence. */
export function refusalText(refusal: UnfusedRefusal): string {
  switch (refusal.kind) {
    case 'not-fma':
      return `${refusal.form} is not an fma: only an fma has an unfused variant`;
    case 'modifier': {
      if (refusal.modifier === 'oob')
        return `${refusal.form}: .oob has no unfused variant (the OOB-NaN test belongs to the fma; mul and add have no .oob)`;
      const type = findForm(refusal.form)?.elements[0]!.inputs[0]!.format ?? 'this type';
      return `${refusal.form}: .relu has no unfused variant (PTX has no mul or add with .relu for .${type})`;
    }
    case 'no-such-form':
      return `${refusal.form} has no unfused variant: PTX has no ${refusal.missing}`;
  }
}

/** The comparison in one line: the same result, or by how much B differs from A. */
export function verdictText(c: Comparison): string {
  if (c.b.kind === 'refused') return `No B: ${refusalText(c.b.refusal)}`;
  if (c.same) return 'Same result: B gives the same bits as A.';
  const differing = c.elements.filter((e) => e.relation === 'differ' || e.relation === 'unpaired');
  if (differing.length === 0) {
    if (c.registerXor === null) {
      const type = c.b.kind === 'form' ? c.b.result.dType : c.b.sequence.dType;
      return `Same value: B gives the value A gives, in its own format (${type}).`;
    }
    return c.elements.some((e) => e.relation === 'both-nan')
      ? 'Same value, other bits: B gives a NaN where A does, in other bits.'
      : 'Same value, other bits: B gives A’s value with the other sign of zero.';
  }
  const word = elementWord(c);
  const text = differing
    .map((e) =>
      c.elements.length === 1 ? differenceText(e) : `${word} ${e.index}: ${differenceText(e)}`,
    )
    .join('; ');
  return `B differs from A: ${text}.`;
}

/**
 * Why the unfused sequence gives another result than the fma, in words: the product's own
 * rounding (and what it lost), a cancellation the rounded product could not survive, or an
 * intermediate overflow. Empty where the results agree.
 */
export function whyText(sequence: UnfusedEvaluation): string {
  const reasons = sequence.why.map((why) => {
    switch (why.kind) {
      case 'same':
      case 'nan-product':
        return '';
      case 'product-overflow':
        return 'the product overflows on its own (t = ∞), though a × b + c fits';
      case 'other':
        return 'the two roundings of the sequence land on another value than the one rounding of the fma';
      case 'product-rounding': {
        const lost = `mul rounds a × b to ${why.format} (t − a × b = ${signedText(why.lost)})`;
        return why.cancellation
          ? `${lost}; c cancels most of the product, so that rounding error is a large part of what is left`
          : `${lost}, and the add rounds a second time`;
      }
    }
  });
  const differs = sequence.why.some((w) => w.kind !== 'same');
  const given = reasons.filter((r) => r !== '');
  if (!differs) return '';
  if (given.length === 0)
    return 'the two roundings of the sequence land on another value than the one rounding of the fma';
  if (reasons.length === 1) return given[0]!;
  return reasons
    .map((r, i) => (r ? `lane ${i}: ${r}` : ''))
    .filter(Boolean)
    .join('; ');
}

/** A one-click variant's label: ".rz", "without .ftz", ".bf16x2", ".ue8m0x2 (.rz)", "unfused …". */
export function quickVariantLabel(change: VariantChange): string {
  switch (change.kind) {
    case 'rounding':
      return `.${change.rounding}`;
    case 'modifier':
      return change.on ? `.${change.modifier}` : `without .${change.modifier}`;
    case 'type':
      return `.${change.type}`;
    case 'destination':
      return change.adds.length > 0
        ? `.${change.type} (${change.adds.map((m) => `.${m}`).join('')})`
        : `.${change.type}`;
    case 'unfused':
      return 'unfused (mul, then add)';
    case 'matrix-types':
      return `.${change.types}`;
    case 'matrix-instruction':
      return `${change.opcode} .${change.shape}`;
  }
}
