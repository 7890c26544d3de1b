import { CLASS_WORDS, powerOfTwoText } from '../engine/class-words.ts';
import {
  decode,
  DEFAULT_ENGINE_OPTIONS,
  exactValueOfBits,
  FORMATS,
  namedSpecialValues,
  shortestDecimal,
  type SpecialValue,
} from '../engine/index.ts';
import { isOobNaN } from '../engine/specialize.ts';
import type { FormatName } from '../catalog/index.ts';

/** Readouts of one lane value, as the bit editors show them. Pure, for the UI and its tests. */
export interface LaneReadout {
  readonly className: string;
  /** The value the bits encode, every digit ("65504", "1.0078125"). */
  readonly exact: string;
  /** The shortest decimal that reads back to the same bits ("6.55e4", "1.008"). */
  readonly shortest: string;
  /** What the value field shows: the exact value when it is short, else the shortest decimal. */
  readonly fieldText: string;
  /** Unbiased exponent, or null for zero, infinity and NaN. */
  readonly exponent: number | null;
  /** The exponent field said in full: "stored 01111 = 15, bias 15 → 2⁰". */
  readonly exponentText: string;
  /** Significand in binary with its hidden bit: "1.1000000000b" (normal) or "0.0000000001b". */
  readonly significand: string | null;
  /** The spacing of values at this exponent (one unit in the last place), "2⁻¹⁰"; null if none. */
  readonly ulp: string | null;
  /** The bits are NVIDIA's canonical NaN of the format (0x7FFF for .f16/.bf16). */
  readonly canonicalNaN: boolean;
}

/** An exact value longer than this is shown in the value field by its shortest decimal. */
const FIELD_EXACT_LIMIT = 14;

/** 2 to a power, as a reader writes it: 2⁻¹⁴. */
export function powerOfTwo(exponent: number): string {
  return powerOfTwoText(exponent);
}

export function laneReadout(bits: number, format: FormatName): LaneReadout {
  const f = FORMATS[format];
  const d = decode(bits, f);
  const sign = d.negative ? '−' : '+';
  const man = d.mantissa.toString(2).padStart(f.manBits, '0');
  const finite = d.class === 'normal' || d.class === 'subnormal';
  const exact = exactValueOfBits(bits, f).decimal;
  const shortest = shortestDecimal(bits, f);
  const stored = d.exponent.toString(2).padStart(f.expBits, '0');
  const exponentText =
    d.class === 'normal'
      ? `stored ${stored} = ${d.exponent}, bias ${f.bias} → ${powerOfTwo(d.exponent - f.bias)}`
      : d.class === 'subnormal'
        ? `stored ${stored}: subnormal, 1 − bias ${f.bias} → ${powerOfTwo(f.emin)}`
        : d.class === 'zero'
          ? `stored ${stored}: zero`
          : `stored ${stored}: all ones, infinity or NaN`;
  return {
    className: `${d.negative ? 'negative' : 'positive'} ${CLASS_WORDS[d.class]}`,
    exact,
    shortest,
    fieldText: finite && exact.length <= FIELD_EXACT_LIMIT ? exact : shortest,
    exponent: d.class === 'normal' ? d.exponent - f.bias : d.class === 'subnormal' ? f.emin : null,
    exponentText,
    significand: finite ? `${sign}${d.class === 'normal' ? '1' : '0'}.${man}b` : null,
    // Zeros and subnormals share the smallest exponent's spacing.
    ulp:
      d.class === 'normal'
        ? powerOfTwo(d.exponent - f.bias - f.manBits)
        : d.class === 'subnormal' || d.class === 'zero'
          ? powerOfTwo(f.emin - f.manBits)
          : null,
    canonicalNaN: bits === f.canonicalNaN,
  };
}

/** The OOB-NaN pattern (decision 'oob-nan-pattern'): what the quick pick puts in a lane. */
export const OOB_NAN_BITS = DEFAULT_ENGINE_OPTIONS.oobNanBits;

/** Whether a lane holds the OOB-NaN pattern (either sign), which `.oob` tests a and b for. */
export function holdsOobNaN(bits: number, format: FormatName): boolean {
  return format !== 'f32' && isOobNaN(bits, FORMATS[format], OOB_NAN_BITS);
}

/** The quick picks: the format's special values, named as the corner-case tables name them. */
export function quickPicks(format: FormatName): readonly SpecialValue[] {
  return namedSpecialValues(FORMATS[format]);
}

/** Lane `i` of a register (x2: lane 0 = bits 15:0, lane 1 = bits 31:16). */
export function laneOf(register: number, lanes: 1 | 2, i: number): number {
  return lanes === 2 ? (register >>> (16 * i)) & 0xffff : register >>> 0;
}

/** The bit range lane `i` of a packed register occupies, as the editors and steps label it. */
export function laneBits(i: number): string {
  return i === 1 ? 'bits 31:16' : 'bits 15:0';
}

export function withLane(register: number, lanes: 1 | 2, i: number, bits: number): number {
  if (lanes === 1) return bits >>> 0;
  return i === 0
    ? ((register & 0xffff0000) | bits) >>> 0
    : ((bits << 16) | (register & 0xffff)) >>> 0;
}
