import {
  decode,
  exactValueOfBits,
  FORMATS,
  namedSpecialValues,
  shortestDecimal,
  type SpecialValue,
} from '../engine/index.ts';
import type { FormatName } from '../catalog/index.ts';

/** Readouts of one lane value, as the bit editors show them. Pure, for the UI and its tests. */
export interface LaneReadout {
  readonly className: string;
  readonly exact: string;
  readonly shortest: string;
  /** Unbiased exponent, or null for zero, infinity and NaN. */
  readonly exponent: number | null;
  /** Significand in binary with its hidden bit: "1.1000000000b" (normal) or "0.0000000001b". */
  readonly significand: string | null;
}

const CLASS_NAMES: Record<string, string> = {
  zero: 'zero',
  subnormal: 'subnormal',
  normal: 'normal',
  infinity: 'infinity',
  qnan: 'quiet NaN',
  snan: 'signaling NaN',
};

export function laneReadout(bits: number, format: FormatName): LaneReadout {
  const f = FORMATS[format];
  const d = decode(bits, f);
  const sign = d.negative ? '−' : '+';
  const man = d.mantissa.toString(2).padStart(f.manBits, '0');
  const finite = d.class === 'normal' || d.class === 'subnormal';
  return {
    className: `${d.negative ? 'negative' : 'positive'} ${CLASS_NAMES[d.class]}`,
    exact: exactValueOfBits(bits, f).decimal,
    shortest: shortestDecimal(bits, f),
    exponent: d.class === 'normal' ? d.exponent - f.bias : d.class === 'subnormal' ? f.emin : null,
    significand: finite ? `${sign}${d.class === 'normal' ? '1' : '0'}.${man}b` : null,
  };
}

/** The quick picks: the format's special values, named as the corner-case tables name them. */
export function quickPicks(format: FormatName): readonly SpecialValue[] {
  return namedSpecialValues(FORMATS[format]);
}

/** Lane `i` of a register (x2: lane 0 = bits 15:0, lane 1 = bits 31:16). */
export function laneOf(register: number, lanes: 1 | 2, i: number): number {
  return lanes === 2 ? (register >>> (16 * i)) & 0xffff : register >>> 0;
}

export function withLane(register: number, lanes: 1 | 2, i: number, bits: number): number {
  if (lanes === 1) return bits >>> 0;
  return i === 0
    ? ((register & 0xffff0000) | bits) >>> 0
    : ((bits << 16) | (register & 0xffff)) >>> 0;
}
