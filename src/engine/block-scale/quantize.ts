/**
 * Quantize one block to a block-scaled format, as the PTX sequence of issue 26 computes it.
 *
 *   amax  = max |x_i|                                   abs.f32, max.f32
 *   MX (32 elements, UE8M0 scale 2^e):
 *     ocp:  2^(floor(log2 amax) − emax_elem), e clamped to [−127, 127]; 2^−127 for amax = 0
 *           (cvt.rz.satfinite.ue8m0x2.f32 of amax, then shr/sub/max: decision block-ocp-exponent)
 *     rp:   cvt.rp.satfinite.ue8m0x2.f32 of div.rn.f32 amax, max_elem
 *     rz:   cvt.rz.satfinite.ue8m0x2.f32 of div.rn.f32 amax, max_elem
 *     x_i' = mul.rn.f32 x_i, 2^−e                       (decision block-mx-power-of-two)
 *   NVFP4 (16 E2M1 elements, UE4M3 block scale, f32 global scale):
 *     global = div.rn.f32 tensorAmax, 2688.0            (tensorAmax given, else amax); 1.0 where 0
 *     s      = cvt.rn.satfinite.e4m3x2.f32 of div.rn.f32 (div.rn.f32 amax, 6.0), global
 *     q      = mul.rn.f32 s, global
 *     x_i'   = div.rn.f32 x_i, q; where q is zero, copysign(x_i, 0)   (decision nvfp4-zero-divisor)
 *   elements = cvt.rn.satfinite.<elem>x2.f32 of x_i' two at a time, or
 *              cvt.rs.satfinite.<elem>x4.f32 four at a time with the user's rbits
 *
 * Every conversion is the catalog cvt form evaluated by the engine's cvt (ops/cvt.ts), and each
 * element carries the form and the registers that reproduce it; div.rn.f32 and mul.rn.f32 round
 * their exact results once (f32-arith.ts). Bad requests are answered with a structured error,
 * never an exception.
 */
import { findCvtForm, type CvtForm, type CvtSourceName } from '../../catalog/cvt-forms.ts';
import type { ElementFormatName } from '../../catalog/cvt-types.ts';
import { registerHex, registerWidth } from '../cvt-registers.ts';
import type { ElementView } from '../cvt-trace.ts';
import type { DecisionId } from '../decisions.ts';
import {
  classifyElement,
  decodeElement,
  elementWidth,
  exactValueOfElement,
  hexOf,
} from '../element-format.ts';
import { exactValueOfBits, exactValueOfDyadic, isZero, multiply, type Dyadic } from '../exact.ts';
import { FORMATS } from '../formats.ts';
import { evaluateCvt, type CvtEvalResult } from '../ops/cvt.ts';
import type { ExactValue } from '../trace.ts';
import { valueOf } from '../values.ts';
import type { BlockScaleDecisionId } from './decisions.ts';
import {
  elementError,
  summarize,
  type BlockErrorSummary,
  type ElementError,
} from './element-error.ts';
import { copysignF32, divRnF32, mulRnF32, powerOfTwoF32 } from './f32-arith.ts';
import { f32Hex, f32Immediate, PtxProgramBuilder, type PtxProgram } from './ptx-program.ts';
import {
  elementCvtForm,
  elementsPerCvt,
  isBlockScheme,
  isScaleRule,
  SCHEMES,
  type BlockElementFormat,
  type BlockScheme,
  type ElementRounding,
  type ScaleRule,
  type SchemeInfo,
} from './schemes.ts';

export interface BlockScaleRequest {
  /** mxfp8-e4m3, mxfp8-e5m2, mxfp6-e3m2, mxfp6-e2m3, mxfp4 or nvfp4. */
  readonly scheme: string;
  /** ocp, rp or rz for the MX schemes; nvfp4 for NVFP4. */
  readonly scaleRule: string;
  /** The block: 32 values for MX, 16 for NVFP4, as binary32 bit patterns (0 … 2^32 − 1). */
  readonly values: readonly number[];
  /** NVFP4 only: the tensor's amax as binary32 bits (default: the block's amax). */
  readonly tensorAmax?: number;
  /** The element conversions: 'rn' (default) or 'rs' (then rbits). */
  readonly rounding?: string;
  /** .rs: each element cvt's rbits register (one per four elements), or one for every cvt. */
  readonly rbits?: readonly number[];
}

