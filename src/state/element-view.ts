import type { FormatName } from '../catalog/formats.ts';
import { CLASS_WORDS, powerOfTwoText } from '../engine/class-words.ts';
import {
  classify,
  exactValueOfBits,
  fieldsOf,
  FORMATS,
  isNegative,
  magnitudeOf,
  nextDown,
  nextUp,
} from '../engine/format.ts';
import { namedValues } from '../engine/analysis/named-values.ts';
import { isOobNaN } from '../engine/nvidia-rules.ts';
import { DEFAULT_ENGINE_OPTIONS } from '../engine/options.ts';
import { shortestDecimal } from '../engine/stored-value.ts';
import { namedValueWords } from '../present/analysis-words.ts';
import { decimalText } from '../present/numbers.ts';

/**
 * What the bit editors show of one element of any format (4 to 64 bits; patterns are BigInt):
 * its readouts, quick picks and neighbours. Pure, for the editors and their tests.
 */

export interface ElementReadout {
  /** "positive normal", "negative quiet NaN". */
  readonly className: string;
  /** The value the bits encode, every digit ("65504", "1.0078125"). */
  readonly exact: string;
  /** The shortest decimal that reads back to the same bits ("65500", "1.008"). */
  readonly shortest: string;
  /**
   * What the value field shows, in the one number style (present/numbers.ts) for every format:
   * the exact value where 17 significant digits hold it ("0.10009765625", "0.0999755859375",
   * "5.9604644775390625e-8"), else the shortest decimal that reads back ("0.1" of f32 0x3dcccccd).
   */
  readonly fieldText: string;
  /** The exponent field said in full: "stored 01111 = 15, bias 15 → 2⁰". */
  readonly exponentText: string;
  /** The significand in binary with its hidden bit: "+1.1000000000b"; null for no number. */
  readonly significand: string | null;
  /** The spacing of values at this exponent (one unit in the last place), "2⁻¹⁰"; null for none. */
  readonly ulp: string | null;
  /** The bits are NVIDIA's canonical NaN of the format. */
  readonly canonicalNaN: boolean;
  /** The format's largest finite value, or its negative. */
  readonly maxNorm: boolean;
  /** A NaN: it has no neighbours. */
  readonly nan: boolean;
}

export function elementReadout(bits: bigint, format: FormatName): ElementReadout {
  const f = FORMATS[format];
  const cls = classify(bits, f);
  const fields = fieldsOf(bits, f);
  const finite = cls === 'normal' || cls === 'subnormal';
  const exact = exactValueOfBits(bits, f).decimal;
  // In the one number style: 65500, not 6.55e4; 450 (e4m3's 448), not 4.5e2.
  const shortest = finite ? decimalText(shortestDecimal(bits, f)) : shortestDecimal(bits, f);
  const stored = fields.exponent.toString(2).padStart(f.expBits, '0');
  const unbiased = Number(fields.exponent) - f.bias;
  // The least exponent: that of the subnormals (and of the zeros), or of ue8m0's field 0.
  const emin = f.emin;
  const exponentText =
    cls === 'normal'
      ? `stored ${stored} = ${Number(fields.exponent)}, bias ${f.bias} → ${powerOfTwoText(unbiased)}`
      : cls === 'subnormal'
        ? `stored ${stored}: subnormal, 1 − bias ${f.bias} → ${powerOfTwoText(emin)}`
        : cls === 'zero'
          ? `stored ${stored}: zero`
          : f.hasInfinity
            ? `stored ${stored}: all ones, infinity or NaN`
            : `stored ${stored}: the NaN pattern`;
  const man = f.manBits > 0 ? `.${fields.mantissa.toString(2).padStart(f.manBits, '0')}` : '';
  const negative = isNegative(bits, f);
  const ulpExponent =
    cls === 'normal'
      ? unbiased - f.manBits
      : cls === 'subnormal' || cls === 'zero'
        ? emin - f.manBits
        : null;
  return {
    className: `${negative ? 'negative' : 'positive'} ${CLASS_WORDS[cls]}`,
    exact,
    shortest,
    fieldText: finite ? fieldDecimal(exact, shortest) : shortest,
    exponentText,
    significand: finite ? `${negative ? '−' : '+'}${cls === 'normal' ? '1' : '0'}${man}b` : null,
    ulp: ulpExponent === null ? null : powerOfTwoText(ulpExponent),
    canonicalNaN: f.canonicalNaN !== null && bits === f.canonicalNaN,
    maxNorm: magnitudeOf(bits, f) === f.maxBits,
    nan: cls === 'qnan' || cls === 'snan',
  };
}

/** The exact value where 17 significant digits hold it, else the shortest that reads back. */
function fieldDecimal(exact: string, shortest: string): string {
  const whole = decimalText(exact);
  return whole.includes('…') ? decimalText(shortest) : whole;
}

export interface QuickPick {
  readonly name: string;
  readonly bits: bigint;
}

/** The quick picks of a format: its named special values, named as the tables name them. */
export function quickPicks(format: FormatName): readonly QuickPick[] {
  return namedValues(format).map((v) => ({ name: namedValueWords(v.id, format), bits: v.bits }));
}

/** The next value up and down (a NaN and the ends stay), for the step buttons. */
export function neighbours(bits: bigint, format: FormatName): { up: bigint; down: bigint } {
  const f = FORMATS[format];
  return { up: nextUp(bits, f), down: nextDown(bits, f) };
}

/** The OOB-NaN pattern (decision 'oob-nan-pattern'): what the quick pick puts in an element. */
export const OOB_NAN_BITS = BigInt(DEFAULT_ENGINE_OPTIONS.oobNanBits);

/**
 * The formats .oob tests for the OOB-NaN pattern: those of its 16-bit elements (the pattern is
 * 16 bits wide).
 */
export function holdsOobNaN(bits: bigint, format: FormatName): boolean {
  const f = FORMATS[format];
  return f.width === 16 && isOobNaN(bits, f, OOB_NAN_BITS);
}
