/**
 * The what-if, as the reference sees it, written from the comparison's stated rules (decisions
 * compare-carry, compare-ulp and compare-exact in src/engine/decisions.ts) with the
 * reference's own formats (cvt-formats.ts) and instructions (slowfloat.ts, cvt-slowfloat.ts). It
 * shares only the catalog's form records (where each element sits) with the engine.
 *
 *   refNearest   the value B reads: the nearest pattern by binary search over the value order
 *   refUlp       the unit: the gap above |x| in the value order (past MAX_NORM as if it went on)
 *   refCarry     B's registers: element i of B from element min(i, last) of A, input by input
 *   refExact     A's exact value for add, sub, mul, fma and cvt (null for the other operations)
 */
import type { Form, Place } from '../../src/catalog/instruction.ts';
import { refCvtEvaluate, type RefCvtRegisters } from './cvt-slowfloat.ts';
import {
  decodeCvt,
  floorIndex,
  pastMax,
  patternAt,
  REF_CVT_FORMATS,
  valueAt,
  type RefCvtFormat,
  type RefCvtFormatName,
  type RefCvtValue,
} from './cvt-formats.ts';
import { abs, add, compare, div, mul, pow2, rational, sub, type Rational } from './rational.ts';
import { refEvaluate } from './slowfloat.ts';

export type RefRegisters = Partial<Record<'a' | 'b' | 'c' | 'e' | 'f' | 'rbits', bigint>>;

export function refFormat(name: string): RefCvtFormat {
  const fmt = REF_CVT_FORMATS[name as RefCvtFormatName];
  if (!fmt) throw new Error(`the reference has no format ${name}`);
  return fmt;
}

const mask = (n: number) => (1n << BigInt(n)) - 1n;

/** The bits of a place, from its register. */
export function refRead(registers: RefRegisters, place: Place): bigint {
  const r = registers[place.operand as keyof RefRegisters] ?? 0n;
  return (r >> BigInt(place.value.lo)) & mask(place.value.hi - place.value.lo + 1);
}

function signBit(fmt: RefCvtFormat): bigint {
  return fmt.signed ? 1n << BigInt(fmt.totalBits - 1) : 0n;
}

/**
 * The nearest pattern of `fmt` to a value: itself where it is one; ties to the even pattern;
 * past the midpoint above MAX_NORM, infinity where the format has one, else MAX_NORM; a NaN the
 * canonical NaN, +0 where there is none; below the least value of an unsigned format (negative
 * values, zero in ue8m0), the least value.
 */
export function refNearest(v: RefCvtValue, fmt: RefCvtFormat): bigint {
  const sign = signBit(fmt);
  if (v.kind === 'nan') return fmt.nanPattern ?? 0n;
  const overflow = (negative: boolean) =>
    (negative ? sign : 0n) |
    (fmt.specials === 'ieee'
      ? ((1n << BigInt(fmt.exponentBits)) - 1n) << BigInt(fmt.fractionBits)
      : fmt.maxPattern);
  if (!fmt.signed && v.negative) return 0n;
  if (v.kind === 'inf') return overflow(v.negative);
  if (fmt.specials === 'ue8m0' && compare(v.q, pow2(-127)) <= 0) return 0n;
  if (compare(v.q, rational(0n)) === 0) return v.negative ? sign : 0n;
  const max = valueAt(fmt.maxPattern, fmt);
  const half = div(add(max, pastMax(fmt)), rational(2n));
  if (compare(abs(v.q), half) >= 0) return overflow(v.negative);
  const lo = floorIndex(v.q, fmt);
  if (compare(valueAt(lo, fmt), v.q) === 0 || lo === fmt.maxPattern) return patternAt(lo, fmt);
  const hi = lo + 1n;
  const c = compare(sub(v.q, valueAt(lo, fmt)), sub(valueAt(hi, fmt), v.q));
  const even = (patternAt(lo, fmt) & 1n) === 0n ? lo : hi;
  const index = c < 0 ? lo : c > 0 ? hi : even;
  // A value that rounds to zero keeps its sign.
  return index === 0n && v.negative ? sign : patternAt(index, fmt);
}

