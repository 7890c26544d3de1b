/**
 * Carrying a cvt's source values to another cvt form, by value, not by bits: comparing
 * cvt.rn.satfinite.e4m3x2.f32 with cvt.rn.satfinite.e2m1x2.f32 asks what each does to the same
 * numbers. Element i of B reads the value element i of A read (by the Semantics block's order:
 * element 0 is the first line, from the upper bits or from a); where B converts more elements
 * than A, its extra elements read A's last one again. A value B's source format holds is carried
 * exactly; another is rounded to the nearest value of that format (ties to even; past its
 * largest finite value: infinity where the format has one, else that largest value), and the
 * carry says so. The random bits of .rs are carried as bits.
 */
import type { CvtForm, CvtSourceName } from '../../catalog/cvt-forms.ts';
import type { ElementFormatName } from '../../catalog/cvt-types.ts';
import { roundForCvt } from '../cvt-round.ts';
import {
  decodeElement,
  encodeElement,
  elementWidth,
  floatFormatOf,
  hexOf,
  isRepresentable,
} from '../element-format.ts';
import { add, ilog2, isZero, negate, type Dyadic } from '../exact.ts';
import type { CvtInput } from '../ops/cvt.ts';
import type { Value } from '../values.ts';

/**
 * How a value reached B: its own bits ('same'), the same value in another format ('exact'), the
 * nearest value ('rounded'), a NaN as the format's canonical NaN ('nan'), or a NaN into a format
 * without one, read as +0 ('no-nan').
 */
export type CvtCarryHow = 'same' | 'exact' | 'rounded' | 'nan' | 'no-nan';

export interface CvtCarriedElement {
  /** B's element (0: the first line of its Semantics block). */
  readonly element: number;
  /** The operand and format B reads the element from. */
  readonly operand: CvtSourceName;
  readonly format: ElementFormatName;
  /** The element of A it was carried from. */
  readonly from: {
    readonly element: number;
    readonly operand: CvtSourceName;
    readonly format: ElementFormatName;
    readonly bits: string;
  };
  /** B converts more elements than A: this one reads A's last element again. */
  readonly repeated: boolean;
  /** B's value bits (hex of the value's width). */
  readonly bits: string;
  readonly how: CvtCarryHow;
}

export interface CvtCarried {
  readonly input: CvtInput;
  readonly elements: readonly CvtCarriedElement[];
  /**
   * B's random bits (.rs): 'bits' where A has them too (carried as they are), 'absent' where A
   * has none (B reads 0: no carry, every inexact value rounds toward zero); null where B is not
   * .rs.
   */
  readonly rbits: 'bits' | 'absent' | null;
}

const mask = (bits: number) => (1n << BigInt(bits)) - 1n;
const fieldOf = (reg: bigint, hi: number, lo: number) => (reg >> BigInt(lo)) & mask(hi - lo + 1);

/** The source value bits of A's element `index`. */
export function sourceBitsOf(form: CvtForm, input: CvtInput, index: number): bigint {
  const src = form.elements[index]!.source;
  return fieldOf(input[src.operand as CvtSourceName] ?? 0n, src.value.hi, src.value.lo);
}

