/**
 * The trace checker's model of the half- and mixed-precision instructions (9.7.4, 9.7.5): for
 * one lane and its inputs, every step the trace should have and every field of it, worked out
 * from docs/trace.md with exact rationals (rational.ts), the reference's rounding model
 * (trace-round.ts) and its own tanh/2^x enclosures — sharing no code with src/engine (only the
 * catalog, for the forms, their corner-case tables and error bounds).
 *
 * Rules are checked by what they cite (PTX ISA or IEEE 754, the section) and by words their
 * text must contain, not by their whole wording.
 */
import type { CornerInput, Form } from '../../src/catalog/instruction.ts';
import { checkMathValue, refAllowed, refModel } from './approx-allowed-ref.ts';
import { REF_CVT_FORMATS } from './cvt-formats.ts';
import { exactPattern } from './cvt-slowfloat.ts';
import { decimalOf, finiteText } from './exact-text.ts';
import { valueOf, type ModelOptions, type Value } from './model-inputs.ts';
import { roundRational } from './neighbour-round.ts';
import { add, compare, isZero, mul, neg, type Rational } from './rational.ts';
import {
  absBits,
  classOf,
  decode,
  isNegative,
  isNaNBits,
  REF_FORMATS,
  withSign,
  zeroBits,
  type RefFormat,
  type RefFormatName,
} from './ref-formats.ts';
import {
  ieee,
  ptx,
  type ExpectedStep,
  type FieldCheck,
  type RuleExpectation,
} from './trace-expect.ts';
import { roundModel } from './trace-round.ts';
import { viewIn, type ExpectedView } from './trace-views.ts';

/** One lane's inputs, as read, by operand name; and each operand's format. */
export interface LaneInput {
  readonly bits: Readonly<Record<string, number>>;
  readonly formats: Readonly<Record<string, RefFormatName>>;
  /** The inputs step, built by the caller from the lane's places. */
  readonly inputs: ExpectedStep;
}

export interface LaneOutcome {
  readonly steps: ExpectedStep[];
  /** The lane's result bits (its format's width). */
  readonly result: number;
  readonly format: RefFormatName;
}

const has = (form: Form, modifier: string) =>
  (form.modifiers as readonly string[]).includes(modifier);

const view = (bits: number, fmt: RefFormat): ExpectedView =>
  viewIn(bits, fmt.name as RefFormatName);

function pattern(q: Rational, fmt: RefFormat, negativeZero: boolean): number {
  return roundRational(q, 'rn', fmt, negativeZero);
}

/** The result format of a form: its destination register's type, one element of it. */
export function resultFormat(form: Form): RefFormatName {
  return form.registers[0]!.type.replace('x2', '') as RefFormatName;
}

function flushInputs(
  section: string,
  names: readonly string[],
  lane: Record<string, number>,
  formats: Readonly<Record<string, RefFormatName>>,
  steps: ExpectedStep[],
): void {
  for (const name of names) {
    const fmt = REF_FORMATS[formats[name]!];
    const bits = lane[name]!;
    if (classOf(bits, fmt) !== 'subnormal') continue;
    const after = zeroBits(isNegative(bits, fmt), fmt);
    steps.push({
      kind: 'flush-input',
      operand: name,
      before: view(bits, fmt),
      after: view(after, fmt),
      rule: ptx(section, /\.ftz.*subnormal inputs/),
    });
    lane[name] = after;
  }
}

// ---------------------------------------------------------------------------------------------
// add, sub, mul, fma (half and mixed precision)

const ROUNDING_WORDS: Record<string, RegExp> = {
  rn: /\.rn.*nearest even/,
  rz: /\.rz.*towards zero/,
  rm: /\.rm.*negative infinity/,
  rp: /\.rp.*positive infinity/,
};

