/**
 * What a value typed for a register became (engine/register-text.ts, stored-value.ts), in words,
 * in the one number style (numbers.ts): the register's bits and the stored value, in which of its
 * elements, and where the value was not representable, why and by which rounding.
 *
 *   "stored 0x3e00 = 1.5"
 *   "stored 0xbe80be80 = -0.25 in each lane"
 *   "0.1 is not an f16 value: stored 0x2e66 = 0.0999755859375 (rounded to nearest even; error -2.44140625e-5)"
 *   "70000 is above the largest f16 (65504): stored 0x7c00 = +inf (rounded to nearest even)"
 *   "1e-8 is below half the smallest f16 subnormal (2^-25 = 2.9802322387695312e-8): stored 0x0000 = +0 (rounded to nearest even)"
 */
import type { Form } from '../catalog/instruction.ts';
import {
  exactValueOfBits,
  FORMATS,
  hexOf,
  isNegative,
  maxNormBits,
  type Format,
} from '../engine/format.ts';
import type { StoredPlace } from '../engine/register-text.ts';
import { exactValueOfTyped, type StoredValue } from '../engine/stored-value.ts';
import { exactText, signedText } from './numbers.ts';
import { elementWord } from './element-word.ts';
import { article } from './values.ts';

const ROUNDING = 'rounded to nearest even';

/** "-0.25" of a pattern: its exact value in the one number style, NaN by name. */
function valueOf(bits: bigint, f: Format): string {
  const v = exactValueOfBits(bits, f);
  return v.kind === 'nan' ? 'NaN' : exactText(v);
}

/** A nonzero value stored as a zero: it is at most half the smallest value above zero. */
function underflowText(value: StoredValue, f: Format, stored: string): string {
  const least = f.hasSubnormals ? `smallest ${f.name} subnormal` : `smallest positive ${f.name}`;
  const halfExp = (f.hasSubnormals ? f.emin - f.manBits : f.emin) - 1;
  const halfDen = 1n << BigInt(-halfExp);
  const half = exactText(exactValueOfTyped(false, 1n, halfDen));
  const typed = value.typed;
  // Exactly half is a tie between the zero and the least value: the even pattern, the zero.
  const tie = typed.kind === 'finite' && typed.num * halfDen === typed.den;
  const magnitude = typed.negative ? ' in magnitude' : '';
  const why = `${tie ? 'is exactly half' : 'is below half'} the ${least} (2^${halfExp} = ${half})${magnitude}`;
  return `${value.text} ${why}: ${stored} (${ROUNDING}${tie ? ': the tie goes to the even value, 0' : ''})`;
}

/**
 * The stored value in words: `register` the register's bits (hex), `where` what follows the value
 * (" in each lane", or nothing).
 */
export function storedValueText(value: StoredValue, register: string, where = ''): string {
  const f = FORMATS[value.format];
  const stored = `stored ${register} = ${valueOf(value.bits, f)}${where}`;
  switch (value.outcome) {
    case 'exact':
      return stored;
    case 'overflow': {
      const negative = isNegative(value.bits, f);
      const largest = valueOf(maxNormBits(f, negative), f);
      const beyond = negative
        ? `is below the most negative ${f.name} (${largest})`
        : `is above the largest ${f.name} (${largest})`;
      return `${value.text} ${beyond}: ${stored} (${ROUNDING})`;
    }
    case 'underflow':
      return underflowText(value, f, stored);
    case 'rounded': {
      const e = value.error;
      const error =
        e === undefined
          ? ''
          : `; error ${signedText(exactValueOfTyped(e.num < 0n, e.num < 0n ? -e.num : e.num, e.den))}`;
      return `${value.text} is not ${article(f.name)} ${f.name} value: ${stored} (${ROUNDING}${error})`;
    }
  }
}

/**
 * A value typed for one element of a matrix form's row or column: the element's bits as given
 * (`bits` of `width`: a tf32 element's .b32 register) and the value.
 */
export function elementStoredText(value: StoredValue, bits: bigint, width: number): string {
  return storedValueText(value, hexOf(bits, width));
}

/**
 * A value typed for a whole register, put in each of its places: the register's bits and the
 * value, "in each lane" (or element) where the register holds several.
 */
export function registerStoredText(
  form: Form,
  register: { readonly bits: bigint; readonly width: number },
  places: readonly StoredPlace[],
): string {
  const where = places.length > 1 ? ` in each ${elementWord(form)}` : '';
  return storedValueText(places[0]!.value, hexOf(register.bits, register.width), where);
}
