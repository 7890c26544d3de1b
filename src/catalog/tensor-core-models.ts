/**
 * What one output element of `mma` / `wgmma` computes on each GPU generation, as data: the
 * published, hardware-validated models of ../shared/spec/beyond/tensor-cores.md. The PTX ISA
 * says only `D = A × B + C` ("The accumulation order, rounding and handling of subnormal inputs
 * are unspecified"); three groups measured the hardware and published models that reproduce it
 * bit for bit. For `d = c + Σ a_i·b_i` they agree on this shape:
 *
 *   - specials first (NaN, ∞ × 0, +∞ and −∞ together: the canonical NaN; else an infinite term);
 *   - every term as significand × 2^exponent: c in its own format, each product exact
 *     (s_a·s_b at e_a + e_b, not renormalised), a zero at 2^ZERO_TERM_EXPONENT;
 *   - E = the largest exponent; each term cut to n fractional bits relative to 2^E by
 *     truncation toward zero (no guard, round or sticky bit); the cut terms added exactly;
 *   - one final rounding: an f32 result truncated (toward zero), an f16 result to nearest even;
 *   - Ampere and Ada split k in two halves, each a fused step whose rounded result is the next
 *     half's c; f64 is a chain of IEEE fused multiply-adds in order.
 *
 * The architectures differ in n, in which forms split, and in the FP8 rules of Ada and Hopper.
 * Where a GPU of an architecture was measured (hw/captures), its rules are the entry's
 * `measured` data, one record per capture and the instructions it measured: the sign of a zero
 * sum, an .f32 overflow, the forms it computes as a sequence of f32 additions instead of the
 * fused step (sm_90 mma m8n8k4), and the unsettled cases it settles. The engine
 * (src/engine/semantics/dot-product.ts, measured-sequence.ts) reads these records, and cites
 * the models' words below in its steps; nothing here computes.
 */
import type { FormatName } from './formats.ts';
import type { IeeeRounding } from './modifiers.ts';

export type CitationId = 'fasi-2021' | 'mma-sim-2025' | 'khattak-mikaitis-2025';

export interface Citation {
  readonly id: CitationId;
  readonly authors: string;
  readonly title: string;
  /** Where it was published, as tensor-cores.md cites it. */
  readonly venue: string;
  readonly year: number;
  /** The GPUs it measured. */
  readonly measured: string;
}

/** The three papers tensor-cores.md cites. */
export const TENSOR_CORE_SOURCES: { readonly [Id in CitationId]: Citation } = {
  'fasi-2021': {
    id: 'fasi-2021',
    authors: 'Fasi, Higham, Mikaitis, Pranesh',
    title: 'Numerical behavior of NVIDIA tensor cores',
    venue: 'PeerJ Computer Science 7:e330',
    year: 2021,
    measured: 'V100, T4, A100',
  },
  'mma-sim-2025': {
    id: 'mma-sim-2025',
    authors: 'Xie, Wang, Yang, Yang',
    title: 'MMA-Sim: Bit-Accurate Reference Model of Tensor Cores and Matrix Cores',
    venue: 'arXiv 2511.10909',
    year: 2025,
    measured: 'Volta to Blackwell; mma, wgmma, tcgen05.mma, block scale',
  },
  'khattak-mikaitis-2025': {
    id: 'khattak-mikaitis-2025',
    authors: 'Khattak, Mikaitis',
    title: 'Accurate models of NVIDIA tensor cores',
    venue:
      'arXiv 2512.07004; with "Generalized methodology for determining numerical features of hardware floating-point matrix multipliers", IEEE HPEC 2025',
    year: 2025,
    measured: 'V100, A100, A2, Ada, L40S, H100, H200, B200',
  },
};

export type TensorArchitecture =
  'volta' | 'turing' | 'ampere' | 'ada' | 'hopper' | 'blackwell' | 'rtx-blackwell';

/** The instruction families whose element the models describe. */
export type MatrixInstruction = 'mma' | 'wgmma';

/** The input formats of a rule: a rule applies when both A's and B's formats are among them. */
export type InputFormats = readonly FormatName[];

/** "k is split in two halves": forms with these inputs and this k run as two fused steps. */
export interface SplitRule {
  readonly inputs: InputFormats;
  /** The instruction's k (split into k/2 + k/2). */
  readonly k: number;
}

/**
 * Fewer bits for some inputs: "FP8 inputs keep only n = 13 and an f32 result keeps only 13
 * fraction bits" (Ada's mma, Hopper's wgmma).
 */
export interface ReducedRule {
  readonly inputs: InputFormats;
  readonly instructions: readonly MatrixInstruction[];
  readonly alignmentBits: number;
  /** Fraction bits an f32 result keeps (its exponent range is f32's: "e8m13"). */
  readonly f32FractionBits: number;
}

