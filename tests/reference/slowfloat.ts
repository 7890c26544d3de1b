/**
 * "slowfloat": an independent, deliberately simple model of the PTX half-precision and
 * mixed-precision instructions, in the spirit of TestFloat's slowfloat.c. It shares nothing with
 * src/engine but the catalog (to learn a form's opcode, type and modifiers): values are exact
 * rationals, results are found by neighbour search (neighbour-round.ts), and each instruction is
 * written from the spec text (/work/shared/spec, 9.7.4 and 9.7.5) and the decisions listed in
 * src/engine/decisions.ts. When the engine and this model agree, that means something.
 */
import type { Form } from '../../src/catalog/instruction.ts';
import type { IeeeRounding } from '../../src/catalog/modifiers.ts';
import { arithmeticForm, operandsOf, roundingOf, type OperandName } from './catalog-forms.ts';
import { roundRational } from './neighbour-round.ts';
import { add, compare, isZero, mul, neg, ONE, sign } from './rational.ts';
import {
  absBits,
  classOf,
  decode,
  infBits,
  isNaNBits,
  isNegative,
  minNormal,
  REF_FORMATS,
  WIDE_FORMATS,
  withSign,
  zeroBits,
  type RefFormat,
} from './ref-formats.ts';
import {
  DEFAULT_MODEL_OPTIONS,
  isOobMarked,
  valueOf,
  type ModelOptions,
  type OobMarks,
  type Value,
} from './model-inputs.ts';
import { correctlyRounded, exp2Enclosure, tanhEnclosure } from './transcendental.ts';

export {
  DEFAULT_MODEL_OPTIONS as DEFAULT_REF_OPTIONS,
  type ModelOptions as RefOptions,
  type OobMarks as RefOobMarks,
} from './model-inputs.ts';

function negateValue(v: Value): Value {
  if (v.kind === 'nan') return v;
  if (v.kind === 'inf') return { kind: 'inf', negative: !v.negative };
  return { kind: 'finite', q: neg(v.q), negative: !v.negative };
}

/** x × y, exactly (IEEE 754 §6.1, §7.2: ∞ × 0 is invalid; the sign is the XOR of the signs). */
function exactProduct(x: Value, y: Value): Value {
  if (x.kind === 'nan' || y.kind === 'nan') return { kind: 'nan' };
  const negative = x.negative !== y.negative;
  if (x.kind === 'inf' || y.kind === 'inf') {
    const other = x.kind === 'inf' ? y : x;
    if (other.kind === 'finite' && isZero(other.q)) return { kind: 'nan' };
    return { kind: 'inf', negative };
  }
  return { kind: 'finite', q: mul(x.q, y.q), negative };
}

/**
 * x + y, exactly. An exact zero sum is +0, or -0 under .rm, except that two zeros of the same
 * sign keep it (IEEE 754 §6.3).
 */
function exactSum(x: Value, y: Value, mode: IeeeRounding): Value {
  if (x.kind === 'nan' || y.kind === 'nan') return { kind: 'nan' };
  if (x.kind === 'inf' && y.kind === 'inf') return x.negative === y.negative ? x : { kind: 'nan' };
  if (x.kind === 'inf') return x;
  if (y.kind === 'inf') return y;
  const q = add(x.q, y.q);
  if (!isZero(q)) return { kind: 'finite', q, negative: sign(q) < 0 };
  const bothZeroSameSign = isZero(x.q) && isZero(y.q) && x.negative === y.negative;
  return { kind: 'finite', q, negative: bothZeroSameSign ? x.negative : mode === 'rm' };
}

function canonicalNaN(fmt: RefFormat): number {
  return fmt.canonicalNaN;
}

/** .ftz on an input: a subnormal becomes a zero of the same sign. */
function flushInput(bits: number, fmt: RefFormat): number {
  return classOf(bits, fmt) === 'subnormal' ? zeroBits(isNegative(bits, fmt), fmt) : bits;
}

/**
 * .ftz on a result: a tiny nonzero exact value gives a zero of its sign. Tiny before rounding:
 * |exact| < 2^emin. Tiny after rounding: |exact| rounded (in the form's mode) to a format of the
 * same precision with a wider exponent range is < 2^emin.
 */
