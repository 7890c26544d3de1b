/**
 * The special values of a format, each with its one name. The bit editors' quick picks and the
 * corner-case tables list the same values under the same names, in this order.
 */
import { specialValues, type FloatFormat } from '../formats.ts';

export const SPECIAL_VALUE_NAMES = [
  '+0',
  '-0',
  '+min subnormal',
  '-min subnormal',
  '+max subnormal',
  '+min normal',
  '-min normal',
  '+1',
  '-1',
  '+max finite',
  '-max finite',
  '+inf',
  '-inf',
  'NaN',
  'sNaN',
] as const;

export type SpecialValueName = (typeof SPECIAL_VALUE_NAMES)[number];

export interface SpecialValue {
  readonly name: SpecialValueName;
  readonly bits: number;
}

/** The bits of every named special value of `f` ('NaN' is the canonical NaN). */
function bitsByName(f: FloatFormat): Record<SpecialValueName, number> {
  const s = specialValues(f);
  return {
    '+0': s.plusZero,
    '-0': s.minusZero,
    '+min subnormal': s.minSubnormal,
    '-min subnormal': s.minSubnormal + f.signMask,
    '+max subnormal': s.maxSubnormal,
    '+min normal': s.minNormal,
    '-min normal': s.minNormal + f.signMask,
    '+1': s.one,
    '-1': s.minusOne,
    '+max finite': s.maxFinite,
    '-max finite': s.maxFinite + f.signMask,
    '+inf': s.plusInf,
    '-inf': s.minusInf,
    NaN: s.canonicalNaN,
    sNaN: s.signalingNaN,
  };
}

/** The special values of `f`, named, in the order of SPECIAL_VALUE_NAMES. */
export function namedSpecialValues(f: FloatFormat): readonly SpecialValue[] {
  const bits = bitsByName(f);
  return SPECIAL_VALUE_NAMES.map((name) => ({ name, bits: bits[name] }));
}