function arithmeticLane(form: Form, input: LaneInput, options: ModelOptions): LaneOutcome {
  const section = form.section.section;
  const mixed = form.family === 'mixed';
  const outName = resultFormat(form);
  const out = REF_FORMATS[outName];
  const mode = form.rounding ?? 'rn';
  const names = Object.keys(input.bits);
  const lane = { ...input.bits };
  const steps: ExpectedStep[] = [input.inputs];
  const finish = (bits: number): LaneOutcome => ({ steps, result: bits, format: outName });

  if (has(form, 'oob')) {
    const f16 = REF_FORMATS.f16;
    const holds = (n: string) => absBits(lane[n]!, f16) === options.oobNanBits % 0x8000;
    const forcesZero = holds('a') || holds('b');
    steps.push({
      kind: 'oob-check',
      oobOperands: names.filter(holds),
      forcesZero,
      pattern: `0x${options.oobNanBits.toString(16).padStart(4, '0')}`,
      decision: 'oob-nan-pattern',
      rule: ptx(section, /\.oob/, /OOB NaN/),
    });
    if (forcesZero) return finish(0);
  }
  if (has(form, 'ftz')) flushInputs(section, names, lane, input.formats, steps);
  const operand: Record<string, Value> = {};
  for (const n of names) {
    const fmt = REF_FORMATS[input.formats[n]!];
    if (mixed && fmt !== out) {
      const v = valueOf(lane[n]!, fmt);
      const after =
        v.kind === 'nan'
          ? out.canonicalNaN
          : v.kind === 'inf'
            ? v.negative
              ? out.signMask + out.infBits
              : out.infBits
            : pattern(v.q, out, v.negative);
      steps.push({
        kind: 'convert',
        operand: n,
        before: view(lane[n]!, fmt),
        after: view(after, out),
        exact: v.kind !== 'nan',
        ...(v.kind === 'nan' ? { decision: 'canonical-nan' } : {}),
        rule: ptx(section, /Converts input operand/),
      });
      lane[n] = after;
    }
    operand[n] = valueOf(lane[n]!, out);
  }

  let bits = exactAndRound(form, operand, out, mode, steps, options);
  if (has(form, 'sat')) {
    const after = saturate(bits, out);
    steps.push({
      kind: 'saturate',
      before: view(bits, out),
      after: view(after, out),
      ...(bits === out.signMask ? { decision: 'sat-negative-zero' } : {}),
      rule: ptx(section, /\.sat.*\[0\.0, 1\.0\]/),
    });
    bits = after;
  }
  if (has(form, 'relu')) {
    const nan = isNaNBits(bits, out);
    const after = nan ? out.canonicalNaN : isNegative(bits, out) ? 0 : bits;
    steps.push({
      kind: 'relu',
      before: view(bits, out),
      after: view(after, out),
      ...(bits === out.signMask
        ? { decision: 'relu-negative-zero' }
        : nan
          ? { decision: 'canonical-nan' }
          : {}),
      rule: ptx(section, /\.relu.*negative/),
    });
    bits = after;
  }
  return finish(bits);
}

function saturate(bits: number, fmt: RefFormat): number {
  if (isNaNBits(bits, fmt) || isNegative(bits, fmt)) return 0;
  const one = pattern({ num: 1n, den: 1n }, fmt, false);
  const v = valueOf(bits, fmt);
  return v.kind === 'inf' || (v.kind === 'finite' && compare(v.q, { num: 1n, den: 1n }) > 0)
    ? one
    : bits;
}

/** The spec's statement of the form's semantics, as the exact step cites it. */
function operatorRule(form: Form): RuleExpectation {
  const packed = form.registers[0]!.type.endsWith('x2');
  const operator = { add: /\+/, sub: /-/, mul: /\*/, fma: /\* .* \+/ }[form.operation as 'add'];
  return ptx(form.section.section, operator, packed ? /^d\[i\] = / : /^d = [^/]*;$/);
}

