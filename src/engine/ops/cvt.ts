/**
 * cvt between floating-point formats — PTX ISA 9.7.9.21.
 *
 *   if (inst type is .f16x2 or .bf16x2)            { d[31:16] = convert(a);  d[15:0] = convert(b); }
 *   else if (dst is .e5m2x2, .e4m3x2 or .ue8m0x2)   { d[15:8]  = convert(a);  d[7:0]  = convert(b); }
 *   else if (dst is .e2m1x2)                        { d[7:4]   = convert(a);  d[3:0]  = convert(b); }
 *   else if (dst is .e2m3x2 or .e3m2x2)             { d[15:14] = 0; d[13:8] = convert(a);
 *                                                     d[7:6]   = 0; d[5:0]  = convert(b); }
 *   else if (dst is .e2m1x4)                        { d[15:12] = convert(a); … d[3:0] = convert(f); }
 *   else if (dst is .e4m3x4 or .e5m2x4)             { d[31:24] = convert(a); … d[7:0] = convert(f); }
 *   else if (dst is .e2m3x4 or .e3m2x4)             { d[31:30] = 0; d[29:24] = convert(a); … }
 *   else                                            { d = convert(a); }
 *
 * (The catalog form's `elements` hold that layout, element by element; packed sources are read
 * the same way, the upper bits of a first.) convert(x), per element:
 *
 *   .ftz and x is an .f32 subnormal          → x = ±0 (not into .f16: nvidia-rules cvtFtzFlushes)
 *   x is NaN                                 → NaN: canonical, or x's sign and payload
 *                                              (decision cvt-nan, nvidia-rules cvtNaNKind)
 *   x is ±inf                                → ±inf (ue8m0: NaN; e4m3 and the 6-/4-bit formats
 *                                              have none and always take .satfinite)
 *   x is ±0                                  → ±0 (ue8m0 has no zero: 2^-127)
 *   otherwise: the exact value x, rounded once to the destination in the form's mode
 *              (.rn .rz .rm .rp .rna .rs, or to an integer with .rni .rzi .rmi .rpi);
 *              past MAX_NORM: ±inf or ±MAX_NORM by the rounding direction (ue8m0: NaN)
 *   then, in this order (decision cvt-modifier-order):
 *   .ftz      a tiny .f32 result → ±0
 *   .satfinite  NaN → NaN (e2m1/e2m3/e3m2: +MAX_NORM); beyond MAX_NORM → ±MAX_NORM
 *   .sat      [0.0, 1.0]; NaN → +0.0
 *   .relu     negative → +0.0; NaN → canonical NaN
 */
import type { CvtElement, CvtForm, CvtSourceName } from '../../catalog/cvt-forms.ts';
import type { CvtRounding, ElementFormatName } from '../../catalog/cvt-types.ts';
import { findCvtForm } from '../../catalog/cvt-forms.ts';
import type { CvtStep, ElementView } from '../cvt-trace.ts';
import { geometryValue, roundForCvt, type CvtRounded } from '../cvt-round.ts';
import {
  flushSubnormalInput,
  flushTinyResult,
  hasInfinity,
  hasNaN,
  isNegativeValue,
  overflowResult,
  relu,
  satfinite,
  saturate,
} from '../cvt-rules.ts';
import type { DecisionId } from '../decisions.ts';
import {
  classifyElement,
  decodeElement,
  elementWidth,
  encodeElement,
  exactValueOfElement,
  floatFormatOf,
  hexOf,
  isRepresentable,
} from '../element-format.ts';
import { exactValueOfDyadic, isZero } from '../exact.ts';
import { FORMATS, isNaNBits } from '../format.ts';
import {
  cvtFtzFlushes,
  flushSubnormal,
  cvtNaNKind,
  cvtNaNResult,
  cvtSatfiniteNaN,
  satfinite as satfiniteBits,
  type CvtFacts,
} from '../nvidia-rules.ts';
import { resolveOptions, type EngineOptions } from '../options.ts';
import { isTiny } from '../specialize.ts';
import type { RuleRef, Step } from '../trace.ts';
import type { Value } from '../values.ts';

/** The source registers of a cvt, as unsigned integers of their widths. */
export interface CvtInput {
  readonly a: bigint;
  readonly b?: bigint;
  readonly e?: bigint;
  readonly f?: bigint;
  readonly rbits?: bigint;
}

export interface CvtElementTrace {
  /** 0 is the first line of the Semantics block (the upper bits of d, from a). */
  readonly index: number;
  readonly steps: readonly Step[];
  /** The element's value bits in the destination format (hex). */
  readonly result: string;
}

