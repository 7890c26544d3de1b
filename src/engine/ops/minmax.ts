/**
 * min and max (9.7.4.7, 9.7.4.8), following the spec's pseudo-code line by line:
 *
 *   if (.xorsign) { xorsign = getSignBit(a) ^ getSignBit(b); if (.abs) { a = |a|; b = |b|; } }
 *   if (isNaN(a) && isNaN(b))              d = NaN;
 *   if (.NaN && (isNaN(a) || isNaN(b)))    d = NaN;
 *   else if (isNaN(a))                     d = b;
 *   else if (isNaN(b))                     d = a;
 *   else                                   d = (a < b) ? a : b;      // max: (a > b)
 *   if (.xorsign && !isNaN(d)) setSignBit(d, xorsign);
 *
 * minMaxRule is that pseudo-code as a pure function (the fast path calls it); minMaxLane records
 * what each line did as trace steps.
 */
import { laneFormat, type Form } from '../../catalog/forms.ts';
import {
  FORMATS,
  isNaNBits,
  magnitudeOf,
  signOf,
  valueTable,
  type FloatFormat,
} from '../formats.ts';
import { has, rule, type LaneContext, type LaneInput, type LaneOutput } from '../lane.ts';
import { flushSubnormal } from '../specialize.ts';
import { tracedFlushInput } from '../traced-rules.ts';
import type { Step } from '../trace.ts';
import { inputsStep, resultStep } from './common.ts';

export type MinMaxBranch = 'both-nan' | 'nan-modifier' | 'a-nan' | 'b-nan' | 'compare';

export interface MinMaxFlags {
  readonly min: boolean;
  readonly ftz: boolean;
  readonly nan: boolean;
  readonly xorsign: boolean;
}

export function minMaxFlags(form: Form): MinMaxFlags {
  return {
    min: form.opcode === 'min',
    ftz: has(form, 'ftz'),
    nan: has(form, 'NaN'),
    xorsign: has(form, 'xorsign.abs'),
  };
}

/** a < b on non-NaN values, with -0.0 < +0.0 ("If values of both inputs are 0.0, then +0.0 > -0.0"). */
export function lessThan(a: number, b: number, f: FloatFormat): boolean {
  const values = valueTable(f);
  const x = values[a]!;
  const y = values[b]!;
  if (x === 0 && y === 0) return signOf(a, f) === 1 && signOf(b, f) === 0;
  return x < y;
}

/** What each line of the pseudo-code decided for one lane. */
export interface MinMaxOutcome {
  /** a and b after .ftz, and after .abs (the values compared). */
  readonly flushedA: number;
  readonly flushedB: number;
  readonly a: number;
  readonly b: number;
  /** XOR of the input signs (0 without .xorsign). */
  readonly sign: 0 | 1;
  readonly branch: MinMaxBranch;
  /** d as the branch chose it, before the sign is set. */
  readonly chosen: number;
  readonly result: number;
}

export function minMaxRule(
  flags: MinMaxFlags,
  aIn: number,
  bIn: number,
  f: FloatFormat,
): MinMaxOutcome {
  const flushedA = flags.ftz ? flushSubnormal(aIn, f) : aIn;
  const flushedB = flags.ftz ? flushSubnormal(bIn, f) : bIn;
  let a = flushedA;
  let b = flushedB;
  let sign: 0 | 1 = 0;
  if (flags.xorsign) {
    sign = (signOf(a, f) ^ signOf(b, f)) as 0 | 1;
    a = magnitudeOf(a, f);
    b = magnitudeOf(b, f);
  }
  const aNaN = isNaNBits(a, f);
  const bNaN = isNaNBits(b, f);
  let chosen: number;
  let branch: MinMaxBranch;
  if (aNaN && bNaN) {
    chosen = f.canonicalNaN;
    branch = 'both-nan';
  } else if (flags.nan && (aNaN || bNaN)) {
    chosen = f.canonicalNaN;
    branch = 'nan-modifier';
  } else if (aNaN) {
    chosen = b;
    branch = 'a-nan';
  } else if (bNaN) {
    chosen = a;
    branch = 'b-nan';
  } else {
    chosen = flags.min ? (lessThan(a, b, f) ? a : b) : lessThan(b, a, f) ? a : b;
    branch = 'compare';
  }
  const result =
    flags.xorsign && !isNaNBits(chosen, f)
      ? magnitudeOf(chosen, f) + (sign ? f.signMask : 0)
      : chosen;
  return { flushedA, flushedB, a, b, sign, branch, chosen, result };
}

