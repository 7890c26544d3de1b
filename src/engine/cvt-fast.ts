/**
 * The fast path of cvt: untraced conversion for sweeps and batch, with the rules of ops/cvt.ts
 * (tests/cvt-fast-vs-traced.test.ts checks them bit for bit: every 16-bit input, and the
 * boundaries and random values of the wider ones). Every value of every cvt source format is a
 * double, so the exact value is `s` and the fast pair rounding (round.ts roundPair, err = 0)
 * rounds it once, in the destination's rounding geometry (cvt-round.ts).
 *
 * NaN, infinity and zero do not round: their results come from the traced evaluation, once per
 * form and element, and are looked up.
 */
import {
  findCvtForm,
  type CvtElement,
  type CvtForm,
  type CvtSourceName,
} from '../catalog/cvt-forms.ts';
import type { ElementFormatName } from '../catalog/cvt-types.ts';
import type { RoundingMode } from '../catalog/types.ts';
import {
  integerGeometry,
  integerMagnitudeMode,
  roundForCvt,
  roundingGeometry,
} from './cvt-round.ts';
import { dyadicOfDouble } from './double.ts';
import { F64 } from './element-format.ts';
import { FLOAT_FORMATS, valueTable, type AnyFloatFormat } from './formats.ts';
import { evaluateCvt } from './ops/cvt.ts';
import { resolveOptions, type EngineOptions } from './options.ts';
import {
  binary32Rounding,
  modeCode,
  nearestBf16OfBinary32,
  nearestF16OfBinary32,
  pairIsTiny,
  roundPair,
} from './round.ts';

/** Registers of a batch: 32 bits or fewer in a Uint32Array, .f64 as the bits of a Float64Array. */
export type CvtRegisters = Partial<Record<CvtSourceName, Uint32Array | Float64Array>>;

/**
 * out[i] = d of the registers' element i, for i < count: a Uint32Array, or for a 64-bit d a
 * Float64Array whose bits are the register (NaN written as the canonical pattern).
 */
export type CvtFastBatch = (
  registers: CvtRegisters,
  out: Uint32Array | Float64Array,
  count: number,
) => void;

const f32Bits = new Uint32Array(1);
const f32Value = new Float32Array(f32Bits.buffer);
const f64Value = new Float64Array(1);
const f64Words = new Uint32Array(f64Value.buffer);
/** roundPair needs |s| >= 2^-1000: any smaller magnitude rounds as this one does. */
const TINY = 2 ** -1000;
const MIN_NORMAL_F32 = 2 ** -126;

const POW2_OFFSET = 1100;
/** 2^k for k in -1100 … 1099: a scaling by a power of two without Math.pow. */
const POW2 = Float64Array.from({ length: 2 * POW2_OFFSET }, (_, i) => 2 ** (i - POW2_OFFSET));

/** floor(log2 |x|) of a normal double, from its exponent field. */
function exponentOf(x: number): number {
  f64Value[0] = x;
  return ((f64Words[1]! >>> 20) & 0x7ff) - 1023;
}

