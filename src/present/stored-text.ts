/**
 * What a typed value became (engine/stored-value.ts), in words for the page's fields and a
 * link's notices: the stored pattern and value, and where it is not the value typed, why — not
 * a value of the format (rounded to nearest even, with the error), past the largest finite value,
 * below half the least subnormal.
 *
 *   "stored 0x3e00 = 1.5"
 *   "stored 0xbfc0bfc0 = -1.5 in each lane"
 *   "0.1 is not an f16 value: stored 0x2e66 = 0.0999755859375 (rounded to nearest even; error -2.44e-5)"
 *   "stored 0x7c00 = +inf: 70000 is above the largest f16 (65504), rounded to nearest even"
 *   "1e-8 is below half the smallest f16 subnormal (2^-25 = 2.98e-8): stored 0x0000 = 0 (rounded to nearest even)"
 *
 * Every digit of the stored value is written: its shortest decimal would read back as the text.
 */
import type { Form } from '../catalog/instruction.ts';
import { exactValueOfBits, FORMATS, hexOf, type Format } from '../engine/format.ts';
import type { StoredPlace } from '../engine/register-text.ts';
import { largestText, type StoredValue } from '../engine/stored-value.ts';
import { article } from './values.ts';

const ROUNDING = 'rounded to nearest even';

/** Three significant digits: 0.000123 as 1.23e-4; positional from 10^-3 below 10^6. */
function threeDigits(x: number): string {
  if (x === 0) return '0';
  const a = Math.abs(x);
  const text = a >= 1e-3 && a < 1e6 ? String(Number(x.toPrecision(3))) : x.toExponential(2);
  return text.replace(/\.?0+e/, 'e').replace('e+', 'e');
}

/** num / den as a double, for BigInts of any size (to 64 significant bits, then the double's). */
function ratio(num: bigint, den: bigint): number {
  if (num === 0n) return 0;
  const negative = num < 0n;
  const m = negative ? -num : num;
  const shift = 64 - (m.toString(2).length - den.toString(2).length);
  const q = shift >= 0 ? (m << BigInt(shift)) / den : m / (den << BigInt(-shift));
  return (negative ? -1 : 1) * Number(q) * 2 ** -shift;
}

/** Why a nonzero number became a zero: at most half the least subnormal (a tie goes to even 0). */
function underflowWhy(value: StoredValue, f: Format): { why: string; tie: boolean } {
  const halfExp = f.emin - f.manBits - 1;
  const typed = value.typed;
  const tie = typed.kind === 'finite' && typed.num * 2n ** BigInt(-halfExp) === typed.den;
  const magnitude = typed.negative ? ' in magnitude' : '';
  const relation = tie ? 'is exactly half' : 'is below half';
  return {
    why: `${relation} the smallest ${f.name} subnormal (2^${halfExp} = ${threeDigits(2 ** halfExp)})${magnitude}`,
    tie,
  };
}

/**
 * The words for a value stored in a register or an element: `bits` and `width` are what was
 * written (the whole register, or the element), `each` names what else holds the same value
 * ("in each lane").
 */
export function storedText(value: StoredValue, bits: bigint, width: number, each = ''): string {
  const f = FORMATS[value.format];
  const shown = exactValueOfBits(value.bits, f).decimal;
  const stored = `stored ${hexOf(bits, width)} = ${shown}${each}`;
  switch (value.outcome) {
    case 'exact':
      return stored;
    case 'overflow': {
      const why = value.typed.negative
        ? `is below the most negative ${f.name} (-${largestText(f)})`
        : `is above the largest ${f.name} (${largestText(f)})`;
      return `${stored}: ${value.text} ${why}, ${ROUNDING}`;
    }
    case 'underflow': {
      const under = underflowWhy(value, f);
      return `${value.text} ${under.why}: ${stored} (${ROUNDING}${under.tie ? ': the tie goes to the even value, 0' : ''})`;
    }
    case 'rounded': {
      const error = value.error
        ? `; error ${threeDigits(ratio(value.error.num, value.error.den))}`
        : '';
      return `${value.text} is not ${article(f.name)} ${f.name} value: ${stored} (${ROUNDING}${error})`;
    }
  }
}

/** The words for a value typed for a whole register: stored in every place that reads it. */
export function storedInRegisterText(
  form: Form,
  places: readonly StoredPlace[],
  bits: bigint,
  width: number,
): string {
  const word = form.family === 'convert' ? 'element' : 'lane';
  const each = places.length > 1 ? ` in each ${word}` : '';
  return storedText(places[0]!.value, bits, width, each);
}