/** The gap above |x| in the value order of `fmt`: one ulp there. */
export function refUlp(x: Rational, fmt: RefCvtFormat): Rational {
  const m = abs(x);
  const i = floorIndex(m, fmt);
  return i === fmt.maxPattern
    ? sub(pastMax(fmt), valueAt(i, fmt))
    : sub(valueAt(i + 1n, fmt), valueAt(i, fmt));
}

/** The reference's d for any catalog form. */
export function refEvaluateForm(form: Form, registers: RefRegisters): bigint {
  if (form.family === 'convert')
    return refCvtEvaluate(form.text, { a: 0n, ...registers } as RefCvtRegisters);
  const n = (x: bigint | undefined) => Number(x ?? 0n);
  return BigInt(refEvaluate(form.text, n(registers.a), n(registers.b), n(registers.c)));
}

/** Element i's destination bits in d. */
export function refElement(form: Form, d: bigint, i: number): bigint {
  const dest = form.elements[i]!.dest;
  return (d >> BigInt(dest.value.lo)) & mask(dest.value.hi - dest.value.lo + 1);
}

/** B's registers, carried from A's (see the top). */
export function refCarry(a: Form, b: Form, registers: RefRegisters): RefRegisters {
  const out: RefRegisters = {};
  for (const r of b.registers.slice(1)) out[r.name as keyof RefRegisters] = 0n;
  b.elements.forEach((element, i) => {
    const source = a.elements[Math.min(i, a.elements.length - 1)]!;
    element.inputs.forEach((place, k) => {
      const from = source.inputs[k];
      const to = refFormat(place.format);
      let bits = 0n;
      if (from) {
        const raw = refRead(registers, from);
        bits =
          from.format === place.format
            ? raw
            : refNearest(decodeCvt(raw, refFormat(from.format)), to);
      }
      const name = place.operand as keyof RefRegisters;
      out[name] = (out[name] ?? 0n) | (bits << BigInt(place.value.lo));
    });
  });
  if (b.registers.some((r) => r.name === 'rbits'))
    out.rbits = a.registers.some((r) => r.name === 'rbits') ? (registers.rbits ?? 0n) : 0n;
  return out;
}

/** A finite value of a decoded pattern (zero included), or null. */
function finite(v: RefCvtValue): Rational | null {
  return v.kind === 'finite' ? v.q : null;
}

/**
 * The value an input has after .ftz, where the form flushes that format's subnormals: cvt flushes
 * an .f32 input, except into .f16 (decision cvt-ftz-f16-source, measured on an H200).
 */
function flushed(form: Form, place: Place, registers: RefRegisters): RefCvtValue {
  const fmt = refFormat(place.format);
  const v = decodeCvt(refRead(registers, place), fmt);
  const cvtFlushes = place.format === 'f32' && form.elements[0]!.dest.format !== 'f16';
  const flushes = form.modifiers.includes('ftz') && (form.family !== 'convert' || cvtFlushes);
  if (!flushes || v.kind !== 'finite') return v;
  const minNormal = pow2(2 - 2 ** (fmt.exponentBits - 1));
  return compare(abs(v.q), minNormal) < 0
    ? { kind: 'finite', q: rational(0n), negative: v.negative }
    : v;
}

/**
 * A's exact value for element i: the sum, difference, product or a × b + c of the inputs as read
 * (after .ftz), or a conversion's source value; null for the other operations and where an input
 * is NaN or infinite.
 */
export function refExact(form: Form, registers: RefRegisters, i: number): Rational | null {
  const inputs = form.elements[i]!.inputs.map((p) => finite(flushed(form, p, registers)));
  if (inputs.some((x) => x === null)) return null;
  const [a, b, c] = inputs as Rational[];
  switch (form.operation) {
    case 'convert':
      return a!;
    case 'add':
      return add(a!, b!);
    case 'sub':
      return sub(a!, b!);
    case 'mul':
      return mul(a!, b!);
    case 'fma':
      return add(mul(a!, b!), c!);
    default:
      return null;
  }
}

/** The finite value of a destination element, or null (NaN, infinity). */
export function refValue(bits: bigint, format: string): Rational | null {
  return finite(decodeCvt(bits, refFormat(format)));
}