export type BlockScaleErrorCode =
  'scheme' | 'scale-rule' | 'rounding' | 'length' | 'value' | 'tensor-amax' | 'rbits';

export interface BlockScaleError {
  readonly ok: false;
  readonly code: BlockScaleErrorCode;
  readonly message: string;
  /** The block element at fault, for code 'value'. */
  readonly index?: number;
}

/** A binary32 value: its bits (`0x3dcccccd`) and exact value. */
export interface F32View {
  readonly bits: string;
  readonly value: ExactValue;
}

/** A catalog cvt and the registers that reproduce one of its results (`ptxf eval` takes them). */
export interface CvtCall {
  readonly form: string;
  /** The source registers, hex of each register's width, lower case. */
  readonly registers: Readonly<Partial<Record<CvtSourceName, string>>>;
  /** The form's element this is (0: the first line of its Semantics block, from a). */
  readonly element: number;
  /** The destination register the cvt writes (hex of its width). */
  readonly d: string;
}

export interface QuantizedElement {
  readonly index: number;
  readonly input: F32View;
  /** The binary32 value the element cvt converts (x × 2^−e, or x ÷ the NVFP4 divisor). */
  readonly scaled: F32View;
  readonly cvt: CvtCall;
  /** The element as stored in the element format (bits hex of its width). */
  readonly stored: ElementView;
  /** stored × the block's dequantization factor, exact. */
  readonly decoded: ExactValue;
  /** Null where the element is NaN. */
  readonly error: ElementError | null;
  readonly flags: {
    /** .satfinite clamped it to ±MAX_NORM. */
    readonly saturated: boolean;
    /** A nonzero input stored as zero. */
    readonly flushedToZero: boolean;
    /** Stored as NaN. */
    readonly nan: boolean;
  };
}

export interface BlockScale {
  /** UE8M0 (MX) or UE4M3 (NVFP4: the e4m3 pattern, sign bit 0). */
  readonly format: 'ue8m0' | 'ue4m3';
  /** `0x7f`. */
  readonly bits: string;
  readonly value: ExactValue;
  /** MX: e, the scale being 2^e; null for NVFP4. */
  readonly exponent: number | null;
  /** The scale cvt clamped its result to the largest finite value (.satfinite). */
  readonly saturated: boolean;
  /** The cvt the scale comes from (ocp: the one reading floor(log2 amax)). */
  readonly cvt: CvtCall;
}

export interface GlobalScale {
  readonly bits: string;
  readonly value: ExactValue;
  /** What was divided by 2688: the given tensorAmax, or the block's amax. */
  readonly from: 'tensor-amax' | 'block-amax';
  readonly dividend: F32View;
  /** The division gave zero, and the global scale is 1.0 instead. */
  readonly zeroReplaced: boolean;
}

export interface BlockQuantization {
  readonly ok: true;
  readonly scheme: BlockScheme;
  readonly scaleRule: ScaleRule;
  readonly element: BlockElementFormat;
  readonly blockSize: 16 | 32;
  readonly rounding: ElementRounding;
  readonly amax: F32View & { readonly index: number };
  readonly scale: BlockScale;
  /** NVFP4's per-tensor scale; null for MX. */
  readonly globalScale: GlobalScale | null;
  /** What each stored element is multiplied by to decode it (2^e; NVFP4: scale × global). */
  readonly dequantizeFactor: ExactValue;
  readonly program: PtxProgram;
  /** The catalog cvt forms the program uses, with the least target and PTX ISA of each. */
  readonly cvtForms: readonly { form: string; minTarget: string; minPtx: string }[];
  readonly elements: readonly QuantizedElement[];
  readonly summary: BlockErrorSummary;
  readonly decisions: readonly BlockScaleDecisionId[];
  /** The documented cvt decisions (src/engine/decisions.ts) the conversions relied on. */
  readonly cvtDecisions: readonly DecisionId[];
}

export type BlockScaleResult = BlockQuantization | BlockScaleError;

const F32 = FORMATS.f32;
const F32_ABS = 0x7fffffff;
const NVFP4_GLOBAL_DIVISOR = 0x45280000; // 2688.0 = 448 × 6
const SIX = 0x40c00000;
const ONE = 0x3f800000;
const ZERO_IMMEDIATE = f32Immediate(0);

const fail = (code: BlockScaleErrorCode, message: string, index?: number): BlockScaleError => ({
  ok: false,
  code,
  message,
  ...(index === undefined ? {} : { index }),
});