/**
 * Where the published models and measurements do not agree (tensor-cores.md, "Where the
 * published models are not settled"): the engine follows the rule above and names the
 * decision that says so.
 */
export interface UnsettledCase {
  readonly inputs: InputFormats;
  readonly instructions: readonly MatrixInstruction[];
  /** The result formats concerned. */
  readonly results: readonly ('f16' | 'f32')[];
}

/** A capture in the repository and the GPU it was taken on. */
export interface CaptureRef {
  /** The GPU, driver and CUDA version of the capture. */
  readonly on: string;
  /** The capture's folder in the repository. */
  readonly capture: string;
}

/**
 * What a GPU of the architecture was measured to do where the published models are silent or
 * differ, for the instructions one capture measured (hw/captures; each rule is a decision of
 * src/engine/decisions.ts). The rules apply to those instructions only.
 */
export interface MeasuredRules extends CaptureRef {
  /** The instructions the capture measured. */
  readonly instructions: readonly MatrixInstruction[];
  /** Later captures of the same instructions, on other GPUs, that gave the same results. */
  readonly repeatedOn: readonly CaptureRef[];
  /** An exact-zero sum: 'positive' = +0 whatever the signs of the terms. */
  readonly zeroSum: 'positive';
  /** An .f32 result past the largest finite value: 'infinity' = ±∞, not the largest finite. */
  readonly f32Overflow: 'infinity';
  /**
   * Forms the GPU computes otherwise than the model, with no model here that reproduces them:
   * the engine keeps the architecture's model for them and names the decision that says so.
   */
  readonly differing: readonly DifferingForms[];
  /**
   * Forms the GPU was measured to compute as a sequence of f32 additions instead of the fused
   * step: the engine follows the sequence for them (decision mma-sm90-differing-forms).
   */
  readonly sequences: readonly MeasuredSequence[];
  /**
   * Cases the published models leave unsettled (UnsettledCase) where the GPU computes the
   * architecture's model on every case captured: the engine keeps the model and names the
   * decision that records the measurement.
   */
  readonly settles: readonly UnsettledCase[];
}

/**
 * A sequence of additions in f32, each exact then rounded once to nearest even (p_i = a_i·b_i
 * exactly):
 *   'products-then-c': acc = +0; acc = rn_f32(acc + p_i) for i = 0 … k−1; d = rn_f32(acc + c)
 *   'pairs-then-c' (k = 4): s01 = rn_f32(p0 + p1), s23 = rn_f32(p2 + p3),
 *                    d = rn_f16(rn_f32(rn_f32(c + s01) + s23))
 * Specials and the sign of an exact zero as IEEE 754 adds in round to nearest.
 */
export type SequenceKind = 'products-then-c' | 'pairs-then-c';

export interface MeasuredSequence {
  readonly instructions: readonly MatrixInstruction[];
  readonly inputs: InputFormats;
  readonly k: number;
  /** d's format. */
  readonly result: 'f16' | 'f32';
  readonly sequence: SequenceKind;
}

/** Forms of these instructions with these inputs (and, where given, this k). */
export interface DifferingForms {
  readonly instructions: readonly MatrixInstruction[];
  readonly inputs: InputFormats;
  /** The instruction's k (f16 inputs with k = 4: m8n8k4); absent: every k. */
  readonly k?: number;
}

export interface TensorCoreModel {
  readonly architecture: TensorArchitecture;
  /** The name the sources use. */
  readonly name: string;
  /** The catalog targets (src/catalog/targets.ts) of this architecture. */
  readonly targets: readonly string[];
  /** n: fractional bits kept in alignment, relative to 2^E (23 + Khattak & Mikaitis's "extra alignment bits"). */
  readonly alignmentBits: number;
  readonly split: readonly SplitRule[];
  readonly reduced: readonly ReducedRule[];
  readonly unsettled: readonly UnsettledCase[];
  readonly sources: readonly CitationId[];
  /** Measured on GPUs of the architecture, one record per capture (empty: nothing measured). */
  readonly measured: readonly MeasuredRules[];
}

/** Exponent at which a zero term stands: it can still be E when every other term is smaller. */
export const ZERO_TERM_EXPONENT = -126;

/**
 * The final rounding of a fused step, by result format: f32 by truncation toward zero (23
 * fraction bits, or the reduced rule's), f16 to nearest even; subnormals kept.
 */
export const FINAL_ROUNDING: { readonly f32: IeeeRounding; readonly f16: IeeeRounding } = {
  f32: 'rz',
  f16: 'rn',
};

