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
}

export const DECISIONS: readonly Decision[] = [
  {
    id: 'canonical-nan',
    title: 'Which NaN an instruction returns',
    spec: 'Half-precision instructions "return an unspecified NaN"; .relu and min/max .NaN say "canonical NaN".',
    decision:
      "Every NaN result is NVIDIA's canonical NaN: 0x7FFF for .f16 and .bf16 (CUDART_NAN_FP16/BF16), 0x7FFFFFFF for .f32 (CUDA Programming Guide). Input payloads are not propagated.",
    sections: ['9.7.4', '9.7.5'],
  },
  {
    id: 'ftz-after-rounding',
    title: '.ftz judges a result subnormal after rounding',
    spec: '".ftz flushes subnormal inputs and results to sign-preserving zero" — it does not say whether "subnormal" is judged before or after rounding.',
    decision:
      'The exact result is rounded with gradual underflow first; if the rounded value is subnormal it becomes a zero of the same sign. A value just below the smallest normal that rounds up to it is kept. The other reading (tininess before rounding) is the engine option ftzTininess: ptxf eval --ftz-tininess before-rounding, and hw/compare.ts --ftz-tininess before-rounding to judge a GPU capture by it.',
    sections: ['9.7.4.1', '9.7.4.2', '9.7.4.3', '9.7.4.4', '9.7.4.10'],
    option: 'ftzTininess',
  },
  {
    id: 'sat-negative-zero',
    title: '.sat of -0.0 gives +0.0',
    spec: '".sat clamps the result to [0.0, 1.0]" — -0.0 equals 0.0, so the clamp may or may not change its sign.',
    decision:
      'The clamp is max(+0.0, min(x, 1.0)) with +0.0 > -0.0 (the ordering min/max use), so -0.0 and every negative result become +0.0.',
    sections: ['9.7.4', '9.7.5'],
  },
  {
    id: 'relu-negative-zero',
    title: '.relu of -0.0 gives +0.0',
    spec: '".relu clamps the result to 0 if negative" — is -0.0 negative?',
    decision:
      '.relu is max(x, +0.0) with +0.0 > -0.0, so -0.0 becomes +0.0; a NaN becomes canonical NaN.',
    sections: ['9.7.4.4'],
  },
  {
    id: 'oob-nan-pattern',
    title: 'OOB-NaN is a marked operand',
    spec: '.oob tests for a "special NaN called OOB-NaN" whose bit pattern NVIDIA does not publish.',
    decision:
      'An operand lane is OOB-NaN because the user marks it so (UI toggle or quick pick, ptxf eval --oob, batch "oob" field), not because of its bits. A marked lane holds the pattern of the engine option oobNanBits (default 0x7FFF: a NaN; ptxf eval --oob-nan sets another) so that forms without .oob see a NaN. With .oob, a lane with any OOB-NaN operand yields +0.0 (also under .relu).',
    sections: ['9.7.4.4'],
    option: 'oobNanBits',
  },
  {
    id: 'max-x2-xorsign-typo',
    title: "Typo in max's x2 pseudo-code",
    spec: 'The .f16x2/.bf16x2 branch of max tests `if (.xorsign && !isNaN(fA[i]))`, while min and the scalar branch test the result d.',
    decision:
      'Read as `!isNaN(d[i])`, as the text says: "If the result of max is NaN then the .xorsign and .abs modifiers will be ignored." Both lanes behave like the scalar form.',
    sections: ['9.7.4.8'],
  },
  {
    id: 'minmax-both-nan',
    title: 'min/max when both inputs are NaN',
    spec: 'The pseudo-code sets d = NaN when both inputs are NaN, but the following if/else chain (not joined by else) would then assign d = b.',
    decision:
      'Both inputs NaN yields canonical NaN, as the first statement and the host emulation in cuda_fp16.hpp intend.',
    sections: ['9.7.4.7', '9.7.4.8'],
  },
  {
    id: 'neg-abs-nan',
    title: 'neg/abs of NaN',
    spec: '"NaN inputs yield an unspecified NaN. Future implementations may comply with the IEEE 754 standard by preserving payload and modifying only the sign bit."',
    decision: 'neg and abs of a NaN return canonical NaN (the unspecified NaN, as elsewhere).',
    sections: ['9.7.4.5', '9.7.4.6'],
  },
  {
    id: 'approx-model',
    title: 'What tanh.approx / ex2.approx return',
    spec: 'Only corner-case tables and a maximum error are given (tanh: absolute 2^-10.987 for .f16, 2^-8 for .bf16; ex2: relative 2^-9.9 for .f16, 2^-7 for .bf16).',
    decision:
      'Outside the tables, the model returns the correctly rounded (round-to-nearest-even) value of the exact function, and the trace lists every representable value within the bound: hardware may return any of them. Measured tables replace the model per target when available.',
    sections: ['9.7.4.9', '9.7.4.10'],
  },
  {
    id: 'approx-ftz-result',
    title: 'ex2.approx.ftz.bf16 results and tiny outputs',
    spec: '"ex2.approx.ftz.bf16 flushes subnormal inputs and results to sign-preserving zero"; for .f16 only subnormal inputs are said to be supported.',
    decision:
      'bf16: subnormal inputs become zero (so the result is +1.0, as the table says) and a subnormal result becomes +0.0. f16: subnormal results are kept (gradual underflow).',
    sections: ['9.7.4.10'],
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