/** Special cases, the exact value, its rounding, overflow/tininess and .ftz on the result. */
function exactAndRound(
  form: Form,
  operand: Record<string, Value>,
  out: RefFormat,
  mode: string,
  steps: ExpectedStep[],
  options: ModelOptions,
): number {
  const section = form.section.section;
  const mixed = form.family === 'mixed';
  const op = form.operation;
  const nan = out.canonicalNaN;
  if (Object.values(operand).some((v) => v.kind === 'nan')) {
    steps.push({
      kind: 'special',
      case: 'nan-operand',
      result: view(nan, out),
      decision: 'canonical-nan',
      rule: mixed ? ieee('6.2', /NaN/) : ptx('9.7.4', /unspecified NaN/),
    });
    return nan;
  }
  const a = operand.a!;
  // The terms of the sum: the product (or a), and the addend.
  let product: Value;
  let addend: Value | null = null;
  let expression: string;
  const second = operand.b ?? operand.c!;
  const negate = (v: Value): Value =>
    v.kind === 'finite'
      ? { kind: 'finite', q: neg(v.q), negative: !v.negative }
      : v.kind === 'inf'
        ? { kind: 'inf', negative: !v.negative }
        : v;
  if (op === 'mul' || op === 'fma') {
    const b = operand.b!;
    if (
      (a.kind === 'inf' && b.kind === 'finite' && isZero(b.q)) ||
      (b.kind === 'inf' && a.kind === 'finite' && isZero(a.q))
    ) {
      steps.push({
        kind: 'special',
        case: 'invalid',
        result: view(nan, out),
        detail: '0 × ∞',
        decision: 'canonical-nan',
        rule: ieee('7.2', /0 × ∞/, /invalid/),
      });
      return nan;
    }
    const negative =
      (a as { negative: boolean }).negative !== (b as { negative: boolean }).negative;
    product =
      a.kind === 'inf' || b.kind === 'inf'
        ? { kind: 'inf', negative }
        : { kind: 'finite', q: mul((a as { q: Rational }).q, (b as { q: Rational }).q), negative };
    if (op === 'fma') addend = operand.c!;
    expression = op === 'mul' ? 'a × b' : mixed ? 'convert(a) × convert(b) + c' : 'a × b + c';
  } else {
    product = a;
    addend = op === 'sub' ? negate(second) : second;
    const name = mixed ? 'c' : 'b';
    expression = `${mixed ? 'convert(a)' : 'a'} ${op === 'sub' ? '-' : '+'} ${name}`;
  }
  if (product.kind === 'inf' || addend?.kind === 'inf') {
    if (product.kind === 'inf' && addend?.kind === 'inf' && product.negative !== addend.negative) {
      steps.push({
        kind: 'special',
        case: 'invalid',
        result: view(nan, out),
        detail: '∞ − ∞',
        decision: 'canonical-nan',
        rule: ieee('7.2', /∞ − ∞/, /invalid/),
      });
      return nan;
    }
    const negative =
      product.kind === 'inf' ? product.negative : (addend as { negative: boolean }).negative;
    const result = negative ? out.signMask + out.infBits : out.infBits;
    steps.push({
      kind: 'special',
      case: 'infinity',
      result: view(result, out),
      rule: ieee('6.1', /infinit/),
    });
    return result;
  }
  const p = product as { q: Rational; negative: boolean };
  const c = addend as { q: Rational; negative: boolean } | null;
  const exact = c ? add(p.q, c.q) : p.q;
  const fmt = REF_CVT_FORMATS[out.name as RefFormatName];
  steps.push({
    kind: 'exact',
    expression,
    value: finiteText(exact),
    representable: isZero(exact) || exactPattern(exact, fmt) !== null,
    rule: operatorRule(form),
  });
  if (isZero(exact)) {
    // IEEE 754 §6.3: a product's zero takes the XOR of the signs; a sum's zero is +0, or -0
    // under .rm, unless both terms are zeros of the same sign.
    const negative =
      c === null
        ? p.negative
        : isZero(p.q) && isZero(c.q) && p.negative === c.negative
          ? p.negative
          : mode === 'rm';
    const result = zeroBits(negative, out);
    steps.push({
      kind: 'special',
      case: 'exact-zero',
      result: view(result, out),
      rule: c === null ? ieee('6.3', /product/, /exclusive or/) : ieee('6.3', /sum/, /toward −∞/),
    });
    return result;
  }
  const r = roundModel(exact, fmt, mode);
  steps.push({ kind: 'round', ...r.fields, rule: ptx(section, ROUNDING_WORDS[mode]!) });
  let bits: number;
  if (r.overflow) {
    const negative = exact.num < 0n;
    bits = r.away
      ? withSign(out.infBits, negative, out)
      : withSign(out.maxFiniteBits, negative, out);
    steps.push({
      kind: 'overflow',
      mode,
      to: r.away ? 'infinity' : 'max-norm',
      result: view(bits, out),
      rule: ieee('7.4', /overflow/, /largest finite/),
    });
  } else {
    bits = Number(r.result);
    if (r.tinyBefore)
      steps.push({
        kind: 'tininess',
        result: view(bits, out),
        tinyBeforeRounding: true,
        tinyAfterRounding: r.tinyAfter,
        inexact: r.inexact,
        rule: ieee('7.5', /tiny/, /underflow/),
      });
  }
  if (has(form, 'ftz') && r.tinyBefore) {
    const reading = options.ftzTininess;
    const tiny = reading === 'after-rounding' ? r.tinyAfter : r.tinyBefore;
    const after = tiny && classOf(bits, out) !== 'zero' ? zeroBits(exact.num < 0n, out) : bits;
    steps.push({
      kind: 'flush-result',
      before: view(bits, out),
      after: view(after, out),
      tininess: reading,
      tinyBeforeRounding: r.tinyBefore,
      tinyAfterRounding: r.tinyAfter,
      decision: 'ftz-after-rounding',
      rule: ptx(section, /\.ftz.*results/),
    });
    bits = after;
  }
  return bits;
}

