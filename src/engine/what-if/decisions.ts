/**
 * What the what-if (compare mode) decides where nothing in the spec says how to compare two
 * instructions: what it measures against, in which unit, and how A's values reach B. A
 * comparison lists the decisions it relies on (Comparison.decisions), for the page and the CLI
 * to show; tests/what-if-comparison.test.ts pins each with a vector.
 */

export type WhatIfDecisionId =
  'compare-exact' | 'compare-ulp' | 'compare-carry' | 'compare-unfused';

export interface WhatIfDecision {
  readonly id: WhatIfDecisionId;
  readonly title: string;
  /** What the comparison does, and why. */
  readonly decision: string;
}

export const WHAT_IF_DECISIONS: readonly WhatIfDecision[] = [
  {
    id: 'compare-exact',
    title: 'What A and B are measured against',
    decision:
      "Both results are measured against A's exact value: the exact value of A's operation on its inputs as A reads them (after .ftz, before rounding) for add, sub, mul and fma; the source value for cvt (as read, after .ftz: where ue8m0 converts the magnitude of a negative value, the lost sign is part of its error); the chosen, negated or absolute operand for min, max, neg and abs (exact operations); c + Σ a_i·b_i for mma and wgmma, exactly, with no term cut and no rounding (an exact zero −0 only where every term is a −0); tanh and ex2's function value to 17 significant digits. B's error is given only where B computes the same operation (the unfused sequence computes the fma's); another operation is measured against its own exact value, in its own reference values.",
  },
  {
    id: 'compare-ulp',
    title: 'One ulp: of A’s format, at A’s result',
    decision:
      "Every figure in ulps of a comparison — B − A and each one's error — counts units in the last place of A's destination format at A's result, 2^(max(floor(log2 |A|), emin) − mantissa bits) (the least subnormal step at zero). One unit makes the figures add up: B's error minus A's is B − A. Where A's result is NaN or infinite there is no unit, and no figure in ulps. A result on its own counts its error in ulps of its own format at itself, which is the same rule with A the result.",
  },
  {
    id: 'compare-carry',
    title: 'How A’s values reach B',
    decision:
      "By value, not by bits. B's element i reads A's element min(i, last) (lane i of an x2 form, line i of cvt's Semantics block), input by input in the operation's order (a, then b or c, then c), and is compared with that element of A; A's elements past B's last have no partner, and an input A lacks is +0. A value of B's input format keeps its bits (NaN payloads and OOB-NaN patterns included); another becomes the same value, else the nearest (round to nearest, ties to the even pattern); past the largest finite value ±infinity, or ±MAX_NORM where the format has none; a NaN the canonical NaN, +0 where the format has no NaN; a negative value in an unsigned format, and a zero in ue8m0, its least value. .rs random bits are A's rbits as bits (0 where A has none). An arithmetic instruction and a cvt compare the same way.",
  },
  {
    id: 'compare-unfused',
    title: 'The unfused sequence of an fma',
    decision:
      "mul then add with the fma's rounding: .ftz on both, .sat on the add. A mixed-precision fma (.f32.f16, .f32.bf16) converts a and b to .f32 exactly and rounds the product and the sum once each in binary32 by the same rules. An fma with .relu or .oob, or whose mul or add does not exist in PTX (mul.rz.bf16), has no unfused sequence.",
  },
];

export function whatIfDecision(id: WhatIfDecisionId): WhatIfDecision {
  return WHAT_IF_DECISIONS.find((d) => d.id === id)!;
}
