/**
 * NVIDIA's rules as pure functions over bit patterns of any format, in one place (SoftFloat's
 * specialize.h): the canonical NaN, flushing subnormals and tiny results to zero, what an
 * overflow gives, .satfinite, .sat, .relu, OOB-NaN, the sign of an exact zero, and ue8m0's
 * missing zero. Each rule exists once, here. The pipeline (pipeline.ts) records a step around
 * each call; the fast path calls the same functions, or is checked against them where it
 * specialises.
 *
 * Where the spec leaves a rule open, the function follows a documented decision (decisions.ts),
 * and where a GPU was measured the decision says so.
 */
import type { ElementSpec, Form } from '../catalog/instruction.ts';
import type { Rounding } from '../catalog/modifiers.ts';
import {
  isNaNBits,
  isNegative,
  magnitudeOf,
  maxNormBits,
  withSign,
  type Format,
  type FormatName,
} from './format.ts';
import type { Tininess } from './rounding.ts';

/**
 * The NaN a NaN result is (decisions canonical-nan): the format's canonical NaN. A format
 * without NaN (e2m1, e2m3, e3m2) has none to give: only .satfinite converts to them, and it
 * gives +MAX_NORM instead (see satfinite).
 */
export function canonicalNaN(f: Format): bigint {
  if (f.canonicalNaN === null) throw new Error(`${f.name} has no NaN`);
  return f.canonicalNaN;
}

/** .ftz on an input: "flushes subnormal inputs … to sign-preserving zero". */
export function flushSubnormal(bits: bigint, f: Format): bigint {
  const m = magnitudeOf(bits, f);
  return f.hasSubnormals && m !== 0n && m <= f.manMask
    ? withSign(0n, isNegative(bits, f), f)
    : bits;
}

export type TininessReading = 'after-rounding' | 'before-rounding';

/** Whether a result is tiny under a reading (decision ftz-after-rounding). */
export function isTiny(tininess: Tininess, reading: TininessReading): boolean {
  return reading === 'after-rounding' ? tininess.after : tininess.before;
}

/**
 * .ftz on a result: a tiny result becomes a zero of its sign (decision ftz-after-rounding:
 * tininess after rounding, measured on sm_90). A NaN, an infinity or a zero is never flushed.
 */
export function flushTinyResult(bits: bigint, f: Format, tiny: boolean): bigint {
  if (!tiny) return bits;
  const m = magnitudeOf(bits, f);
  const finiteNonzero = m !== 0n && m <= f.maxBits;
  return finiteNonzero ? withSign(0n, isNegative(bits, f), f) : bits;
}

/**
 * IEEE 754 §7.4: a value rounded past MAX_NORM gives infinity where the rounding went away from
 * zero (round to nearest included), else MAX_NORM. ue8m0 has no infinity: NaN (decision
 * cvt-ue8m0). e4m3 and the 6- and 4-bit formats are only converted to with .satfinite, which
 * settles their overflow instead.
 */
export function overflowResult(
  f: Format,
  negative: boolean,
  awayFromZero: boolean,
): { readonly bits: bigint; readonly to: 'infinity' | 'max-norm' | 'nan' } {
  if (f.infBits === null) {
    if (f.canonicalNaN === null || f.signed) throw new Error(`${f.name} needs .satfinite`);
    return { bits: f.canonicalNaN, to: 'nan' };
  }
  return awayFromZero
    ? { bits: withSign(f.infBits, negative, f), to: 'infinity' }
    : { bits: maxNormBits(f, negative), to: 'max-norm' };
}

/** A value on its way to the destination, where the destination cannot hold it yet. */
export type Unencoded =
  /** Past MAX_NORM (a rounding that overflowed, or an infinity the format has none of). */
  | {
      readonly beyond: true;
      readonly negative: boolean;
      /** It is an input's infinity, not a rounding's overflow (decision cvt-satfinite-infinity). */
      readonly infinite?: boolean;
    }
  /** A NaN, in a format without NaN (e2m1, e2m3, e3m2). */
  | { readonly nan: true };

