/**
 * Reference values beside a result: the exact real value of the operation on the inputs as the
 * instruction reads them (after .ftz flushes), what IEEE binary32 and binary64 arithmetic round
 * it to, and how far the instruction's result is from it. All of it is read off the trace (its
 * exact-value step), so it is the same exact value the steps show.
 */
import { findForm } from '../../catalog/forms.ts';
import { dyadicOfDouble } from '../double.ts';
import { add, exactValueOfDyadic, ilog2, isZero, negate, type Dyadic } from '../exact.ts';
import { FORMATS, classify, type FloatFormat, dyadicOf, exactValueOfBits } from '../formats.ts';
import { dyadicMagnitude, roundToFormat } from '../round.ts';
import type { EvalResult, ExactValue, LaneTrace, OperandView } from '../trace.ts';

export interface LaneReference {
  readonly lane: number;
  /**
   * The exact value: of the sum/product for arithmetic, the chosen operand for min/max/neg/abs,
   * the function value for tanh/ex2 (then `approximate`: to a double's precision).
   */
  readonly exact: ExactValue;
  readonly approximate: boolean;
  /** What binary32 arithmetic gives (round to nearest even): bits and value. */
  readonly f32: { readonly bits: number; readonly value: ExactValue };
  /** What binary64 arithmetic gives: the 64-bit pattern as hex, and the value. */
  readonly f64: { readonly hex: string; readonly value: number };
  /**
   * The lane's result minus the exact value, and that in units in the last place of the result's
   * format at the result (null where either is not finite).
   */
  readonly error: { readonly value: ExactValue; readonly ulps: number } | null;
}

/** "-3 × 2^-26" (ExactValue.rational) back to the dyadic it names. */
export function dyadicOfRational(text: string): Dyadic | null {
  const m = /^(-?)(\d+) × 2\^(-?\d+)$/.exec(text);
  if (m) return { negative: m[1] === '-', mant: BigInt(m[2]!), exp: Number(m[3]) };
  if (text === '0' || text === '-0') return { negative: text === '-0', mant: 0n, exp: 0 };
  return null;
}

/** The double nearest to x (round to nearest even: BigInt → Number rounds so). */
export function doubleOfDyadic(x: Dyadic): number {
  const v = Number(x.mant) * 2 ** x.exp;
  return x.negative ? -v : v;
}

function hex64(x: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  return `0x${view.getBigUint64(0).toString(16).toUpperCase().padStart(16, '0')}`;
}

/**
 * The function value of an approx step (17 significant digits, or `2^x` where it lies beyond
 * 2^±1000, past every double: then +inf or +0 as a double sees it).
 */
function approximateValue(mathValue: string): ExactValue {
  const power = /^2\^(-?)/.exec(mathValue);
  const v = power ? (power[1] === '-' ? 0 : Infinity) : Number(mathValue);
  if (v === Infinity || v === -Infinity) {
    const s = v > 0 ? '+inf' : '-inf';
    return { kind: 'inf', negative: v < 0, decimal: s, binary: s, rational: s };
  }
  if (Number.isNaN(v))
    return { kind: 'nan', negative: false, decimal: 'NaN', binary: 'NaN', rational: 'NaN' };
  return exactValueOfDyadic(dyadicOfDouble(v));
}

/** The exact value a lane's steps name: the exact step, or the special value, or the result. */
function exactOfLane(lane: LaneTrace): { value: ExactValue; approximate: boolean } {
  for (const step of lane.steps) {
    if (step.kind === 'exact') return { value: step.value, approximate: false };
    if (step.kind === 'approx')
      return { value: approximateValue(step.mathValue), approximate: true };
  }
  const result = lane.steps.find((s) => s.kind === 'result');
  return { value: result!.value, approximate: false };
}

/** zeroNegative: the sign binary32/binary64 arithmetic gives where the exact value is 0. */
function f32Of(exact: ExactValue, zeroNegative: boolean): number {
  const f32 = FORMATS.f32;
  if (exact.kind === 'nan') return f32.canonicalNaN;
  if (exact.kind === 'inf') return f32.infBits + (exact.negative ? f32.signMask : 0);
  const x = dyadicOfRational(exact.rational)!;
  if (isZero(x)) return zeroNegative ? f32.signMask : 0;
  return roundToFormat(dyadicMagnitude(x), f32, 'rn').bits;
}