function flushResult(
  bits: number,
  exact: Value,
  mode: IeeeRounding,
  fmt: RefFormat,
  options: ModelOptions,
): number {
  if (exact.kind !== 'finite' || isZero(exact.q)) return bits;
  const magnitude = exact.negative ? neg(exact.q) : exact.q;
  let tiny = compare(magnitude, minNormal(fmt)) < 0;
  if (tiny && options.ftzTininess === 'after-rounding') {
    const wide = WIDE_FORMATS[fmt.name as 'f16' | 'bf16'];
    const rounded = decode(roundRational(exact.q, mode, wide, exact.negative), wide);
    tiny = compare(exact.negative ? neg(rounded) : rounded, minNormal(fmt)) < 0;
  }
  return tiny ? zeroBits(exact.negative, fmt) : bits;
}

function roundValue(v: Value, mode: IeeeRounding, fmt: RefFormat): number {
  if (v.kind === 'nan') return canonicalNaN(fmt);
  if (v.kind === 'inf') return infBits(v.negative, fmt);
  return roundRational(v.q, mode, fmt, v.negative);
}

/** .sat: clamp to [+0.0, 1.0]; NaN → +0.0, and -0.0 → +0.0 (decision sat-negative-zero). */
function saturate(bits: number, fmt: RefFormat): number {
  if (isNaNBits(bits, fmt) || isNegative(bits, fmt)) return zeroBits(false, fmt);
  const v = valueOf(bits, fmt);
  if (v.kind === 'inf' || (v.kind === 'finite' && compare(v.q, ONE) > 0)) {
    return roundRational(ONE, 'rn', fmt);
  }
  return bits;
}

/** .relu: negative values and -0.0 → +0.0; NaN → canonical NaN (decision relu-negative-zero). */
function relu(bits: number, fmt: RefFormat): number {
  if (isNaNBits(bits, fmt)) return canonicalNaN(fmt);
  return isNegative(bits, fmt) ? zeroBits(false, fmt) : bits;
}

interface LaneInputs {
  /** Bits of each source operand in this lane, already replaced by oobNanBits where marked. */
  readonly bits: Partial<Record<OperandName, number>>;
  readonly formats: Partial<Record<OperandName, RefFormat>>;
}

function has(form: Form, modifier: string): boolean {
  return (form.modifiers as readonly string[]).includes(modifier);
}

/** add, sub, mul, fma, half or mixed: exact result, one rounding, then ftz, sat, relu, oob. */
function arithmeticLane(
  form: Form,
  lane: LaneInputs,
  out: RefFormat,
  options: ModelOptions,
): number {
  const ftz = has(form, 'ftz');
  const mode = roundingOf(form);
  const operand = (name: OperandName): Value => {
    const fmt = lane.formats[name]!;
    const bits = lane.bits[name]!;
    return valueOf(ftz ? flushInput(bits, fmt) : bits, fmt);
  };
  let exact: Value;
  // Mixed add/sub name their second operand c (d = convert(a) ± c); half add/sub/mul use b.
  const second: OperandName = lane.bits.b === undefined ? 'c' : 'b';
  switch (form.opcode) {
    case 'add':
      exact = exactSum(operand('a'), operand(second), mode);
      break;
    case 'sub':
      exact = exactSum(operand('a'), negateValue(operand(second)), mode);
      break;
    case 'mul':
      exact = exactProduct(operand('a'), operand('b'));
      break;
    case 'fma':
      exact = exactSum(exactProduct(operand('a'), operand('b')), operand('c'), mode);
      break;
    default:
      throw new Error(`not an arithmetic opcode: ${form.opcode}`);
  }
  let bits = roundValue(exact, mode, out);
  if (ftz) bits = flushResult(bits, exact, mode, out, options);
  if (has(form, 'sat')) bits = saturate(bits, out);
  if (has(form, 'relu')) bits = relu(bits, out);
  // .oob tests the multiplicands for the OOB-NaN pattern; it decides whatever c holds.
  const isOob = (bits: number) => bits % 0x8000 === options.oobNanBits % 0x8000;
  if (has(form, 'oob') && (isOob(lane.bits.a!) || isOob(lane.bits.b!))) bits = zeroBits(false, out);
  return bits;
}

