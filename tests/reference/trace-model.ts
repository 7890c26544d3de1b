/**
 * The trace checker's model: for a form and its operands, every step the trace should have and
 * every field of it, worked out from the definitions in docs/trace.md with exact rationals
 * (rational.ts), rounding by neighbour search (neighbour-round.ts) and the reference's own
 * tanh/2^x enclosures — sharing no code with src/engine (only the catalog, for the forms, their
 * corner-case tables and error bounds). trace-compare.ts holds the engine's trace against this,
 * field by field.
 *
 * Rules are checked by what they cite (PTX ISA or IEEE 754, the section) and by words their
 * text must contain, not by their whole wording.
 */
import { findForm, type Form } from '../../src/catalog/forms.ts';
import type { CornerInput, ErrorBound } from '../../src/catalog/instructions.ts';
import type { FormatName, OperandName, RoundingMode } from '../../src/catalog/types.ts';
import { checkMathValue, refAllowed, refModel } from './approx-allowed-ref.ts';
import {
  DEFAULT_MODEL_OPTIONS,
  isOobMarked,
  valueOf,
  type ModelOptions,
  type OobMarks,
  type Value,
} from './model-inputs.ts';
import { bitsText, classWord, decimalOf, finiteText, floorLog2 } from './exact-text.ts';
import { roundRational } from './neighbour-round.ts';
import { add, compare, floor, isZero, mul, neg, pow2, sub, type Rational } from './rational.ts';
import {
  absBits,
  classOf,
  decode,
  isNaNBits,
  isNegative,
  minNormal,
  REF_FORMATS,
  WIDE_FORMATS,
  withSign,
  zeroBits,
  type RefFormat,
} from './ref-formats.ts';

export interface RuleExpectation {
  readonly source: 'ptx' | 'ieee-754';
  readonly section: string;
  /** Words (patterns) the rule's text must contain. */
  readonly mentions: readonly RegExp[];
}

/** A step as the checker expects it: every field but `rule`, which is an expectation. */
export interface ExpectedStep {
  readonly kind: string;
  readonly rule: RuleExpectation;
  readonly [field: string]: unknown;
}

/** Fields checked by a predicate instead of equality (a value the model can bound, not write). */
export interface FieldCheck {
  readonly check: (actual: unknown) => string | null;
}

export interface ExpectedLane {
  readonly lane: number;
  readonly steps: readonly ExpectedStep[];
  readonly result: number;
}

export interface ExpectedResult {
  readonly form: string;
  readonly d: number;
  readonly dFormat: FormatName;
  readonly dBits: 16 | 32;
  readonly lanes: readonly ExpectedLane[];
  readonly decisions: readonly string[];
}

export {
  DEFAULT_MODEL_OPTIONS as DEFAULT_TRACE_OPTIONS,
  type ModelOptions as TraceOptions,
  type OobMarks,
} from './model-inputs.ts';

const has = (form: Form, modifier: string) =>
  (form.modifiers as readonly string[]).includes(modifier);

const ptx = (section: string, ...mentions: RegExp[]): RuleExpectation => ({
  source: 'ptx',
  section,
  mentions,
});
const ieee = (section: string, ...mentions: RegExp[]): RuleExpectation => ({
  source: 'ieee-754',
  section,
  mentions,
});

function pattern(q: Rational, fmt: RefFormat, negativeZero: boolean): number {
  return roundRational(q, 'rn', fmt, negativeZero);
}

function abs(q: Rational): Rational {
  return q.num < 0n ? neg(q) : q;
}

/** The result/operand format of a form's operands. */
function formatOf(form: Form, name: OperandName): RefFormat {
  return REF_FORMATS[form.operands.find((o) => o.name === name)!.format];
}