export interface CvtEvalResult {
  readonly form: string;
  /** The destination register, hex of its full width. */
  readonly d: string;
  readonly dBits: number;
  readonly dType: string;
  readonly elements: readonly CvtElementTrace[];
  readonly decisions: readonly DecisionId[];
}

export class CvtInputError extends Error {
  readonly code = 'operand';
}

const SECTION = '9.7.9.21';
const rule = (text: string): RuleRef => ({ source: 'ptx', section: SECTION, text });

const RULES = {
  source: 'd = convert(a)',
  packedSource:
    'each input value of a is converted; the value from the upper bits of a is stored in the upper bits of d',
  sourceOperands:
    'each input is converted; the value converted from a is stored in the upper bits of d',
  ftzInput: '.ftz flushes single-precision subnormal inputs and results to sign-preserving zero',
  nan: 'NaN input: NaN in the destination format',
  inf: 'an infinite input is infinite in the destination format',
  zero: 'a zero converts to a zero of the same sign',
  exact: 'convert(a): the exact value of the source',
  rn: '.rn: rounding to nearest, with ties to even',
  rna: '.rna: rounding to nearest, with ties away from zero',
  rz: '.rz: rounding toward zero',
  rm: '.rm: rounding toward negative infinity',
  rp: '.rp: rounding toward positive infinity',
  rs: '.rs: rounded toward zero or away from zero by the carry out of the integer addition of the supplied random bits (rbits) to the discarded bits of mantissa',
  integer: 'round to an integral value, stored in floating-point format',
  overflow: 'IEEE 754 §7.4: overflow gives ∞ or the largest finite value, by rounding direction',
  unsigned: 'ue8m0: an 8-bit unsigned format, 2^(e-127), no zero; NaN 0xff',
  satfinite:
    '.satfinite: NaN input gives NaN in the destination format (positive MAX_NORM where it has none); beyond MAX_NORM gives sign-preserved MAX_NORM (positive MAX_NORM for .ue8m0x2)',
  sat: '.sat limits the result to the range [0.0, 1.0]. NaN results are flushed to positive zero.',
  relu: '.relu clamps the result to 0 if negative. NaN results are converted to canonical NaN.',
  pack: 'the converted value is stored in its bits of d; padding bits are zero',
} as const;

function roundingRule(mode: CvtRounding): string {
  return mode === 'rni' || mode === 'rzi' || mode === 'rmi' || mode === 'rpi'
    ? `.${mode}: ${RULES.integer}`
    : RULES[mode];
}

const mask = (bits: number) => (1n << BigInt(bits)) - 1n;
const field = (reg: bigint, hi: number, lo: number) => (reg >> BigInt(lo)) & mask(hi - lo + 1);

/** A message when the registers do not fit the form's operands, else null. */
export function cvtOperandProblem(form: CvtForm, input: CvtInput): string | null {
  for (const op of form.operands.slice(1)) {
    const v = input[op.name as CvtSourceName];
    if (v === undefined) return `${form.text} needs operand ${op.name}`;
    if (typeof v !== 'bigint' || v < 0n || v > mask(op.bits))
      return `operand ${op.name} must be a ${op.bits}-bit pattern; got ${String(v)}`;
  }
  return null;
}

function view(bits: bigint, format: ElementFormatName): ElementView {
  return {
    format,
    bits: hexOf(bits, elementWidth(format)),
    class: classifyElement(bits, format),
    value: exactValueOfElement(bits, format),
  };
}

function valueView(v: Value, format: ElementFormatName): ElementView {
  return view(encodeElement(v, format), format);
}

interface ElementContext {
  readonly form: CvtForm;
  readonly options: EngineOptions;
  readonly has: (m: string) => boolean;
}

