/**
 * The named special values of a format — its zeros, least and largest subnormal, least normal,
 * one, MAX_NORM, infinities and NaNs — for every format of src/catalog/formats.ts, each under one
 * id. A format has those it has: e4m3 no infinity, e2m1 no NaN, ue8m0 no sign, no zero and no
 * subnormal (its least normal is the pattern 0x00, 2^-127). The corner-case tables combine these
 * values, and the bit editors offer them as quick picks, in this order.
 */
import { FORMATS, type Format, type FormatName } from '../format.ts';

export const NAMED_VALUE_IDS = [
  '+zero',
  '-zero',
  '+least-subnormal',
  '-least-subnormal',
  '+largest-subnormal',
  '+least-normal',
  '-least-normal',
  '+one',
  '-one',
  '+max-norm',
  '-max-norm',
  '+inf',
  '-inf',
  'nan',
  'snan',
] as const;

export type NamedValueId = (typeof NAMED_VALUE_IDS)[number];

export interface NamedValue {
  readonly id: NamedValueId;
  /** The value's pattern in its format. */
  readonly bits: bigint;
}

/** The pattern of a named value, or null where the format has no such value. */
export function namedValueBits(id: NamedValueId, f: Format): bigint | null {
  const negative = id.startsWith('-');
  if (negative && !f.signed) return null;
  const sign = negative ? f.signMask : 0n;
  const leastNormal = f.hasSubnormals ? 1n << BigInt(f.manBits) : 0n;
  switch (id) {
    case '+zero':
    case '-zero':
      return f.hasZero ? sign : null;
    case '+least-subnormal':
    case '-least-subnormal':
      return f.hasSubnormals && f.manBits > 0 ? sign | 1n : null;
    case '+largest-subnormal':
      return f.hasSubnormals && f.manBits > 0 ? f.manMask : null;
    case '+least-normal':
    case '-least-normal':
      return sign | leastNormal;
    case '+one':
    case '-one': {
      // 1 = 2^0: exponent field `bias` where subnormals exist, else field 0 is 2^emin.
      const field = f.hasSubnormals ? f.bias : -f.emin;
      return field >= 0 && field < 2 ** f.expBits
        ? sign | (BigInt(field) << BigInt(f.manBits))
        : null;
    }
    case '+max-norm':
    case '-max-norm':
      return sign | f.maxBits;
    case '+inf':
    case '-inf':
      return f.infBits === null ? null : sign | f.infBits;
    case 'nan':
      return f.canonicalNaN;
    case 'snan':
      // Only the IEEE encoding has a signalling NaN: the least one, infinity's next pattern.
      return f.spec.specials === 'ieee' ? f.infBits! + 1n : null;
  }
}

const cache = new Map<FormatName, readonly NamedValue[]>();

/**
 * The named values of a format, in NAMED_VALUE_IDS order. A value whose pattern an earlier name
 * already has is left out (e2m1's largest subnormal is its least one, 0.5).
 */
export function namedValues(format: FormatName | Format): readonly NamedValue[] {
  const f = typeof format === 'string' ? FORMATS[format] : format;
  const known = cache.get(f.name);
  if (known) return known;
  const seen = new Set<bigint>();
  const values: NamedValue[] = [];
  for (const id of NAMED_VALUE_IDS) {
    const bits = namedValueBits(id, f);
    if (bits === null || seen.has(bits)) continue;
    seen.add(bits);
    values.push({ id, bits });
  }
  cache.set(f.name, values);
  return values;
}