/** neg/abs: flush the input under .ftz; NaN → canonical NaN (decision neg-abs-nan). */
function signLane(form: Form, lane: LaneInputs, fmt: RefFormat): number {
  let a = lane.bits.a!;
  if (has(form, 'ftz')) a = flushInput(a, fmt);
  if (isNaNBits(a, fmt)) return canonicalNaN(fmt);
  return form.opcode === 'neg' ? withSign(a, !isNegative(a, fmt), fmt) : absBits(a, fmt);
}

/** Total order of non-NaN values with -0 < +0 ("If values of both inputs are 0.0, then +0.0 > -0.0"). */
function lessThan(x: number, y: number, fmt: RefFormat): boolean {
  const vx = valueOf(x, fmt);
  const vy = valueOf(y, fmt);
  const rank = (v: Value): number => (v.kind === 'inf' ? (v.negative ? -1 : 1) : 0);
  if (rank(vx) !== rank(vy)) return rank(vx) < rank(vy);
  if (vx.kind !== 'finite' || vy.kind !== 'finite') return false; // equal infinities
  const c = compare(vx.q, vy.q);
  if (c !== 0) return c < 0;
  return vx.negative && !vy.negative;
}

/** min/max, transcribed from the pseudo-code of 9.7.4.7 / 9.7.4.8. */
function minMaxLane(form: Form, lane: LaneInputs, fmt: RefFormat): number {
  let a = lane.bits.a!;
  let b = lane.bits.b!;
  if (has(form, 'ftz')) {
    a = flushInput(a, fmt);
    b = flushInput(b, fmt);
  }
  const xorsignAbs = has(form, 'xorsign.abs');
  let xorsign = false;
  if (xorsignAbs) {
    xorsign = isNegative(a, fmt) !== isNegative(b, fmt);
    a = absBits(a, fmt);
    b = absBits(b, fmt);
  }
  const aNaN = isNaNBits(a, fmt);
  const bNaN = isNaNBits(b, fmt);
  let d: number;
  // Decision minmax-both-nan: both NaN → NaN, not the fall-through d = b.
  if (aNaN && bNaN) d = canonicalNaN(fmt);
  else if (has(form, 'NaN') && (aNaN || bNaN)) d = canonicalNaN(fmt);
  else if (aNaN) d = b;
  else if (bNaN) d = a;
  else if (form.opcode === 'min') d = lessThan(a, b, fmt) ? a : b;
  else d = lessThan(b, a, fmt) ? a : b;
  // Decision max-x2-xorsign-typo: the sign is applied when the result d is not NaN.
  if (xorsignAbs && !isNaNBits(d, fmt)) d = withSign(d, xorsign, fmt);
  return d;
}

/** tanh.approx: the spec's corner-case table, else tanh correctly rounded (decision approx-model). */
function tanhLane(a: number, fmt: RefFormat): number {
  const v = valueOf(a, fmt);
  if (v.kind === 'nan') return canonicalNaN(fmt);
  if (v.kind === 'inf') return roundRational(v.negative ? neg(ONE) : ONE, 'rn', fmt);
  if (isZero(v.q)) return a; // ±0 → ±0
  // tanh is odd and round-to-nearest is symmetric: round |tanh x| and put the sign back.
  const magnitude = v.negative ? neg(v.q) : v.q;
  const { bits } = correctlyRounded((p) => tanhEnclosure(magnitude, p), fmt);
  return withSign(bits, v.negative, fmt);
}

