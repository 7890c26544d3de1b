/**
 * The fast path of cvt between floating-point formats: semantics/convert.ts and the pipeline's
 * rules (pipeline.ts) on doubles. Every value of every source format is a double, so the exact
 * value is `s` and roundPair (round-pair.ts, err = 0) rounds it once, in the destination's
 * rounding geometry (below). NaN, infinity and zero do not round: their results come from the
 * pipeline itself, once per form and element, and are looked up. After the rounding come the
 * pipeline's rules in its order — the overflow rule, .ftz on an .f32 result, .satfinite, .sat,
 * .relu — from numeric-rules.ts (nvidia-rules.ts on numbers, checked against it on every pattern).
 *
 * tests/cvt-vs-reference*.test.ts check every form against the independent reference (every
 * 16-bit input, and the boundaries and random values of the wider ones) and, on a stride of the
 * same inputs, the pipeline; convert-nearest.test.ts checks the binary32 kernels against the
 * pipeline at every rounding point.
 */
import type { ElementSpec, Form, RegisterName, SourceName } from '../../catalog/instruction.ts';
import { isIntegerRounding, type AnyModifier, type Rounding } from '../../catalog/modifiers.ts';
import { dyadicOfDouble } from '../double.ts';
import { FORMATS } from '../format.ts';
import {
  cvtFactsOf,
  cvtFtzFlushes,
  cvtNaNKind,
  cvtNaNResult,
  cvtSatfiniteNaN,
  leastValueForZero,
  satfinite as satfiniteBits,
  saturate as saturateBits,
} from '../nvidia-rules.ts';
import type { EngineOptions } from '../options.ts';
import { evaluate as evaluatePipeline } from '../pipeline.ts';
import { roundDyadic } from '../rounding.ts';
import {
  binary32Rounding,
  nearestBf16OfBinary32,
  nearestF16OfBinary32,
} from './nearest-binary32.ts';
import { NUMERIC_FORMATS, valueTable, type NumericFormat } from './numeric-format.ts';
import {
  flushSubnormal,
  flushTinyResult,
  overflowResult,
  relu,
  satfiniteBeyond,
  saturate,
} from './numeric-rules.ts';
import type {
  BatchOut,
  BatchRegisters,
  BigintRegisters,
  FastBatch,
  OperationPath,
} from './path.ts';
import {
  modeCode,
  pairIsTiny,
  roundPair,
  type PairRounding,
  type RoundingGeometry,
} from './round-pair.ts';

const F32 = NUMERIC_FORMATS.f32;
const f32Bits = new Uint32Array(1);
const f32Value = new Float32Array(f32Bits.buffer);
const f64Value = new Float64Array(1);
const f64Words = new Uint32Array(f64Value.buffer);
/** roundPair needs |s| >= 2^-1000: any smaller magnitude rounds as this one does. */
const TINY = 2 ** -1000;
const MIN_NORMAL_F32 = 2 ** F32.emin;

const POW2_OFFSET = 1100;
/** 2^k for k in -1100 … 1099: a scaling by a power of two without Math.pow. */
const POW2 = Float64Array.from({ length: 2 * POW2_OFFSET }, (_, i) => 2 ** (i - POW2_OFFSET));

/** floor(log2 |x|) of a normal double, from its exponent field. */
function exponentOf(x: number): number {
  f64Value[0] = x;
  return ((f64Words[1]! >>> 20) & 0x7ff) - 1023;
}

/** The double whose bits are the 64-bit register `bits`. */
function doubleOfBits(bits: bigint): number {
  f64Words[0] = Number(bits & 0xffffffffn);
  f64Words[1] = Number(bits >> 32n);
  return f64Value[0]!;
}

/** The bits of a double (NaN as the pattern the double holds). */
function bitsOfDouble(x: number): bigint {
  f64Value[0] = x;
  return (BigInt(f64Words[1]!) << 32n) | BigInt(f64Words[0]!);
}

// ---------------------------------------------------------------------------------------------
// Rounding geometries: a format as roundPair needs it, an encoding in which "one more" is "the
// next value up" with room for the pattern past MAX_NORM (rounding.ts counts positions for the
// same reason).