/**
 * f64: a chain of IEEE fused multiply-adds in order, d = fma(a_i, b_i, d) from d = c, each
 * rounded in the instruction's mode (PTX ISA 9.7.14.5.14: ".rn" is the default, ".rz", ".rm"
 * and ".rp" the others).
 */
export const F64_CHAIN_DEFAULT_ROUNDING: IeeeRounding = 'rn';

const FP8: InputFormats = ['e4m3', 'e5m2'];
const HALF: InputFormats = ['f16', 'bf16'];

/** Ampere's halves: f16/bf16 k = 16 → 8 + 8, tf32 k = 8 → 4 + 4. */
const AMPERE_SPLIT: readonly SplitRule[] = [
  { inputs: HALF, k: 16 },
  { inputs: ['tf32'], k: 8 },
];

export const TENSOR_CORE_MODELS: readonly TensorCoreModel[] = [
  {
    architecture: 'volta',
    name: 'Volta',
    targets: ['sm_70', 'sm_72'],
    alignmentBits: 23,
    split: [],
    reduced: [],
    unsettled: [],
    sources: ['fasi-2021', 'mma-sim-2025', 'khattak-mikaitis-2025'],
    measured: [],
  },
  {
    architecture: 'turing',
    name: 'Turing',
    targets: ['sm_75'],
    alignmentBits: 24,
    split: [],
    reduced: [],
    unsettled: [],
    sources: ['fasi-2021', 'mma-sim-2025'],
    measured: [],
  },
  {
    architecture: 'ampere',
    name: 'Ampere',
    targets: ['sm_80', 'sm_86', 'sm_87'],
    alignmentBits: 24,
    split: AMPERE_SPLIT,
    reduced: [],
    unsettled: [],
    sources: ['fasi-2021', 'mma-sim-2025', 'khattak-mikaitis-2025'],
    measured: [],
  },
  {
    architecture: 'ada',
    name: 'Ada',
    targets: ['sm_89'],
    alignmentBits: 24,
    split: [...AMPERE_SPLIT, { inputs: FP8, k: 32 }],
    reduced: [{ inputs: FP8, instructions: ['mma'], alignmentBits: 13, f32FractionBits: 13 }],
    unsettled: [],
    sources: ['mma-sim-2025', 'khattak-mikaitis-2025'],
    measured: [],
  },
  {
    architecture: 'hopper',
    name: 'Hopper',
    targets: ['sm_90', 'sm_90a'],
    alignmentBits: 25,
    split: [],
    reduced: [{ inputs: FP8, instructions: ['wgmma'], alignmentBits: 13, f32FractionBits: 13 }],
    // FP8 wgmma with an .f16 result: the published models and measurements do not agree on
    // every vector; the H100's wgmma capture settles it for sm_90 (`settles` below).
    unsettled: [],
    sources: ['mma-sim-2025', 'khattak-mikaitis-2025'],
    measured: [
      // hw/captures/sm_90/h200/mma (and the H100's, bit for bit the same): the f16, bf16 and
      // tf32 forms of m16n8k4/k8/k16 agree with n = 25 and truncation on every element once a
      // zero sum is +0 and an .f32 overflow is ±∞; m8n8k4 is a sequence of f32 additions (every
      // element of its 12 forms), and the FP8 mma.sync forms something no candidate of
      // hw/mma/fit.ts reproduces.
      {
        instructions: ['mma'],
        on: 'NVIDIA H200 (sm_90), driver 580.159.04, CUDA 13.0',
        capture: 'hw/captures/sm_90/h200/mma',
        repeatedOn: [
          {
            on: 'NVIDIA H100 80GB HBM3 (sm_90), driver 580.159.04, CUDA 13.0',
            capture: 'hw/captures/sm_90/h100/mma',
          },
        ],
        zeroSum: 'positive',
        f32Overflow: 'infinity',
        differing: [{ instructions: ['mma'], inputs: FP8 }],
        sequences: [
          {
            instructions: ['mma'],
            inputs: ['f16'],
            k: 4,
            result: 'f32',
            sequence: 'products-then-c',
          },
          { instructions: ['mma'], inputs: ['f16'], k: 4, result: 'f16', sequence: 'pairs-then-c' },
        ],
        settles: [],
      },
      // hw/captures/sm_90/h100/wgmma: all 12 type combinations (m64n8 and m64n256, A from a
      // descriptor and from registers) agree with the model on every one of the 1,326 cases once
      // a zero sum is +0 and an .f32 overflow is ±∞, the FP8 forms with an .f16 result included.
      {
        instructions: ['wgmma'],
        on: 'NVIDIA H100 80GB HBM3 (sm_90), driver 580.159.04, CUDA 13.0',
        capture: 'hw/captures/sm_90/h100/wgmma',
        repeatedOn: [],
        zeroSum: 'positive',
        f32Overflow: 'infinity',
        differing: [],
        sequences: [],
        settles: [{ inputs: FP8, instructions: ['wgmma'], results: ['f16'] }],
      },
    ],
  },
  {
    architecture: 'blackwell',
    name: 'Blackwell',
    targets: [
      'sm_100',
      'sm_100a',
      'sm_100f',
      'sm_101',
      'sm_101a',
      'sm_101f',
      'sm_103',
      'sm_103a',
      'sm_103f',
      'sm_110',
      'sm_110a',
      'sm_110f',
    ],
    alignmentBits: 25,
    split: [],
    reduced: [],
    unsettled: [{ inputs: FP8, instructions: ['mma'], results: ['f16', 'f32'] }],
    sources: ['mma-sim-2025', 'khattak-mikaitis-2025'],
    measured: [],
  },
  {
    architecture: 'rtx-blackwell',
    name: 'RTX Blackwell',
    targets: ['sm_120', 'sm_120a', 'sm_120f', 'sm_121', 'sm_121a', 'sm_121f'],
    alignmentBits: 25,
    split: [],
    reduced: [],
    unsettled: [],
    sources: ['mma-sim-2025'],
    measured: [],
  },
];

