/**
 * Where the spec is silent, ambiguous or wrong, the engine decides — and says so. This is the
 * one list of those decisions: an instruction's (surfaced in traces as a step's `decision`,
 * pinned by tests/decisions.test.ts), the what-if's (a comparison lists them, pinned by
 * tests/what-if-comparison.test.ts) and block scaling's (a quantization lists them, pinned by
 * tests/block-scale.test.ts). The page and the CLI show each where a result relies on it.
 */

/** The decisions of an instruction's semantics, which its trace names. */
export type InstructionDecisionId =
  | 'canonical-nan'
  | 'ftz-after-rounding'
  | 'sat-negative-zero'
  | 'relu-negative-zero'
  | 'oob-nan-pattern'
  | 'max-x2-xorsign-typo'
  | 'minmax-both-nan'
  | 'neg-abs-nan'
  | 'approx-model'
  | 'approx-ftz-result'
  | 'mixed-sat-syntax'
  | 'ptxas-only-forms'
  | 'cvt-nan'
  | 'cvt-default-rounding'
  | 'cvt-tf32-layout'
  | 'cvt-rs-rbits'
  | 'cvt-rs-subnormal'
  | 'cvt-satfinite-infinity'
  | 'cvt-ue8m0'
  | 'cvt-input-padding'
  | 'cvt-ftz-f16-source'
  | 'cvt-modifier-order'
  | 'mma-fp8-f16-hopper'
  | 'mma-fp8-blackwell'
  | 'mma-zero-sign'
  | 'mma-f32-overflow'
  | 'mma-default-target'
  | 'mma-zero-sign-sm90'
  | 'mma-f32-overflow-sm90'
  | 'mma-sm90-differing-forms';

/** What the what-if (compare mode) decides: a comparison lists those it relies on. */
export const WHAT_IF_DECISION_IDS = [
  'compare-exact',
  'compare-ulp',
  'compare-carry',
  'compare-unfused',
  'compare-cuda-core-chain',
] as const;
export type WhatIfDecisionId = (typeof WHAT_IF_DECISION_IDS)[number];

/** What a block quantization (block-scale/) decides: its result lists those it relies on. */
export const BLOCK_SCALE_DECISION_IDS = [
  'block-f32-arithmetic',
  'block-ocp-exponent',
  'block-scale-register',
  'block-mx-power-of-two',
  'block-rs-rbits',
  'block-error-ulps',
  'nvfp4-zero-divisor',
  'nvfp4-decoded-value',
  'nvfp4-tensor-amax',
  'block-compare-arrangement',
] as const;
export type BlockScaleDecisionId = (typeof BLOCK_SCALE_DECISION_IDS)[number];

export type DecisionId = InstructionDecisionId | WhatIfDecisionId | BlockScaleDecisionId;

export interface Decision {
  readonly id: DecisionId;
  readonly title: string;
  /** What the spec says, or fails to say. */
  readonly spec: string;
  /** What the engine does, and why. */
  readonly decision: string;
  /** Spec sections concerned. */
  readonly sections: readonly string[];
  /** Whether an EngineOptions field lets a user try the other reading. */
  readonly option?: string;
  /** Where a GPU answered the question: the device and the capture that shows it. */
  readonly measured?: { readonly on: string; readonly evidence: string };
}

/** The GPU whose captures (hw/captures/sm_90/h100) settle the decisions marked measured. */
export const MEASURED_H100 = 'NVIDIA H100 80GB HBM3 (sm_90), driver 580.159.04, CUDA 13.0';

/** The GPU whose captures (hw/captures/sm_90/h200: cvt, and mma/) settle the decisions marked measured on it. */
export const MEASURED_H200 = 'NVIDIA H200 (sm_90), driver 580.159.04, CUDA 13.0';

/** The what-if compares two instructions, which the PTX ISA describes one at a time. */
const WHAT_IF_SPEC =
  'The PTX ISA defines each instruction on its own; it says nothing about comparing two.';

/**
 * Block scaling: the ISA defines the formats and the mma that reads them; the scale rules
 * (OCP MX v1.0, NVIDIA's NVFP4 recipe) are not the ISA's.
 */
const BLOCK_SCALE_SPEC =
  "PTX ISA 5.2.3 defines the block-scaled formats and 9.7.14.3 the block-scaled mma that reads them; how a block's scale and elements are computed is the scale rule's (OCP MX v1.0, NVIDIA's NVFP4 recipe), not the ISA's.";
const BLOCK_SCALE_SECTIONS = ['5.2.3', '9.7.14.3'];

