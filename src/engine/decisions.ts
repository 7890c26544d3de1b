/**
 * Where the spec is silent, ambiguous or wrong, the engine decides — and says so. This is the
 * one list of those decisions. Each entry is surfaced in traces (a step's `decision`), in the
 * UI as a note, and each is pinned by a test (tests/decisions.test.ts).
 */

export type DecisionId =
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
  | 'ptxas-only-forms';

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
    spec: 'Half-precision fma allows only .rn (".rnd = { .rn }"), and .oob combines with .relu only (fma.rnd.oob.{relu}.type). ptxas 13.0 also assembles fma.{rz,rm,rp}{.oob}{.relu}.bf16{x2} and fma.rn.oob.sat.f16{x2}; no document says what they compute.',
    decision:
      'They are catalog forms, flagged "assembles; behaviour not documented, not yet measured". The rounding modifier applies to the one rounding of the exact a×b+c, as it does for the .f32 fma (9.7.5.3); .relu and .oob act as on fma.rn. With .oob and .sat both, an OOB-NaN lane gives +0.0 whichever comes first, since .sat of +0.0 is +0.0: the two commute.',
    sections: ['9.7.4.4', '9.7.5.3'],
  },
];

export function decision(id: DecisionId): Decision {
  const d = DECISIONS.find((x) => x.id === id);
  if (!d) throw new Error(`unknown decision ${id}`);
  return d;
}