/**
 * The format as roundPair sees it: e2m3, e3m2 and e2m1 get a sign bit above the pattern past
 * MAX_NORM (their own sign bit sits right above MAX_NORM); ue8m0, which has no zero and no
 * subnormals, is the format of powers of two 2^(p-128) with 0 below them (position p here is
 * pattern p - 1 in ue8m0). The others are their own geometry (e4m3's pattern past MAX_NORM is its
 * NaN, 0x7f, which the overflow rule replaces).
 */
function roundingGeometry(f: NumericFormat): RoundingGeometry {
  if (!f.hasSubnormals)
    return {
      emin: f.emin,
      emax: f.emax,
      bias: 1 - f.emin,
      manBits: f.manBits,
      manMask: f.manMask,
      maxBits: f.maxBits + 1,
      infBits: f.maxBits + 2,
      signMask: 2 ** (f.width + 1),
    };
  if (f.canonicalNaN === null) return { ...f, signMask: 2 ** f.width };
  return f;
}

/**
 * The integers a format holds, as a geometry: quantum 1 below 2^manBits (every integer there is a
 * value of the format), so rounding a non-integer magnitude (below 2^manBits) to it rounds to an
 * integer, at most 2^manBits. Its patterns are the integers themselves. Only magnitudes are
 * rounded to it.
 */
function integerGeometry(manBits: number): RoundingGeometry {
  const top = 2 ** (manBits + 1);
  return {
    emin: manBits,
    emax: manBits,
    bias: 1 - manBits,
    manBits,
    manMask: 2 ** manBits - 1,
    maxBits: top - 1,
    infBits: top,
    signMask: 2 * top,
  };
}

/**
 * An integer rounding (.rni .rzi .rmi .rpi) as a rounding of the magnitude: toward −∞ is away
 * from zero for a negative value, toward +∞ is toward zero for it.
 */
function integerMagnitudeMode(mode: Rounding, negative: boolean): PairRounding {
  switch (mode) {
    case 'rni':
      return 'rn';
    case 'rmi':
      return negative ? 'rp' : 'rz';
    case 'rpi':
      return negative ? 'rz' : 'rp';
    default:
      return 'rz';
  }
}

// ---------------------------------------------------------------------------------------------
// One element

/** A source element's value from its register word (the register's double for an .f64 source). */
function readerOf(element: ElementSpec, ftz: boolean): (word: number) => number {
  const place = element.inputs[0]!;
  if (place.format === 'f64') return (x) => x;
  const f = NUMERIC_FORMATS[place.format];
  if (f.width > 16) {
    // .f32 (the only wide source besides .f64): .ftz flushes a subnormal input where the rule
    // says so (not into .f16: nvidia-rules cvtFtzFlushes).
    return ftz
      ? (w) => {
          f32Bits[0] = flushSubnormal(w, F32);
          return f32Value[0]!;
        }
      : (w) => {
          f32Bits[0] = w;
          return f32Value[0]!;
        };
  }
  const table = valueTable(f);
  const lo = place.value.lo;
  const mask = 2 ** (place.value.hi - lo + 1) - 1;
  return (w) => table[(w >>> lo) & mask]!;
}

interface Specials {
  readonly nan: number;
  readonly plusInf: number;
  readonly minusInf: number;
  readonly plusZero: number;
  readonly minusZero: number;
}

/**
 * The element's result for NaN, ±infinity and ±0 (in its destination's bits, or for an .f64
 * destination the double whose bits they are), by the pipeline: registers holding the special
 * value in the element's source (the others zero) are evaluated once each.
 */
function specialsOf(form: Form, position: number, options: EngineOptions): Specials {
  const element = form.elements[position]!;
  const place = element.inputs[0]!;
  const f = FORMATS[place.format];
  const dest = element.dest.format;
  const run = (bits: bigint | null): number => {
    if (bits === null) return 0;
    const registers: Partial<Record<SourceName, bigint>> = {};
    for (const r of form.registers.slice(1)) registers[r.name as SourceName] = 0n;
    registers[place.operand as SourceName] = bits << BigInt(place.value.lo);
    const hex = evaluatePipeline(form, registers, options).elements[position]!.result;
    return dest === 'f64' ? doubleOfBits(BigInt(hex)) : Number(BigInt(hex));
  };
  // An unsigned source (ue8m0) has no negative patterns: its "-0" and "-inf" never occur.
  return {
    nan: run(f.canonicalNaN),
    plusInf: run(f.infBits),
    minusInf: run(f.infBits === null ? null : f.infBits | f.signMask),
    plusZero: run(0n),
    minusZero: run(f.signMask),
  };
}