/** The value of an element from its register (a 32-bit word, or a double for .f64). */
function readerOf(element: CvtElement, ftz: boolean): (word: number) => number {
  const fmt = element.source.format;
  if (fmt === 'f64') return (x) => x;
  if (fmt === 'f32') {
    const read = (w: number) => {
      f32Bits[0] = w;
      return f32Value[0]!;
    };
    // .ftz on an .f32 input: a subnormal becomes a zero of the same sign.
    return ftz
      ? (w) => {
          const v = read(w);
          return v > -MIN_NORMAL_F32 && v < MIN_NORMAL_F32 ? v * 0 : v;
        }
      : read;
  }
  const table = valueTable(FLOAT_FORMATS[fmt as Exclude<ElementFormatName, 'f32' | 'f64'>]);
  const lo = element.source.value.lo;
  const mask = 2 ** (element.source.value.hi - lo + 1) - 1;
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
 * The destination of NaN, ±infinity and ±0 in this element, by the traced rules: a register
 * holding the special value in the element's source (other sources zero) is evaluated once.
 */
function specialsOf(form: CvtForm, element: CvtElement, options: EngineOptions): Specials {
  const src = element.source;
  const f = src.format === 'f64' ? null : FLOAT_FORMATS[src.format];
  const nanBits = f ? (f.nan === 'none' ? null : BigInt(f.expMask + f.manMask)) : F64.canonicalNaN;
  const infBits = f ? (f.hasInfinity ? BigInt(f.infBits) : null) : F64.infBits;
  // An unsigned source (ue8m0) has no negative patterns: its "-0" and "-inf" never occur.
  const signBit = f ? (f.signed ? BigInt(f.signMask) : 0n) : F64.signMask;
  const run = (bits: bigint | null): number => {
    if (bits === null) return 0;
    const input: Record<string, bigint> = { rbits: 0n };
    for (const op of form.operands.slice(1)) input[op.name] = 0n;
    input[src.operand] = bits << BigInt(src.value.lo);
    const element2 = evaluateCvt(form, input as never, options).elements[element.index]!;
    const hex = element2.result;
    if (element.dest.format !== 'f64') return Number(BigInt(hex));
    f64Words[0] = Number(BigInt(hex) & 0xffffffffn);
    f64Words[1] = Number(BigInt(hex) >> 32n);
    return f64Value[0]!;
  };
  return {
    nan: run(nanBits),
    plusInf: run(infBits),
    minusInf: run(infBits === null ? null : infBits | signBit),
    plusZero: run(0n),
    minusZero: run(signBit),
  };
}

/** One element's conversion, and what the nearest kernels need of its rules. */
interface ElementConverter {
  /**
   * `(v, random) → d bits` of any value (for an .f64 destination, the double whose bits they
   * are).
   */
  readonly convert: (v: number, random: number) => number;
  /**
   * The rules after rounding to nearest (.rn): `(gbits, s) → d`, where gbits is the rounding of
   * the finite nonzero value s in the destination's geometry; null unless the form rounds .rn.
   */
  readonly afterNearest: ((gbits: number, s: number) => number) | null;
  /** afterNearest leaves every rounded result as it is (no .satfinite, .sat, .relu, .ftz). */
  readonly nearestStands: boolean;
}

/** One element's conversion of a value (see ElementConverter). */
function converterOf(form: CvtForm, element: CvtElement, options: EngineOptions): ElementConverter {
  const specials = specialsOf(form, element, options);
  const dst = element.dest.format;
  const has = (m: string) => (form.modifiers as readonly string[]).includes(m);
  const sat = has('sat');
  const relu = has('relu');
  const satfinite = has('satfinite');
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

  if (dst === 'f64') {
    // Exact (from f16/bf16/f32), or an integer of an f64 (.rni … on .f64).
    const imode =
      mode === 'rni' || mode === 'rzi' || mode === 'rmi' || mode === 'rpi' ? mode : null;
    const convert = (v: number): number => {
      if (v !== v || v === 0 || v === Infinity || v === -Infinity) return special(v);
      let x = v;
      if (imode && Math.floor(x) !== x) {
        // An integer of an .f64 needs up to 53 bits, past what roundPair packs into a double:
        // the one rounding routine does it, on the exact value (rare: .rni … .f64.f64 only).
        const r = roundForCvt(dyadicOfDouble(x), 'f64', imode);
        x = Number(r.value!.mant) * 2 ** r.value!.exp * (r.value!.negative ? -1 : 1);
      }
      if (sat) x = x > 1 ? 1 : x > 0 ? x : 0;
      return x;
    };
    return { convert, afterNearest: null, nearestStands: false };
  }

  const f = FLOAT_FORMATS[dst];
  const integer = mode === 'rni' || mode === 'rzi' || mode === 'rmi' || mode === 'rpi';
  const g: AnyFloatFormat = integer
    ? integerGeometry(dst as 'f16' | 'bf16' | 'f32')
    : roundingGeometry(dst);
  const base: RoundingMode | null =
    mode === null
      ? null
      : integer
        ? 'rn' // unused: integer roundings go through integerMagnitudeMode
        : mode === 'rna' || mode === 'rs'
          ? 'rz'
          : mode;
  const ue8m0 = dst === 'ue8m0';
  const ftz = has('ftz') && dst === 'f32';
  const reading = options.ftzTininess;
  const oneBits = f.bias * 2 ** f.manBits;
  const k = element.rbits ? element.rbits.hi - element.rbits.lo + 1 : 0;
  const twoK = 2 ** k;

  /** Geometry bits → destination bits, with the overflow rule past MAX_NORM. */
  const toDestination = (gbits: number): number => {
    const negative = gbits >= g.signMask;
    const mag = negative ? gbits - g.signMask : gbits;
    if (mag >= g.infBits) {
      if (satfinite) return ue8m0 || !negative ? f.maxBits : f.maxBits + f.signMask;
      return ue8m0 ? f.canonicalNaN : gbits; // IEEE formats: this is ±infinity
    }
    if (ue8m0) return mag === 0 ? 0 : mag - 1;
    return negative ? mag + f.signMask : mag;
  };

  /** An integer (at most 2^manBits, or an integral value) in the destination: exact. */
  const encodeInteger = (n: number): number => (n === 0 ? 0 : roundPair(n, 0, f, modeCode('rz')));

  /** .ftz (an .f32 destination), .sat and .relu of a rounded result d of the value s. */
  const finish = (d0: number, s: number, negative: boolean): number => {
    let d = d0;
    if (ftz && (d & 0x7fffffff) !== 0 && (d & 0x7fffffff) < 0x7f800000) {
      const tiny =
        base === null || integer
          ? Math.abs(s) < MIN_NORMAL_F32
          : pairIsTiny(s, 0, f, modeCode(base), reading);
      if (tiny) d = negative ? f.signMask : 0;
    }
    // .sat (f16, f32): negative and -0 → +0, above one → one (NaN never reaches here).
    if (sat) d = d >= f.signMask ? 0 : d > oneBits ? oneBits : d;
    // .relu: negative and -0 → +0.
    if (relu && d >= f.signMask) d = 0;
    return d;
  };

  const convert = (v: number, random: number): number => {
    if (v !== v || v === 0 || v === Infinity || v === -Infinity) return special(v);
    const s0 = ue8m0 && v < 0 ? -v : v;
    const s = s0 < TINY && s0 > -TINY ? (s0 < 0 ? -TINY / 2 : TINY / 2) : s0;
    const negative = s < 0;
    let d: number;
    if (base === null) {
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
        gbits = roundPair(s, 0, g, modeCode(base));
      }
      d = toDestination(gbits);
    }
    return finish(d, s, negative);
  };
  return {
    convert,
    // As convert does for .rn: the destination's overflow rule, then finish.
    afterNearest: mode === 'rn' ? (gbits, s) => finish(toDestination(gbits), s, s < 0) : null,
    // toDestination keeps every encoding of an IEEE destination without .satfinite (infinity
    // included), and finish does nothing without .ftz, .sat and .relu.
    nearestStands: !satfinite && !ue8m0 && f.nan === 'exponent-all-ones' && !ftz && !sat && !relu,
  };
}