function inputsStep(form: Form, lane: Record<string, number>): ExpectedStep {
  const packed = form.operands[1]!.lanes === 2;
  return {
    kind: 'inputs',
    operands: form.operands.slice(1).map((o) => {
      const fmt = REF_FORMATS[o.format];
      const bits = lane[o.name]!;
      return {
        name: o.name,
        bits,
        format: o.format,
        class: classWord(bits, fmt),
        value: bitsText(bits, fmt),
      };
    }),
    rule: ptx(
      form.record.section,
      packed ? /lane 0 = bits \[0:15\], lane 1 = bits \[16:31\]/ : /single values/,
    ),
  };
}

function resultStep(form: Form, bits: number, fmt: RefFormat): ExpectedStep {
  return {
    kind: 'result',
    format: fmt.name,
    bits,
    value: bitsText(bits, fmt),
    rule: ptx(form.record.section, /destination/),
  };
}

function flushInputs(
  form: Form,
  names: readonly OperandName[],
  lane: Record<string, number>,
  steps: ExpectedStep[],
  mentions: RegExp,
): void {
  for (const name of names) {
    const fmt = formatOf(form, name);
    const bits = lane[name]!;
    if (classOf(bits, fmt) !== 'subnormal') continue;
    const after = zeroBits(isNegative(bits, fmt), fmt);
    steps.push({
      kind: 'flush-input',
      operand: name,
      format: fmt.name,
      before: bits,
      after,
      rule: ptx(form.record.section, mentions),
    });
    lane[name] = after;
  }
}

// ---------------------------------------------------------------------------------------------
// Rounding: every field of the round step, from the exact value and the format.

/** The finite pattern nearest below/above x in value order (x finite, |x| <= max). */
function neighbours(x: Rational, fmt: RefFormat): { lower: number; upper: number } {
  const negative = x.num < 0n;
  const m = abs(x);
  // Largest magnitude pattern with value <= |x|.
  let lo = 0;
  let hi = fmt.maxFiniteBits;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (compare(decode(mid, fmt), m) <= 0) lo = mid;
    else hi = mid - 1;
  }
  const exact = compare(decode(lo, fmt), m) === 0;
  const sign = negative ? fmt.signMask : 0;
  const below = sign + lo;
  const above = sign + (exact ? lo : lo + 1);
  return negative ? { lower: above, upper: below } : { lower: below, upper: above };
}

function valueOfPattern(bits: number, fmt: RefFormat): Rational | 'inf' {
  return classOf(bits, fmt) === 'inf' ? 'inf' : decode(bits, fmt);
}

export interface Rounding {
  readonly step: ExpectedStep;
  readonly result: number;
  readonly inexact: boolean;
  readonly overflow: boolean;
  readonly tinyBefore: boolean;
  readonly tinyAfter: boolean;
}

const ROUNDING_WORDS: Record<RoundingMode, RegExp> = {
  rn: /\.rn.*nearest even/,
  rz: /\.rz.*towards zero/,
  rm: /\.rm.*negative infinity/,
  rp: /\.rp.*positive infinity/,
};