export const DECISIONS: readonly Decision[] = [
  {
    id: 'canonical-nan',
    title: 'Which NaN an instruction returns',
    spec: 'Half-precision instructions "return an unspecified NaN"; .relu and min/max .NaN say "canonical NaN".',
    decision:
      "Every NaN result is NVIDIA's canonical NaN: 0x7FFF for .f16 and .bf16 (CUDART_NAN_FP16/BF16), 0x7FFFFFFF for .f32 (CUDA Programming Guide). Input payloads are not propagated.",
    sections: ['9.7.4', '9.7.5'],
    measured: {
      on: MEASURED_H100,
      evidence:
        'hw/captures/sm_90/h100: every NaN result of the 152 forms sm_90 runs is 0x7FFF, whatever the input payloads (the .f32 results of the mixed forms need sm_100: not measured)',
    },
  },
  {
    id: 'ftz-after-rounding',
    title: '.ftz judges a result tiny after rounding (IEEE 754 §7.5)',
    spec: '".ftz flushes subnormal inputs and results to sign-preserving zero" — it does not say whether "subnormal" is judged before or after rounding.',
    decision:
      "A result is tiny when the exact value, rounded to the format's precision as though the exponent range were unbounded, lies below the smallest normal 2^emin; a tiny result becomes a zero of the same sign. So mul.ftz.f16 0x3BFF × 0x0400 = 2^-14·(1 − 2^-11), which gradual underflow would round to the normal 0x0400, is tiny and gives 0x0000, while fma.rn.ftz.f16 0x0400 × 0x8400 + 0x0400 = 2^-14 − 2^-28 rounds up to 2^-14 and is kept. Neither 'the exact value is below 2^emin' (tininess before rounding) nor 'the delivered result is subnormal' matches the GPU. The before-rounding reading stays available as the engine option ftzTininess: ptxf eval --ftz-tininess before-rounding, and hw/compare.ts --ftz-tininess before-rounding.",
    sections: ['9.7.4.1', '9.7.4.2', '9.7.4.3', '9.7.4.4', '9.7.4.10'],
    option: 'ftzTininess',
    measured: {
      on: MEASURED_H100,
      evidence:
        'hw/captures/sm_90/h100: mul.ftz.f16 pairs row 0x0400 (0x0400 × 0x3BFF → 0x0000) and fma.rn.ftz.f16 edges (0x0400 × 0x8400 + 0x0400 → 0x0400)',
    },
  },
  {
    id: 'sat-negative-zero',
    title: '.sat of -0.0 gives +0.0',
    spec: '".sat clamps the result to [0.0, 1.0]" — -0.0 equals 0.0, so the clamp may or may not change its sign.',
    decision:
      'The clamp is max(+0.0, min(x, 1.0)) with +0.0 > -0.0 (the ordering min/max use), so -0.0 and every negative result become +0.0.',
    sections: ['9.7.4', '9.7.5'],
    measured: {
      on: MEASURED_H100,
      evidence: 'hw/captures/sm_90/h100: add.sat.f16 pairs row 0x8000 (-0 + -0 → 0x0000)',
    },
  },
  {
    id: 'relu-negative-zero',
    title: '.relu of -0.0 gives +0.0',
    spec: '".relu clamps the result to 0 if negative" — is -0.0 negative?',
    decision:
      '.relu is max(x, +0.0) with +0.0 > -0.0, so -0.0 becomes +0.0; a NaN becomes canonical NaN.',
    sections: ['9.7.4.4'],
    measured: {
      on: MEASURED_H100,
      evidence: 'hw/captures/sm_90/h100: fma.rn.relu.f16 edges (-0 × 1 + -0 → 0x0000)',
    },
  },
  {
    id: 'oob-nan-pattern',
    title: 'OOB-NaN is the pattern 0x7FF7, tested in a and b',
    spec: '.oob "clamps the result to 0 if either of the operands is OOB NaN", a "special NaN" whose bit pattern NVIDIA does not publish; "either" leaves open whether the addend c counts.',
    decision:
      'A lane of a or b holding 0x7FF7 or 0xFFF7 is OOB-NaN: with .oob the lane\'s result is +0.0, whatever the other operands hold (c a NaN included) and also under .relu. The addend c is not tested: 0x7FF7 there is an ordinary NaN. Every other NaN pattern is an ordinary NaN. Without .oob, 0x7FF7 is just a NaN. Marking an operand OOB-NaN (UI quick pick, ptxf eval --oob, batch "oob" field) puts the pattern in the lane. The engine option oobNanBits (ptxf eval --oob-nan) tries another pattern for another GPU.',
    sections: ['9.7.4.4'],
    option: 'oobNanBits',
    measured: {
      on: MEASURED_H100,
      evidence:
        'hw/captures/sm_90/h100: fma.rn.oob{.relu}.{f16,bf16}{x2} nan-probe (each of the 65,536 patterns in a, b and c: only 0x7FF7/0xFFF7 in a or b give +0.0) and sample rows',
    },
  },
  {
    id: 'max-x2-xorsign-typo',
    title: "Typo in max's x2 pseudo-code",
    spec: 'The .f16x2/.bf16x2 branch of max tests `if (.xorsign && !isNaN(fA[i]))`, while min and the scalar branch test the result d.',
    decision:
      'Read as `!isNaN(d[i])`, as the text says: "If the result of max is NaN then the .xorsign and .abs modifiers will be ignored." Both lanes behave like the scalar form.',
    sections: ['9.7.4.8'],
    measured: {
      on: MEASURED_H100,
      evidence: 'hw/captures/sm_90/h100: max{.NaN}.xorsign.abs.{f16,bf16}x2 pairs, both lanes',
    },
  },
  {
    id: 'minmax-both-nan',
    title: 'min/max when both inputs are NaN',
    spec: 'The pseudo-code sets d = NaN when both inputs are NaN, but the following if/else chain (not joined by else) would then assign d = b.',
    decision:
      'Both inputs NaN yields canonical NaN, as the first statement and the host emulation in cuda_fp16.hpp intend.',
    sections: ['9.7.4.7', '9.7.4.8'],
    measured: {
      on: MEASURED_H100,
      evidence: 'hw/captures/sm_90/h100: min/max.{f16,bf16}{x2} pairs rows of NaN a values',
    },
  },
  {
    id: 'neg-abs-nan',
    title: 'neg/abs of NaN',
    spec: '"NaN inputs yield an unspecified NaN. Future implementations may comply with the IEEE 754 standard by preserving payload and modifying only the sign bit."',
    decision: 'neg and abs of a NaN return canonical NaN (the unspecified NaN, as elsewhere).',
    sections: ['9.7.4.5', '9.7.4.6'],
    measured: {
      on: MEASURED_H100,
      evidence: 'hw/captures/sm_90/h100: neg/abs{.ftz}.{f16,bf16}{x2}, all 65,536 inputs',
    },
  },
  {
    id: 'approx-model',
    title: 'What tanh.approx / ex2.approx return',
    spec: 'Only corner-case tables and a maximum error are given (tanh: absolute 2^-10.987 for .f16, 2^-8 for .bf16; ex2: relative 2^-9.9 for .f16, 2^-7 for .bf16).',
    decision:
      'On sm_90 and sm_90a the result is the one measured on an H100 for that input (all 65,536 inputs of each form). Elsewhere, outside the corner-case tables, the model returns the correctly rounded (round-to-nearest-even) value of the exact function. Either way the trace gives the model value and every representable value within the bound: another GPU may return any of them. The H100 agrees with the model on 50,800 of 65,536 tanh.approx.f16 inputs, 63,450 bf16, 46,119 ex2.approx.f16 and 62,040 ex2.approx.ftz.bf16, and is one ulp away everywhere else; it exceeds the documented bound at ±0x3F3F of tanh.approx.bf16 (0x3F21: error 0.0039065 > 2^-8) and at 102 ex2.approx.f16 inputs whose exact result is subnormal.',
    sections: ['9.7.4.9', '9.7.4.10'],
    measured: {
      on: MEASURED_H100,
      evidence:
        'hw/captures/sm_90/h100: tanh.approx / ex2.approx, all 65,536 inputs, one-lane and x2 forms (the x2 lanes equal the one-lane results)',
    },
  },
  {
    id: 'approx-ftz-result',
    title: 'ex2.approx.ftz.bf16 results and tiny outputs',
    spec: '"ex2.approx.ftz.bf16 flushes subnormal inputs and results to sign-preserving zero"; for .f16 only subnormal inputs are said to be supported.',
    decision:
      'bf16: subnormal inputs become zero (so the result is +1.0, as the table says) and a subnormal result becomes +0.0. f16: subnormal results are kept (gradual underflow).',
    sections: ['9.7.4.10'],
    measured: {
      on: MEASURED_H100,
      evidence:
        'hw/captures/sm_90/h100: ex2.approx.ftz.bf16 gives +1.0 for all 254 subnormal inputs and never a subnormal; ex2.approx.f16 gives 768 subnormal results',
    },
  },
  {
    id: 'mixed-sat-syntax',
    title: 'Where .sat goes in mixed-precision forms',
    spec: 'The syntax line is `add{.rnd}{.sat}.f32.atype`, but the examples write `add.rz.f32.bf16.sat` and `fma.rz.sat.f32.f16.sat`.',
    decision:
      'ptxas 13.0 assembles both examples, so the parser reads them as the syntax line\'s forms (add.rz.sat.f32.bf16, fma.rz.sat.f32.f16) and notes the spelling: "ptxas accepts this order" / ".sat written twice", with the syntax line\'s spelling.',
    sections: ['9.7.5.1', '9.7.5.2', '9.7.5.3'],
  },
  {
    id: 'ptxas-only-forms',
    title: 'Forms ptxas assembles that the spec does not list',
    spec: 'Half-precision fma allows only .rn (".rnd = { .rn }"), and .oob combines with .relu only (fma.rnd.oob.{relu}.type). ptxas 13.0 also assembles fma.{rz,rm,rp}{.oob}{.relu}.bf16{x2} and fma.rn.oob.sat.f16{x2}; no document says what they compute. mma\'s .kind::f8f6f4 appears only with .m16n8k32; ptxas 13.0 also assembles mma.sync.aligned.m16n8k16.row.col.kind::f8f6f4 with .e4m3/.e5m2 inputs (and refuses the FP6/FP4 types there).',
    decision:
      'They are catalog forms, flagged "assembles; behaviour not documented, not yet measured". The rounding modifier applies to the one rounding of the exact a×b+c, as it does for the .f32 fma (9.7.5.3); .relu and .oob act as on fma.rn. With .oob and .sat both, an OOB-NaN lane gives +0.0 whichever comes first, since .sat of +0.0 is +0.0: the two commute. The m16n8k16 .kind::f8f6f4 forms compute as the m16n8k16 FP8 forms without .kind do: the dot product of k = 16 under the target\'s model.',
    sections: ['9.7.4.4', '9.7.5.3', '9.7.14.5.14'],
  },
  {
    id: 'cvt-nan',
    title: 'Which NaN a cvt returns',
    spec: 'cvt gives "NaN in the specified destination format" under .satfinite and "canonical NaN" under .relu, and otherwise no pattern; "For cvt.f32.bf16, NaN input yields unspecified NaN."',
    decision:
      "As an H200 gave it for every NaN input of the 178 cvt forms sm_90 runs (nvidia-rules cvtNaNKind). The payload is the mantissa field aligned at its top bit: shifted up into a wider format, cut to its upper bits in a narrower one. (1) To or from .f64: the sign and payload are kept and the quiet bit is set (cvt.f64.f16 0x7C01 → 0x7FF8040000000000, cvt.rn.f16.f64 0xFFF8000012345678 → 0xFE00, 0x7FF65D0282937F6B → 0x7F97, cvt.rn.f32.f64 → 0x7FF2E814, cvt.rni.f64.f64 0x7FF0000000000001 → 0x7FF8000000000001), with or without .ftz, except cvt.ftz.f64.f32, which converts the canonical .f32 NaN: 0x7FFFFFFFE0000000; cvt.f64.f64 copies its register (a signaling NaN stays signaling). (2) cvt.f32.f32 without a modifier copies its register; with .ftz or an integer rounding, 0x7FFFFFFF. (3) cvt.f32.bf16 without .ftz (any rounding) copies the bits into the upper half: 0x7F81 → 0x7F810000, still signaling; with .ftz, 0x7FFFFFFF. (4) cvt.rna.tf32.f32 cuts the payload to 10 bits as it is, so 0x7F800001…0x7F801FFF give +∞ (0x7F800000); with .satfinite the pattern one below that: 0x7F800001 → 0x7F7FE000 (+MAX_NORM), 0x7F802000 → 0x7F800000 (+∞), 0x7FC00000 → 0x7FBFE000. (5) Everything else gives the destination's canonical NaN: 0x7FFF for .f16 and .bf16, 0x7FFFFFFF for .f32 (cvt.f32.f16 included), 0x7FFFE000 for .tf32 under .rn and .rz (the canonical 19-bit NaN in the upper bits, see cvt-tf32-layout), 0x7F for e4m3 and e5m2, 0xFF for ue8m0. .sat gives +0.0 and .relu the canonical NaN, as the spec says. Forms the capture does not hold (sm_100 and the a/f targets) give the canonical NaN, as NVIDIA's host conversions (cuda_fp8.hpp, cuda_bf16.hpp) do; e2m1, e2m3 and e3m2 have no NaN: .satfinite, mandatory there, gives +MAX_NORM. cuda_fp16.h's and cuda_bf16.h's host conversions give the canonical NaN where the GPU keeps the payload.",
    sections: ['9.7.9.21'],
    measured: {
      on: MEASURED_H200,
      evidence:
        'hw/captures/sm_90/h200: the full results of the 16-bit sources (all 65,536 inputs) and of the .f64 samples (NaNs of either sign, quiet and signaling, among the edge values), and the row hashes of the .f32 sources (rows 0x7F80…0x7FFF and 0xFF80…0xFFFF hold every .f32 NaN; each row hash equals the one of the rule above); tests/hw/sm90-h200-cvt.test.ts',
    },
  },
  {
    id: 'cvt-default-rounding',
    title: 'cvt.f16.bf16 and cvt.bf16.f16 without a rounding modifier',
    spec: 'Rounding is "required for float-to-float conversions that result in loss of precision", yet the general syntax line makes it optional and ptxas 13.0 assembles both without one (assembler note cvt-rounding-f16-bf16).',
    decision:
      'Without a modifier, both round to nearest even (.rn), the rounding of the general line when none is written elsewhere in PTX.',
    sections: ['9.7.9.21'],
  },
  {
    id: 'cvt-tf32-layout',
    title: 'Where a .tf32 value sits in its .b32 register',
    spec: '"The internal layout of tf32 format is implementation defined." cvt.tf32.f32 writes a .b32.',
    decision:
      'The 19 bits of the tf32 value (1 sign, 8 exponent, 10 mantissa bits) are the upper 19 bits of the register and the lower 13 are zero: the register reads as the .f32 of the same value, as the mma instructions and CUDA\'s __float_to_tf32 use it. An mma or wgmma with .tf32 inputs reads the upper 19 bits of each .b32 and ignores the lower 13, whatever they hold (the published models: "truncates the lower 13 bits").',
    sections: ['5.2.3', '9.7.9.21', '9.7.14.5.14'],
  },
  {
    id: 'cvt-rs-rbits',
    title: 'Which random bits .rs adds, and where',
    spec: 'The layouts of rbits for .rs exist only as figures (38–41); the text says the carry of adding rbits to the discarded mantissa bits decides toward or away from zero, that .f16x2 takes the 13 low bits of each half (a the upper), .bf16x2 each half, the x4 8-bit/6-bit forms the upper half for a, b and the lower for e, f, and .e2m1x4 the upper bytes of both halves for a, b and the lower ones for e, f.',
    decision:
      'Per element: .f16x2 a rbits[28:16], b rbits[12:0]; .bf16x2 a rbits[31:16], b rbits[15:0]; e4m3x4/e5m2x4/e2m3x4/e3m2x4 one byte each, a rbits[31:24], b [23:16], e [15:8], f [7:0]; e2m1x4 a rbits[31:24], b [15:8], e [23:16], f [7:0]. The random bits are added to the most significant discarded bits (for an .f32 source and a normal .f16/.bf16 result those are exactly all 13/16 discarded bits); a carry out rounds away from zero, none toward zero. Past MAX_NORM the carry is taken as with an unbounded exponent (from the bits of the value below its own last kept bit): away from zero is then infinity (MAX_NORM with .satfinite), toward zero MAX_NORM.',
    sections: ['9.7.9.21'],
  },
  {
    id: 'cvt-rs-subnormal',
    title: '.rs into a subnormal result',
    spec: 'The text speaks of "the truncated off (discarded) bits of mantissa"; below the normal range more bits are discarded than the random bits cover.',
    decision:
      "The discarded bits are those below the subnormal result's last bit; the random bits are added to the most significant of them, as for a normal result, so the bits below those cannot carry. Rounding toward zero from below the smallest subnormal gives a zero of the same sign.",
    sections: ['9.7.9.21'],
  },
  {
    id: 'cvt-satfinite-infinity',
    title: '.satfinite of an infinity',
    spec: '"If the absolute value of input (ignoring sign) is greater than MAX_NORM of the specified destination format, then the result is sign-preserved MAX_NORM" — an infinity is not named.',
    decision:
      "±infinity is greater than MAX_NORM: it becomes ±MAX_NORM (+MAX_NORM for ue8m0), as a finite input that rounds past MAX_NORM does. NVIDIA's host conversions (__NV_SATFINITE in cuda_fp8.hpp, cuda_fp6.hpp, cuda_fp4.hpp) do the same.",
    sections: ['9.7.9.21'],
  },
  {
    id: 'cvt-ue8m0',
    title: 'Converting to ue8m0, which has no sign, no zero and no infinity',
    spec: 'ue8m0 is "an 8-bit unsigned floating-point format with 8 bits for exponent and 0 bits for mantissa", NaN 0xFF, with .rz and .rp; .satfinite gives "a positive MAX_NORM in .ue8m0x2 for which the destination sign is not supported".',
    decision:
      "As NVIDIA's host conversion (__nv_cvt_float_to_e8m0, __nv_cvt_bfloat16raw_to_e8m0) does: the sign is dropped (|x| is converted); .rz gives 2^floor(log2|x|), .rp 2^ceil(log2|x|); anything below 2^-127, zero included, gives 0x00 (2^-127, the least value); past 2^127 (under .rp) and ±infinity give 0xFF (NaN: there is no infinity) without .satfinite and 0xFE (2^127) with it; NaN gives 0xFF. ue8m0 → bf16 is exact: 0x00 is the bf16 subnormal 2^-127, 0xFF the bf16 canonical NaN.",
    sections: ['5.2.3', '9.7.9.21'],
  },
  {
    id: 'cvt-input-padding',
    title: 'Nonzero padding bits in a 6-bit or 4-bit input',
    spec: 'cvt: "Each 8-bit input value with 2 MSB bits 0 in operand a is converted" — what an input with those bits set gives is not said. mma .kind::f8f6f4: an .e2m1 element "resides in central 4 bits of the 8-bit container with padding in the upper 2 bits and lower 2 bits", an .e3m2/.e2m3 element in the lower 6 bits with padding in the upper 2 — what nonzero padding gives is not said either.',
    decision:
      'The padding bits are ignored: the value bits of each container are read. The trace shows the padding bits as read.',
    sections: ['9.7.9.21', '9.7.14.5.14'],
  },
  {
    id: 'cvt-ftz-f16-source',
    title: '.ftz does not flush the .f32 input of a conversion to .f16',
    spec: '".ftz … flush[es] single-precision subnormal inputs and results to sign-preserving zero": cvt.ftz.f16.f32 and cvt.ftz.bf16.f32 both have a single-precision input.',
    decision:
      'As an H200 gave it: on cvt.{rn,rz,rm,rp}{.sat}.ftz.f16.f32 .ftz changes nothing — a subnormal .f32 input is converted as it is, so cvt.rp.ftz.f16.f32 0x00000001 is 0x0001 and cvt.rm.ftz.f16.f32 0x80000001 is 0x8001 (to nearest or toward zero such an input gives a zero either way). cvt.*.ftz.bf16.f32 flushes it (0x00000001 → 0x0000 under .rp), as do the other .ftz forms with an .f32 input (.f32, .f64 destinations). nvidia-rules cvtFtzFlushes.',
    sections: ['9.7.9.21'],
    measured: {
      on: MEASURED_H200,
      evidence:
        'hw/captures/sm_90/h200: each of the 65,536 row hashes of every cvt.{rn,rz,rm,rp}{.sat}.ftz.f16.f32 equals the one of the form without .ftz (2^32 inputs each); the 256 rows of .f32 subnormals of cvt.*.ftz.bf16.f32 differ from the form without .ftz; tests/hw/sm90-h200-cvt.test.ts',
    },
  },
  {
    id: 'cvt-modifier-order',
    title: 'The order of .ftz, .satfinite, .sat and .relu after the rounding',
    spec: 'Each modifier is described on its own; the text does not order them.',
    decision:
      'One exact value, one rounding per element, then .ftz on the result, .satfinite, .sat, .relu. They commute on every input (a flushed result is a zero .sat and .relu keep or make +0.0; .relu of ±MAX_NORM from .satfinite is MAX_NORM or +0.0 either way; e2m1/e2m3/e3m2 NaN becomes +MAX_NORM, which .relu keeps), so the order is only the one the trace shows.',
    sections: ['9.7.9.21'],
  },
  {
    id: 'mma-fp8-f16-hopper',
    title: 'wgmma with FP8 inputs and an .f16 result on Hopper (measured)',
    spec: 'The PTX ISA leaves "the accumulation order, rounding and handling of subnormal inputs" of wgmma unspecified. The published models agree that Hopper\'s wgmma keeps n = 13 fractional bits for FP8 inputs and truncates an .f32 result to 13 fraction bits; for an .f16 result the models and the published measurements do not agree on every vector (tensor-cores.md, "Where the published models are not settled").',
    decision:
      "The engine follows the MMA-Sim model (Xie et al., arXiv 2511.10909): the terms are cut to n = 13 fractional bits relative to 2^E as for an .f32 result, and the exact sum of the cut terms is rounded once to .f16, to nearest even. An H100 settles this for sm_90 and sm_90a: it computes this model on every one of the 436 FP8 .f16 wgmma cases captured (4 type combinations, m64n8 and m64n256, A from a descriptor and from registers: corner rows and seeded random rows), once a zero sum is +0 (decision mma-zero-sign-sm90); the other reading, n = 25 as for Hopper's other inputs (Blackwell's model), differs from the H100 on 40 of them, 32 beside the zero sign: 18 random cases, 8 of big-terms-cancel-small-2^-24-left, 6 of result-tie-plus-tiny (node bin/run-ts.mjs hw/mma/wgmma/compare-wgmma.ts hw/captures/sm_90/h100/wgmma --target sm_100). The catalog lists the case as settled by that capture (tensor-core-models.ts `settles`) and the trace still names this decision. One GPU and 436 cases cannot rule out the published vectors the capture does not hold; where a capture differs, this decision changes.",
    sections: ['9.7.15.5.2'],
    measured: {
      on: MEASURED_H100,
      evidence:
        'hw/captures/sm_90/h100/wgmma: the 436 cases of wgmma m64n8k32/m64n256k32 .f16 with e4m3/e5m2 inputs all agree with the engine; tests/hw/wgmma-capture-h100.test.ts',
    },
  },
  {
    id: 'mma-fp8-blackwell',
    title: 'FP8 inputs on Blackwell (sm_100 to sm_110)',
    spec: 'The PTX ISA leaves the accumulation of mma unspecified. For FP8 inputs on Blackwell the published models and one published set of B200 measurements do not agree on every vector: the measurements look like round-to-nearest of the exact sum, not truncation (tensor-cores.md, "Where the published models are not settled").',
    decision:
      "The engine follows the models' table (MMA-Sim, Xie et al.; Khattak & Mikaitis): n = 25 fractional bits relative to 2^E, an .f32 result truncated toward zero, an .f16 result rounded to nearest even, as for Blackwell's other inputs. Not measured here.",
    sections: ['9.7.14.5.14'],
  },
  {
    id: 'mma-zero-sign',
    title: 'The sign of a zero mma / wgmma result',
    spec: 'Neither the PTX ISA nor the published models (tensor-cores.md) say which zero a dot product whose terms add up to exactly zero gives; the models add the cut terms in fixed point, which has one zero.',
    decision:
      "A zero sum is -0 when every term (c and each product a_i·b_i) is a zero with its sign bit set, as IEEE 754 §6.3 adds zeros under round to nearest and toward zero; otherwise, when terms cancel or are cut away entirely, +0. The other reading, +0 always, is the MMA-Sim model code's (its fixed-point sum starts from +0). The f64 chain is IEEE fma and follows §6.3 in its rounding mode. Not measured here.",
    sections: ['9.7.14.5.14', '9.7.15.5.2'],
  },
  {
    id: 'mma-f32-overflow',
    title: 'An .f32 mma / wgmma result beyond the largest finite value',
    spec: 'The published models round an .f32 result by truncation (toward zero); none of them, and no published measurement tensor-cores.md cites, says what a sum beyond 2^128 (reachable with .bf16 and .tf32 products) gives.',
    decision:
      'Truncation is IEEE 754 roundTowardZero throughout (§4.3.2, §7.4): a finite sum beyond the largest finite value gives the largest finite value of its sign, 0x7F7FFFFF or 0xFF7FFFFF (with 13 fraction bits, 0x7F7FFC00 or 0xFF7FFC00); only an infinite term gives an infinity. An .f16 result rounds to nearest and overflows to infinity. Not measured here.',
    sections: ['9.7.14.5.14', '9.7.15.5.2'],
  },
  {
    id: 'mma-zero-sign-sm90',
    title: 'The sign of a zero mma / wgmma result on sm_90 (measured)',
    spec: 'Neither the PTX ISA nor the published models say which zero an exactly-zero dot product gives (decision mma-zero-sign).',
    decision:
      'On sm_90 an mma.sync or wgmma whose cut terms add up to exactly zero gives +0, even when every term (c and each product) is −0. mma.sync, measured on an H200 (and again, bit for bit the same, on an H100): 0x0000 / 0x00000000 for −0·1 × k + (−0) in every f16, bf16 and tf32 form of m16n8k4, m16n8k8 and m16n8k16 (hw/captures/sm_90/h200/mma). wgmma, measured on an H100: the same +0 for the corner case all-neg-zero-terms in all 12 type combinations (f16, bf16, tf32, e4m3/e5m2; .f16 and .f32 results; A from a descriptor and from registers), 24 cases where the model gives −0 (hw/captures/sm_90/h100/wgmma). The engine follows the measurements for sm_90 and sm_90a, mma and wgmma (tensor-core-models.ts `measured`, one record per capture); other targets keep decision mma-zero-sign.',
    sections: ['9.7.14.5.14', '9.7.15.5.2'],
    measured: {
      on: `${MEASURED_H200} (mma.sync); ${MEASURED_H100} (wgmma)`,
      evidence:
        'hw/captures/sm_90/h200/mma: corner case all-neg-zero-terms of the 8 f16/bf16/tf32 m16n8 forms (and of the FP8 forms) is +0; hw/captures/sm_90/h100/wgmma: all-neg-zero-terms is +0 in the 24 m64n8 cases (tests/hw/wgmma-capture-h100.test.ts)',
    },
  },
  {
    id: 'mma-f32-overflow-sm90',
    title: 'An .f32 mma / wgmma result past the largest finite value on sm_90 (measured)',
    spec: 'The published models truncate an .f32 result and say nothing of a sum past 2^128 (decision mma-f32-overflow).',
    decision:
      'On sm_90 an .f32 mma.sync or wgmma result whose cut sum is past the largest finite value is ±∞ (0x7F800000 / 0xFF800000), not the largest finite value truncation would give. mma.sync, measured on an H200 (and again on an H100, the same bits): ±∞ for the bf16 and tf32 corner rows whose products add up beyond 2^128 (hw/captures/sm_90/h200/mma). wgmma, measured on an H100: ±∞ for the corner cases max-times-max, overflow-sum and overflow-sum-negative of m64n8k16 .f32.bf16 and m64n8k8 .f32.tf32, A from a descriptor and from registers, 12 cases where the model gives ±0x7F7FFFFF (hw/captures/sm_90/h100/wgmma). Below the overflow the result is truncated toward zero as the model says. The engine follows the measurements for sm_90 and sm_90a, mma and wgmma (tensor-core-models.ts `measured`); other targets keep decision mma-f32-overflow.',
    sections: ['9.7.14.5.14', '9.7.15.5.2'],
    measured: {
      on: `${MEASURED_H200} (mma.sync); ${MEASURED_H100} (wgmma)`,
      evidence:
        'hw/captures/sm_90/h200/mma: bf16 and tf32 m16n8k4/k8/k16 corner rows of max products, e.g. d[8][7] of tile 1: 0x7F800000; hw/captures/sm_90/h100/wgmma: max-times-max of m64n8k16 .f32.bf16 (case 258) 0x7F800000 (tests/hw/wgmma-capture-h100.test.ts)',
    },
  },
  {
    id: 'mma-sm90-differing-forms',
    title:
      'm8n8k4 and FP8 mma.sync on sm_90 compute otherwise than the published model (measured): m8n8k4 follows the measured sequence, FP8 keeps the model',
    spec: 'The PTX ISA leaves the accumulation of mma unspecified; the published models describe one fused step per instruction (n = 25 on Hopper).',
    decision:
      'Measured on an H200, these forms are not the fused step. m8n8k4 (f16 inputs) with an .f32 result, c .f16 or .f32: the products p_i = a_i·b_i (exact) added one after another in f32 from +0, each addition exact then rounded to nearest even, then c added the same way: d = ((((+0 + p0) + p1) + p2) + p3) + c (hw/mma/lib/fit-reference.ts kind product-chain; every element of the 8 forms). m8n8k4 with an .f16 result: s01 = p0 + p1 and s23 = p2 + p3 each rounded to f32 (the pair sums are rounded, not exact), then c + s01 rounded to f32, plus s23 rounded to f32, and that f32 value rounded to f16 to nearest even: d = f16(((c + (p0 + p1)) + (p2 + p3))) (kind pair-chain; every element of the 4 forms). Specials and the sign of an exact zero are IEEE 754 additions in round to nearest (a NaN operand or ∞ × 0 gives the canonical NaN, ∞ − ∞ too; +0 unless both terms are −0). The engine follows these sequences for m8n8k4 on sm_90 and sm_90a (tensor-core-models.ts `sequences`, semantics/measured-sequence.ts), each addition a step. FP8 (e4m3/e5m2) m16n8k16/k32: c is added after the products with round to nearest even and large cancelling products do not cut a small one, but no candidate of hw/mma/fit.ts reproduces every element (the closest agree on about 97%); the engine keeps the Hopper model for these forms and names this decision; the page says the GPU differs here. An H100 gives the same bits as the H200 in all 36 forms, and its FP8 wgmma (a different instruction) agrees with the Hopper model on every case captured (decision mma-fp8-f16-hopper).',
    sections: ['9.7.14.5.14'],
    measured: {
      on: MEASURED_H200,
      evidence:
        'hw/captures/sm_90/h200/mma: node bin/run-ts.mjs hw/mma/fit.ts hw/captures/sm_90/h200/mma --forms m8n8k4 (every element), node bin/run-ts.mjs hw/mma/compare.ts hw/captures/sm_90/h200/mma --forms m8n8k4 (the engine agrees on every element), FP8 forms unexplained; hw/captures/sm_90/h100/mma holds the same bits from an H100 (tests/hw/mma-capture-h100.test.ts)',
    },
  },
  {
    id: 'mma-default-target',
    title: 'The target of an mma / wgmma element when none is named',
    spec: "The PTX ISA says what mma and wgmma compute only as D = A*B+C; the sum's precision and rounding are the architecture's (tensor-cores.md gives a model per architecture, and they differ: Ampere splits k in two, Hopper keeps 25 bits, Ada 24 and 13 for FP8). An instruction alone names no architecture.",
    decision:
      'A matrix form is evaluated for the target the caller names (EngineOptions.target); with none, for sm_90 (H100, H200: the Hopper model), the target the page and ptxf eval default to (DEFAULT_EVAL_TARGET), so the three give the same bits. The trace names the target and its model either way. A target no published model covers (before sm_70, and sm_88) is refused.',
    sections: ['9.7.14.5.14', '9.7.15.5.2'],
  },
  {
    id: 'compare-exact',
    title: 'What A and B are measured against',
    spec: WHAT_IF_SPEC,
    decision:
      "Both results are measured against A's exact value: the exact value of A's operation on its inputs as A reads them (after .ftz, before rounding) for add, sub, mul and fma; the source value for cvt (as read, after .ftz: where ue8m0 converts the magnitude of a negative value, the lost sign is part of its error); the chosen, negated or absolute operand for min, max, neg and abs (exact operations); c + Σ a_i·b_i for mma and wgmma, exactly, with no term cut and no rounding (an exact zero −0 only where every term is a −0); tanh and ex2's function value to 17 significant digits. B's error is given only where B computes the same operation (the unfused sequence computes the fma's); another operation is measured against its own exact value, in its own reference values.",
    sections: [],
  },
  {
    id: 'compare-ulp',
    title: 'One ulp: of A’s format, at A’s result',
    spec: WHAT_IF_SPEC,
    decision:
      "Every figure in ulps of a comparison — B − A and each one's error — counts units in the last place of A's destination format at A's result, 2^(max(floor(log2 |A|), emin) − mantissa bits) (the least subnormal step at zero). One unit makes the figures add up: B's error minus A's is B − A. Where A's result is NaN or infinite there is no unit, and no figure in ulps. A result on its own counts its error in ulps of its own format at itself, which is the same rule with A the result.",
    sections: [],
  },
  {
    id: 'compare-carry',
    title: 'How A’s values reach B',
    spec: WHAT_IF_SPEC,
    decision:
      "By value, not by bits. B's element i reads A's element min(i, last) (lane i of an x2 form, line i of cvt's Semantics block), input by input in the operation's order (a, then b or c, then c), and is compared with that element of A; A's elements past B's last have no partner, and an input A lacks is +0. A value of B's input format keeps its bits (NaN payloads and OOB-NaN patterns included); another becomes the same value, else the nearest (round to nearest, ties to the even pattern); past the largest finite value ±infinity, or ±MAX_NORM where the format has none; a NaN the canonical NaN, +0 where the format has no NaN; a negative value in an unsigned format, and a zero in ue8m0, its least value. .rs random bits are A's rbits as bits (0 where A has none). An arithmetic instruction and a cvt compare the same way.",
    sections: [],
  },
  {
    id: 'compare-unfused',
    title: 'The unfused sequence of an fma',
    spec: WHAT_IF_SPEC,
    decision:
      "mul then add with the fma's rounding: .ftz on both, .sat on the add. A mixed-precision fma (.f32.f16, .f32.bf16) converts a and b to .f32 exactly and rounds the product and the sum once each in binary32 by the same rules. An fma with .relu or .oob, or whose mul or add does not exist in PTX (mul.rz.bf16), has no unfused sequence.",
    sections: [],
  },
  {
    id: 'compare-cuda-core-chain',
    title: 'What a CUDA-core loop gives for a tensor-core element: fma.rn chains in f32 and f64',
    spec: 'The PTX ISA sections in ../shared/spec give no single-precision or double-precision fma section (only the half-precision 9.7.4 and the mixed-precision 9.7.5, whose fma.f32.f16 "computes the product of a and b to infinite precision and then adds c to this product, again in infinite precision. The resulting value is then rounded to single precision"); IEEE 754 §5.4.1 defines fusedMultiplyAdd as (x × y) + z rounded once.',
    decision:
      "The catalog gets no fma.rn.f32 / fma.rn.f64 records, as their section text is not in the spec copy; the what-if computes the loop from the definition instead: acc = c (exact in f32 for an f16 or f32 accumulator, exact in f64 always), then for i = 0 … k−1 acc = fma.rn(a_i, b_i, acc), each the exact a_i·b_i + acc rounded once to nearest even in the chain's format by the one rounding (rounding.ts roundToFormat), NaN, 0 × ∞, ∞ − ∞, infinities and an exact zero's sign by the rules every fma uses (sumOutcome, nvidia-rules.ts: the canonical NaN), past the largest finite value ±∞ (semantics/rounded-sum.ts). A chain is in f32 (what a float loop of fmaf gives) and in f64; an f64 form's elements are f64 values, so it has no f32 chain. A block-scaled form's loop dequantizes first, as a kernel without block-scaled tensor cores would: a_i·SF_A and b_i·SF_B (its chunk's scales) rounded to nearest even into the chain's format are the fma's operands. Each result is shown in its own format, and rounded to nearest even into d's format; its distance from the tensor core's d and from the exact value counts ulps of d's format at d (decision compare-ulp).",
    sections: ['9.7.5', '9.7.14.5.14'],
  },
  {
    id: 'block-f32-arithmetic',
    title: 'div.rn.f32 and mul.rn.f32',
    spec: BLOCK_SCALE_SPEC,
    decision:
      "IEEE 754 division and multiplication of binary32 values, rounded once to nearest even, subnormal inputs and results kept (no .ftz). Specials as IEEE 754: a nonzero value divided by zero is ±infinity, 0/0 and ∞/∞ and 0 × ∞ are NaN (the canonical 0x7FFFFFFF), a zero result takes the XOR of the signs. With finite blocks the scale rules reach none of these specials (see nvfp4-zero-divisor); a quotient may still overflow to infinity, (amax / 6) / global where tensorAmax lies far below amax, and the scale cvt's .satfinite then gives 448.",
    sections: BLOCK_SCALE_SECTIONS,
  },
  {
    id: 'block-ocp-exponent',
    title: 'ocp: floor(log2 amax) as PTX computes it',
    spec: BLOCK_SCALE_SPEC,
    decision:
      'floor(log2 amax) + 127 is read by cvt.rz.satfinite.ue8m0x2.f32 of amax (2^floor(log2 amax); 0x00 below 2^-127 and for zero); emax_elem is subtracted and the result clamped at 0 (2^-127) with integer instructions. This equals 2^(floor(log2 amax) − emax_elem) clamped to [−127, 127] for every binary32 amax, and 2^−127 for an all-zero block; the upper clamp is never reached (floor(log2 amax) ≤ 127 and emax_elem ≥ 2).',
    sections: BLOCK_SCALE_SECTIONS,
  },
  {
    id: 'block-scale-register',
    title: 'One scale from a cvt of two',
    spec: BLOCK_SCALE_SPEC,
    decision:
      'The scale cvt forms convert two values (…x2.f32 d, a, b); a block converts its one value in both (a = b), and the scale is d[15:8], which d[7:0] repeats. A kernel packing two blocks would give each its own half.',
    sections: BLOCK_SCALE_SECTIONS,
  },
  {
    id: 'block-mx-power-of-two',
    title: 'MX elements: value × 2^−e',
    spec: BLOCK_SCALE_SPEC,
    decision:
      'Each value is multiplied by 2^−e with mul.rn.f32 (the product rounded once to binary32, to nearest even), 2^−e written as a binary32 immediate: exact for every scale, 2^−127 being the subnormal 0x00200000 and 2^127 0x7F000000.',
    sections: BLOCK_SCALE_SECTIONS,
  },
  {
    id: 'block-rs-rbits',
    title: '.rs: random bits per cvt',
    spec: BLOCK_SCALE_SPEC,
    decision:
      'With .rs the elements go four at a time through cvt.rs.satfinite.<elem>x4.f32 d, {a, b, e, f}, rbits; the rbits register of each cvt is given as a list (one per four elements, in order), or one value that every cvt of the block uses.',
    sections: BLOCK_SCALE_SECTIONS,
  },
  {
    id: 'block-error-ulps',
    title: 'Error in ulps of the element format',
    spec: BLOCK_SCALE_SPEC,
    decision:
      'The error of an element is its decoded value minus the input; in ulps, that divided by the ulp of the element format at the stored element (at a stored zero, the least subnormal step) times the factor the element is decoded with (2^e; NVFP4: blockScale × global). Null where that factor is zero.',
    sections: BLOCK_SCALE_SECTIONS,
  },
  {
    id: 'nvfp4-zero-divisor',
    title: 'NVFP4: a zero block scale',
    spec: BLOCK_SCALE_SPEC,
    decision:
      "Issue 26: a zero block scale gives zero elements of the values' signs. The sequence tests the divisor, mul.rn.f32 blockScale, global (setp.eq.f32), so that no value is ever divided by zero (which would give ±infinity, or NaN for a zero value); each element is then copysign.f32 of the value onto +0. The divisor is zero exactly when the block scale is: a nonzero block scale is at least 2/3 of RN(amax / 6) / global, so its product with the global scale is at least 2/3 × 2^−149 and rounds to a nonzero binary32.",
    sections: BLOCK_SCALE_SECTIONS,
  },
  {
    id: 'nvfp4-decoded-value',
    title: 'NVFP4: the value an element stands for',
    spec: BLOCK_SCALE_SPEC,
    decision:
      'An NVFP4 element decodes to element × blockScale × global, the exact product (as a block-scaled mma applies the scales), not the rounded divisor the quantization divided by.',
    sections: BLOCK_SCALE_SECTIONS,
  },
  {
    id: 'nvfp4-tensor-amax',
    title: 'NVFP4: tensorAmax',
    spec: BLOCK_SCALE_SPEC,
    decision:
      "tensorAmax must be a finite binary32 value that is not negative (−0 counts as zero: its global scale is 1.0, as for +0). One below the block's own amax is taken as given: the block scale then saturates at 448 (0x7E), and the result marks it saturated.",
    sections: BLOCK_SCALE_SECTIONS,
  },
  {
    id: 'block-compare-arrangement',
    title: 'What-if: one block, every scheme',
    spec: BLOCK_SCALE_SPEC,
    decision:
      "The comparison takes 16 or 32 values. MX schemes quantize 16 values as a block of 32 padded with +0 (zeros change neither amax nor the scale, and convert exactly); NVFP4 quantizes 32 values as two blocks of 16 sharing one global scale, from tensorAmax if given, else the 32 values' amax. Errors are summarised over the given values only, element conversions to nearest even.",
    sections: BLOCK_SCALE_SECTIONS,
  },
];