const byTarget = new Map(TENSOR_CORE_MODELS.flatMap((m) => m.targets.map((t) => [t, m] as const)));

/** The measured rules of the model for an instruction (the capture that measured it), if any. */
export function measuredRulesFor(
  model: TensorCoreModel,
  instruction: MatrixInstruction,
): MeasuredRules | undefined {
  return model.measured.find((r) => r.instructions.includes(instruction));
}

/**
 * The model of a target, or undefined where tensor-cores.md names none (targets before sm_70,
 * which have no mma, and sm_88, which no published model or GPU list covers).
 */
export function tensorCoreModelFor(target: string): TensorCoreModel | undefined {
  return byTarget.get(target.trim());
}

export function tensorCoreModel(architecture: TensorArchitecture): TensorCoreModel {
  const found = TENSOR_CORE_MODELS.find((m) => m.architecture === architecture);
  if (!found) throw new Error(`unknown tensor-core architecture ${architecture}`);
  return found;
}

/**
 * The models' words for each step of one output element, as tensor-cores.md states them (the
 * trace cites them with the model's name; the papers are TENSOR_CORE_SOURCES).
 */
export const TENSOR_CORE_RULES = {
  model:
    'one output element d = c + Σ a_i·b_i, one fused operation per instruction, as the published hardware-validated model of the architecture computes it',
  specials:
    'specials first: any NaN operand, ∞ × 0, or +∞ and −∞ together give the canonical NaN; otherwise an infinite term gives that infinity',
  terms:
    "every term as significand × 2^exponent: c with its own format's significand (a subnormal keeps s < 1 at the least exponent), each product s_a × s_b exactly at e_a + e_b; a zero counts at exponent −126. E = the largest exponent",
  align:
    'each term cut to n fractional bits relative to 2^E, truncated toward zero: no guard, round or sticky bit',
  sum: 'the cut terms are added exactly, then normalised',
  round: {
    f32: 'the sum rounded once to f32 by truncation (toward zero), subnormals kept',
    f16: 'the sum rounded once to f16, to nearest even, subnormals kept',
  },
  reduced:
    'FP8 inputs keep only n = 13 fractional bits, and an f32 result only 13 fraction bits (e8m13)',
  zero: 'the cut terms add up to exactly zero',
  halves:
    "k is split in two halves, each a separate fused step whose rounded result is the next half's c",
  chain: 'f64: a chain of IEEE fused multiply-adds in order, d = fma(a_i, b_i, d) from d = c',
  sequence: {
    'products-then-c':
      'measured: the products added one after another in f32 from +0, each addition exact then rounded to nearest even, then c added the same way: d = ((((+0 + p0) + p1) + p2) + p3) + c',
    'pairs-then-c':
      'measured: f32 additions, each exact then rounded to nearest even, in the order d = (c + (p0 + p1)) + (p2 + p3), the last f32 sum rounded to f16 to nearest even',
  },
  blockScale:
    "block scaling: mxf8f6f4 (k = 32) adds the two scales' exponents to each product's, n = 25; mxf4/mxf4nvf4 (k = 64) sum each group of 16 products exactly, multiply it by its two scales (a UE4M3 scale's sign bit ignored) and align those sums and c with n = 35; f32 result by truncation; a NaN scale or a NaN c gives 0x7FFFFFFF",
} as const;