// ---------------------------------------------------------------------------------------------
// neg, abs

function signLane(form: Form, input: LaneInput): LaneOutcome {
  const name = input.formats.a!;
  const fmt = REF_FORMATS[name];
  const section = form.section.section;
  const lane = { ...input.bits };
  const steps: ExpectedStep[] = [input.inputs];
  if (has(form, 'ftz')) flushInputs(section, ['a'], lane, input.formats, steps);
  const a = lane.a!;
  let d: number;
  if (isNaNBits(a, fmt)) {
    d = fmt.canonicalNaN;
    steps.push({
      kind: 'special',
      case: 'nan-operand',
      result: view(d, fmt),
      decision: 'neg-abs-nan',
      rule: ptx(section, /NaN inputs yield an unspecified NaN/),
    });
  } else {
    d = form.operation === 'neg' ? withSign(a, !isNegative(a, fmt), fmt) : absBits(a, fmt);
    steps.push({
      kind: form.operation === 'neg' ? 'negate' : 'absolute',
      before: view(a, fmt),
      after: view(d, fmt),
      rule: ptx(section, form.operation === 'neg' ? /Negate/ : /absolute value/),
    });
  }
  return { steps, result: d, format: name };
}

// ---------------------------------------------------------------------------------------------
// min, max

/** a < b with -0 < +0, on non-NaN values. */
function less(a: number, b: number, fmt: RefFormat): boolean {
  const rank = (bits: number): [number, Rational] => {
    const v = valueOf(bits, fmt);
    if (v.kind === 'inf') return [v.negative ? -1 : 1, { num: 0n, den: 1n }];
    return [0, (v as { q: Rational }).q];
  };
  const [ra, qa] = rank(a);
  const [rb, qb] = rank(b);
  if (ra !== rb) return ra < rb;
  const c = compare(qa, qb);
  if (c !== 0) return c < 0;
  return isNegative(a, fmt) && !isNegative(b, fmt) && classOf(a, fmt) === 'zero';
}