function f64Of(exact: ExactValue, zeroNegative: boolean): number {
  if (exact.kind === 'nan') return NaN;
  if (exact.kind === 'inf') return exact.negative ? -Infinity : Infinity;
  const x = dyadicOfRational(exact.rational)!;
  return isZero(x) ? (zeroNegative ? -0 : 0) : doubleOfDyadic(x);
}

/**
 * The sign of an exact zero in binary32/binary64 arithmetic, which rounds to nearest (IEEE 754
 * §6.3): the sign the lane's result took by the same rule, except for a sum under .rm, whose
 * zero is -0 where round to nearest gives +0 unless both terms are -0. (A product's zero, and a
 * sum's under the other modes, take the same sign as under round to nearest.) The terms are read
 * off the trace: the inputs as the instruction read them, after any flush.
 */
function zeroIsNegativeAtNearest(form: string, lane: LaneTrace, resultNegative: boolean): boolean {
  const record = findForm(form);
  if (!record || record.rounding !== 'rm' || record.opcode === 'mul') return resultNegative;
  const inputs = new Map<string, OperandView>();
  for (const step of lane.steps) {
    if (step.kind === 'inputs') for (const o of step.operands) inputs.set(o.name, o);
  }
  const flushed = new Set(lane.steps.flatMap((s) => (s.kind === 'flush-input' ? [s.operand] : [])));
  const zero = (name: string) => flushed.has(name) || inputs.get(name)?.class === 'zero';
  const negative = (name: string) => inputs.get(name)?.value.negative ?? false;
  // The two terms: a·b and c (fma), a and ±b, or a and ±c (mixed add/sub).
  const second = record.operands.some((o) => o.name === 'c') ? 'c' : 'b';
  const firstZero = record.opcode === 'fma' ? zero('a') || zero('b') : zero('a');
  const firstNegative = record.opcode === 'fma' ? negative('a') !== negative('b') : negative('a');
  const secondNegative = record.opcode === 'sub' ? !negative(second) : negative(second);
  return firstZero && zero(second) && firstNegative && secondNegative;
}

/** One ulp of format f at a finite value x: 2^(max(e, emin) - manBits). */
function ulpExponent(x: Dyadic, f: FloatFormat): number {
  const e = isZero(x) ? f.emin : Math.max(ilog2(x), f.emin);
  return e - f.manBits;
}

/** A finite result's error from an exact value: the difference, and in ulps at the result. */
export function errorOf(
  resultBits: number,
  f: FloatFormat,
  exact: ExactValue,
): LaneReference['error'] {
  const cls = classify(resultBits, f);
  if (cls === 'qnan' || cls === 'snan' || cls === 'infinity' || exact.kind !== 'finite')
    return null;
  const x = dyadicOfRational(exact.rational);
  if (!x) return null;
  const diff = add(dyadicOf(resultBits, f), negate(x));
  const result = dyadicOf(resultBits, f);
  const scale = ulpExponent(result, f);
  return {
    value: exactValueOfDyadic(diff),
    ulps: isZero(diff) ? 0 : (diff.negative ? -1 : 1) * Number(diff.mant) * 2 ** (diff.exp - scale),
  };
}

/** The reference values of every lane of an evaluation. */
export function referenceValues(result: EvalResult): LaneReference[] {
  const f = FORMATS[result.dFormat];
  return result.lanes.map((lane) => {
    const { value, approximate } = exactOfLane(lane);
    const zeroNegative = zeroIsNegativeAtNearest(
      result.form,
      lane,
      (lane.result & f.signMask) !== 0,
    );
    const f32 = f32Of(value, zeroNegative);
    const f64 = f64Of(value, zeroNegative);
    return {
      lane: lane.lane,
      exact: value,
      approximate,
      f32: { bits: f32, value: exactValueOfBits(f32, FORMATS.f32) },
      f64: { hex: hex64(f64), value: f64 },
      error: errorOf(lane.result, f, value),
    };
  });
}