export function roundingOf(
  x: Rational,
  fmt: RefFormat,
  mode: RoundingMode,
  section: string,
): Rounding {
  const negative = x.num < 0n;
  const m = abs(x);
  const emax = fmt.bias;
  const emin = 1 - fmt.bias;
  const p = fmt.fractionBits;
  const max = decode(fmt.maxFiniteBits, fmt);
  const result = roundRational(x, mode, fmt, negative);
  const sign = negative ? fmt.signMask : 0;

  // Neighbours in the format itself: past the largest finite value, it and the infinity.
  let lower: number;
  let upper: number;
  if (compare(m, max) > 0) {
    const maxBits = sign + fmt.maxFiniteBits;
    const infinity = sign + fmt.infBits;
    [lower, upper] = negative ? [infinity, maxBits] : [maxBits, infinity];
  } else {
    ({ lower, upper } = neighbours(x, fmt));
  }
  const resultValue = valueOfPattern(result, fmt);
  const inexact = resultValue === 'inf' || compare(resultValue, x) !== 0;
  const larger = inexact && (resultValue === 'inf' || compare(abs(resultValue), m) > 0);
  const direction = !inexact ? 'exact' : larger !== negative ? 'up' : 'down';

  // Why: by distances, with the value after the largest finite one taken as 2^(emax+1) (IEEE
  // 754's unbounded rounding), and the threshold rule beyond the exponent range.
  const beyondRange = compare(m, pow2(emax + 1)) >= 0;
  let reason: string;
  if (!inexact) reason = 'exact';
  else if (mode === 'rz') reason = 'toward-zero';
  else if (mode === 'rp') reason = 'toward-plus-inf';
  else if (mode === 'rm') reason = 'toward-minus-inf';
  else if (beyondRange) reason = 'overflow-threshold';
  else {
    const smallerMag = abs(decode(negative ? upper : lower, fmt));
    const largerBits = negative ? lower : upper;
    const largerMag =
      classOf(largerBits, fmt) === 'inf' ? pow2(emax + 1) : abs(decode(largerBits, fmt));
    const dropped = sub(m, smallerMag);
    const half = mul(sub(largerMag, smallerMag), { num: 1n, den: 2n });
    const c = compare(dropped, half);
    reason = c < 0 ? 'below-half' : c > 0 ? 'above-half' : 'tie-to-even';
  }

  // The cut at the result's quantum, inside the exponent range.
  let cut: Record<string, unknown> | undefined;
  if (!beyondRange) {
    const e = floorLog2(m);
    const q = Math.max(e, emin) - p;
    const scaled = mul(m, pow2(2 - q));
    const whole = floor(scaled);
    cut = {
      kept: (whole >> 2n).toString(2),
      guard: Number((whole >> 1n) & 1n),
      round: Number(whole & 1n),
      sticky: compare(scaled, { num: whole, den: 1n }) === 0 ? 0 : 1,
      ulpExponent: q,
    };
  }

  // IEEE 754 §7.4 overflow and §7.5 tininess: rounded with an unbounded exponent.
  const wide = WIDE_FORMATS[fmt.name as FormatName];
  const unbounded = abs(decode(roundRational(x, mode, wide, negative), wide));
  const overflow = compare(unbounded, max) > 0;
  const tinyBefore = compare(m, minNormal(fmt)) < 0;
  const tinyAfter = compare(unbounded, minNormal(fmt)) < 0;

  const step: ExpectedStep = {
    kind: 'round',
    format: fmt.name,
    mode,
    exact: finiteText(x),
    ...(cut ? { cut } : {}),
    inexact,
    direction,
    magnitude: !inexact ? 'exact' : larger ? 'larger' : 'smaller',
    reason,
    lower,
    upper,
    result,
    subnormal: classOf(result, fmt) === 'subnormal',
    rule: ptx(section, ROUNDING_WORDS[mode]),
  };
  return { step, result, inexact, overflow, tinyBefore, tinyAfter };
}

// ---------------------------------------------------------------------------------------------
// add, sub, mul, fma (half and mixed precision)