interface CompiledElement extends ElementConverter {
  readonly element: CvtElement;
  readonly read: (word: number) => number;
  readonly rbitsShift: number;
  readonly rbitsMask: number;
}

interface Compiled {
  readonly form: CvtForm;
  readonly elements: readonly CompiledElement[];
}

function compile(formOrText: CvtForm | string, options?: Partial<EngineOptions>): Compiled {
  const form = typeof formOrText === 'string' ? findCvtForm(formOrText) : formOrText;
  if (!form) throw new Error(`not a catalog cvt form: ${String(formOrText)}`);
  const opts = resolveOptions(options);
  const ftz = (form.modifiers as readonly string[]).includes('ftz');
  return {
    form,
    elements: form.elements.map((element) => ({
      element,
      read: readerOf(element, ftz),
      ...converterOf(form, element, opts),
      rbitsShift: element.rbits?.lo ?? 0,
      rbitsMask: element.rbits ? 2 ** (element.rbits.hi - element.rbits.lo + 1) - 1 : 0,
    })),
  };
}

// .rn from .f32 into .f16 and .bf16: the roundings through binary32 (round.ts, "Round to nearest
// through binary32"), which round a binary32 value once, with table lookups and masks instead of
// branches. A chunk of elements is rounded in one loop; the NaN, infinity and zero inputs, whose
// results are cvt's rules rather than rounding's, are listed and converted by the element's
// converter after it, and where the form has rules after rounding (.satfinite, .relu, .sat) the
// rounded elements go through them (afterNearest, the converter's own).

/** The workspace of the roundings through binary32, a constant of this module (see round.ts). */
const ROUNDING = binary32Rounding();
/** Elements a nearest kernel rounds at a time (fast.ts's chunk). */
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
  words: Uint32Array,
  from: number,
  to: number,
  target: Uint32Array,
  offset: number,
) => number;