/** A request's field in a message: a string quoted (and cut short), anything else by its type. */
const shown = (x: unknown): string =>
  typeof x === 'string'
    ? JSON.stringify(x.length > 40 ? `${x.slice(0, 40)}…` : x)
    : `a ${typeof x}`;

const isBits32 = (x: unknown): x is number =>
  typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= 0xffffffff;
const isNonFinite = (bits: number) => (bits & 0x7f800000) === 0x7f800000;

const f32View = (bits: number): F32View => ({
  bits: f32Hex(bits),
  value: exactValueOfBits(bits >>> 0, F32),
});

function elementView(bits: bigint, format: ElementFormatName): ElementView {
  return {
    format,
    bits: hexOf(bits, elementWidth(format)).toLowerCase(),
    class: classifyElement(bits, format),
    value: exactValueOfElement(bits, format),
  };
}

const finiteOf = (bits: number): Dyadic => {
  const v = valueOf(bits >>> 0, F32);
  if (v.kind !== 'finite') throw new RangeError('a finite binary32 value was expected');
  return v.x;
};

interface Checked {
  readonly info: SchemeInfo;
  readonly rule: ScaleRule;
  readonly rounding: ElementRounding;
  readonly values: readonly number[];
  readonly tensorAmax: number | undefined;
  /** One rbits word per element cvt (.rs); empty for .rn. */
  readonly rbits: readonly number[];
}

function check(request: BlockScaleRequest): Checked | BlockScaleError {
  const { scheme, scaleRule } = request;
  if (typeof scheme !== 'string' || !isBlockScheme(scheme))
    return fail(
      'scheme',
      `unknown scheme ${shown(scheme)}; schemes: ${Object.keys(SCHEMES).join(', ')}`,
    );
  const info = SCHEMES[scheme];
  if (typeof scaleRule !== 'string' || !isScaleRule(scaleRule) || !info.rules.includes(scaleRule))
    return fail(
      'scale-rule',
      `${shown(scaleRule)} is not a scale rule of ${scheme}; its rules: ${info.rules.join(', ')}`,
    );
  const rounding = request.rounding ?? 'rn';
  if (rounding !== 'rn' && rounding !== 'rs')
    return fail(
      'rounding',
      `unknown element rounding ${shown(rounding)}; roundings: rn, rs (with rbits)`,
    );
  const { tensorAmax } = request;
  if (tensorAmax !== undefined) {
    if (scheme !== 'nvfp4')
      return fail('tensor-amax', `tensorAmax belongs to nvfp4's global scale; ${scheme} has none`);
    if (!isBits32(tensorAmax))
      return fail('tensor-amax', 'tensorAmax must be binary32 bits (0 … 0xffffffff)');
    if (isNonFinite(tensorAmax))
      return fail('tensor-amax', `tensorAmax ${f32Hex(tensorAmax)} is not finite`);
    if (tensorAmax >>> 31 === 1 && (tensorAmax & F32_ABS) !== 0)
      return fail('tensor-amax', `tensorAmax ${f32Hex(tensorAmax)} is negative`);
  }
  const { values } = request;
  if (!Array.isArray(values))
    return fail('length', `values must be a list of ${info.blockSize} binary32 patterns`);
  if (values.length !== info.blockSize)
    return fail(
      'length',
      `a ${scheme} block holds ${info.blockSize} values; ${values.length} given`,
    );
  for (let i = 0; i < values.length; i++) {
    const v: unknown = values[i];
    if (!isBits32(v)) return fail('value', `value ${i} must be binary32 bits (0 … 0xffffffff)`, i);
    if (isNonFinite(v))
      return fail(
        'value',
        `value ${i} (${f32Hex(v)}) is ${(v & 0x7fffff) === 0 ? 'infinite' : 'NaN'}; a block holds finite values`,
        i,
      );
  }
  const cvts = info.blockSize / elementsPerCvt(rounding);
  const { rbits } = request;
  if (rounding === 'rn') {
    if (Array.isArray(rbits) ? rbits.length > 0 : rbits !== undefined)
      return fail('rbits', 'rbits are the random bits of .rs; the .rn conversion takes none');
    return { info, rule: scaleRule, rounding, values, tensorAmax, rbits: [] };
  }
  if (!Array.isArray(rbits) || (rbits.length !== 1 && rbits.length !== cvts))
    return fail(
      'rbits',
      `.rs needs rbits: one 32-bit word for every cvt, or ${cvts} (one per four elements)`,
    );
  const bad = rbits.findIndex((r) => !isBits32(r));
  if (bad >= 0) return fail('rbits', `rbits ${bad} must be a 32-bit pattern (0 … 0xffffffff)`);
  const perCvt = rbits.length === 1 ? Array.from({ length: cvts }, () => rbits[0]!) : rbits;
  return { info, rule: scaleRule, rounding, values, tensorAmax, rbits: perCvt };
}