/** One element's conversion, and what the nearest kernels need of its rules. */
interface ElementConverter {
  /** `(v, random) → d bits` of any value (for an .f64 destination, the double whose bits they are). */
  readonly convert: (v: number, random: number) => number;
  /**
   * The rules after rounding to nearest (.rn): `(gbits, s) → d`, where gbits is the rounding of
   * the finite nonzero value s in the destination's geometry; null unless the form rounds .rn.
   */
  readonly afterNearest: ((gbits: number, s: number) => number) | null;
  /** afterNearest leaves every rounded result as it is (no .satfinite, .sat, .relu, .ftz). */
  readonly nearestStands: boolean;
}

function converterOf(form: Form, position: number, options: EngineOptions): ElementConverter {
  const element = form.elements[position]!;
  const specials = specialsOf(form, position, options);
  const dst = element.dest.format;
  const has = (m: AnyModifier) => form.modifiers.includes(m);
  const sat = has('sat');
  const mode = form.rounding;
  const special = (v: number): number =>
    v !== v
      ? specials.nan
      : v === Infinity
        ? specials.plusInf
        : v === -Infinity
          ? specials.minusInf
          : Object.is(v, -0)
            ? specials.minusZero
            : specials.plusZero;
  return dst === 'f64'
    ? wideConverter(mode, sat, special)
    : narrowConverter(form, element, NUMERIC_FORMATS[dst], options, special);
}

/**
 * To .f64: exact (from .f16/.bf16/.f32), or an integer of an .f64 (.rni … on .f64.f64): up to 53
 * bits, past what roundPair packs into a double, so the one rounding (rounding.ts) does it on the
 * exact value. .sat is nvidia-rules saturate on the result's bits.
 */
function wideConverter(
  mode: Rounding | null,
  sat: boolean,
  special: (v: number) => number,
): ElementConverter {
  const F64 = FORMATS.f64;
  const integer = mode !== null && isIntegerRounding(mode) ? mode : null;
  const convert = (v: number): number => {
    if (v !== v || v === 0 || v === Infinity || v === -Infinity) return special(v);
    let x = v;
    if (integer && Math.floor(x) !== x)
      x = doubleOfBits(roundDyadic(dyadicOfDouble(x), F64, integer).bits!);
    return sat ? doubleOfBits(saturateBits(bitsOfDouble(x), F64)) : x;
  };
  return { convert, afterNearest: null, nearestStands: false };
}

