/**
 * Where issue 26's definitions of the scale rules (and the spec) leave a block quantization
 * open, the engine decides here, once. A result lists the decisions it relies on
 * (`BlockQuantization.decisions`); tests/block-scale.test.ts pins each with a vector.
 */

export type BlockScaleDecisionId =
  | 'block-f32-arithmetic'
  | 'block-ocp-exponent'
  | 'block-scale-register'
  | 'block-mx-power-of-two'
  | 'block-rs-rbits'
  | 'block-error-ulps'
  | 'nvfp4-zero-divisor'
  | 'nvfp4-decoded-value'
  | 'nvfp4-tensor-amax'
  | 'block-compare-arrangement';

export interface BlockScaleDecision {
  readonly id: BlockScaleDecisionId;
  readonly title: string;
  /** What the engine does, and why. */
  readonly decision: string;
}

export const BLOCK_SCALE_DECISIONS: readonly BlockScaleDecision[] = [
  {
    id: 'block-f32-arithmetic',
    title: 'div.rn.f32 and mul.rn.f32',
    decision:
      "IEEE 754 division and multiplication of binary32 values, rounded once to nearest even, subnormal inputs and results kept (no .ftz). Specials as IEEE 754: a nonzero value divided by zero is ±infinity, 0/0 and ∞/∞ and 0 × ∞ are NaN (the canonical 0x7FFFFFFF), a zero result takes the XOR of the signs. With finite blocks the scale rules reach none of these specials (see nvfp4-zero-divisor); a quotient may still overflow to infinity, (amax / 6) / global where tensorAmax lies far below amax, and the scale cvt's .satfinite then gives 448.",
  },
  {
    id: 'block-ocp-exponent',
    title: 'ocp: floor(log2 amax) as PTX computes it',
    decision:
      'floor(log2 amax) + 127 is read by cvt.rz.satfinite.ue8m0x2.f32 of amax (2^floor(log2 amax); 0x00 below 2^-127 and for zero); emax_elem is subtracted and the result clamped at 0 (2^-127) with integer instructions. This equals 2^(floor(log2 amax) − emax_elem) clamped to [−127, 127] for every binary32 amax, and 2^−127 for an all-zero block; the upper clamp is never reached (floor(log2 amax) ≤ 127 and emax_elem ≥ 2).',
  },
  {
    id: 'block-scale-register',
    title: 'One scale from a cvt of two',
    decision:
      'The scale cvt forms convert two values (…x2.f32 d, a, b); a block converts its one value in both (a = b), and the scale is d[15:8], which d[7:0] repeats. A kernel packing two blocks would give each its own half.',
  },
  {
    id: 'block-mx-power-of-two',
    title: 'MX elements: value × 2^−e',
    decision:
      'Each value is multiplied by 2^−e with mul.rn.f32 (the product rounded once to binary32, to nearest even), 2^−e written as a binary32 immediate: exact for every scale, 2^−127 being the subnormal 0x00200000 and 2^127 0x7F000000.',
  },
  {
    id: 'block-rs-rbits',
    title: '.rs: random bits per cvt',
    decision:
      'With .rs the elements go four at a time through cvt.rs.satfinite.<elem>x4.f32 d, {a, b, e, f}, rbits; the rbits register of each cvt is given as a list (one per four elements, in order), or one value that every cvt of the block uses.',
  },
  {
    id: 'block-error-ulps',
    title: 'Error in ulps of the element format',
    decision:
      'The error of an element is its decoded value minus the input; in ulps, that divided by the ulp of the element format at the stored element (at a stored zero, the least subnormal step) times the factor the element is decoded with (2^e; NVFP4: blockScale × global). Null where that factor is zero.',
  },
  {
    id: 'nvfp4-zero-divisor',
    title: 'NVFP4: a zero block scale',
    decision:
      "Issue 26: a zero block scale gives zero elements of the values' signs. The sequence tests the divisor, mul.rn.f32 blockScale, global (setp.eq.f32), so that no value is ever divided by zero (which would give ±infinity, or NaN for a zero value); each element is then copysign.f32 of the value onto +0. The divisor is zero exactly when the block scale is: a nonzero block scale is at least 2/3 of RN(amax / 6) / global, so its product with the global scale is at least 2/3 × 2^−149 and rounds to a nonzero binary32.",
  },
  {
    id: 'nvfp4-decoded-value',
    title: 'NVFP4: the value an element stands for',
    decision:
      'An NVFP4 element decodes to element × blockScale × global, the exact product (as a block-scaled mma applies the scales), not the rounded divisor the quantization divided by.',
  },
  {
    id: 'nvfp4-tensor-amax',
    title: 'NVFP4: tensorAmax',
    decision:
      "tensorAmax must be a finite binary32 value that is not negative (−0 counts as zero: its global scale is 1.0, as for +0). One below the block's own amax is taken as given: the block scale then saturates at 448 (0x7E), and the result marks it saturated.",
  },
  {
    id: 'block-compare-arrangement',
    title: 'What-if: one block, every scheme',
    decision:
      "The comparison takes 16 or 32 values. MX schemes quantize 16 values as a block of 32 padded with +0 (zeros change neither amax nor the scale, and convert exactly); NVFP4 quantizes 32 values as two blocks of 16 sharing one global scale, from tensorAmax if given, else the 32 values' amax. Errors are summarised over the given values only, element conversions to nearest even.",
  },
];

export function blockScaleDecision(id: BlockScaleDecisionId): BlockScaleDecision {
  return BLOCK_SCALE_DECISIONS.find((d) => d.id === id)!;
}