/** One `d[..] = convert(x)`: the steps and the destination bits of the element's value. */
function convertElement(
  ctx: ElementContext,
  element: CvtElement,
  input: CvtInput,
): { steps: Step[]; bits: bigint } {
  const { form, options, has } = ctx;
  const steps: Step[] = [];
  const push = (step: CvtStep, text: string, decision?: DecisionId) =>
    steps.push({ ...step, rule: rule(text), ...(decision ? { decision } : {}) } as Step);
  const src = element.source;
  const dst = element.dest.format;
  const reg = input[src.operand as CvtSourceName] ?? 0n;
  const slotBits = field(reg, src.slot.hi, src.slot.lo);
  const inBits = field(reg, src.value.hi, src.value.lo);
  const paddingWidth = src.slot.hi - src.slot.lo - (src.value.hi - src.value.lo);
  const padding =
    paddingWidth > 0
      ? (slotBits >> BigInt(src.value.hi - src.slot.lo + 1)) & mask(paddingWidth)
      : null;
  const written = form.rounding !== null && has(form.rounding) ? form.rounding : null;
  const facts: CvtFacts = { source: src.format, dest: dst, written, ftz: has('ftz') };
  // A subnormal .f32 input that .ftz leaves as it is (into .f16: decision cvt-ftz-f16-source).
  const keptSubnormal =
    has('ftz') &&
    src.format === 'f32' &&
    !cvtFtzFlushes('input', src.format, facts) &&
    flushSubnormal(inBits, FORMATS.f32) !== inBits;
  push(
    {
      kind: 'cvt-source',
      operand: src.operand,
      slot: src.slot,
      valueBits: src.value,
      padding: padding === null ? null : hexOf(padding, paddingWidth),
      input: view(inBits, src.format),
    },
    form.elements.length === 1
      ? RULES.source
      : /x2$/.test(form.atype)
        ? RULES.packedSource
        : RULES.sourceOperands,
    padding !== null && padding !== 0n
      ? 'cvt-input-padding'
      : keptSubnormal
        ? 'cvt-ftz-f16-source'
        : undefined,
  );

  /**
   * A NaN's bits in the destination where they are not its canonical NaN's (the values here
   * carry no payload): nvidia-rules cvtNaNResult, as the pipeline gives it.
   */
  let nanBits: bigint | null = null;
  /** Takes NaN bits the rules gave: kept while a NaN, else (an infinity, MAX_NORM) the value. */
  const takeNaNBits = (bits: bigint) => {
    if (isNaNBits(bits, FORMATS[dst])) nanBits = bits;
    else {
      nanBits = null;
      v = decodeElement(bits, dst);
    }
  };
  const shown = (x: Value): ElementView =>
    x.kind === 'nan' && nanBits !== null ? view(nanBits, dst) : valueView(x, dst);

  let v = decodeElement(inBits, src.format);
  if (has('ftz') && cvtFtzFlushes('input', src.format, facts)) {
    const flushed = flushSubnormalInput(v);
    if (flushed !== v)
      push(
        { kind: 'cvt-flush-input', before: view(inBits, 'f32'), after: valueView(flushed, 'f32') },
        RULES.ftzInput,
      );
    v = flushed;
  }

  const mode = form.rounding;
  // Past MAX_NORM: an infinite input the destination cannot hold, or a rounding that overflowed.
  let beyondMax = false;
  let infiniteInput = false;
  let tiny = { before: false, after: false };
  const unsigned = dst === 'ue8m0';
  /** ue8m0 has no zero: a zero value (or result) becomes its least value, 2^-127. */
  const leastUe8m0 = (): Value => {
    push(
      { kind: 'cvt-unsigned', what: 'least-value', result: valueView(LEAST_UE8M0, dst) },
      RULES.unsigned,
      'cvt-ue8m0',
    );
    return LEAST_UE8M0;
  };
  if (unsigned && v.kind !== 'nan' && isNegativeValue(v)) {
    v =
      v.kind === 'inf'
        ? { kind: 'inf', negative: false }
        : { kind: 'finite', x: { ...v.x, negative: false } };
    push({ kind: 'cvt-unsigned', what: 'drop-sign', result: null }, RULES.unsigned, 'cvt-ue8m0');
  }
  if (v.kind === 'nan') {
    if (hasNaN(dst))
      takeNaNBits(cvtNaNResult(inBits, FORMATS[src.format], FORMATS[dst], cvtNaNKind(facts)));
    push(
      { kind: 'cvt-special', case: 'nan', result: hasNaN(dst) ? shown(v) : null },
      RULES.nan,
      'cvt-nan',
    );
  } else if (v.kind === 'inf') {
    infiniteInput = true;
    if (hasInfinity(dst)) {
      push({ kind: 'cvt-special', case: 'infinity', result: valueView(v, dst) }, RULES.inf);
    } else if (has('satfinite')) {
      beyondMax = true;
      push({ kind: 'cvt-special', case: 'infinity', result: null }, RULES.inf);
    } else {
      // ue8m0 (the one destination without infinity that may go without .satfinite): NaN.
      v = overflowResult(dst, v.negative, true);
      push(
        { kind: 'cvt-overflow', format: dst, to: 'nan', result: valueView(v, dst) },
        RULES.overflow,
        'cvt-ue8m0',
      );
    }
  } else if (isZero(v.x)) {
    if (unsigned) {
      v = leastUe8m0();
    } else {
      push({ kind: 'cvt-special', case: 'zero', result: valueView(v, dst) }, RULES.zero);
    }
  } else {
    const x = v.x;
    const representable = isRepresentable(x, dst);
    push({ kind: 'cvt-exact', value: exactValueOfDyadic(x), representable }, RULES.exact);
    // Conversions to .f64 are exact (it holds every value of the other formats); an integral
    // value needs no rounding to an integer.
    const rounds = mode !== null && (isInteger(mode) ? !isIntegral(x) : dst !== 'f64');
    if (rounds) {
      const random = element.rbits
        ? {
            value: field(input.rbits ?? 0n, element.rbits.hi, element.rbits.lo),
            count: element.rbits.hi - element.rbits.lo + 1,
            sourceLsb: lsbExponent(x, src.format),
          }
        : undefined;
      const r = roundForCvt(x, dst, mode, random);
      // An integral result is zero or at least 1: never tiny.
      if (!isInteger(mode)) tiny = r.shown.tininess;
      const rsDecision =
        r.shown.step.subnormal || r.shown.tininess.before ? 'cvt-rs-subnormal' : 'cvt-rs-rbits';
      push(
        roundStep(r, dst, mode, x.negative),
        roundingRule(mode),
        mode === 'rs' ? rsDecision : undefined,
      );
      if (r.overflow) {
        beyondMax = true;
        if (!has('satfinite')) {
          v = overflowResult(dst, x.negative, r.awayPastMax);
          const to = v.kind === 'inf' ? 'infinity' : v.kind === 'nan' ? 'nan' : 'max-norm';
          push(
            { kind: 'cvt-overflow', format: dst, to, result: valueView(v, dst) },
            RULES.overflow,
            unsigned ? 'cvt-ue8m0' : undefined,
          );
          beyondMax = false;
        }
      } else if (unsigned && isZero(r.value!)) {
        v = leastUe8m0();
      } else {
        v = { kind: 'finite', x: r.value! };
      }
    } else {
      // Exact: tiny when the value itself lies below the smallest normal .f32.
      const e = x.exp + x.mant.toString(2).length - 1;
      tiny = { before: e < -126, after: e < -126 };
    }
  }

  if (
    has('ftz') &&
    cvtFtzFlushes('result', dst, facts) &&
    v.kind === 'finite' &&
    !isZero(v.x) &&
    (tiny.before || tiny.after)
  ) {
    const flushed = flushTinyResult(v, isTiny(tiny, options.ftzTininess));
    push(
      {
        kind: 'cvt-flush-result',
        before: valueView(v, dst),
        after: valueView(flushed, dst),
        tininess: options.ftzTininess,
        tinyBeforeRounding: tiny.before,
        tinyAfterRounding: tiny.after,
      },
      RULES.ftzInput,
      'cvt-ftz-tininess',
    );
    v = flushed;
  }
  if (has('satfinite')) {
    const before = beyondMax || (v.kind === 'nan' && !hasNaN(dst)) ? null : shown(v);
    const out = satfinite(v, beyondMax, dst);
    const decision =
      out.case === 'nan'
        ? 'cvt-nan'
        : out.case === 'beyond-max-norm' && infiniteInput
          ? 'cvt-satfinite-infinity'
          : undefined;
    v = out.value;
    // A NaN's bits through .satfinite's NaN rule (nvidia-rules cvtSatfiniteNaN).
    const kept = nanBits as bigint | null;
    if (v.kind === 'nan' && kept !== null)
      takeNaNBits(satfiniteBits({ bits: kept }, FORMATS[dst], cvtSatfiniteNaN(facts)).bits);
    push(
      { kind: 'cvt-satfinite', case: out.case, before, after: shown(v) },
      RULES.satfinite,
      decision,
    );
  }
  if (has('sat')) {
    const after = saturate(v);
    push(
      { kind: 'cvt-sat', before: shown(v), after: valueView(after, dst) },
      RULES.sat,
      isNegativeZero(v) ? 'cvt-negative-zero' : undefined,
    );
    v = after;
  }
  if (has('relu')) {
    const after = relu(v);
    push(
      { kind: 'cvt-relu', before: shown(v), after: valueView(after, dst) },
      RULES.relu,
      isNegativeZero(v) ? 'cvt-negative-zero' : v.kind === 'nan' ? 'cvt-nan' : undefined,
    );
    v = after;
    nanBits = null; // .relu gives the canonical NaN
  }
  const bits = v.kind === 'nan' && nanBits !== null ? nanBits : encodeElement(v, dst);
  const place = element.dest;
  const slotValue = bits << BigInt(place.value.lo - place.slot.lo);
  push(
    {
      kind: 'cvt-pack',
      slot: place.slot,
      valueBits: place.value,
      slotBitsHex: hexOf(slotValue, place.slot.hi - place.slot.lo + 1),
      result: view(bits, dst),
    },
    RULES.pack,
    dst === 'tf32' ? 'cvt-tf32-layout' : undefined,
  );
  return { steps, bits };
}

