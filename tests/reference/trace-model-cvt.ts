/**
 * The trace checker's model of cvt between floating-point formats (9.7.9.21): for one element,
 * every step the trace should have and every field of it, from docs/trace.md, the spec's
 * Semantics block and the decisions (src/engine/decisions.ts), with the cvt reference's own
 * formats, element layout and random-bit tables (cvt-formats.ts, cvt-slowfloat.ts) and the
 * reference's rounding model (trace-round.ts). No engine code.
 *
 *   read          the element's bits from its slot (padding beside a 6-bit value, noted)
 *   .ftz          an .f32 subnormal input becomes a zero of its sign
 *   ue8m0         a negative value loses its sign (decision cvt-ue8m0)
 *   NaN           the destination's canonical NaN (none in e2m1/e2m3/e3m2: .satfinite decides)
 *   ±inf          ±inf; without one: .satfinite decides, or ue8m0's NaN
 *   ±0            ±0; ue8m0: its least value 2^-127
 *   otherwise     the exact value, rounded once in the form's mode (none: exact; .f64: exact),
 *                 then overflow, ue8m0's least value, tininess
 *   then          .ftz on an .f32 result, .satfinite, .sat, .relu, and the write
 */
import type { Form } from '../../src/catalog/instruction.ts';
import { decodeCvt, REF_CVT_FORMATS, type RefCvtFormat } from './cvt-formats.ts';
import {
  exactPattern,
  formatOf,
  measuredNaN,
  rbitsSlot,
  slotsOf,
  type Slot,
} from './cvt-slowfloat.ts';
import { finiteText, floorLog2 } from './exact-text.ts';
import type { ModelOptions } from './model-inputs.ts';
import { abs, compare, isZero, ONE, type Rational } from './rational.ts';
import {
  bitsAt,
  elementRead,
  ieee,
  ptx,
  resultStep,
  type BitRange,
  type ExpectedStep,
  type ModelRegisters,
  type RuleExpectation,
} from './trace-expect.ts';
import { isIntegerMode, isIntegral, roundModel, smallestNormal } from './trace-round.ts';
import { isNegativePattern, viewOf } from './trace-views.ts';

const range = ([hi, lo]: Slot): BitRange => ({ hi, lo });

/** The slot of a value: a 6-bit value sits in the low bits of a byte, tf32 in the top of 32. */
function slotAround(value: BitRange, fmt: RefCvtFormat): BitRange {
  if (fmt.totalBits === 6) return { hi: value.hi + 2, lo: value.lo };
  if (fmt.name === 'tf32') return { hi: 31, lo: 0 };
  return value;
}

const ROUNDING_WORDS: Record<string, RegExp> = {
  rn: /\.rn.*nearest.*even/,
  rna: /\.rna.*ties away/,
  rz: /\.rz.*toward zero/,
  rm: /\.rm.*negative infinity/,
  rp: /\.rp.*positive infinity/,
  rs: /\.rs.*random bits/,
  rni: /\.rni.*integral/,
  rzi: /\.rzi.*integral/,
  rmi: /\.rmi.*integral/,
  rpi: /\.rpi.*integral/,
};

interface CvtElement {
  readonly index: number;
  readonly steps: ExpectedStep[];
  readonly result: bigint;
  readonly dest: RefCvtFormat;
  /** Where the result goes in d. */
  readonly valueBits: BitRange;
}

/** The destination type, and the source type, of a cvt form (`e4m3x2.f32`: e4m3x2 and f32). */
export function cvtTypes(form: Form): { dtype: string; atype: string } {
  const [dtype, atype] = form.type.split('.') as [string, string];
  return { dtype, atype };
}

/** Every element of a cvt form on the registers, a's (the upper bits of d) first. */
export function cvtElements(
  form: Form,
  registers: ModelRegisters,
  options: ModelOptions,
): CvtElement[] {
  const { dtype, atype } = cvtTypes(form);
  const dSlots = slotsOf(dtype);
  const sourcePacked = /x2$/.test(atype);
  const operands = ['a', 'b', 'e', 'f'] as const;
  const section = form.section.section;
  const inputsRule =
    dSlots.length === 1
      ? ptx(section, /convert\(a\)/)
      : sourcePacked
        ? ptx(section, /upper bits of a/, /upper bits of d/)
        : ptx(section, /converted from a/, /upper bits of d/);
  return dSlots.map((slot, i) => {
    const operand = sourcePacked || dSlots.length === 1 ? 'a' : operands[i]!;
    const src = formatOf(atype);
    const value = range(sourcePacked ? slotsOf(atype)[i]! : slotsOf(atype)[0]!);
    const register = registers[operand] ?? 0n;
    const read = elementRead(operand, register, slotAround(value, src), value, (bits) =>
      viewOf(bits, src),
    );
    const random =
      form.rounding === 'rs'
        ? (() => {
            const r = range(rbitsSlot(dtype, i));
            return { value: bitsAt(registers.rbits ?? 0n, r), count: r.hi - r.lo + 1 };
          })()
        : null;
    return {
      ...convertElement(form, i, read, inputsRule, src, formatOf(dtype), random, options),
      valueBits: range(slot),
    };
  });
}

