/**
 * What happened, in one sentence, read off the trace's data (never written per case): the rule
 * that decided the result, the exact value and where it went, and what the modifiers did.
 *
 *   "3.251953125 rounds down to 3.25 (.rn: below the halfway point); error −0.001953125 = −0.25 ulp"
 *   "the exact sum 65536 is above the largest f16 (65504): +inf under .rn"
 *   "∞ − ∞: invalid, canonical NaN 0x7FFF"
 *   "the exact value is tiny and .ftz flushes it to −0"
 *   "hardware may return any of 3 values from 0.7612 to 0.7622; …"
 */
import { readableDecimal } from '../decimal-text.ts';
import { FORMATS, formatHex, magnitudeOf, type FloatFormat, exactValueOfBits } from '../formats.ts';
import type { ExactOutcome } from '../ops/arithmetic.ts';
import type { EvalResult, LaneTrace, RoundStep, Step } from '../trace.ts';
import { errorOf } from './reference.ts';

type StepOf<K extends Step['kind']> = Step & { readonly kind: K };

function find<K extends Step['kind']>(lane: LaneTrace, kind: K): StepOf<K> | undefined {
  return lane.steps.find((s): s is StepOf<K> => s.kind === kind);
}

/** A value as a reader wants it: the exact decimal, shortened where it is long; ±inf; NaN hex. */
function value(bits: number, f: FloatFormat): string {
  const v = exactValueOfBits(bits, f);
  if (v.kind === 'nan') return `NaN ${formatHex(bits, f.width)}`;
  if (v.kind === 'inf') return v.negative ? '−inf' : '+inf';
  if (v.decimal === '0') return v.negative ? '−0' : '+0';
  return readableDecimal(v.decimal).text.replace(/^-/, '−');
}

function decimal(text: string): string {
  return readableDecimal(text).text.replace(/^-/, '−');
}

const REASONS: Record<string, string> = {
  'below-half': 'below the halfway point',
  'above-half': 'above the halfway point',
  'toward-zero': 'toward zero',
  'toward-plus-inf': 'toward +∞',
  'toward-minus-inf': 'toward −∞',
};

function what(expression: string): string {
  return expression.includes('×') && expression.includes('+')
    ? 'a × b + c'
    : expression.includes('×')
      ? 'product'
      : 'sum';
}

/** The sentence of one lane. */
export function laneSummary(result: EvalResult, lane: LaneTrace): string {
  const f = FORMATS[result.dFormat];
  const d = lane.result;
  const parts: string[] = [];
  const oob = find(lane, 'oob-check');
  if (oob?.forcesZero)
    return `${oob.oobOperands.filter((n) => n !== 'c').join(' and ')} ${oob.oobOperands.length > 1 ? 'hold' : 'holds'} the OOB-NaN pattern ${formatHex(oob.pattern & 0x7fff, 16)}: .oob gives +0.0`;

  const special = find(lane, 'special');
  const exact = find(lane, 'exact');
  const round = find(lane, 'round');
  const approx = find(lane, 'approx');
  const minmax = find(lane, 'minmax');
  if (special?.case === 'nan-operand')
    parts.push(`a NaN operand gives the canonical NaN ${formatHex(special.result, f.width)}`);
  else if (special?.case === 'invalid')
    parts.push(
      `${special.detail ?? 'invalid'}: invalid, canonical NaN ${formatHex(special.result, f.width)}`,
    );
  else if (special?.case === 'infinity')
    parts.push(`an infinite operand gives ${value(special.result, f)}`);
  else if (special?.case === 'corner-case')
    parts.push(
      `the spec's table gives ${value(special.result, f)} (${special.detail ?? ''})`.replace(
        ' ()',
        '',
      ),
    );
  else if (special?.case === 'exact-zero' && exact)
    parts.push(
      `the exact ${what(exact.expression)} is 0, which is ${value(special.result, f)} by the sign rule`,
    );
  else if (round && exact)
    parts.push(
      roundingSentence(round, find(lane, 'overflow') !== undefined, what(exact.expression)),
    );
  else if (approx) parts.push(approxSentence(approx, f));
  else if (minmax) parts.push(minMaxSentence(minmax, f));
  const negate = find(lane, 'negate') ?? find(lane, 'absolute');
  if (negate)
    parts.push(
      `${negate.kind === 'negate' ? '−' : '|'}(${value(negate.before, f)})${negate.kind === 'absolute' ? '|' : ''} = ${value(negate.after, f)}`,
    );

  const flush = find(lane, 'flush-result');
  if (flush && flush.before !== flush.after)
    parts.push(`the result is tiny and .ftz flushes it to ${value(flush.after, f)}`);
  const sat = find(lane, 'saturate');
  if (sat && sat.before !== sat.after) parts.push(`.sat clamps it to ${value(sat.after, f)}`);
  const relu = find(lane, 'relu');
  if (relu && relu.before !== relu.after) parts.push(`.relu makes it ${value(relu.after, f)}`);
  const xorsign = find(lane, 'xorsign');
  if (xorsign && xorsign.before !== xorsign.after)
    parts.push(`.xorsign gives it the sign ${xorsign.sign ? '−' : '+'}`);
  if (parts.length === 0) parts.push(`the result is ${value(d, f)}`);
  return parts.join('; ');
}