/** ue8m0's least value, 2^-127 (pattern 0x00): what zero and anything below it become. */
const LEAST_UE8M0: Value = { kind: 'finite', x: { negative: false, mant: 1n, exp: -127 } };

/** Exponent of the last significand bit of the source format at x (its quantum there). */
function lsbExponent(x: { mant: bigint; exp: number }, format: ElementFormatName): number {
  const e = x.exp + x.mant.toString(2).length - 1;
  const f = format === 'f64' ? { emin: -1022, manBits: 52 } : floatFormatOf(format);
  return Math.max(e, f.emin) - f.manBits;
}

function isNegativeZero(v: Value): boolean {
  return v.kind === 'finite' && isZero(v.x) && v.x.negative;
}

function isInteger(mode: CvtRounding): boolean {
  return mode === 'rni' || mode === 'rzi' || mode === 'rmi' || mode === 'rpi';
}

function isIntegral(x: { mant: bigint; exp: number }): boolean {
  if (x.exp >= 0) return true;
  return (x.mant & mask(-x.exp)) === 0n;
}

/** The cvt-round step: the bits that decided, and the neighbours as destination patterns. */
function roundStep(
  r: CvtRounded,
  dst: ElementFormatName,
  mode: CvtRounding,
  negative: boolean,
): CvtStep {
  const s = r.shown.step;
  const g = r.geometry;
  const pattern = (bits: number): string | null => {
    const x = geometryValue(bits, g);
    if (x === null) return null;
    if (dst === 'ue8m0' && isZero(x)) return null;
    return view(encodeElement({ kind: 'finite', x }, dst), dst).bits;
  };
  // Rounded below 2^-127, ue8m0 (no zero) gives its least value: the next step says so.
  const rounded =
    r.value && dst === 'ue8m0' && isZero(r.value)
      ? LEAST_UE8M0
      : r.value && { kind: 'finite' as const, x: r.value };
  const result = rounded === null ? null : view(encodeElement(rounded, dst), dst).bits;
  const direction =
    r.direction === 'exact' ? 'exact' : (r.direction === 'away') !== negative ? 'up' : 'down';
  return {
    kind: 'cvt-round',
    format: dst,
    mode,
    toInteger: isInteger(mode),
    exact: s.exact,
    ...(s.cut ? { cut: s.cut } : {}),
    inexact: s.inexact,
    direction,
    reason: r.reason,
    lower: pattern(s.lower),
    upper: pattern(s.upper),
    result,
    subnormal: !isInteger(mode) && s.subnormal,
    ...(r.random ? { random: r.random } : {}),
  };
}