function minMaxLane(form: Form, input: LaneInput): LaneOutcome {
  const name = input.formats.a!;
  const fmt = REF_FORMATS[name];
  const section = form.section.section;
  const isMin = form.operation === 'min';
  const lane = { ...input.bits };
  const steps: ExpectedStep[] = [input.inputs];
  if (has(form, 'ftz')) flushInputs(section, ['a', 'b'], lane, input.formats, steps);
  const xorsign = has(form, 'xorsign.abs');
  let a = lane.a!;
  let b = lane.b!;
  const sign = isNegative(a, fmt) !== isNegative(b, fmt) ? 1 : 0;
  if (xorsign) {
    for (const [operand, bits] of [
      ['a', a],
      ['b', b],
    ] as const) {
      if (!isNegative(bits, fmt)) continue;
      steps.push({
        kind: 'abs-inputs',
        operand,
        before: view(bits, fmt),
        after: view(absBits(bits, fmt), fmt),
        rule: ptx(section, /\.xorsign/, /\.abs/),
      });
    }
    a = absBits(a, fmt);
    b = absBits(b, fmt);
  }
  const aNaN = isNaNBits(a, fmt);
  const bNaN = isNaNBits(b, fmt);
  let branch: string;
  let chosen: 'a' | 'b' | 'nan';
  let comparison: { order: string; signedZeros: boolean } | undefined;
  let rule: RuleExpectation;
  if (aNaN && bNaN) {
    branch = 'both-nan';
    chosen = 'nan';
    rule = ptx(section, /isNaN\(a\) && isNaN\(b\)/);
  } else if (has(form, 'NaN') && (aNaN || bNaN)) {
    branch = 'nan-modifier';
    chosen = 'nan';
    rule = ptx(section, /\.NaN/, /canonical/);
  } else if (aNaN) {
    branch = 'a-nan';
    chosen = 'b';
    rule = ptx(section, /isNaN\(a\)\) d = b/);
  } else if (bNaN) {
    branch = 'b-nan';
    chosen = 'a';
    rule = ptx(section, /isNaN\(b\)\) d = a/);
  } else {
    branch = 'compare';
    const order = less(a, b, fmt) ? 'less' : less(b, a, fmt) ? 'greater' : 'equal';
    const zeros = classOf(a, fmt) === 'zero' && classOf(b, fmt) === 'zero';
    comparison = { order, signedZeros: zeros && isNegative(a, fmt) !== isNegative(b, fmt) };
    chosen = order === (isMin ? 'less' : 'greater') ? 'a' : 'b';
    rule = ptx(section, isMin ? /\(a < b\) \? a : b/ : /\(a > b\) \? a : b/);
  }
  const picked = chosen === 'nan' ? fmt.canonicalNaN : chosen === 'a' ? a : b;
  steps.push({
    kind: 'minmax',
    op: form.operation,
    a: view(a, fmt),
    b: view(b, fmt),
    branch,
    ...(comparison ? { comparison } : {}),
    chosen,
    result: view(picked, fmt),
    ...(branch === 'both-nan' ? { decision: 'minmax-both-nan' } : {}),
    rule,
  });
  let d = picked;
  if (xorsign && !isNaNBits(picked, fmt)) {
    d = withSign(picked, sign === 1, fmt);
    steps.push({
      kind: 'xorsign',
      sign,
      before: view(picked, fmt),
      after: view(d, fmt),
      ...(!isMin && form.type.endsWith('x2') ? { decision: 'max-x2-xorsign-typo' } : {}),
      rule: ptx(section, /\.xorsign/, /XOR/),
    });
  }
  return { steps, result: d, format: name };
}

// ---------------------------------------------------------------------------------------------
// tanh.approx, ex2.approx

function cornerInput(bits: number, fmt: RefFormat): CornerInput | `${'+' | '-'}normal` {
  const s = isNegative(bits, fmt) ? '-' : '+';
  switch (classOf(bits, fmt)) {
    case 'qnan':
    case 'snan':
      return 'nan';
    case 'inf':
      return `${s}inf`;
    case 'zero':
      return `${s}0`;
    case 'subnormal':
      return `${s}subnormal`;
    default:
      return `${s}normal`;
  }
}