export function decision(id: DecisionId): Decision {
  const d = DECISIONS.find((x) => x.id === id);
  if (!d) throw new Error(`unknown decision ${id}`);
  return d;
}

const isIn =
  <T extends string>(ids: readonly T[]) =>
  (d: Decision): d is Decision & { readonly id: T } =>
    (ids as readonly string[]).includes(d.id);

/** The what-if's decisions (compare-*), in the list's order. */
export type WhatIfDecision = Decision & { readonly id: WhatIfDecisionId };
export const WHAT_IF_DECISIONS: readonly WhatIfDecision[] = DECISIONS.filter(
  isIn(WHAT_IF_DECISION_IDS),
);

/** Block scaling's decisions (block-*, nvfp4-*), in the list's order. */
export type BlockScaleDecision = Decision & { readonly id: BlockScaleDecisionId };
export const BLOCK_SCALE_DECISIONS: readonly BlockScaleDecision[] = DECISIONS.filter(
  isIn(BLOCK_SCALE_DECISION_IDS),
);

export function whatIfDecision(id: WhatIfDecisionId): WhatIfDecision {
  return decision(id) as WhatIfDecision;
}

export function blockScaleDecision(id: BlockScaleDecisionId): BlockScaleDecision {
  return decision(id) as BlockScaleDecision;
}
