/**
 * Carrying values from one instruction to another (decision compare-carry): the what-if asks
 * what two instructions do to the same numbers, so B is given A's values, not A's bits. 0.1 in an
 * f16 register becomes the bf16 value nearest to that f16 value, 500 in an .f32 becomes e2m1's 6.
 *
 * The one conversion of a value into a format (carryValue), built of rounding.ts and
 * nvidia-rules.ts alone:
 *
 *   the format holds the value          → that value                       'exact'
 *   it does not                         → the nearest (roundToFormat .rn,  'rounded'
 *                                         ties to the even pattern)
 *   past the largest finite value       → ±infinity where the format has   'rounded'
 *                                         one, else ±MAX_NORM
 *   a NaN                               → the canonical NaN; +0 in a format 'nan' / 'no-nan'
 *                                         without NaN (e2m1, e2m3, e3m2)
 *   negative, into an unsigned format   → its least value (ue4m3 +0,       'rounded'
 *                                         ue8m0 2^-127): the nearest
 *   zero or below 2^-127, into ue8m0    → 2^-127, its least value           'rounded'
 *
 * Which value goes where (carryRegisters): B's element i reads A's element min(i, nA − 1) (by
 * the spec's statement of each form's elements: lane i of an x2 form, line i of cvt's Semantics
 * block), input by input in the order the operation takes them (a, then b or c, then c). An input
 * B has and A's element lacks (the addend of an fma beside a mul) is +0. A value of the same
 * format keeps its bits, NaN payload and OOB-NaN pattern included. B's .rs random bits are A's
 * rbits register as bits, or 0 where A has none. Padding bits of B's registers are zero.
 */
import type { Form, RegisterName, SourceName } from '../../catalog/instruction.ts';
import type { FormatName } from '../../catalog/formats.ts';
import { encodeFinite, FORMATS, formatHex, valueOfBits, withSign, type Format } from '../format.ts';
import { canonicalNaN, leastValueForZero, overflowResult, satfinite } from '../nvidia-rules.ts';
import type { Registers } from '../pipeline.ts';
import { roundDyadic } from '../rounding.ts';
import type { Value } from '../value.ts';

/**
 * How a value reached B: its own bits ('same'), the same value in another format ('exact'), the
 * nearest value ('rounded'), a NaN as the canonical NaN ('nan'), a NaN into a format without one
 * ('no-nan': +0), or no value in A at all ('absent': +0).
 */
export type CarryHow = 'same' | 'exact' | 'rounded' | 'nan' | 'no-nan' | 'absent';

export interface CarriedValue {
  readonly bits: bigint;
  readonly how: Exclude<CarryHow, 'same' | 'absent'>;
}

/** The least value of a format: +0, or 2^-127 in ue8m0, which has no zero. */
function leastValue(f: Format): bigint {
  return f.hasZero ? 0n : leastValueForZero(f);
}

/** A value in format `to`: the value itself where `to` holds it, else the nearest (see the top). */
export function carryValue(v: Value, to: Format): CarriedValue {
  if (v.kind === 'nan')
    return to.canonicalNaN === null
      ? { bits: 0n, how: 'no-nan' }
      : { bits: canonicalNaN(to), how: 'nan' };
  const negative = v.kind === 'inf' ? v.negative : v.x.negative;
  if (negative && !to.signed) {
    const zero = v.kind === 'finite' && v.x.mant === 0n && to.hasZero;
    return { bits: leastValue(to), how: zero ? 'exact' : 'rounded' };
  }
  if (v.kind === 'inf')
    return to.infBits === null
      ? { bits: satfinite({ beyond: true, negative }, to).bits, how: 'rounded' }
      : { bits: withSign(to.infBits, negative, to), how: 'exact' };
  const x = v.x;
  if (x.mant === 0n)
    return to.hasZero
      ? { bits: withSign(0n, negative, to), how: 'exact' }
      : { bits: leastValueForZero(to), how: 'rounded' };
  const exact = encodeFinite(x, to);
  if (exact !== null) return { bits: exact, how: 'exact' };
  const r = roundDyadic(x, to, 'rn');
  if (r.overflow) {
    const bits =
      to.infBits === null
        ? satfinite({ beyond: true, negative }, to).bits
        : overflowResult(to, negative, r.awayFromZero).bits;
    return { bits, how: 'rounded' };
  }
  if (r.belowLeast) return { bits: leastValueForZero(to), how: 'rounded' };
  return { bits: r.bits!, how: 'rounded' };
}