function arithmeticLane(
  form: Form,
  input: Record<string, number>,
  options: ModelOptions,
): { steps: ExpectedStep[]; result: number } {
  const section = form.record.section;
  const mixed = form.type.startsWith('f32.');
  const out = REF_FORMATS[form.operands[0]!.format];
  const mode: RoundingMode = form.rounding ?? 'rn';
  const names = form.operands.slice(1).map((o) => o.name);
  const lane = { ...input };
  const steps: ExpectedStep[] = [inputsStep(form, lane)];
  const finish = (bits: number) => {
    steps.push(resultStep(form, bits, out));
    return { steps, result: bits };
  };

  if (has(form, 'oob')) {
    const holds = (n: string) => absBits(lane[n]!, REF_FORMATS.f16) === options.oobNanBits % 0x8000;
    const forcesZero = holds('a') || holds('b');
    steps.push({
      kind: 'oob-check',
      oobOperands: names.filter(holds),
      forcesZero,
      pattern: options.oobNanBits,
      decision: 'oob-nan-pattern',
      rule: ptx(section, /\.oob/, /OOB NaN/),
    });
    if (forcesZero) return finish(0);
  }
  if (has(form, 'ftz')) flushInputs(form, names, lane, steps, /\.ftz.*subnormal inputs/);
  const operand: Record<string, Value> = {};
  for (const n of names) {
    const fmt = formatOf(form, n);
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
        format: fmt.name,
        to: out.name,
        before: lane[n]!,
        after,
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
      format: out.name,
      before: bits,
      after,
      ...(bits === out.signMask ? { decision: 'sat-negative-zero' } : {}),
      rule: ptx(section, /\.sat.*\[0\.0, 1\.0\]/),
    });
    bits = after;
  }
  if (has(form, 'relu')) {
    const after = isNaNBits(bits, out) ? out.canonicalNaN : isNegative(bits, out) ? 0 : bits;
    steps.push({
      kind: 'relu',
      format: out.name,
      before: bits,
      after,
      ...(bits === out.signMask ? { decision: 'relu-negative-zero' } : {}),
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

/** Special cases, the exact value, its rounding, overflow/tininess and .ftz on the result. */
function exactAndRound(
  form: Form,
  operand: Record<string, Value>,
  out: RefFormat,
  mode: RoundingMode,
  steps: ExpectedStep[],
  options: ModelOptions,
): number {
  const section = form.record.section;
  const mixed = form.type.startsWith('f32.');
  const op = form.opcode;
  const nan = out.canonicalNaN;
  if (Object.values(operand).some((v) => v.kind === 'nan')) {
    steps.push({
      kind: 'special',
      case: 'nan-operand',
      format: out.name,
      result: nan,
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
        detail: '0 × ∞',
        format: out.name,
        result: nan,
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
        detail: '∞ − ∞',
        format: out.name,
        result: nan,
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
      format: out.name,
      result,
      rule: ieee('6.1', /infinit/),
    });
    return result;
  }
  const p = product as { q: Rational; negative: boolean };
  const c = addend as { q: Rational; negative: boolean } | null;
  const exact = c ? add(p.q, c.q) : p.q;
  const packed = form.operands[1]!.lanes === 2;
  const operator = { add: /\+/, sub: /-/, mul: /\*/, fma: /\* .* \+/ }[op as 'add'];
  steps.push({
    kind: 'exact',
    expression,
    value: finiteText(exact),
    rule: ptx(section, operator, packed ? /^d\[i\] = / : /^d = [^/]*;$/),
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
      format: out.name,
      result,
      rule: c === null ? ieee('6.3', /product/, /exclusive or/) : ieee('6.3', /sum/, /toward −∞/),
    });
    return result;
  }
  const r = roundingOf(exact, out, mode, section);
  steps.push(r.step);
  if (r.overflow) {
    steps.push({
      kind: 'overflow',
      format: out.name,
      mode,
      to: classOf(r.result, out) === 'inf' ? 'infinity' : 'max-finite',
      result: r.result,
      rule: ieee('7.4', /overflow/, /largest finite/),
    });
  } else if (r.tinyBefore) {
    steps.push({
      kind: 'tininess',
      format: out.name,
      result: r.result,
      tinyBeforeRounding: true,
      tinyAfterRounding: r.tinyAfter,
      inexact: r.inexact,
      rule: ieee('7.5', /tiny/, /underflow/),
    });
  }
  let bits = r.result;
  if (has(form, 'ftz') && r.tinyBefore) {
    const reading = options.ftzTininess;
    const tiny = reading === 'after-rounding' ? r.tinyAfter : r.tinyBefore;
    const after = tiny ? zeroBits(exact.num < 0n, out) : bits;
    steps.push({
      kind: 'flush-result',
      format: out.name,
      before: bits,
      after,
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

function signLane(
  form: Form,
  input: Record<string, number>,
): { steps: ExpectedStep[]; result: number } {
  const fmt = formatOf(form, 'a');
  const section = form.record.section;
  const lane = { ...input };
  const steps: ExpectedStep[] = [inputsStep(form, lane)];
  if (has(form, 'ftz')) flushInputs(form, ['a'], lane, steps, /\.ftz.*subnormal inputs/);
  const a = lane.a!;
  let d: number;
  if (isNaNBits(a, fmt)) {
    d = fmt.canonicalNaN;
    steps.push({
      kind: 'special',
      case: 'nan-operand',
      format: fmt.name,
      result: d,
      decision: 'neg-abs-nan',
      rule: ptx(section, /NaN inputs yield an unspecified NaN/),
    });
  } else {
    d = form.opcode === 'neg' ? withSign(a, !isNegative(a, fmt), fmt) : absBits(a, fmt);
    steps.push({
      kind: form.opcode === 'neg' ? 'negate' : 'absolute',
      format: fmt.name,
      before: a,
      after: d,
      rule: ptx(section, form.opcode === 'neg' ? /Negate/ : /absolute value/),
    });
  }
  steps.push(resultStep(form, d, fmt));
  return { steps, result: d };
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

function minMaxLane(
  form: Form,
  input: Record<string, number>,
): { steps: ExpectedStep[]; result: number } {
  const fmt = formatOf(form, 'a');
  const section = form.record.section;
  const isMin = form.opcode === 'min';
  const lane = { ...input };
  const steps: ExpectedStep[] = [inputsStep(form, lane)];
  if (has(form, 'ftz')) flushInputs(form, ['a', 'b'], lane, steps, /\.ftz.*subnormal inputs/);
  const xorsign = has(form, 'xorsign.abs');
  let a = lane.a!;
  let b = lane.b!;
  const sign = isNegative(a, fmt) !== isNegative(b, fmt) ? 1 : 0;
  if (xorsign) {
    for (const [name, bits] of [
      ['a', a],
      ['b', b],
    ] as const) {
      if (!isNegative(bits, fmt)) continue;
      steps.push({
        kind: 'abs-inputs',
        operand: name,
        format: fmt.name,
        before: bits,
        after: absBits(bits, fmt),
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
    op: form.opcode,
    format: fmt.name,
    a,
    b,
    branch,
    ...(comparison ? { comparison } : {}),
    chosen,
    result: picked,
    ...(branch === 'both-nan' ? { decision: 'minmax-both-nan' } : {}),
    rule,
  });
  let d = picked;
  if (xorsign && !isNaNBits(picked, fmt)) {
    d = withSign(picked, sign === 1, fmt);
    steps.push({
      kind: 'xorsign',
      sign,
      format: fmt.name,
      before: picked,
      after: d,
      ...(!isMin && form.type.endsWith('x2') ? { decision: 'max-x2-xorsign-typo' } : {}),
      rule: ptx(section, /\.xorsign/, /XOR/),
    });
  }
  steps.push(resultStep(form, d, fmt));
  return { steps, result: d };
}

// ---------------------------------------------------------------------------------------------
// tanh.approx, ex2.approx

function cornerInput(bits: number, fmt: RefFormat): CornerInput {
  const s = isNegative(bits, fmt) ? '-' : '+';
  switch (classOf(bits, fmt)) {
    case 'qnan':
    case 'snan':
      return 'nan';
    case 'inf':
      return `${s}inf` as CornerInput;
    case 'zero':
      return `${s}0` as CornerInput;
    case 'subnormal':
      return `${s}subnormal` as CornerInput;
    default:
      return `${s}normal` as CornerInput;
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

function approxLane(
  form: Form,
  input: Record<string, number>,
): { steps: ExpectedStep[]; result: number } {
  const fmt = formatOf(form, 'a');
  const section = form.record.section;
  const fn = form.opcode as 'tanh' | 'ex2';
  const ftz = has(form, 'ftz');
  const lane = { ...input };
  const steps: ExpectedStep[] = [inputsStep(form, lane)];
  if (ftz) flushInputs(form, ['a'], lane, steps, /\.ftz.*subnormal inputs/);
  const x = lane.a!;
  const cornerName = cornerInput(x, fmt);
  let value: number | null = null;
  for (const table of form.record.cornerCases ?? []) {
    if (!table.types.includes(form.type)) continue;
    const row = table.rows.find((r) => r.input === cornerName);
    if (!row) continue;
    value = CORNER_BITS[row.result]!(fmt, x);
    steps.push({
      kind: 'special',
      case: 'corner-case',
      detail: `${row.input} → ${row.result}`,
      format: fmt.name,
      result: value,
      ...(row.result === 'nan' ? { decision: 'canonical-nan' } : {}),
      rule: ptx(section, new RegExp(table.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))),
    });
    break;
  }
  if (value === null) {
    const bound = form.record.errorBounds!.find((b) => b.types.includes(form.type)) as ErrorBound;
    const q = decode(x, fmt);
    value = refModel(fn, q, fmt);
    const model = value;
    steps.push({
      kind: 'approx',
      fn,
      format: fmt.name,
      input: x,
      mathValue: {
        check: (actual: unknown) =>
          typeof actual === 'string'
            ? checkMathValue(fn, q, decimalOf(q), actual)
            : 'mathValue is not a string',
      } satisfies FieldCheck,
      model: 'correctly-rounded',
      result: model,
      bound: { kind: bound.kind, log2: bound.log2 },
      allowed: refAllowed(fn, q, fmt, bound, ftz, model),
      decision: 'approx-model',
      rule: ptx(section, /maximum (absolute|relative) error/),
    });
  }
  let d = value;
  if (ftz && classOf(value, fmt) === 'subnormal') {
    d = zeroBits(isNegative(value, fmt), fmt);
    steps.push({
      kind: 'flush-result',
      format: fmt.name,
      before: value,
      after: d,
      decision: 'approx-ftz-result',
      rule: ptx(section, /\.ftz.*results/),
    });
  }
  steps.push(resultStep(form, d, fmt));
  return { steps, result: d };
}

// ---------------------------------------------------------------------------------------------

/** The whole expected evaluation of `formText` on registers a, b, c. */
export function expectedTrace(
  formText: string,
  registers: { a: number; b?: number; c?: number },
  oob?: OobMarks,
  options: ModelOptions = DEFAULT_MODEL_OPTIONS,
): ExpectedResult {
  const form = findForm(formText);
  if (!form) throw new Error(`unknown form ${formText}`);
  const dest = form.operands[0]!;
  const laneCount = Math.max(...form.operands.map((o) => o.lanes));
  const lanes: ExpectedLane[] = [];
  let d = 0;
  for (let laneIndex = 0; laneIndex < laneCount; laneIndex++) {
    const input: Record<string, number> = {};
    for (const o of form.operands.slice(1)) {
      const name = o.name as 'a' | 'b' | 'c';
      const reg = registers[name] ?? 0;
      const bits = o.lanes === 2 ? Math.floor(reg / 2 ** (16 * laneIndex)) % 0x10000 : reg;
      input[name] = isOobMarked(oob, name, laneIndex) ? options.oobNanBits : bits;
    }
    let out: { steps: ExpectedStep[]; result: number };
    switch (form.opcode) {
      case 'add':
      case 'sub':
      case 'mul':
      case 'fma':
        out = arithmeticLane(form, input, options);
        break;
      case 'neg':
      case 'abs':
        out = signLane(form, input);
        break;
      case 'min':
      case 'max':
        out = minMaxLane(form, input);
        break;
      case 'tanh':
      case 'ex2':
        out = approxLane(form, input);
        break;
    }
    lanes.push({ lane: laneIndex, steps: out.steps, result: out.result });
    d += out.result * 2 ** (16 * laneIndex);
  }
  const decisions: string[] = form.documented ? [] : ['ptxas-only-forms'];
  for (const lane of lanes)
    for (const step of lane.steps)
      if (typeof step.decision === 'string' && !decisions.includes(step.decision))
        decisions.push(step.decision);
  return {
    form: form.text,
    d,
    dFormat: dest.format,
    dBits: dest.bits,
    lanes,
    decisions,
  };
}