export function minMaxLane(ctx: LaneContext, input: LaneInput): LaneOutput {
  const { form } = ctx;
  const f = FORMATS[laneFormat(form.type)];
  const flags = minMaxFlags(form);
  const out = minMaxRule(flags, input.a, input.b, f);
  const steps: Step[] = [inputsStep(form, input, () => f)];
  if (flags.ftz) {
    const r = rule(form, '.ftz flushes subnormal inputs and results to sign-preserving zero');
    tracedFlushInput('a', input.a, f, r, steps);
    tracedFlushInput('b', input.b, f, r, steps);
  }
  if (flags.xorsign) {
    const r = rule(
      form,
      '.xorsign considers the sign bit of both inputs before applying .abs operation',
    );
    for (const [name, before, after] of [
      ['a', out.flushedA, out.a],
      ['b', out.flushedB, out.b],
    ] as const) {
      if (before !== after)
        steps.push({ kind: 'abs-inputs', operand: name, format: f.name, before, after, rule: r });
    }
  }
  const compared = out.branch === 'compare' ? comparison(out.a, out.b, f) : undefined;
  steps.push({
    kind: 'minmax',
    op: flags.min ? 'min' : 'max',
    format: f.name,
    a: out.a,
    b: out.b,
    branch: out.branch,
    ...(compared ? { comparison: compared } : {}),
    chosen: chosenOperand(out.branch, flags.min, compared?.order),
    result: out.chosen,
    rule: rule(form, branchRule(out.branch, flags.min)),
    ...(out.branch === 'both-nan' ? { decision: 'minmax-both-nan' as const } : {}),
  });
  if (flags.xorsign && !isNaNBits(out.chosen, f)) {
    const typo = !flags.min && form.type.endsWith('x2');
    steps.push({
      kind: 'xorsign',
      sign: out.sign,
      format: f.name,
      before: out.chosen,
      after: out.result,
      rule: rule(
        form,
        'If .xorsign modifier is specified, the sign bit of destination d is equal to the XOR of the sign bits of both the inputs.',
      ),
      ...(typo ? { decision: 'max-x2-xorsign-typo' as const } : {}),
    });
  }
  steps.push(resultStep(form, out.result, f));
  return { result: out.result, steps };
}

/** How the compare branch saw a and b: their order, and whether the zeros' signs decided it. */
function comparison(a: number, b: number, f: FloatFormat) {
  const order = lessThan(a, b, f) ? 'less' : lessThan(b, a, f) ? 'greater' : 'equal';
  const zeros = magnitudeOf(a, f) === 0 && magnitudeOf(b, f) === 0;
  return { order, signedZeros: zeros && a !== b } as const;
}

/**
 * Which operand d took: the branches that return NaN take neither; the compare branch takes a
 * when a < b (min) or a > b (max), else b — also when they are equal.
 */
function chosenOperand(
  branch: MinMaxBranch,
  isMin: boolean,
  order: 'less' | 'equal' | 'greater' | undefined,
): 'a' | 'b' | 'nan' {
  switch (branch) {
    case 'both-nan':
    case 'nan-modifier':
      return 'nan';
    case 'a-nan':
      return 'b';
    case 'b-nan':
      return 'a';
    case 'compare':
      return order === (isMin ? 'less' : 'greater') ? 'a' : 'b';
  }
}

function branchRule(branch: MinMaxBranch, isMin: boolean): string {
  switch (branch) {
    case 'both-nan':
      return 'if (isNaN(a) && isNaN(b)) d = NaN;';
    case 'nan-modifier':
      return 'If .NaN modifier is specified, then the result is canonical NaN if either of the inputs is NaN.';
    case 'a-nan':
      return 'else if (isNaN(a)) d = b;';
    case 'b-nan':
      return 'else if (isNaN(b)) d = a;';
    case 'compare':
      return `else d = (a ${isMin ? '<' : '>'} b) ? a : b;  (If values of both inputs are 0.0, then +0.0 > -0.0.)`;
  }
}