/**
 * .satfinite: "if the input value is NaN, then the result is NaN in the specified destination
 * format" (+MAX_NORM where it has no NaN); "if the absolute value of input … is greater than
 * MAX_NORM … the result is sign-preserved MAX_NORM" (+MAX_NORM in an unsigned format). An
 * infinity is greater than MAX_NORM (decision cvt-satfinite-infinity). A NaN is kept, except
 * under `nan: 'pattern-below'` (cvtSatfiniteNaN: cvt.rna.satfinite.tf32.f32 as measured on
 * sm_90), where it becomes the pattern one below it.
 */
export function satfinite(
  x: { readonly bits: bigint } | Unencoded,
  f: Format,
  nan: SatfiniteNaN = 'keep',
): { readonly bits: bigint; readonly case: 'nan' | 'beyond-max-norm' | 'in-range' } {
  if ('nan' in x) return { bits: f.canonicalNaN ?? f.maxBits, case: 'nan' };
  if ('beyond' in x) return { bits: maxNormBits(f, x.negative), case: 'beyond-max-norm' };
  if (isNaNBits(x.bits, f)) return { bits: nan === 'keep' ? x.bits : x.bits - 1n, case: 'nan' };
  if (magnitudeOf(x.bits, f) > f.maxBits)
    return { bits: maxNormBits(f, isNegative(x.bits, f)), case: 'beyond-max-norm' };
  return { bits: x.bits, case: 'in-range' };
}

/**
 * .sat: "clamps the result to [0.0, 1.0]. NaN results are flushed to +0.0." Negative values,
 * -0.0 included, become +0.0 (decision sat-negative-zero).
 */
export function saturate(bits: bigint, f: Format): bigint {
  if (isNaNBits(bits, f) || isNegative(bits, f)) return 0n;
  const one = BigInt(f.bias) << BigInt(f.manBits);
  return bits > one ? one : bits;
}

/**
 * .relu: "clamps the result to 0 if negative. NaN results are converted to canonical NaN."
 * -0.0 becomes +0.0 (decision relu-negative-zero).
 */
export function relu(bits: bigint, f: Format): bigint {
  if (isNaNBits(bits, f)) return canonicalNaN(f);
  return isNegative(bits, f) ? 0n : bits;
}

/** Whether a 16-bit element is OOB-NaN (decision oob-nan-pattern): the pattern, either sign. */
export function isOobNaN(bits: bigint, f: Format, pattern: bigint): boolean {
  return magnitudeOf(bits, f) === magnitudeOf(pattern, f);
}

/**
 * .oob: "clamps the result to 0 if either of the operands is OOB NaN", per element. The operands
 * tested are a and b (measured on sm_90: an OOB-NaN addend is an ordinary NaN).
 */
export function oobForcesZero(a: bigint, b: bigint, f: Format, pattern: bigint): boolean {
  return isOobNaN(a, f, pattern) || isOobNaN(b, f, pattern);
}

/**
 * The sign of an exact zero result (IEEE 754 §6.3). A product's zero takes the exclusive or of
 * the factors' signs; a sum's zero is +0 (−0 under .rm) unless both terms are zeros of the same
 * sign, which keep it. Returns true for −0.
 */
export function exactZeroIsNegative(
  zero:
    | { readonly of: 'product'; readonly negative: boolean }
    | {
        readonly of: 'sum';
        readonly bothZeroSameSign: boolean;
        readonly termNegative: boolean;
        readonly mode: Rounding;
      },
): boolean {
  if (zero.of === 'product') return zero.negative;
  if (zero.bothZeroSameSign) return zero.termNegative;
  return zero.mode === 'rm';
}

/**
 * ue8m0 has no zero: a zero, or a value rounded below its least value, converts to the least
 * value 2^-127, pattern 0x00 (decision cvt-ue8m0).
 */
export function leastValueForZero(f: Format): bigint {
  if (f.hasZero) throw new Error(`${f.name} has a zero`);
  return 0n;
}

/**
 * What a NaN input of a cvt gives (decision cvt-nan, measured on sm_90): the destination's
 * canonical NaN, or the input's sign and payload. The payload is the mantissa field aligned at
 * its top bit: shifted up into a wider format, cut to its upper bits in a narrower one.
 *  - canonical:        the destination's canonical NaN (canonicalNaN).
 *  - quiet-payload:    sign and payload kept, the quiet bit (the mantissa's top bit) set.
 *  - copy:             sign and payload kept as they are, the quiet bit too: a signaling NaN
 *                      stays signaling, and one whose payload is cut to zero is an infinity.
 *  - canonical-source: the source format's canonical NaN, then quiet-payload (an .f32 NaN
 *                      under .ftz, converted to .f64).
 */