/** To a format of at most 32 bits. */
function narrowConverter(
  form: Form,
  element: ElementSpec,
  f: NumericFormat,
  options: EngineOptions,
  special: (v: number) => number,
): ElementConverter {
  const has = (m: AnyModifier) => form.modifiers.includes(m);
  const sat = has('sat');
  const reluOn = has('relu');
  const satfinite = has('satfinite');
  const mode = form.rounding;
  const integer = mode !== null && isIntegerRounding(mode);
  const g = integer ? integerGeometry(f.manBits) : roundingGeometry(f);
  // The mode roundPair rounds in: .rna and .rs choose between toward zero and away themselves.
  const base: PairRounding | null =
    mode === null || integer ? null : mode === 'rna' || mode === 'rs' ? 'rz' : mode;
  const unsignedLeast = !f.hasSubnormals;
  // .ftz flushes single-precision results only (nvidia-rules cvtFtzFlushes).
  const ftz = has('ftz') && cvtFtzFlushes('result', element.dest.format, cvtFactsOf(form, element));
  const reading = options.ftzTininess;
  const k = element.rbits ? element.rbits.hi - element.rbits.lo + 1 : 0;
  const twoK = 2 ** k;
  /** The least value of a format without zero (ue8m0): nvidia-rules leastValueForZero. */
  const least = unsignedLeast ? Number(leastValueForZero(f.format)) : 0;

  /** Geometry bits → destination bits, with the overflow rule (or .satfinite) past MAX_NORM. */
  const toDestination = (gbits: number): number => {
    const negative = gbits >= g.signMask;
    const mag = negative ? gbits - g.signMask : gbits;
    // roundPair lands past MAX_NORM only when it rounded away from zero (else on MAX_NORM).
    if (mag >= g.infBits)
      return satfinite ? satfiniteBeyond(f, negative) : overflowResult(f, negative, true);
    if (unsignedLeast) return mag === 0 ? least : mag - 1;
    return negative ? mag + f.signMask : mag;
  };

  /** An integer (at most 2^manBits, or an integral value) in the destination: exact. */
  const encodeInteger = (n: number): number => (n === 0 ? 0 : roundPair(n, 0, f, modeCode('rz')));

  /** .ftz (an .f32 destination), .sat and .relu of a rounded result d of the value s. */
  const finish = (d0: number, s: number): number => {
    let d = d0;
    if (ftz) {
      // Tininess as the pipeline judges it: no rounding (or an integer one) leaves s as it is.
      const tiny =
        base === null ? Math.abs(s) < MIN_NORMAL_F32 : pairIsTiny(s, 0, f, modeCode(base), reading);
      d = flushTinyResult(d, f, tiny);
    }
    if (sat) d = saturate(d, f);
    if (reluOn) d = relu(d, f);
    return d;
  };

  const convert = (v: number, random: number): number => {
    if (v !== v || v === 0 || v === Infinity || v === -Infinity) return special(v);
    // An unsigned destination has no sign: a negative value converts as its magnitude.
    const s0 = !f.signed && v < 0 ? -v : v;
    const s = s0 < TINY && s0 > -TINY ? (s0 < 0 ? -TINY / 2 : TINY / 2) : s0;
    const negative = s < 0;
    let d: number;
    if (mode === null) {
      d = roundPair(s, 0, f, modeCode('rz')); // exact: the value is one of the destination's
    } else if (integer) {
      // The magnitude rounds to an integer (none needed when it is one); then the sign.
      const m = negative ? -s : s;
      const n =
        Math.floor(m) === m
          ? m
          : roundPair(m, 0, g, modeCode(integerMagnitudeMode(mode, negative)));
      d = (negative ? f.signMask : 0) + encodeInteger(n);
    } else {
      let gbits: number;
      if (mode === 'rna' || mode === 'rs') {
        // Where |s| lies between the multiples of the result's quantum 2^q (toward zero).
        const mag = negative ? -s : s;
        const q = Math.max(exponentOf(mag), g.emin) - g.manBits;
        const scaled = mag * POW2[POW2_OFFSET - q]!;
        const fraction = scaled - Math.floor(scaled);
        // .rna: away from zero from half a quantum on; .rs: when the random bits added to the
        // top k discarded bits carry out.
        const away =
          mode === 'rna' ? fraction >= 0.5 : Math.floor(fraction * twoK) + random >= twoK;
        gbits = roundPair(s, 0, g, modeCode(away ? (negative ? 'rm' : 'rp') : 'rz'));
      } else {
        gbits = roundPair(s, 0, g, modeCode(base!));
      }
      d = toDestination(gbits);
    }
    return finish(d, s);
  };
  return {
    convert,
    // As convert does for .rn: the destination's overflow rule, then finish.
    afterNearest: mode === 'rn' ? (gbits, s) => finish(toDestination(gbits), s) : null,
    // toDestination keeps every encoding of an IEEE destination without .satfinite (infinity
    // included), and finish does nothing without .ftz, .sat and .relu.
    nearestStands: !satfinite && f.hasInfinity && !ftz && !sat && !reluOn,
  };
}

interface CompiledElement extends ElementConverter {
  readonly element: ElementSpec;
  readonly operand: SourceName;
  readonly read: (word: number) => number;
  /** A NaN input's result from its bits, where it depends on them (nanOfElement). */
  readonly nan: ((bits: bigint) => bigint) | null;
  /** The element's value bits in a register word of at most 32 bits. */
  readonly field: (word: number) => bigint;
  readonly rbitsShift: number;
  readonly rbitsMask: number;
  /** 2^(the destination's lowest bit): the element's place in d. */
  readonly scale: number;
}