/** ex2.approx: corner-case tables, else 2^x correctly rounded; .ftz (bf16) flushes in and out. */
function ex2Lane(a: number, ftz: boolean, fmt: RefFormat, options: ModelOptions): number {
  const v = valueOf(ftz ? flushInput(a, fmt) : a, fmt);
  if (v.kind === 'nan') return canonicalNaN(fmt);
  if (v.kind === 'inf') return v.negative ? zeroBits(false, fmt) : infBits(false, fmt);
  if (isZero(v.q)) return roundRational(ONE, 'rn', fmt);
  // Far outside the range both formats can hold, 2^x is +inf or rounds to +0; skip 2^(huge).
  if (compare(v.q, { num: 300n, den: 1n }) > 0) return infBits(false, fmt);
  if (compare(v.q, { num: -300n, den: 1n }) < 0) return zeroBits(false, fmt);
  const { bits, enclosure } = correctlyRounded((p) => exp2Enclosure(v.q, p), fmt);
  if (!ftz) return bits;
  if (options.ftzTininess === 'after-rounding') {
    return classOf(bits, fmt) === 'subnormal' ? zeroBits(false, fmt) : bits;
  }
  const tinyLo = compare(enclosure[0], minNormal(fmt)) < 0;
  const tinyHi = compare(enclosure[1], minNormal(fmt)) < 0;
  if (tinyLo !== tinyHi) throw new Error('ex2: cannot decide tininess before rounding');
  return tinyHi ? zeroBits(false, fmt) : bits;
}

const approxCache = new Map<string, number>();

/** tanh/ex2 depend on one 16-bit lane only; remember them so packed and repeated sweeps are cheap. */
function approxLane(form: Form, a: number, fmt: RefFormat, options: ModelOptions): number {
  const ftz = has(form, 'ftz');
  const key = `${form.opcode}:${fmt.name}:${ftz}:${options.ftzTininess}:${a}`;
  let result = approxCache.get(key);
  if (result === undefined) {
    result = form.opcode === 'tanh' ? tanhLane(a, fmt) : ex2Lane(a, ftz, fmt, options);
    approxCache.set(key, result);
  }
  return result;
}

function evaluateLane(form: Form, lane: LaneInputs, out: RefFormat, options: ModelOptions): number {
  switch (form.opcode) {
    case 'add':
    case 'sub':
    case 'mul':
    case 'fma':
      return arithmeticLane(form, lane, out, options);
    case 'neg':
    case 'abs':
      return signLane(form, lane, out);
    case 'min':
    case 'max':
      return minMaxLane(form, lane, out);
    case 'tanh':
    case 'ex2':
      return approxLane(form, lane.bits.a!, out, options);
    default:
      throw new Error(`not a half- or mixed-precision opcode: ${form.opcode}`);
  }
}

/**
 * The destination bits of `formText` (canonical catalog text) for source registers a, b, c
 * (unsigned bit patterns; operands the form lacks are ignored). Lane 0 of a packed register is
 * bits [0:15], lane 1 bits [16:31].
 */
export function refEvaluate(
  formText: string,
  a: number,
  b: number,
  c: number,
  oob?: OobMarks,
  options: Partial<ModelOptions> = {},
): number {
  const form = arithmeticForm(formText);
  const operands = operandsOf(form);
  const opts: ModelOptions = { ...DEFAULT_MODEL_OPTIONS, ...options };
  const registers: Record<OperandName, number> = { d: 0, a, b, c };
  const dest = operands.find((o) => o.name === 'd')!;
  const out = REF_FORMATS[dest.format];
  const laneCount = dest.lanes;
  let result = 0;
  for (let laneIndex = 0; laneIndex < laneCount; laneIndex++) {
    const bits: Partial<Record<OperandName, number>> = {};
    const formats: Partial<Record<OperandName, RefFormat>> = {};
    for (const operand of operands) {
      if (operand.name === 'd') continue;
      const register = registers[operand.name];
      const laneBits =
        operand.lanes === 2
          ? Math.floor(register / 2 ** (16 * laneIndex)) % 0x10000
          : register % 2 ** operand.bits;
      bits[operand.name] = isOobMarked(oob, operand.name, laneIndex) ? opts.oobNanBits : laneBits;
      formats[operand.name] = REF_FORMATS[operand.format];
    }
    result += evaluateLane(form, { bits, formats }, out, opts) * 2 ** (16 * laneIndex);
  }
  return result;
}