/** A catalog cvt form, evaluated on registers given as bits. */
function runCvt(form: CvtForm, registers: Partial<Record<CvtSourceName, number>>): CvtEvalResult {
  const input: Record<string, bigint> = {};
  for (const [name, bits] of Object.entries(registers)) input[name] = BigInt(bits >>> 0);
  return evaluateCvt(form, input as { a: bigint });
}

function cvtForm(text: string): CvtForm {
  const form = findCvtForm(text);
  if (!form) throw new Error(`the catalog has no ${text}`);
  return form;
}

function cvtCall(
  form: CvtForm,
  registers: Partial<Record<CvtSourceName, number>>,
  element: number,
  result: CvtEvalResult,
): CvtCall {
  const hex: Partial<Record<CvtSourceName, string>> = {};
  for (const [name, bits] of Object.entries(registers) as [CvtSourceName, number][])
    hex[name] = registerHex(BigInt(bits >>> 0), registerWidth(form, name));
  return { form: form.text, registers: hex, element, d: `0x${result.d.slice(2).toLowerCase()}` };
}

/** Whether .satfinite clamped element `i` of a cvt past MAX_NORM. */
function saturatedIn(result: CvtEvalResult, i: number): boolean {
  return result.elements[i]!.steps.some(
    (s) => s.kind === 'cvt-satfinite' && s.case === 'beyond-max-norm',
  );
}

/** The upper element (d[15:8]) of a scale cvt that converted one value twice. */
const upperByte = (result: CvtEvalResult) => Number(BigInt(result.d) >> 8n) & 0xff;

interface ScaleOutcome {
  readonly scale: BlockScale;
  readonly globalScale: GlobalScale | null;
  /** What a stored element is multiplied by to decode it: 2^e, or NVFP4's scale × global. */
  readonly factor: Dyadic;
  /** The binary32 value each element cvt converts, and the register that holds it. */
  readonly scaled: readonly { bits: number; register: string }[];
}