/**
 * The element's result for a NaN input where it depends on the input's bits (nvidia-rules
 * cvtNaNKind other than canonical, and no .sat or .relu, which make every NaN one result):
 * `bits` (the source element's value bits) → the destination's bits, through cvtNaNResult and
 * .satfinite's NaN rule, as the pipeline applies them. Null where specials.nan stands for all.
 */
function nanOfElement(form: Form, element: ElementSpec): ((bits: bigint) => bigint) | null {
  const facts = cvtFactsOf(form, element);
  const kind = cvtNaNKind(facts);
  const has = (m: AnyModifier) => form.modifiers.includes(m);
  const dest = FORMATS[element.dest.format];
  if (kind === 'canonical' || has('sat') || has('relu') || dest.canonicalNaN === null) return null;
  const source = FORMATS[element.inputs[0]!.format];
  const nanRule = cvtSatfiniteNaN(facts);
  return has('satfinite')
    ? (bits) => satfiniteBits({ bits: cvtNaNResult(bits, source, dest, kind) }, dest, nanRule).bits
    : (bits) => cvtNaNResult(bits, source, dest, kind);
}

/** The value bits of an element of at most 32 bits in its register word. */
function fieldOf(element: ElementSpec): (word: number) => bigint {
  const { lo, hi } = element.inputs[0]!.value;
  const span = 2 ** (hi - lo + 1);
  return (word) => BigInt(Math.floor((word >>> 0) / 2 ** lo) % span);
}

/** The 64-bit patterns of a register array of doubles, as words (low word first). */
function wordsOfDoubles(x: ArrayLike<number>, count: number): Uint32Array | null {
  return x instanceof Float64Array ? new Uint32Array(x.buffer, x.byteOffset, count * 2) : null;
}

const bitsAt = (words: Uint32Array, i: number): bigint =>
  (BigInt(words[2 * i + 1]!) << 32n) | BigInt(words[2 * i]!);

function compile(form: Form, options: EngineOptions): CompiledElement[] {
  return form.elements.map((element, position) => ({
    element,
    operand: element.inputs[0]!.operand as SourceName,
    read: readerOf(
      element,
      form.modifiers.includes('ftz') &&
        cvtFtzFlushes('input', element.inputs[0]!.format, cvtFactsOf(form, element)),
    ),
    nan: nanOfElement(form, element),
    field: fieldOf(element),
    ...converterOf(form, position, options),
    rbitsShift: element.rbits?.lo ?? 0,
    rbitsMask: element.rbits ? 2 ** (element.rbits.hi - element.rbits.lo + 1) - 1 : 0,
    scale: 2 ** element.dest.value.lo,
  }));
}

// ---------------------------------------------------------------------------------------------
// .rn from .f32 into .f16 and .bf16: the roundings through binary32 (nearest-binary32.ts), which
// round a binary32 value once, with table lookups and masks instead of branches. A chunk of
// elements is rounded in one loop; the NaN, infinity and zero inputs, whose results are cvt's
// rules rather than rounding's, are listed and converted by the element's converter after it, and
// where the form has rules after rounding (.satfinite, .relu, .sat) the rounded elements go
// through them (afterNearest, the converter's own).

/** The workspace of the roundings through binary32, a constant of this module. */
const ROUNDING = binary32Rounding();
/** Elements a nearest kernel rounds at a time (arithmetic.ts's chunk). */
const NEAREST_CHUNK = 4096;
/** The elements a nearest kernel left to the converter (a workspace: kernels run one at a time). */
const NEAREST_PENDING = new Int32Array(NEAREST_CHUNK);
/** One element's results of a chunk, before they are placed in d (forms of several elements). */
const NEAREST_OUT = new Uint32Array(NEAREST_CHUNK);

/** 1 for a NaN, infinity or zero binary32 encoding, else 0 (without a branch). */
function isSpecialBinary32(word: number): number {
  const abs = word & 0x7fffffff;
  return ((abs + 0x800000) >>> 31) | ((abs - 1) >>> 31);
}

/**
 * A nearest kernel: the rounding of the binary32 encodings words[from, to) into
 * target[i - offset]; lists the NaN, infinity and zero inputs in NEAREST_PENDING, and returns
 * how many.
 */