/** A value in format `to`: the same value where it fits, else the nearest (see the top). */
export function carryValue(
  v: Value,
  to: ElementFormatName,
): { bits: bigint; how: Exclude<CvtCarryHow, 'same'> } {
  const nearest = (x: Value) => encodeElement(x, to);
  if (v.kind === 'nan') {
    if (to !== 'f64' && floatFormatOf(to).nan === 'none') return { bits: 0n, how: 'no-nan' };
    return { bits: nearest(v), how: 'nan' };
  }
  const unsigned = to === 'ue8m0';
  if (v.kind === 'inf') {
    if (to === 'f64' || floatFormatOf(to).hasInfinity) return { bits: nearest(v), how: 'exact' };
    // ue8m0's nearest to −inf is its least value, 2^-127 (pattern 0).
    if (unsigned && v.negative) return { bits: 0n, how: 'rounded' };
    return { bits: largest(to, v.negative), how: 'rounded' };
  }
  const x = v.x;
  // ue8m0 holds only positive powers of two from 2^-127: its least value is the nearest to a
  // zero or a negative value.
  if (unsigned && (isZero(x) || x.negative)) return { bits: 0n, how: 'rounded' };
  if (isZero(x) || isRepresentable(x, to)) return { bits: nearest(v), how: 'exact' };
  if (unsigned) return { bits: nearestPowerOfTwo(x), how: 'rounded' };
  const r = roundForCvt(x, to, 'rn');
  if (r.overflow) {
    const f = floatFormatOf(to as Exclude<ElementFormatName, 'f64'>);
    if (f.hasInfinity)
      return { bits: nearest({ kind: 'inf', negative: x.negative }), how: 'rounded' };
    return { bits: largest(to, x.negative), how: 'rounded' };
  }
  return { bits: nearest({ kind: 'finite', x: r.value! }), how: 'rounded' };
}

/**
 * ue8m0's nearest to a positive x that is not a power of two: 2^e or 2^(e+1) (x above
 * 1.5 × 2^e takes the upper), a tie to the even pattern; within its range 2^-127 … 2^127.
 */
function nearestPowerOfTwo(x: Dyadic): bigint {
  const e = ilog2(x);
  // 2x against 3 × 2^e: x's distance to 2^e against its distance to 2^(e+1).
  const twice = { ...x, exp: x.exp + 1 };
  const c = compareMagnitude(twice, { negative: false, mant: 3n, exp: e });
  const low = e + 127;
  const pick = c < 0 ? low : c > 0 ? low + 1 : low % 2 === 0 ? low : low + 1;
  return BigInt(Math.min(254, Math.max(0, pick)));
}

function compareMagnitude(x: Dyadic, y: Dyadic): -1 | 0 | 1 {
  const d = add(x, negate(y));
  return isZero(d) ? 0 : d.negative ? -1 : 1;
}

/** The largest finite value of a format without infinity (its sign where it has one). */
function largest(to: ElementFormatName, negative: boolean): bigint {
  const f = floatFormatOf(to as Exclude<ElementFormatName, 'f64'>);
  return BigInt(f.maxBits + (negative && f.signed ? f.signMask : 0));
}

/** B's registers: A's source values, element by element, in B's source formats. */
export function carryCvtOperands(from: CvtForm, to: CvtForm, input: CvtInput): CvtCarried {
  const registers: Partial<Record<CvtSourceName, bigint>> = {};
  for (const op of to.operands.slice(1)) registers[op.name as CvtSourceName] = 0n;
  const elements = to.elements.map((element): CvtCarriedElement => {
    const place = element.source;
    const operand = place.operand as CvtSourceName;
    const index = Math.min(element.index, from.elements.length - 1);
    const fromPlace = from.elements[index]!.source;
    const fromBits = sourceBitsOf(from, input, index);
    const fromFormat = fromPlace.format;
    const carried =
      fromFormat === place.format
        ? { bits: fromBits, how: 'same' as const }
        : carryValue(decodeElement(fromBits, fromFormat), place.format);
    registers[operand] = (registers[operand] ?? 0n) | (carried.bits << BigInt(place.value.lo));
    return {
      element: element.index,
      operand,
      format: place.format,
      from: {
        element: index,
        operand: fromPlace.operand as CvtSourceName,
        format: fromFormat,
        bits: hexOf(fromBits, elementWidth(fromFormat)),
      },
      repeated: element.index >= from.elements.length,
      bits: hexOf(carried.bits, elementWidth(place.format)),
      how: carried.how,
    };
  });
  const wantsRbits = to.operands.some((o) => o.name === 'rbits');
  const hasRbits = from.operands.some((o) => o.name === 'rbits');
  if (wantsRbits) registers.rbits = hasRbits ? (input.rbits ?? 0n) : 0n;
  return {
    input: { a: registers.a ?? 0n, ...registers },
    elements,
    rbits: wantsRbits ? (hasRbits ? 'bits' : 'absent') : null,
  };
}