function nearestF16Chunk(
  words: Uint32Array,
  from: number,
  to: number,
  target: Uint32Array,
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
  words: Uint32Array,
  from: number,
  to: number,
  target: Uint32Array,
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
function nearestKernelOf(form: CvtForm, e: CompiledElement): NearestKernel | null {
  const ftz = (form.modifiers as readonly string[]).includes('ftz');
  if (e.element.source.format !== 'f32' || e.afterNearest === null || e.rbitsMask !== 0 || ftz)
    return null;
  const dst = e.element.dest.format;
  return dst === 'f16' ? nearestF16Chunk : dst === 'bf16' ? nearestBf16Chunk : null;
}

interface NearestPart extends CompiledElement {
  readonly operand: CvtSourceName;
  readonly scale: number;
  readonly kernel: NearestKernel;
}

/**
 * One element's results of words[from, to) into target[i - offset]: the kernel, then the rules
 * after rounding where the form has any, then the inputs it listed through the converter.
 */
function nearestElement(
  p: NearestPart,
  words: Uint32Array,
  from: number,
  to: number,
  target: Uint32Array,
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

/** compileCvtFastBatch for a form whose every element has a nearest kernel. */
function nearestBatch(parts: readonly NearestPart[]): CvtFastBatch {
  const single = parts.length === 1 && parts[0]!.scale === 1 ? parts[0]! : null;
  return (registers, out, count) => {
    const d = out as Uint32Array;
    for (let from = 0; from < count; from += NEAREST_CHUNK) {
      const to = Math.min(from + NEAREST_CHUNK, count);
      if (single) {
        nearestElement(single, registers[single.operand] as Uint32Array, from, to, d, 0);
        continue;
      }
      // Each element into the workspace, then into its place in d.
      for (let j = 0; j < parts.length; j++) {
        const p = parts[j]!;
        nearestElement(p, registers[p.operand] as Uint32Array, from, to, NEAREST_OUT, from);
        const scale = p.scale;
        if (j === 0) for (let i = from; i < to; i++) d[i] = NEAREST_OUT[i - from]! * scale;
        else for (let i = from; i < to; i++) d[i] = d[i]! + NEAREST_OUT[i - from]! * scale;
      }
    }
  };
}

/** Whether compileCvtFastBatch converts the form through the nearest kernels (see above). */
export function hasNearestKernel(formOrText: CvtForm | string): boolean {
  const { form, elements } = compile(formOrText);
  return form.operands[0]!.bits !== 64 && elements.every((e) => nearestKernelOf(form, e) !== null);
}

export function compileCvtFastBatch(
  formOrText: CvtForm | string,
  options?: Partial<EngineOptions>,
): CvtFastBatch {
  const { form, elements } = compile(formOrText, options);
  const wide = form.operands[0]!.bits === 64;
  const parts = elements.map((e) => ({
    ...e,
    operand: e.element.source.operand as CvtSourceName,
    scale: 2 ** e.element.dest.value.lo,
  }));
  const kernels = parts.map((p) => nearestKernelOf(form, p));
  if (!wide && kernels.every((k) => k !== null))
    return nearestBatch(parts.map((p, j) => ({ ...p, kernel: kernels[j]! })));
  return (registers, out, count) => {
    const rbits = registers.rbits;
    if (wide) {
      // A 64-bit d holds one element: its double, NaN written as the canonical pattern.
      const p = parts[0]!;
      const src = registers[p.operand]!;
      const words = new Uint32Array(out.buffer, out.byteOffset, count * 2);
      for (let i = 0; i < count; i++) {
        const x = p.convert(p.read(src[i]!), 0);
        if (x !== x) {
          words[2 * i] = 0xffffffff;
          words[2 * i + 1] = 0x7fffffff;
        } else out[i] = x;
      }
      return;
    }
    const n = parts.length;
    const sources = parts.map((p) => registers[p.operand]!);
    for (let i = 0; i < count; i++) {
      let d = 0;
      const r = rbits ? rbits[i]! : 0;
      for (let j = 0; j < n; j++) {
        const p = parts[j]!;
        const random =
          p.rbitsMask === 0 ? 0 : Math.floor(r / 2 ** p.rbitsShift) % (p.rbitsMask + 1);
        d += p.convert(p.read(sources[j]![i]!), random) * p.scale;
      }
      out[i] = d;
    }
  };
}

/** One conversion of bigint registers (as evaluateCvt takes them): d as a bigint. */
export function compileCvtFast(
  formOrText: CvtForm | string,
  options?: Partial<EngineOptions>,
): (input: { readonly [K in CvtSourceName]?: bigint }) => bigint {
  const { form, elements } = compile(formOrText, options);
  const wide = form.operands[0]!.bits === 64;
  return (input) => {
    const rbits = Number(input.rbits ?? 0n);
    let d = 0n;
    for (const p of elements) {
      const reg = input[p.element.source.operand as CvtSourceName] ?? 0n;
      let word: number;
      if (p.element.source.format === 'f64') {
        f64Words[0] = Number(reg & 0xffffffffn);
        f64Words[1] = Number(reg >> 32n);
        word = f64Value[0]!;
      } else word = Number(reg & 0xffffffffn);
      const random = Math.floor(rbits / 2 ** p.rbitsShift) % (p.rbitsMask + 1);
      const x = p.convert(p.read(word), random);
      if (wide) {
        if (x !== x) return F64.canonicalNaN;
        f64Value[0] = x;
        return (BigInt(f64Words[1]!) << 32n) | BigInt(f64Words[0]!);
      }
      d |= BigInt(x) << BigInt(p.element.dest.value.lo);
    }
    return d;
  };
}