export function evaluateCvt(
  formOrText: CvtForm | string,
  input: CvtInput,
  options?: Partial<EngineOptions>,
): CvtEvalResult {
  const form = typeof formOrText === 'string' ? findCvtForm(formOrText) : formOrText;
  if (!form) throw new CvtInputError(`not a catalog cvt form: ${String(formOrText)}`);
  const problem = cvtOperandProblem(form, input);
  if (problem) throw new CvtInputError(problem);
  const ctx: ElementContext = {
    form,
    options: resolveOptions(options),
    has: (m) => (form.modifiers as readonly string[]).includes(m),
  };
  let d = 0n;
  const elements = form.elements.map((element) => {
    const { steps, bits } = convertElement(ctx, element, input);
    d |= bits << BigInt(element.dest.value.lo);
    return { index: element.index, steps, result: hexOf(bits, elementWidth(element.dest.format)) };
  });
  const dOperand = form.operands[0]!;
  // A rounding the form does not write is the line's default (cvt.f16.bf16: decision).
  const defaulted =
    form.rounding !== null && !(form.modifiers as readonly string[]).includes(form.rounding);
  const decisions = new Set<DecisionId>([
    ...(defaulted ? (['cvt-default-rounding'] as const) : []),
    ...(form.documented ? [] : (['cvt-ptxas-only-forms'] as const)),
  ]);
  for (const e of elements) for (const s of e.steps) if (s.decision) decisions.add(s.decision);
  return {
    form: form.text,
    d: hexOf(d, dOperand.bits),
    dBits: dOperand.bits,
    dType: form.dtype,
    elements,
    decisions: [...decisions],
  };
}