const CORNER_BITS: Record<string, (fmt: RefFormat, input: number) => number> = {
  '+0.0': () => 0,
  '-0.0': (fmt) => fmt.signMask,
  '+1.0': (fmt) => pattern({ num: 1n, den: 1n }, fmt, false),
  '-1.0': (fmt) => pattern({ num: -1n, den: 1n }, fmt, true),
  '+inf': (fmt) => fmt.infBits,
  nan: (fmt) => fmt.canonicalNaN,
  input: (_fmt, input) => input,
};

function approxLane(form: Form, input: LaneInput): LaneOutcome {
  const name = input.formats.a!;
  const fmt = REF_FORMATS[name];
  const section = form.section.section;
  const fn = form.operation as 'tanh' | 'ex2';
  const ftz = has(form, 'ftz');
  const lane = { ...input.bits };
  const steps: ExpectedStep[] = [input.inputs];
  if (ftz) flushInputs(section, ['a'], lane, input.formats, steps);
  const x = lane.a!;
  const cornerName = cornerInput(x, fmt);
  let value: number | null = null;
  for (const table of form.cornerCases ?? []) {
    const row = table.rows.find((r) => r.input === cornerName);
    if (!row) continue;
    value = CORNER_BITS[row.result]!(fmt, x);
    steps.push({
      kind: 'special',
      case: 'corner-case',
      result: view(value, fmt),
      detail: `${row.input} → ${row.result}`,
      ...(row.result === 'nan' ? { decision: 'canonical-nan' } : {}),
      rule: ptx(section, new RegExp(table.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))),
    });
    break;
  }
  if (value === null) {
    const bound = form.errorBound!;
    const q = decode(x, fmt);
    value = refModel(fn, q, fmt);
    const allowed = refAllowed(fn, q, fmt, bound, ftz, value);
    steps.push({
      kind: 'approx',
      fn,
      input: view(x, fmt),
      mathValue: {
        check: (actual: unknown) =>
          typeof actual === 'string'
            ? checkMathValue(fn, q, decimalOf(q), actual)
            : 'mathValue is not a string',
      } satisfies FieldCheck,
      model: 'correctly-rounded',
      result: view(value, fmt),
      bound: { kind: bound.kind, log2: bound.log2 },
      allowed: {
        lowest: view(allowed.lowest, fmt).bits,
        highest: view(allowed.highest, fmt).bits,
        count: allowed.count,
        overflows: allowed.overflows,
        ...(allowed.emptyBecause ? { emptyBecause: allowed.emptyBecause } : {}),
      },
      decision: 'approx-model',
      rule: ptx(section, /maximum (absolute|relative) error/),
    });
  }
  let d = value;
  if (ftz && classOf(value, fmt) === 'subnormal') {
    d = zeroBits(isNegative(value, fmt), fmt);
    steps.push({
      kind: 'flush-result',
      before: view(value, fmt),
      after: view(d, fmt),
      decision: 'approx-ftz-result',
      rule: ptx(section, /\.ftz.*results/),
    });
  }
  return { steps, result: d, format: name };
}

/** The steps of one lane of a half- or mixed-precision form, up to (not including) the write. */
export function arithmeticFamilyLane(
  form: Form,
  input: LaneInput,
  options: ModelOptions,
): LaneOutcome {
  switch (form.operation) {
    case 'add':
    case 'sub':
    case 'mul':
    case 'fma':
      return arithmeticLane(form, input, options);
    case 'neg':
    case 'abs':
      return signLane(form, input);
    case 'min':
    case 'max':
      return minMaxLane(form, input);
    case 'tanh':
    case 'ex2':
      return approxLane(form, input);
    default:
      throw new Error(`not an arithmetic form: ${form.text}`);
  }
}