type Pending =
  | { readonly bits: bigint }
  /** Past MAX_NORM: a rounding that overflowed, or an infinity the format has none of. */
  | { readonly beyond: true; readonly negative: boolean; readonly infinite: boolean }
  /** A NaN, in a format without NaN. */
  | { readonly nan: true };

function signBit(fmt: RefCvtFormat): bigint {
  return fmt.signed ? 1n << BigInt(fmt.totalBits - 1) : 0n;
}

function infinityOf(negative: boolean, fmt: RefCvtFormat): bigint {
  return (negative ? signBit(fmt) : 0n) | (fmt.maxPattern + 1n);
}

function maxOf(negative: boolean, fmt: RefCvtFormat): bigint {
  return (negative ? signBit(fmt) : 0n) | fmt.maxPattern;
}

function convertElement(
  form: Form,
  index: number,
  read: Record<string, unknown>,
  inputsRule: RuleExpectation,
  src: RefCvtFormat,
  dst: RefCvtFormat,
  random: { value: bigint; count: number } | null,
  options: ModelOptions,
): { index: number; steps: ExpectedStep[]; result: bigint; dest: RefCvtFormat } {
  const section = form.section.section;
  const has = (m: string) => (form.modifiers as readonly string[]).includes(m);
  const steps: ExpectedStep[] = [];
  const view = (bits: bigint) => viewOf(bits, dst);
  const padding = read.padding as string | null;
  let inBits = BigInt(read.bits as string);
  let v = decodeCvt(inBits, src);
  // .ftz flushes an .f32 subnormal input, but not into .f16 (decision cvt-ftz-f16-source).
  const subnormal =
    src.name === 'f32' &&
    v.kind === 'finite' &&
    !isZero(v.q) &&
    compare(abs(v.q), smallestNormal(src)) < 0;
  const flushesInput = dst.name !== 'f16';
  steps.push({
    kind: 'inputs',
    operands: [read],
    ...(padding !== null && BigInt(padding) !== 0n
      ? { decision: 'cvt-input-padding' }
      : has('ftz') && subnormal && !flushesInput
        ? { decision: 'cvt-ftz-f16-source' }
        : {}),
    rule: inputsRule,
  });
  const unsignedRule = ptx(section, /ue8m0/, /no zero/);

  // .ftz: an .f32 subnormal input is a zero of its sign.
  if (has('ftz') && flushesInput && v.kind === 'finite' && !isZero(v.q)) {
    if (src.name === 'f32' && compare(abs(v.q), smallestNormal(src)) < 0) {
      const after = v.negative ? signBit(src) : 0n;
      steps.push({
        kind: 'flush-input',
        operand: read.operand,
        before: viewOf(inBits, src),
        after: viewOf(after, src),
        rule: ptx(section, /\.ftz.*subnormal inputs/),
      });
      inBits = after;
      v = decodeCvt(inBits, src);
    }
  }

  // ue8m0 has no sign: |x| is converted.
  if (!dst.signed && v.kind !== 'nan' && v.negative) {
    v =
      v.kind === 'inf' ? { kind: 'inf', negative: false } : { ...v, q: abs(v.q), negative: false };
    steps.push({
      kind: 'unsigned',
      what: 'drop-sign',
      result: null,
      decision: 'cvt-ue8m0',
      rule: unsignedRule,
    });
  }

  let pending: Pending;
  /** Tininess of an exact value that was converted (null for a result a rule decided). */
  let tininess: { before: boolean; after: boolean } | null = null;
  const belowNaN = src.name === 'f32' && dst.name === 'tf32' && form.rounding === 'rna';
  if (v.kind === 'nan') {
    // The measured NaN (decision cvt-nan): the input's sign and payload, or the canonical NaN.
    const written = form.rounding !== null && has(form.rounding);
    const nan =
      dst.nanPattern === null
        ? null
        : (measuredNaN(
            src.name,
            dst.name,
            written,
            has('ftz'),
            form.rounding === 'rna',
            inBits,
            src,
            dst,
          ) ?? dst.nanPattern);
    steps.push({
      kind: 'special',
      case: 'nan-operand',
      result: nan === null ? null : view(nan),
      decision: 'cvt-nan',
      rule: ptx(section, /NaN/),
    });
    pending = nan === null ? { nan: true } : { bits: nan };
  } else if (v.kind === 'inf') {
    if (dst.specials === 'ieee') {
      const bits = infinityOf(v.negative, dst);
      steps.push({
        kind: 'special',
        case: 'infinity',
        result: view(bits),
        rule: ptx(section, /infinite/),
      });
      pending = { bits };
    } else if (has('satfinite')) {
      steps.push({
        kind: 'special',
        case: 'infinity',
        result: null,
        rule: ptx(section, /infinite/),
      });
      pending = { beyond: true, negative: v.negative, infinite: true };
    } else {
      // ue8m0, the one format without infinity converted to without .satfinite: NaN.
      const bits = dst.nanPattern!;
      steps.push({
        kind: 'overflow',
        mode: form.rounding ?? 'rn',
        to: 'nan',
        result: view(bits),
        decision: 'cvt-ue8m0',
        rule: ptx(section, /overflow/),
      });
      pending = { bits };
    }
  } else if (isZero(v.q)) {
    if (!dst.signed) {
      steps.push({
        kind: 'unsigned',
        what: 'least-value',
        result: view(0n),
        decision: 'cvt-ue8m0',
        rule: unsignedRule,
      });
      pending = { bits: 0n };
    } else {
      const bits = v.negative ? signBit(dst) : 0n;
      steps.push({ kind: 'special', case: 'zero', result: view(bits), rule: ptx(section, /zero/) });
      pending = { bits };
    }
  } else {
    ({ pending, tininess } = roundExact(
      form,
      read.operand as string,
      v.q,
      src,
      dst,
      random,
      steps,
    ));
  }

  // .ftz on an .f32 result: a value tiny before rounding is judged by the reading.
  if (has('ftz') && dst.name === 'f32' && 'bits' in pending && tininess?.before) {
    const before = pending.bits;
    const tiny = options.ftzTininess === 'after-rounding' ? tininess.after : tininess.before;
    const b = decodeCvt(before, dst);
    const flush = tiny && b.kind === 'finite' && !isZero(b.q);
    const after = flush ? before & signBit(dst) : before;
    steps.push({
      kind: 'flush-result',
      before: view(before),
      after: view(after),
      tininess: options.ftzTininess,
      tinyBeforeRounding: tininess.before,
      tinyAfterRounding: tininess.after,
      decision: 'ftz-after-rounding',
      rule: ptx(section, /\.ftz.*results/),
    });
    pending = { bits: after };
  }

  if (has('satfinite')) {
    let after: bigint;
    let satCase: string;
    let before: bigint | null = null;
    let infinite = false;
    if ('nan' in pending) {
      satCase = 'nan';
      after = dst.maxPattern;
    } else if ('beyond' in pending) {
      satCase = 'beyond-max-norm';
      after = maxOf(pending.negative, dst);
      infinite = pending.infinite;
    } else {
      before = pending.bits;
      const b = decodeCvt(before, dst);
      if (b.kind === 'nan') {
        satCase = 'nan';
        // cvt.rna.satfinite.tf32.f32: the pattern one below the NaN (decision cvt-nan).
        after =
          src.name === 'f32' && dst.name === 'tf32' && form.rounding === 'rna'
            ? before - 1n
            : before;
      } else if (b.kind === 'inf') {
        satCase = 'beyond-max-norm';
        after = maxOf(b.negative, dst);
        infinite = true;
      } else {
        satCase = 'in-range';
        after = before;
      }
    }
    steps.push({
      kind: 'satfinite',
      case: satCase,
      before: before === null ? null : view(before),
      after: view(after),
      ...(satCase === 'nan'
        ? { decision: belowNaN ? 'cvt-nan' : 'canonical-nan' }
        : infinite
          ? { decision: 'cvt-satfinite-infinity' }
          : {}),
      rule: ptx(section, /\.satfinite/, /MAX_NORM/),
    });
    pending = { bits: after };
  }
  if (!('bits' in pending)) throw new Error(`${form.text}: a result the format cannot hold`);
  let bits = pending.bits;
  const isNegativeZero = (b: bigint) => b === signBit(dst) && dst.signed;

  if (has('sat')) {
    const b = decodeCvt(bits, dst);
    const after =
      b.kind === 'nan' || isNegativePattern(bits, dst)
        ? 0n
        : b.kind === 'inf' || compare(b.q, ONE) > 0
          ? exactPattern(ONE, dst)!
          : bits;
    steps.push({
      kind: 'saturate',
      before: view(bits),
      after: view(after),
      ...(isNegativeZero(bits) ? { decision: 'sat-negative-zero' } : {}),
      rule: ptx(section, /\.sat/, /\[0\.0, 1\.0\]/),
    });
    bits = after;
  }
  if (has('relu')) {
    const nan = decodeCvt(bits, dst).kind === 'nan';
    const after = nan ? dst.nanPattern! : isNegativePattern(bits, dst) ? 0n : bits;
    steps.push({
      kind: 'relu',
      before: view(bits),
      after: view(after),
      ...(isNegativeZero(bits)
        ? { decision: 'relu-negative-zero' }
        : nan
          ? { decision: 'canonical-nan' }
          : {}),
      rule: ptx(section, /\.relu/, /negative/),
    });
    bits = after;
  }
  return { index, steps, result: bits, dest: dst };
}