type NearestKernel = (
  words: ArrayLike<number>,
  from: number,
  to: number,
  target: { [index: number]: number },
  offset: number,
) => number;

function nearestF16Chunk(
  words: ArrayLike<number>,
  from: number,
  to: number,
  target: { [index: number]: number },
  offset: number,
): number {
  let np = 0;
  for (let i = from; i < to; i++) {
    const d = nearestF16OfBinary32(words[i]!, 0, 0, ROUNDING, 0);
    target[i - offset] = d & 0xffff;
    // Zero, subnormal, infinity and NaN inputs are listed (subnormals need not be, but the
    // flag that covers them is free; they are rare).
    NEAREST_PENDING[np] = i;
    np += d >>> 16;
  }
  return np;
}

function nearestBf16Chunk(
  words: ArrayLike<number>,
  from: number,
  to: number,
  target: { [index: number]: number },
  offset: number,
): number {
  let np = 0;
  for (let i = from; i < to; i++) {
    const w = words[i]!;
    target[i - offset] = nearestBf16OfBinary32(w, 0, 1, ROUNDING);
    NEAREST_PENDING[np] = i;
    np += isSpecialBinary32(w);
  }
  return np;
}

/** The nearest kernel of an element, or null where it has none (see above). */
function nearestKernelOf(form: Form, e: CompiledElement): NearestKernel | null {
  const ftz = form.modifiers.includes('ftz');
  if (
    e.element.inputs[0]!.format !== 'f32' ||
    e.afterNearest === null ||
    e.rbitsMask !== 0 ||
    ftz ||
    e.nan !== null
  )
    return null;
  const dst = e.element.dest.format;
  return dst === 'f16' ? nearestF16Chunk : dst === 'bf16' ? nearestBf16Chunk : null;
}

interface NearestPart extends CompiledElement {
  readonly kernel: NearestKernel;
}

/**
 * One element's results of words[from, to) into target[i - offset]: the kernel, then the rules
 * after rounding where the form has any, then the inputs it listed through the converter.
 */
function nearestElement(
  p: NearestPart,
  words: ArrayLike<number>,
  from: number,
  to: number,
  target: { [index: number]: number },
  offset: number,
): void {
  const pending = p.kernel(words, from, to, target, offset);
  if (!p.nearestStands) {
    for (let i = from; i < to; i++) {
      f32Bits[0] = words[i]!;
      target[i - offset] = p.afterNearest!(target[i - offset]!, f32Value[0]!);
    }
  }
  for (let k = 0; k < pending; k++) {
    const i = NEAREST_PENDING[k]!;
    target[i - offset] = p.convert(p.read(words[i]!), 0);
  }
}

/** The batch of a form whose every element has a nearest kernel. */
function nearestBatch(parts: readonly NearestPart[]): FastBatch {
  const single = parts.length === 1 && parts[0]!.scale === 1 ? parts[0]! : null;
  return (registers, d, count) => {
    for (let from = 0; from < count; from += NEAREST_CHUNK) {
      const to = Math.min(from + NEAREST_CHUNK, count);
      if (single) {
        nearestElement(single, registers[single.operand]!, from, to, d, 0);
        continue;
      }
      // Each element into the workspace, then into its place in d.
      for (let j = 0; j < parts.length; j++) {
        const p = parts[j]!;
        nearestElement(p, registers[p.operand]!, from, to, NEAREST_OUT, from);
        const scale = p.scale;
        if (j === 0) for (let i = from; i < to; i++) d[i] = NEAREST_OUT[i - from]! * scale;
        else for (let i = from; i < to; i++) d[i] = d[i]! + NEAREST_OUT[i - from]! * scale;
      }
    }
  };
}

/** Whether the form's batch converts through the nearest kernels (see above). */
export function hasNearestKernel(form: Form, options: EngineOptions): boolean {
  const elements = compile(form, options);
  return form.registers[0]!.bits !== 64 && elements.every((e) => nearestKernelOf(form, e) !== null);
}

/** The element's random bits (.rs) from an rbits word. */
function randomOf(p: CompiledElement, rbits: number): number {
  return p.rbitsMask === 0 ? 0 : Math.floor(rbits / 2 ** p.rbitsShift) % (p.rbitsMask + 1);
}