export function quantizeBlock(request: BlockScaleRequest): BlockScaleResult {
  const checked = check(request);
  if ('ok' in checked) return checked;
  const { info, rule, rounding, values, tensorAmax } = checked;
  const b = new PtxProgramBuilder();
  const cvtResults: CvtEvalResult[] = [];
  const forms = new Map<string, CvtForm>();
  const run = (text: string, registers: Partial<Record<CvtSourceName, number>>) => {
    const form = cvtForm(text);
    forms.set(form.text, form);
    const result = runCvt(form, registers);
    cvtResults.push(result);
    return { form, result };
  };

  const valueRegisters = values.map((bits, i) => b.input('value', bits, i));
  const tensorRegister = tensorAmax === undefined ? null : b.input('tensor-amax', tensorAmax);

  // amax = max |x_i|: magnitudes of finite binary32 values order as their bit patterns do.
  const absRegisters = values.map((bits, i) => {
    const r = b.register('f');
    b.f32('amax', `abs.f32 ${r}, ${valueRegisters[i]};`, r, bits & F32_ABS, { elements: [i] });
    return r;
  });
  let amaxRegister = absRegisters[0]!;
  let amax = values[0]! & F32_ABS;
  for (let i = 1; i < values.length; i++) {
    const r = b.register('f');
    amax = Math.max(amax, values[i]! & F32_ABS);
    b.f32('amax', `max.f32 ${r}, ${amaxRegister}, ${absRegisters[i]};`, r, amax);
    amaxRegister = r;
  }
  const amaxIndex = values.findIndex((v) => (v & F32_ABS) === amax);

  const outcome =
    info.scheme === 'nvfp4'
      ? nvfp4Scale(b, run, values, valueRegisters, amax, amaxRegister, tensorAmax, tensorRegister)
      : mxScale(b, run, info, rule, values, valueRegisters, amax, amaxRegister);

  // The element conversions, two (.rn) or four (.rs) at a time.
  const per = elementsPerCvt(rounding);
  const formText = elementCvtForm(info.element, rounding);
  const converted: { bits: bigint; call: CvtCall; saturated: boolean }[] = [];
  for (let k = 0; k < values.length; k += per) {
    const group = outcome.scaled.slice(k, k + per);
    const indices = group.map((_, j) => k + j);
    const form = cvtForm(formText);
    const registers: Partial<Record<CvtSourceName, number>> = {};
    form.elements.forEach(
      (e, j) => (registers[e.source.operand as CvtSourceName] = group[j]!.bits),
    );
    let rbitsRegister = '';
    if (rounding === 'rs') {
      const word = checked.rbits[k / per]!;
      registers.rbits = word;
      rbitsRegister = b.register('r');
      b.bits('convert', `mov.b32 ${rbitsRegister}, ${f32Hex(word)};`, rbitsRegister, word, 32);
    }
    const { result } = run(formText, registers);
    const d = b.register(form.operands[0]!.bits === 32 ? 'r' : 'rs');
    const sources = group.map((g) => g.register).join(', ');
    const text =
      rounding === 'rn'
        ? `${formText} ${d}, ${sources};`
        : `${formText} ${d}, {${sources}}, ${rbitsRegister};`;
    b.cvt('convert', text, d, result.d, indices);
    group.forEach((_, j) =>
      converted.push({
        bits: BigInt(result.elements[j]!.result),
        call: cvtCall(form, registers, j, result),
        saturated: saturatedIn(result, j),
      }),
    );
  }

  const elements: QuantizedElement[] = [];
  const forSummary = values.map((bits, i) => {
    const input = finiteOf(bits);
    const c = converted[i]!;
    const stored = decodeElement(c.bits, info.element);
    const storedView = elementView(c.bits, info.element);
    const nan = stored.kind !== 'finite';
    const flushedToZero = !isZero(input) && storedView.class === 'zero';
    const measured =
      stored.kind === 'finite' ? elementError(input, stored.x, outcome.factor, info.element) : null;
    elements.push({
      index: i,
      input: f32View(bits),
      scaled: f32View(outcome.scaled[i]!.bits),
      cvt: c.call,
      stored: storedView,
      decoded: measured
        ? exactValueOfDyadic(measured.decoded)
        : { kind: 'nan', negative: false, decimal: 'NaN', binary: 'NaN', rational: 'NaN' },
      error: measured?.error ?? null,
      flags: { saturated: c.saturated, flushedToZero, nan },
    });
    return {
      input,
      difference: measured?.difference ?? null,
      error: measured?.error ?? null,
      saturated: c.saturated,
      flushedToZero,
    };
  });

  const decisions: BlockScaleDecisionId[] = [
    'block-f32-arithmetic',
    'block-scale-register',
    'block-error-ulps',
  ];
  if (rule === 'ocp') decisions.push('block-ocp-exponent');
  if (info.scheme === 'nvfp4') {
    decisions.push('nvfp4-zero-divisor', 'nvfp4-decoded-value');
    if (tensorAmax !== undefined) decisions.push('nvfp4-tensor-amax');
  } else decisions.push('block-mx-power-of-two');
  if (rounding === 'rs') decisions.push('block-rs-rbits');

  return {
    ok: true,
    scheme: info.scheme,
    scaleRule: rule,
    element: info.element,
    blockSize: info.blockSize,
    rounding,
    amax: { ...f32View(amax), index: amaxIndex },
    scale: outcome.scale,
    globalScale: outcome.globalScale,
    dequantizeFactor: exactValueOfDyadic(outcome.factor),
    program: b.build(),
    cvtForms: [...forms.values()].map((f) => ({
      form: f.text,
      minTarget: f.minTarget,
      minPtx: f.minPtx,
    })),
    elements,
    summary: summarize(forSummary),
    decisions,
    cvtDecisions: [...new Set(cvtResults.flatMap((r) => r.decisions))],
  };
}

type Run = (
  text: string,
  registers: Partial<Record<CvtSourceName, number>>,
) => { form: CvtForm; result: CvtEvalResult };