export type CvtNaNKind = 'canonical' | 'quiet-payload' | 'copy' | 'canonical-source';

/** What .satfinite does to a NaN: keeps it, or takes the pattern one below it. */
export type SatfiniteNaN = 'keep' | 'pattern-below';

/** The facts of a cvt element that the NaN and .ftz rules read. */
export interface CvtFacts {
  readonly source: FormatName;
  readonly dest: FormatName;
  /** The form's rounding modifier as written (null: none, as in cvt.f32.f32 or cvt.f32.bf16). */
  readonly written: Rounding | null;
  readonly ftz: boolean;
}

/** The facts of a cvt element that the NaN and .ftz rules read. */
export function cvtFactsOf(form: Form, element: ElementSpec): CvtFacts {
  const r = form.rounding;
  return {
    source: element.inputs[0]!.format,
    dest: element.dest.format,
    written: r !== null && form.modifiers.includes(r) ? r : null,
    ftz: form.modifiers.includes('ftz'),
  };
}

/**
 * Which NaN a cvt gives, by source, destination and modifiers, as an NVIDIA H200 (sm_90) gave
 * it for every NaN input of every cvt form it runs (hw/captures/sm_90/h200). Forms the capture
 * does not hold (those of sm_100 and the a/f targets) give the canonical NaN.
 */
export function cvtNaNKind(c: CvtFacts): CvtNaNKind {
  const { source, dest, written, ftz } = c;
  if (source === 'f64' || dest === 'f64') {
    // cvt.f64.f64 copies its register; the integer roundings and every other format quiet it.
    if (source === dest) return written === null ? 'copy' : 'quiet-payload';
    return source === 'f32' && ftz ? 'canonical-source' : 'quiet-payload';
  }
  if (source === 'f32' && dest === 'f32') return written === null && !ftz ? 'copy' : 'canonical';
  if (source === 'bf16' && dest === 'f32') return ftz ? 'canonical' : 'copy';
  if (source === 'f32' && dest === 'tf32' && written === 'rna') return 'copy';
  return 'canonical';
}

/**
 * What .satfinite does to a NaN of a cvt's destination: cvt.rna.satfinite.tf32.f32 takes the
 * pattern one below it (so 0x7F800001…0x7F801FFF, whose payload cut to 10 bits is zero, give
 * +MAX_NORM 0x7F7FE000 as +∞ does, and 0x7F802000…0x7F803FFF give +∞), as the H200 did; every
 * other form keeps it.
 */
export function cvtSatfiniteNaN(c: CvtFacts): SatfiniteNaN {
  return c.source === 'f32' && c.dest === 'tf32' && c.written === 'rna' ? 'pattern-below' : 'keep';
}

/** The NaN result of a NaN input `bits` of format `from`, in format `to`, by kind. */
export function cvtNaNResult(bits: bigint, from: Format, to: Format, kind: CvtNaNKind): bigint {
  if (kind === 'canonical') return canonicalNaN(to);
  const input = kind === 'canonical-source' ? canonicalNaN(from) : bits;
  const shift = to.manBits - from.manBits;
  const payload = input & from.manMask;
  const aligned = (shift >= 0 ? payload << BigInt(shift) : payload >> BigInt(-shift)) & to.manMask;
  const quiet = kind === 'copy' ? 0n : 1n << BigInt(to.manBits - 1);
  return withSign(to.expMask | aligned | quiet, isNegative(input, from), to);
}

/**
 * Whether .ftz flushes a cvt's subnormal .f32 input or result ("flushes single-precision
 * subnormal inputs and results"). The .f32 input of a conversion to .f16 is not flushed: the
 * H200 gave the same result with and without .ftz for every one of the 2^32 inputs of
 * cvt.{rn,rz,rm,rp}{.sat}.ftz.f16.f32 (cvt.rp.ftz.f16.f32 0x00000001 is 0x0001), while it
 * flushes the input of a conversion to .bf16 (decision cvt-ftz-f16-source).
 */
export function cvtFtzFlushes(operand: 'input' | 'result', f: FormatName, c: CvtFacts): boolean {
  if (f !== 'f32') return false;
  return !(operand === 'input' && c.dest === 'f16');
}