/** A pattern of format `from` in format `to`: the same bits where the formats agree. */
export function carryBits(
  bits: bigint,
  from: Format,
  to: Format,
): { readonly bits: bigint; readonly how: Exclude<CarryHow, 'absent'> } {
  if (from.name === to.name) return { bits, how: 'same' };
  return carryValue(valueOfBits(bits, from), to);
}

/** One input of one of B's elements, as carried from A. */
export interface CarriedInput {
  /** B's element (its place in B's form) and the input's place in the operation (0: a). */
  readonly element: number;
  readonly input: number;
  /** The register and format B reads it from. */
  readonly operand: SourceName;
  readonly format: FormatName;
  /** A's element and input it was carried from, as A's register holds it; null: 'absent'. */
  readonly from: {
    readonly element: number;
    readonly input: number;
    readonly operand: SourceName;
    readonly format: FormatName;
    readonly bits: string;
  } | null;
  /** B has more elements than A: this one reads A's last element again. */
  readonly repeated: boolean;
  /** The bits B reads (hex of the format's width). */
  readonly bits: string;
  readonly how: CarryHow;
}

export interface Carried {
  /** B's source registers. */
  readonly registers: Registers;
  /** Every input of every element of B, in element order. */
  readonly inputs: readonly CarriedInput[];
  /** B's random bits (.rs): A's rbits as bits, 0 where A has none ('absent'); null: B has none. */
  readonly rbits: 'bits' | 'absent' | null;
}

const mask = (bits: number) => (1n << BigInt(bits)) - 1n;

function fieldOf(register: bigint, hi: number, lo: number): bigint {
  return (register >> BigInt(lo)) & mask(hi - lo + 1);
}

const hasRegister = (form: Form, name: RegisterName) => form.registers.some((r) => r.name === name);

/** B's registers: A's values, element by element and input by input, in B's formats. */
export function carryRegisters(from: Form, to: Form, registers: Registers): Carried {
  const out: Partial<Record<SourceName, bigint>> = {};
  for (const r of to.registers.slice(1)) out[r.name as SourceName] = 0n;
  const inputs: CarriedInput[] = [];
  to.elements.forEach((element, i) => {
    const sourceIndex = Math.min(i, from.elements.length - 1);
    const source = from.elements[sourceIndex]!;
    element.inputs.forEach((place, k) => {
      const operand = place.operand as SourceName;
      const format = FORMATS[place.format];
      const fromPlace = source.inputs[k];
      let carried: { bits: bigint; how: CarryHow };
      let origin: CarriedInput['from'] = null;
      if (fromPlace) {
        const fromFormat = FORMATS[fromPlace.format];
        const register = registers[fromPlace.operand as SourceName] ?? 0n;
        const bits = fieldOf(register, fromPlace.value.hi, fromPlace.value.lo);
        carried = carryBits(bits, fromFormat, format);
        origin = {
          element: sourceIndex,
          input: k,
          operand: fromPlace.operand as SourceName,
          format: fromPlace.format,
          bits: formatHex(bits, fromFormat),
        };
      } else {
        carried = { bits: leastValue(format), how: 'absent' };
      }
      out[operand] = (out[operand] ?? 0n) | (carried.bits << BigInt(place.value.lo));
      inputs.push({
        element: i,
        input: k,
        operand,
        format: place.format,
        from: origin,
        repeated: i >= from.elements.length,
        bits: formatHex(carried.bits, format),
        how: carried.how,
      });
    });
  });
  const wantsRbits = hasRegister(to, 'rbits');
  const hasRbits = hasRegister(from, 'rbits');
  if (wantsRbits) out.rbits = hasRbits ? (registers.rbits ?? 0n) : 0n;
  return {
    registers: out,
    inputs,
    rbits: wantsRbits ? (hasRbits ? 'bits' : 'absent') : null,
  };
}