/**
 * A batch of a form whose d is 64 bits: one element, written as its double; a NaN result as its
 * bits (the input's, through the NaN rule, or the canonical NaN).
 */
function wideBatch(p: CompiledElement): FastBatch {
  const canonical = FORMATS.f64.canonicalNaN!;
  return (registers, out, count) => {
    const src = registers[p.operand]!;
    const srcWords = wordsOfDoubles(src, count);
    const words = new Uint32Array(out.buffer, out.byteOffset, count * 2);
    for (let i = 0; i < count; i++) {
      const v = p.read(src[i]!);
      const x = p.convert(v, 0);
      if (x !== x) {
        const bits =
          v !== v && p.nan !== null
            ? p.nan(srcWords ? bitsAt(srcWords, i) : p.field(src[i]!))
            : canonical;
        words[2 * i] = Number(bits & 0xffffffffn);
        words[2 * i + 1] = Number(bits >> 32n);
      } else out[i] = x;
    }
  };
}

/** The batch of any other form: each element by its converter, placed in d. */
function elementBatch(parts: readonly CompiledElement[]): FastBatch {
  const n = parts.length;
  return (registers: BatchRegisters, out: BatchOut, count: number) => {
    const rbits = registers.rbits;
    const sources = parts.map((p) => registers[p.operand]!);
    const sourceWords = sources.map((src) => wordsOfDoubles(src, count));
    for (let i = 0; i < count; i++) {
      let d = 0;
      const r = rbits ? rbits[i]! : 0;
      for (let j = 0; j < n; j++) {
        const p = parts[j]!;
        const w = sources[j]![i]!;
        const v = p.read(w);
        if (v !== v && p.nan !== null) {
          const srcWords = sourceWords[j];
          d += Number(p.nan(srcWords ? bitsAt(srcWords, i) : p.field(w))) * p.scale;
        } else d += p.convert(v, randomOf(p, r)) * p.scale;
      }
      out[i] = d;
    }
  };
}

const WORD_REGISTERS: readonly RegisterName[] = ['a', 'b', 'c'];

/** cvt of one form. */
export function convertPath(form: Form, options: EngineOptions): OperationPath {
  const parts = compile(form, options);
  const wide = form.registers[0]!.bits === 64;
  const kernels = parts.map((p) => nearestKernelOf(form, p));
  const batch = wide
    ? wideBatch(parts[0]!)
    : kernels.every((k) => k !== null)
      ? nearestBatch(parts.map((p, j) => ({ ...p, kernel: kernels[j]! })))
      : elementBatch(parts);
  const evaluate = (registers: BigintRegisters): bigint => {
    const rbits = Number((registers.rbits ?? 0n) & 0xffffffffn);
    let d = 0n;
    for (const p of parts) {
      const reg = registers[p.operand] ?? 0n;
      const wideSource = p.element.inputs[0]!.format === 'f64';
      const word = wideSource ? doubleOfBits(reg) : Number(reg & 0xffffffffn);
      const v = p.read(word);
      const nan = v !== v && p.nan !== null ? p.nan(wideSource ? reg : p.field(word)) : null;
      const x = nan === null ? p.convert(v, randomOf(p, rbits)) : 0;
      if (wide) return nan ?? (x !== x ? FORMATS.f64.canonicalNaN! : bitsOfDouble(x));
      d |= (nan ?? BigInt(x)) << BigInt(p.element.dest.value.lo);
    }
    return d;
  };
  // Registers a, b of at most 32 bits: d as a number, straight from the words.
  const narrow = form.registers.every(
    (r) => r.bits <= 32 && (r.name === 'd' || WORD_REGISTERS.includes(r.name)),
  );
  const words = narrow
    ? (a: number, b: number): number => {
        let d = 0;
        for (const p of parts) {
          const w = (p.operand === 'a' ? a : b) >>> 0;
          const v = p.read(w);
          d += (v !== v && p.nan !== null ? Number(p.nan(p.field(w))) : p.convert(v, 0)) * p.scale;
        }
        return d;
      }
    : null;
  return { words, batch, evaluate };
}