/** The exact value x (nonzero, finite) converted: the exact step, the rounding and what follows. */
function roundExact(
  form: Form,
  /** The register the element's source comes from: the operation reads convert(a), convert(b), … */
  operand: string,
  x: Rational,
  src: RefCvtFormat,
  dst: RefCvtFormat,
  random: { value: bigint; count: number } | null,
  steps: ExpectedStep[],
): { pending: Pending; tininess: { before: boolean; after: boolean } } {
  const section = form.section.section;
  const mode = form.rounding;
  const representable = exactPattern(x, dst) !== null;
  steps.push({
    kind: 'exact',
    expression: `convert(${operand})`,
    value: finiteText(x),
    representable,
    rule: ptx(section, /convert\(a\)/),
  });
  const rounds =
    mode !== null && (isIntegerMode(mode) ? !isIntegral(x) : dst.name !== 'f64' || !representable);
  if (!rounds) {
    const tiny = compare(abs(x), smallestNormal(dst)) < 0;
    return { pending: { bits: exactPattern(x, dst)! }, tininess: { before: tiny, after: tiny } };
  }
  const m = abs(x);
  const r = roundModel(
    x,
    dst,
    mode,
    random === null
      ? undefined
      : {
          ...random,
          // The source's last significand bit at x: its quantum there.
          sourceLsb: Math.max(floorLog2(m), floorLog2(smallestNormal(src))) - src.fractionBits,
        },
  );
  steps.push({
    kind: 'round',
    ...r.fields,
    ...(mode === 'rs'
      ? { decision: r.fields.subnormal || r.tinyBefore ? 'cvt-rs-subnormal' : 'cvt-rs-rbits' }
      : {}),
    rule: ptx(section, ROUNDING_WORDS[mode]!),
  });
  const tininess = { before: r.tinyBefore, after: r.tinyAfter };
  const negative = x.num < 0n;
  if (r.overflow) {
    if ((form.modifiers as readonly string[]).includes('satfinite'))
      return { pending: { beyond: true, negative, infinite: false }, tininess };
    const to = dst.specials === 'ieee' ? (r.away ? 'infinity' : 'max-norm') : 'nan';
    const bits =
      to === 'infinity'
        ? infinityOf(negative, dst)
        : to === 'nan'
          ? dst.nanPattern!
          : maxOf(negative, dst);
    steps.push({
      kind: 'overflow',
      mode,
      to,
      result: viewOf(bits, dst),
      ...(to === 'nan' ? { decision: 'cvt-ue8m0' } : {}),
      rule: ieee('7.4', /overflow/, /largest finite/),
    });
    return { pending: { bits }, tininess };
  }
  if (r.belowLeast) {
    steps.push({
      kind: 'unsigned',
      what: 'least-value',
      result: viewOf(0n, dst),
      decision: 'cvt-ue8m0',
      rule: ptx(section, /ue8m0/, /no zero/),
    });
    return { pending: { bits: 0n }, tininess };
  }
  if (r.tinyBefore)
    steps.push({
      kind: 'tininess',
      result: viewOf(r.result!, dst),
      tinyBeforeRounding: true,
      tinyAfterRounding: r.tinyAfter,
      inexact: r.inexact,
      rule: ieee('7.5', /tiny/, /underflow/),
    });
  return { pending: { bits: r.result! }, tininess };
}

/** The write of one element (tf32: decision cvt-tf32-layout). */
export function cvtResultStep(form: Form, element: CvtElement): ExpectedStep {
  return resultStep(
    form.section.section,
    slotAround(element.valueBits, element.dest),
    element.valueBits,
    viewOf(element.result, element.dest),
    /padding bits are zero/,
    element.dest.name === 'tf32' ? 'cvt-tf32-layout' : undefined,
  );
}

/** The register width of a type: its elements' slots together. */
export function registerBitsOf(type: string): number {
  const fmt = REF_CVT_FORMATS[type.replace(/x[24]$/, '') as keyof typeof REF_CVT_FORMATS];
  const count = /x4$/.test(type) ? 4 : /x2$/.test(type) ? 2 : 1;
  const slot = fmt.name === 'tf32' ? 32 : fmt.totalBits === 6 ? 8 : fmt.totalBits;
  return count * slot;
}