/** The MX scale 2^e by the rule, and each value × 2^−e in binary32. */
function mxScale(
  b: PtxProgramBuilder,
  run: Run,
  info: SchemeInfo,
  rule: ScaleRule,
  values: readonly number[],
  valueRegisters: readonly string[],
  amax: number,
  amaxRegister: string,
): ScaleOutcome {
  let biased: number;
  let source: { form: CvtForm; result: CvtEvalResult; registers: { a: number; b: number } };
  if (rule === 'ocp') {
    // 2^floor(log2 amax) (0x00 below 2^-127), then its biased exponent − emax_elem, at least 0.
    const text = 'cvt.rz.satfinite.ue8m0x2.f32';
    const registers = { a: amax, b: amax };
    const { form, result } = run(text, registers);
    const rs = b.register('rs');
    b.cvt('scale', `${text} ${rs}, ${amaxRegister}, ${amaxRegister};`, rs, result.d);
    const exponent = upperByte(result);
    const shifted = b.register('rs');
    b.bits('scale', `shr.u16 ${shifted}, ${rs}, 8;`, shifted, exponent, 16);
    const less = b.register('rs');
    const difference = exponent - info.emaxElem;
    b.bits(
      'scale',
      `sub.s16 ${less}, ${shifted}, ${info.emaxElem};`,
      less,
      difference & 0xffff,
      16,
    );
    const clamped = b.register('rs');
    biased = Math.max(difference, 0);
    b.bits('scale', `max.s16 ${clamped}, ${less}, 0;`, clamped, biased, 16);
    source = { form, result, registers };
  } else {
    const quotient = divRnF32(amax, info.maxElemBits);
    const q = b.register('f');
    b.f32(
      'scale',
      `div.rn.f32 ${q}, ${amaxRegister}, ${f32Immediate(info.maxElemBits)};`,
      q,
      quotient.bits,
      {
        inexact: quotient.inexact,
      },
    );
    const text = `cvt.${rule}.satfinite.ue8m0x2.f32`;
    const registers = { a: quotient.bits, b: quotient.bits };
    const { form, result } = run(text, registers);
    const rs = b.register('rs');
    b.cvt('scale', `${text} ${rs}, ${q}, ${q};`, rs, result.d);
    biased = upperByte(result);
    source = { form, result, registers };
  }
  const e = biased - 127;
  const reciprocal = powerOfTwoF32(-e);
  const scaled = values.map((bits, i) => {
    const product = mulRnF32(bits, reciprocal);
    const r = b.register('f');
    b.f32(
      'scale-values',
      `mul.rn.f32 ${r}, ${valueRegisters[i]}, ${f32Immediate(reciprocal)};`,
      r,
      product.bits,
      { inexact: product.inexact, elements: [i] },
    );
    return { bits: product.bits, register: r };
  });
  const scaleBits = BigInt(biased);
  return {
    scale: {
      format: 'ue8m0',
      bits: elementView(scaleBits, 'ue8m0').bits,
      value: exactValueOfElement(scaleBits, 'ue8m0'),
      exponent: e,
      saturated: saturatedIn(source.result, 0),
      cvt: cvtCall(source.form, source.registers, 0, source.result),
    },
    globalScale: null,
    factor: { negative: false, mant: 1n, exp: e },
    scaled,
  };
}

