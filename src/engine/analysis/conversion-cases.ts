/**
 * The source values that decide something in a conversion: NaN, the infinities, the zeros, the
 * destination's MAX_NORM and what lies just past it (the next source value, and the overflow
 * threshold of .rn half an ulp above), the ties half way between two destination values and the
 * values either side of them, the destination's least normal and subnormal values and half of
 * the least subnormal, the source's least subnormal. An integer rounding (.rni …) has its own:
 * a quarter, the ties at 0.5, 1.5 and 2.5.
 *
 * Only values the source format holds exactly are cases (a .f16 source has no value half way
 * past .f32's MAX_NORM), and a value an earlier case already has is not repeated.
 */
import type { Form } from '../../catalog/instruction.ts';
import { isIntegerRounding } from '../../catalog/modifiers.ts';
import { add, ilog2 } from '../exact.ts';
import { encodeFinite, FORMATS, valueOfBits, type Format } from '../format.ts';
import type { Dyadic } from '../value.ts';
import { namedValueBits, type NamedValueId } from './named-values.ts';

/** The cases only a conversion has; each is named by what it is to the destination. */
export const CONVERSION_CASE_IDS = [
  '+dest-max-norm',
  '-dest-max-norm',
  'above-dest-max-norm',
  'dest-overflow-tie',
  'above-dest-overflow-tie',
  '+quarter',
  '+half',
  '+one-and-half',
  '+two-and-half',
  '-one-and-half',
  'dest-tie-above-one',
  'below-dest-tie-above-one',
  'above-dest-tie-above-one',
  'dest-second-tie-above-one',
  '-dest-tie-above-one',
  'dest-least-normal',
  'dest-least-subnormal',
  'dest-half-least-subnormal',
  'dest-three-quarters-least-subnormal',
  'dest-half-least-value',
] as const;

export type ConversionCaseId = (typeof CONVERSION_CASE_IDS)[number];

/**
 * A case of a conversion: a named value of the source format (NaN, ±inf, ±0, ±1, its least
 * subnormal) or one of CONVERSION_CASE_IDS.
 */
export interface ConversionCase {
  readonly id: NamedValueId | ConversionCaseId;
  /** The source element's pattern. */
  readonly bits: bigint;
}

const pow2 = (exp: number, negative = false): Dyadic => ({ negative, mant: 1n, exp });
const times = (x: Dyadic, mant: bigint, exp: number): Dyadic => ({
  negative: x.negative,
  mant: x.mant * mant,
  exp: x.exp + exp,
});
const negated = (x: Dyadic): Dyadic => ({ ...x, negative: !x.negative });

function finiteValue(bits: bigint, f: Format): Dyadic | null {
  const v = valueOfBits(bits, f);
  return v.kind === 'finite' ? v.x : null;
}

/** The cases of a conversion form (its first element's source and destination formats). */
export function conversionCases(form: Form): ConversionCase[] {
  const element = form.elements[0]!;
  const s = FORMATS[element.inputs[0]!.format];
  const d = FORMATS[element.dest.format];
  const sameFormat = s.name === d.name;
  const cases: { id: ConversionCase['id']; bits: bigint | null }[] = [];
  const named = (id: NamedValueId) => cases.push({ id, bits: namedValueBits(id, s) });
  const value = (id: ConversionCase['id'], x: Dyadic) =>
    cases.push({ id, bits: encodeFinite(x, s) });

  named('nan');
  named('snan');
  named('+inf');
  named('-inf');
  named('+zero');
  named('-zero');

  const integer = form.rounding !== null && isIntegerRounding(form.rounding);
  const max = finiteValue(d.maxBits, d)!;
  if (!sameFormat) {
    const maxIn = encodeFinite(max, s);
    cases.push({ id: '+dest-max-norm', bits: maxIn });
    if (s.signed) value('-dest-max-norm', negated(max));
    if (maxIn !== null && finiteValue(maxIn + 1n, s))
      cases.push({ id: 'above-dest-max-norm', bits: maxIn + 1n });
    // Half an ulp past MAX_NORM: where .rn stops rounding down to MAX_NORM.
    const threshold = encodeFinite(add(max, pow2(ilog2(max) - d.manBits - 1)), s);
    cases.push({ id: 'dest-overflow-tie', bits: threshold });
    if (threshold !== null && finiteValue(threshold + 1n, s))
      cases.push({ id: 'above-dest-overflow-tie', bits: threshold + 1n });
  }
  if (integer) {
    value('+quarter', pow2(-2));
    value('+half', pow2(-1));
    value('+one-and-half', times(pow2(-1), 3n, 0));
    value('+two-and-half', times(pow2(-1), 5n, 0));
    value('-one-and-half', times(pow2(-1, true), 3n, 0));
  } else if (!sameFormat && d.name !== 'f64') {
    value('+one', pow2(0));
    if (s.signed) value('-one', pow2(0, true));
    // Ties: half way between 1 and the next destination value (to even: 1), and between that
    // value and the one after (to even: up), with the source values either side of the first.
    const ulp = -d.manBits;
    const tie = add(pow2(0), pow2(ulp - 1));
    const tieBits = encodeFinite(tie, s);
    cases.push({ id: 'dest-tie-above-one', bits: tieBits });
    if (tieBits !== null) {
      cases.push({ id: 'below-dest-tie-above-one', bits: tieBits - 1n });
      cases.push({ id: 'above-dest-tie-above-one', bits: tieBits + 1n });
    }
    value('dest-second-tie-above-one', add(pow2(0), times(pow2(ulp - 1), 3n, 0)));
    if (s.signed) value('-dest-tie-above-one', negated(tie));
    value('+one-and-half', times(pow2(-1), 3n, 0));
  }
  if (!sameFormat && d.name !== 'f64') {
    value('dest-least-normal', pow2(d.emin));
    if (d.hasSubnormals && d.manBits > 0) {
      const least = pow2(d.emin - d.manBits);
      value('dest-least-subnormal', least);
      value('dest-half-least-subnormal', pow2(d.emin - d.manBits - 1));
      value('dest-three-quarters-least-subnormal', times(least, 3n, -2));
    } else if (!d.hasZero) {
      value('dest-half-least-value', pow2(d.emin - 1));
    }
  }
  named('+least-subnormal');

  const seen = new Set<bigint>();
  return cases.filter((c): c is ConversionCase => {
    if (c.bits === null || seen.has(c.bits)) return false;
    seen.add(c.bits);
    return true;
  });
}