/** One rounding in words: exact, an overflow, a tie, or which way and why, with the error. */
function roundingSentence(round: RoundStep, overflowed: boolean, quantity: string): string {
  const f = FORMATS[round.format];
  const exactText = decimal(round.exact.decimal);
  if (!round.inexact) return `${exactText} is exact in ${f.name}: no rounding`;
  if (overflowed) {
    const max = value(f.maxBits, f);
    return `the exact ${quantity} ${exactText} is above the largest ${f.name} (${max}): ${magnitudeOf(round.result, f) === f.infBits ? value(round.result, f) : `the largest finite value ${value(round.result, f)}`} under .${round.mode}`;
  }
  // The error of the rounding itself (before .ftz, .sat or .relu change the result further).
  const error = errorOf(round.result, f, round.exact);
  const errorText = error
    ? `; error ${signed(decimal(error.value.decimal))} = ${signed(formatUlps(error.ulps))} ulp`
    : '';
  if (round.reason === 'tie-to-even')
    return `${exactText} is halfway between ${value(round.lower, f)} and ${value(round.upper, f)}: the tie goes to the even one, ${value(round.result, f)}${errorText}`;
  const direction = round.direction === 'up' ? 'up' : 'down';
  return `${exactText} rounds ${direction} to ${value(round.result, f)} (.${round.mode}: ${REASONS[round.reason] ?? round.reason})${errorText}`;
}

/** A nonzero error written with its sign either way, as the comparison lines write it: "+0.25". */
function signed(text: string): string {
  return text.startsWith('−') ? text : `+${text}`;
}

function formatUlps(ulps: number): string {
  const text = Math.abs(ulps) >= 1e-3 ? String(Number(ulps.toPrecision(4))) : ulps.toExponential(3);
  return text.replace(/^-/, '−');
}

function approxSentence(step: StepOf<'approx'>, f: FloatFormat): string {
  const source =
    step.model === 'measured'
      ? `measured on ${step.measuredOn ?? 'hardware'}: ${value(step.result, f)} (the model gives ${value(step.modelResult ?? step.result, f)})`
      : `this model gives the correctly rounded ${value(step.result, f)}`;
  const { count, lowest, highest } = step.allowed;
  if (count === 0)
    return `no value meets the bound here (${step.allowed.emptyBecause ?? 'empty'}); ${source}`;
  const set =
    count === 1
      ? `hardware may return only ${value(lowest, f)}`
      : `hardware may return any of ${count} values from ${value(lowest, f)} to ${value(highest, f)}`;
  return `${set}; ${source}`;
}

function minMaxSentence(step: StepOf<'minmax'>, f: FloatFormat): string {
  const call = `${step.op}(${value(step.a, f)}, ${value(step.b, f)})`;
  switch (step.branch) {
    case 'both-nan':
      return `${call}: both are NaN, canonical NaN`;
    case 'nan-modifier':
      return `${call}: .NaN makes a NaN operand win, canonical NaN`;
    case 'a-nan':
      return `${call}: a is NaN, so the result is b = ${value(step.result, f)}`;
    case 'b-nan':
      return `${call}: b is NaN, so the result is a = ${value(step.result, f)}`;
    case 'compare':
      return step.comparison?.signedZeros
        ? `${call} = ${value(step.result, f)} (−0 < +0 decides between the zeros)`
        : `${call} = ${value(step.result, f)}`;
  }
}

/** The sentence of an evaluation: one lane's, or each lane's ("lane 0: …; lane 1: …"). */
export function summaryOf(result: EvalResult): string {
  const lanes = result.lanes.map((l) => laneSummary(result, l));
  if (lanes.length === 1) return lanes[0]!;
  if (lanes.every((s) => s === lanes[0])) return `both lanes: ${lanes[0]}`;
  return lanes.map((s, i) => `lane ${i}: ${s}`).join('. ');
}

/**
 * One step of a composed sequence (the mixed fma's unfused binary32 steps) in words, read off
 * the IEEE rules' outcome as a lane's sentence is read off its trace: the special value, the
 * exact zero's sign, or the rounding of `quantity` ('product', 'sum').
 */
export function outcomeSentence(
  outcome: ExactOutcome,
  f: FloatFormat,
  quantity: 'product' | 'sum',
): string {
  switch (outcome.case) {
    case 'nan-operand':
      return `a NaN operand gives the canonical NaN ${formatHex(outcome.bits, f.width)}`;
    case 'invalid-0×∞':
    case 'invalid-∞−∞':
      return `${outcome.case === 'invalid-0×∞' ? '0 × ∞' : '∞ − ∞'}: invalid, canonical NaN ${formatHex(outcome.bits, f.width)}`;
    case 'infinity':
      return `an infinite operand gives ${value(outcome.bits, f)}`;
    case 'exact-zero':
      return `the exact ${quantity} is 0, which is ${value(outcome.bits, f)} by the sign rule`;
    case 'rounded':
      return roundingSentence(outcome.rounded.step, outcome.rounded.overflow, quantity);
  }
}