/** NVFP4's global and block scales, and each value ÷ (block scale × global) in binary32. */
function nvfp4Scale(
  b: PtxProgramBuilder,
  run: Run,
  values: readonly number[],
  valueRegisters: readonly string[],
  amax: number,
  amaxRegister: string,
  tensorAmax: number | undefined,
  tensorRegister: string | null,
): ScaleOutcome {
  // global = tensorAmax / 2688, or 1.0 where that is zero.
  const dividend = tensorAmax ?? amax;
  const dividendRegister = tensorRegister ?? amaxRegister;
  const g0 = divRnF32(dividend, NVFP4_GLOBAL_DIVISOR);
  const g0Register = b.register('f');
  b.f32(
    'global-scale',
    `div.rn.f32 ${g0Register}, ${dividendRegister}, ${f32Immediate(NVFP4_GLOBAL_DIVISOR)};`,
    g0Register,
    g0.bits,
    { inexact: g0.inexact },
  );
  const zeroGlobal = (g0.bits & F32_ABS) === 0;
  const p1 = b.register('p');
  b.bits(
    'global-scale',
    `setp.eq.f32 ${p1}, ${g0Register}, ${ZERO_IMMEDIATE};`,
    p1,
    +zeroGlobal,
    1,
  );
  const global = zeroGlobal ? ONE : g0.bits;
  const gRegister = b.register('f');
  b.f32(
    'global-scale',
    `selp.f32 ${gRegister}, ${f32Immediate(ONE)}, ${g0Register}, ${p1};`,
    gRegister,
    global,
  );

  // The block scale: cvt.rn.satfinite.e4m3x2.f32 of (amax / 6) / global.
  const t1 = divRnF32(amax, SIX);
  const t1Register = b.register('f');
  b.f32(
    'scale',
    `div.rn.f32 ${t1Register}, ${amaxRegister}, ${f32Immediate(SIX)};`,
    t1Register,
    t1.bits,
    {
      inexact: t1.inexact,
    },
  );
  const t2 = divRnF32(t1.bits, global);
  const t2Register = b.register('f');
  b.f32('scale', `div.rn.f32 ${t2Register}, ${t1Register}, ${gRegister};`, t2Register, t2.bits, {
    inexact: t2.inexact,
  });
  const scaleText = 'cvt.rn.satfinite.e4m3x2.f32';
  const scaleRegisters = { a: t2.bits, b: t2.bits };
  const scaleCvt = run(scaleText, scaleRegisters);
  const rs = b.register('rs');
  b.cvt('scale', `${scaleText} ${rs}, ${t2Register}, ${t2Register};`, rs, scaleCvt.result.d);
  const scaleBits = upperByte(scaleCvt.result);

  // Back to binary32 (both exact): e4m3x2 → f16x2, one half, f16 → f32.
  const widened = run('cvt.rn.f16x2.e4m3x2', { a: (scaleBits << 8) | scaleBits });
  const r = b.register('r');
  b.cvt('scale', `cvt.rn.f16x2.e4m3x2 ${r}, ${rs};`, r, widened.result.d);
  const half = Number(BigInt(widened.result.d) & 0xffffn);
  const low = b.register('rs');
  const high = b.register('rs');
  b.bits('scale', `mov.b32 {${low}, ${high}}, ${r};`, low, half, 16);
  const asF32 = run('cvt.f32.f16', { a: half });
  const scaleF32 = Number(BigInt(asF32.result.d));
  const sRegister = b.register('f');
  b.f32('scale', `cvt.f32.f16 ${sRegister}, ${low};`, sRegister, scaleF32);

  // The divisor, and the zero test that keeps a zero block scale from dividing.
  const divisor = mulRnF32(scaleF32, global);
  const qRegister = b.register('f');
  b.f32('scale', `mul.rn.f32 ${qRegister}, ${sRegister}, ${gRegister};`, qRegister, divisor.bits, {
    inexact: divisor.inexact,
  });
  const zeroDivisor = (divisor.bits & F32_ABS) === 0;
  const p2 = b.register('p');
  b.bits('scale', `setp.eq.f32 ${p2}, ${qRegister}, ${ZERO_IMMEDIATE};`, p2, +zeroDivisor, 1);

  const scaled = values.map((bits, i) => {
    const x = b.register('f');
    const quotient = zeroDivisor ? null : divRnF32(bits, divisor.bits);
    const signedZero = copysignF32(bits, 0);
    b.f32(
      'scale-values',
      `@!${p2} div.rn.f32 ${x}, ${valueRegisters[i]}, ${qRegister};`,
      x,
      quotient?.bits ?? null,
      {
        ...(quotient ? { inexact: quotient.inexact } : {}),
        elements: [i],
      },
    );
    b.f32(
      'scale-values',
      `@${p2} copysign.f32 ${x}, ${valueRegisters[i]}, ${ZERO_IMMEDIATE};`,
      x,
      zeroDivisor ? signedZero : null,
      { elements: [i] },
    );
    return { bits: quotient?.bits ?? signedZero, register: x };
  });

  const globalDyadic = finiteOf(global);
  const scaleDyadic = finiteOf(scaleF32);
  return {
    scale: {
      format: 'ue4m3',
      bits: elementView(BigInt(scaleBits), 'e4m3').bits,
      value: exactValueOfElement(BigInt(scaleBits), 'e4m3'),
      exponent: null,
      saturated: saturatedIn(scaleCvt.result, 0),
      cvt: cvtCall(scaleCvt.form, scaleRegisters, 0, scaleCvt.result),
    },
    globalScale: {
      bits: f32Hex(global),
      value: exactValueOfBits(global, F32),
      from: tensorAmax === undefined ? 'block-amax' : 'tensor-amax',
      dividend: f32View(dividend),
      zeroReplaced: zeroGlobal,
    },
    factor: multiply(scaleDyadic, globalDyadic),
    scaled,
  };
}
