/**
 * min and max (9.7.4.7, 9.7.4.8), following the spec's pseudo-code line by line (the pipeline
 * has already applied .ftz to a and b):
 *
 *   if (.xorsign) { xorsign = getSignBit(a) ^ getSignBit(b); if (.abs) { a = |a|; b = |b|; } }
 *   if (isNaN(a) && isNaN(b))              d = NaN;
 *   if (.NaN && (isNaN(a) || isNaN(b)))    d = NaN;
 *   else if (isNaN(a))                     d = b;
 *   else if (isNaN(b))                     d = a;
 *   else                                   d = (a < b) ? a : b;      // max: (a > b)
 *   if (.xorsign && !isNaN(d)) setSignBit(d, xorsign);
 *
 * minMaxRule is that pseudo-code as a pure function (the fast path calls it); minmax records
 * what each line did as steps.
 */
import {
  bitsView,
  isNaNBits,
  isNegative,
  isZeroBits,
  magnitudeOf,
  toDouble,
  withSign,
  type Format,
} from '../format.ts';
import { canonicalNaN } from '../nvidia-rules.ts';
import type { ElementContext, Input, Outcome } from './context.ts';

export type MinMaxBranch = 'both-nan' | 'nan-modifier' | 'a-nan' | 'b-nan' | 'compare';

export interface MinMaxFlags {
  readonly min: boolean;
  readonly nan: boolean;
  readonly xorsign: boolean;
}

/** a < b on non-NaN values, with -0.0 < +0.0 ("If values of both inputs are 0.0, then +0.0 > -0.0"). */
export function lessThan(a: bigint, b: bigint, f: Format): boolean {
  const x = toDouble(a, f);
  const y = toDouble(b, f);
  if (x === 0 && y === 0) return isNegative(a, f) && !isNegative(b, f);
  return x < y;
}

/** What each line of the pseudo-code decided. */
export interface MinMaxOutcome {
  /** a and b after .abs (the values compared). */
  readonly a: bigint;
  readonly b: bigint;
  /** XOR of the input signs (0 without .xorsign). */
  readonly sign: 0 | 1;
  readonly branch: MinMaxBranch;
  /** d as the branch chose it, before the sign is set. */
  readonly chosen: bigint;
  readonly result: bigint;
}

export function minMaxRule(flags: MinMaxFlags, aIn: bigint, bIn: bigint, f: Format): MinMaxOutcome {
  let a = aIn;
  let b = bIn;
  let sign: 0 | 1 = 0;
  if (flags.xorsign) {
    sign = isNegative(a, f) !== isNegative(b, f) ? 1 : 0;
    a = magnitudeOf(a, f);
    b = magnitudeOf(b, f);
  }
  const aNaN = isNaNBits(a, f);
  const bNaN = isNaNBits(b, f);
  let chosen: bigint;
  let branch: MinMaxBranch;
  if (aNaN && bNaN) {
    chosen = canonicalNaN(f);
    branch = 'both-nan';
  } else if (flags.nan && (aNaN || bNaN)) {
    chosen = canonicalNaN(f);
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
      ? withSign(magnitudeOf(chosen, f), sign === 1, f)
      : chosen;
  return { a, b, sign, branch, chosen, result };
}

export function minmax(ctx: ElementContext, inputs: readonly Input[]): Outcome {
  const { form } = ctx;
  const f = inputs[0]!.format;
  const flags: MinMaxFlags = {
    min: form.operation === 'min',
    nan: ctx.has('NaN'),
    xorsign: ctx.has('xorsign.abs'),
  };
  const [aIn, bIn] = [inputs[0]!.bits, inputs[1]!.bits];
  const out = minMaxRule(flags, aIn, bIn, f);
  if (flags.xorsign) {
    for (const [name, before, after] of [
      ['a', aIn, out.a],
      ['b', bIn, out.b],
    ] as const) {
      if (before !== after)
        ctx.record(
          {
            kind: 'abs-inputs',
            operand: name,
            before: bitsView(before, f),
            after: bitsView(after, f),
          },
          '.xorsign considers the sign bit of both inputs before applying .abs operation',
        );
    }
  }
  const compared = out.branch === 'compare' ? comparison(out.a, out.b, f) : undefined;
  ctx.record(
    {
      kind: 'minmax',
      op: flags.min ? 'min' : 'max',
      a: bitsView(out.a, f),
      b: bitsView(out.b, f),
      branch: out.branch,
      ...(compared ? { comparison: compared } : {}),
      chosen: chosenOperand(out.branch, flags.min, compared?.order),
      result: bitsView(out.chosen, f),
    },
    branchRule(out.branch, flags.min),
    out.branch === 'both-nan' ? 'minmax-both-nan' : undefined,
  );
  if (flags.xorsign && !isNaNBits(out.chosen, f)) {
    // The x2 pseudo-code of max tests !isNaN(fA[i]): read as !isNaN(d[i]) (decision).
    const typo = !flags.min && form.elements.length > 1;
    ctx.record(
      {
        kind: 'xorsign',
        sign: out.sign,
        before: bitsView(out.chosen, f),
        after: bitsView(out.result, f),
      },
      'If .xorsign modifier is specified, the sign bit of destination d is equal to the XOR of the sign bits of both the inputs.',
      typo ? 'max-x2-xorsign-typo' : undefined,
    );
  }
  return { kind: 'value', value: { bits: out.result } };
}

/** How the compare branch saw a and b: their order, and whether the zeros' signs decided it. */
function comparison(a: bigint, b: bigint, f: Format) {
  const order = lessThan(a, b, f) ? 'less' : lessThan(b, a, f) ? 'greater' : 'equal';
  return { order, signedZeros: isZeroBits(a, f) && isZeroBits(b, f) && a !== b } as const;
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
