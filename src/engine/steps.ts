/**
 * The trace is data: for each element an instruction computes, the ordered steps that produced
 * it, in one vocabulary for every instruction. The engine never writes prose; the page and the
 * CLI render these records through one presentation module. Everything here is plain JSON: bit
 * patterns are lower-case hex strings of their format's width (exact at 64 bits), exact values
 * are strings (value.ts ExactValue), so a trace crosses the worker boundary and goes into golden
 * files as it is.
 */
import type { BitRange, RegisterName } from '../catalog/instruction.ts';
import type { IeeeRounding, Rounding } from '../catalog/modifiers.ts';
import type {
  CitationId,
  SequenceKind,
  TensorArchitecture,
} from '../catalog/tensor-core-models.ts';
import type { DecisionId } from './decisions.ts';
import type { BitsView } from './format.ts';
import type { FormatName } from '../catalog/formats.ts';
import type { ExactValue, RuleRef } from './value.ts';

export type { BitsView } from './format.ts';

interface StepBase {
  readonly rule: RuleRef;
  /** A documented interpretation this step relies on (decisions.ts). */
  readonly decision?: DecisionId;
}

/** One element of a source register, as the instruction reads it. */
export interface ElementRead extends BitsView {
  /** The register it comes from. */
  readonly operand: RegisterName;
  /** The element's bits in the register; those outside `valueBits` are padding. */
  readonly slot: BitRange;
  readonly valueBits: BitRange;
  /** The padding bits as read (hex), when the slot holds any; nonzero ones are ignored. */
  readonly padding: string | null;
}

/** A value before and after a step that may change it. */
interface Change {
  readonly before: BitsView;
  readonly after: BitsView;
}

/**
 * Where the exact value sits in the significand of the result: the bits kept at the result's
 * quantum and the three below it. Absent beyond the format's exponent range.
 */
export interface SignificandCut {
  /** Significand bits kept, as a binary string, MSB first (the leading 1 for normals). */
  readonly kept: string;
  readonly guard: 0 | 1;
  readonly round: 0 | 1;
  readonly sticky: 0 | 1;
  /** Exponent of the least significant kept bit (the quantum of the result is 2^ulpExponent). */
  readonly ulpExponent: number;
}

/** .rs: the addition of the random bits to the most significant discarded bits. */
export interface RandomAddition {
  /** The random bits, MSB first. */
  readonly bits: string;
  /** The discarded bits they are added to (as many, the most significant ones). */
  readonly discarded: string;
  /** Their sum, one bit wider: the first bit is the carry. */
  readonly sum: string;
  readonly carry: 0 | 1;
  /** How many discarded bits there are in all (more than the random bits below a subnormal). */
  readonly discardedCount: number;
}

/**
 * One rounding of a nonzero finite exact value (rounding.ts): SoftFloat's roundPack, made
 * visible. Judged against the format itself, its MAX_NORM and infinity included.
 */
export interface RoundStep {
  readonly kind: 'round';
  readonly format: FormatName;
  readonly mode: Rounding;
  readonly exact: ExactValue;
  readonly cut?: SignificandCut;
  /** The result differs from the exact value. */
  readonly inexact: boolean;
  /** Where the result lies from the exact value: in value order … */
  readonly direction: 'exact' | 'up' | 'down';
  /** … and in magnitude. */
  readonly magnitude: 'exact' | 'larger' | 'smaller';
  /**
   * Why the result is that neighbour. 'overflow-threshold': |exact| is at least 2^(emax+1), past
   * MAX_NORM plus half an ulp, where rounding to nearest goes past MAX_NORM (IEEE 754 §4.3.1).
   */
  readonly reason:
    | 'exact'
    | 'below-half'
    | 'above-half'
    | 'tie-to-even'
    | 'tie-away'
    | 'toward-zero'
    | 'toward-plus-inf'
    | 'toward-minus-inf'
    | 'random-carry'
    | 'random-no-carry'
    | 'overflow-threshold';
  /**
   * The format's values next to the exact value (hex): the largest at most it and the smallest at
   * least it. Past MAX_NORM the upper one is the infinity, or null where the format has none; a
   * zero below is null in ue8m0, which has none. Equal when exact.
   */
  readonly lower: string | null;
  readonly upper: string | null;
  /** The rounded value; null past MAX_NORM (overflow) or where ue8m0 has no zero: the next step settles it. */
  readonly result: string | null;
  /** The result is a nonzero subnormal. */
  readonly subnormal: boolean;
  readonly random?: RandomAddition;
  /**
   * Present where the result keeps fewer fraction bits than the format has: a tensor core's sum
   * of FP8 products on Ada (mma) and Hopper (wgmma) keeps 13 of f32's 23 ("e8m13", f32's
   * exponent range). The cut and the neighbours are at that precision; `lower`, `upper` and
   * `result` are the format's patterns, their low bits zero.
   */
  readonly fractionBits?: number;
}

/** Where an element of a dot product comes from: A's row, B's column, or C. */
export interface DotElementRef {
  readonly operand: 'a' | 'b' | 'c';
  /** Position in A's row or B's column (c: 0). */
  readonly index: number;
}

/**
 * What one addition of a measured sequence adds: a product a_index·b_index (exactly), c, the
 * +0 a sequence starts from, or the result of its addition number `index`.
 */
export type SequenceOperand =
  | { readonly source: 'product'; readonly index: number; readonly value: ExactValue }
  | { readonly source: 'c'; readonly value: BitsView }
  | { readonly source: 'zero'; readonly value: BitsView }
  | { readonly source: 'sum'; readonly index: number; readonly value: BitsView };

/** A bit string whose first digit weighs 2^top (empty: no bits). */
export interface WeightedBits {
  readonly bits: string;
  readonly top: number;
}

/** One term of a fused step as significand × 2^exponent (tensor-cores.md, step 2). */
export interface DotTerm {
  /** `c`: the step's accumulator; `product`: a_index × b_index. */
  readonly source: 'c' | 'product';
  readonly index: number;
  /** The term's exact value (a product exactly, c as its format holds it). */
  readonly value: ExactValue;
  readonly zero: boolean;
  /** |significand|: c's in [1, 2) (a subnormal's below 1), a product's s_a × s_b in [1, 4) (or below). */
  readonly significand: ExactValue;
  /** The significand in binary with its point: "10.0110001". */
  readonly significandBits: string;
  /** Its exponent; a zero stands at −126. */
  readonly exponent: number;
}

/** One term lined up with 2^E and cut to n fractional bits (tensor-cores.md, step 3). */
export interface AlignedTerm {
  readonly source: 'c' | 'product';
  readonly index: number;
  /** E − exponent: how far the term moves right to line up with 2^E. */
  readonly shift: number;
  /** |kept| / 2^E in binary with exactly n fraction digits: "01.0110…". */
  readonly keptBits: string;
  /** The cut term (with the term's sign): truncated toward zero to a multiple of 2^(E − n). */
  readonly kept: ExactValue;
  /** Exactly the bits cut off, below 2^(E − n) (top = E − n − 1), trailing zeros dropped. */
  readonly cutBits: WeightedBits;
  /** term − kept: what the cut lost (the term's sign, or 0). */
  readonly cut: ExactValue;
  /** The same in units in the last place of the step's result (2^ulpExponent). */
  readonly cutUlps: ExactValue;
}

/** Why no value of the format is within an approximation's bound. */
export type ApproxEmptyReason =
  /** Below the smallest normal: the subnormals there are spaced wider than the bound allows. */
  | 'subnormal-spacing'
  /** Below the smallest subnormal: every value, zero included, is further off than the bound. */
  | 'below-smallest-subnormal'
  /** Subnormals would be within the bound, but .ftz writes no subnormal result. */
  | 'ftz-removes-subnormals';

export interface ApproxStep {
  readonly kind: 'approx';
  readonly fn: 'tanh' | 'ex2';
  /** The input the function was taken of (after .ftz). */
  readonly input: BitsView;
  /**
   * tanh(x) or 2^x correctly rounded to 17 significant digits; beyond 2^±1000 an ex2 value is
   * written as the power itself ("2^65504").
   */
  readonly mathValue: string;
  readonly model: 'correctly-rounded' | 'measured';
  readonly measuredOn?: string;
  /** With a measured result: what the model (correctly rounded) gives, to show beside it. */
  readonly modelResult?: BitsView;
  readonly result: BitsView;
  readonly bound: { readonly kind: 'absolute' | 'relative'; readonly log2: number };
  /**
   * The values v with |v − exact| within the bound, decided exactly: an interval of the value
   * order by its ends (hex) and size (+0 and −0 are two values). With .ftz only zeros and normals.
   * `overflows`: the exact value rounds to infinity, which is then in the set. count 0: no value
   * qualifies, for `emptyBecause`; lowest and highest are then the model's result.
   */
  readonly allowed: {
    readonly lowest: string;
    readonly highest: string;
    readonly count: number;
    readonly overflows: boolean;
    readonly emptyBecause?: ApproxEmptyReason;
  };
}

export type Step =
  | (StepBase & { readonly kind: 'inputs'; readonly operands: readonly ElementRead[] })
  | (StepBase & {
      /** .oob: which operands hold the OOB-NaN pattern; a or b holding it makes the result +0. */
      readonly kind: 'oob-check';
      readonly oobOperands: readonly RegisterName[];
      readonly forcesZero: boolean;
      /** The OOB-NaN pattern tested (either sign), hex. */
      readonly pattern: string;
    })
  | (StepBase & Change & { readonly kind: 'flush-input'; readonly operand: RegisterName })
  | (StepBase &
      Change & {
        /** An input widened to the format the operation computes in (mixed precision). */
        readonly kind: 'convert';
        readonly operand: RegisterName;
        /** The value came through unchanged; false for a NaN, which becomes the canonical NaN. */
        readonly exact: boolean;
      })
  | (StepBase & {
      /** ue8m0 has no sign and no zero: |x| is converted, and 2^-127 is the least it gives. */
      readonly kind: 'unsigned';
      readonly what: 'drop-sign' | 'least-value';
      readonly result: BitsView | null;
    })
  | (StepBase & {
      /** A result decided by a rule, not by rounding. */
      readonly kind: 'special';
      readonly case: 'nan-operand' | 'invalid' | 'infinity' | 'exact-zero' | 'zero' | 'corner-case';
      /** The result in the destination format; null where it has no such value (the next step decides). */
      readonly result: BitsView | null;
      /** 'invalid': '0 × ∞' or '∞ − ∞'; 'corner-case': the table row. */
      readonly detail?: string;
      /** A dot product's specials: the elements behind the result (every NaN, each ∞ × 0 pair, every infinite term). */
      readonly elements?: readonly DotElementRef[];
    })
  | (StepBase & {
      /** The exact value of the operation, before rounding. */
      readonly kind: 'exact';
      readonly expression: string;
      readonly value: ExactValue;
      /** The destination format holds it exactly. */
      readonly representable: boolean;
    })
  | (StepBase & RoundStep)
  | (StepBase & {
      /** IEEE 754 §7.4: rounded past MAX_NORM; the mode's result (or ue8m0's NaN). */
      readonly kind: 'overflow';
      readonly mode: Rounding;
      readonly to: 'infinity' | 'max-norm' | 'nan';
      readonly result: BitsView;
    })
  | (StepBase & {
      /** IEEE 754 §7.5: a nonzero exact value below 2^emin in magnitude. Follows the rounding. */
      readonly kind: 'tininess';
      readonly result: BitsView;
      readonly tinyBeforeRounding: boolean;
      readonly tinyAfterRounding: boolean;
      /** Tiny and inexact: underflow. */
      readonly inexact: boolean;
    })
  | (StepBase &
      Change & {
        /**
         * .ftz on a result. After a rounding: present whenever the exact value is tiny before
         * rounding, with the reading that decided and both readings. After an approximation: a
         * subnormal result, without tininess fields.
         */
        readonly kind: 'flush-result';
        readonly tininess?: 'after-rounding' | 'before-rounding';
        readonly tinyBeforeRounding?: boolean;
        readonly tinyAfterRounding?: boolean;
      })
  | (StepBase & {
      /** .satfinite: NaN stays NaN (+MAX_NORM without one); beyond MAX_NORM gives ±MAX_NORM. */
      readonly kind: 'satfinite';
      readonly case: 'nan' | 'beyond-max-norm' | 'in-range';
      readonly before: BitsView | null;
      readonly after: BitsView;
    })
  | (StepBase & Change & { readonly kind: 'saturate' })
  | (StepBase & Change & { readonly kind: 'relu' })
  | (StepBase & Change & { readonly kind: 'negate' | 'absolute' })
  | (StepBase & Change & { readonly kind: 'abs-inputs'; readonly operand: RegisterName })
  | (StepBase & {
      readonly kind: 'minmax';
      readonly op: 'min' | 'max';
      /** The values the pseudo-code compares (after .ftz and .abs). */
      readonly a: BitsView;
      readonly b: BitsView;
      /** Which pseudo-code branch chose the result. */
      readonly branch: 'both-nan' | 'nan-modifier' | 'a-nan' | 'b-nan' | 'compare';
      /** Branch 'compare': a against b (-0 < +0), and whether the zeros' signs decided it. */
      readonly comparison?: {
        readonly order: 'less' | 'equal' | 'greater';
        readonly signedZeros: boolean;
      };
      /** The operand the branch took ('nan': the canonical NaN). */
      readonly chosen: 'a' | 'b' | 'nan';
      readonly result: BitsView;
    })
  | (StepBase & Change & { readonly kind: 'xorsign'; readonly sign: 0 | 1 })
  | (StepBase & ApproxStep)
  | (StepBase & {
      /** The tensor-core model one output element of a matrix form is computed under. */
      readonly kind: 'tensor-model';
      /** The target the model is the architecture of (EngineOptions.target). */
      readonly target: string;
      readonly architecture: TensorArchitecture;
      /** The architecture's name in the sources ("Hopper"). */
      readonly name: string;
      readonly sources: readonly CitationId[];
      /**
       * A fused model: n (fractional bits kept relative to 2^E), whether k is split in halves,
       * and the final rounding (format, the fraction bits it keeps, mode). Null for f64.
       */
      readonly fused: null | {
        readonly alignmentBits: number;
        readonly halves: boolean;
        readonly result: {
          readonly format: FormatName;
          readonly fractionBits: number;
          readonly mode: IeeeRounding;
        };
      };
      /** f64: a chain of fused multiply-adds, each rounded in this mode. Null for a fused model. */
      readonly chain: null | { readonly mode: IeeeRounding };
      /**
       * A sequence of f32 additions the architecture's GPU was measured to compute for this form
       * (tensor-core-models.ts `sequences`), with the GPU and the capture; null otherwise (then
       * `fused` or `chain` says the model).
       */
      readonly sequence: null | {
        readonly kind: SequenceKind;
        readonly result: FormatName;
        readonly measuredOn: string;
        readonly capture: string;
      };
    })
  | (StepBase & {
      /**
       * One fused step of a tensor core: every product at once, or one of Ampere's and Ada's
       * two halves, whose rounded result is the next half's c. Its own steps: specials, or the
       * terms, their alignment, the sum and its rounding.
       */
      readonly kind: 'fused';
      /** Which part (0, 1) of how many (1, 2). */
      readonly part: number;
      readonly parts: number;
      /** The products it adds: a_i × b_i for i = from … to. */
      readonly products: { readonly from: number; readonly to: number };
      /** Its c: the instruction's (`operand`) or the first half's result (`first-half`). */
      readonly c: BitsView;
      readonly cFrom: 'operand' | 'first-half';
      readonly steps: readonly Step[];
      readonly result: BitsView;
    })
  | (StepBase & {
      /**
       * One link of an f64 tensor core's chain: d = fma(a_index, b_index, d), rounded. Its own
       * steps: specials, or the exact value, its rounding (or the sign of an exact zero).
       */
      readonly kind: 'fma';
      readonly index: number;
      readonly a: BitsView;
      readonly b: BitsView;
      /** d before the link (c for the first). */
      readonly accumulator: BitsView;
      readonly steps: readonly Step[];
      readonly result: BitsView;
    })
  | (StepBase & {
      /**
       * One addition of a measured sequence: x + y exactly, rounded once to f32 to nearest even.
       * Its own steps: specials, or the exact value and its rounding (or an exact zero's sign).
       */
      readonly kind: 'sequence-add';
      /** Its place in the sequence (0, 1, …): a later addition's `sum` operand names it. */
      readonly index: number;
      readonly terms: readonly [SequenceOperand, SequenceOperand];
      readonly steps: readonly Step[];
      readonly result: BitsView;
    })
  | (StepBase & {
      /** A fused step's terms as significand × 2^exponent, and the largest exponent E. */
      readonly kind: 'terms';
      readonly terms: readonly DotTerm[];
      readonly largestExponent: number;
      /** The terms (indices into `terms`) that stand at E. */
      readonly atLargest: readonly number[];
    })
  | (StepBase & {
      /** Every term lined up with 2^E and cut to n fractional bits, toward zero. */
      readonly kind: 'align';
      /** n. */
      readonly alignmentBits: number;
      /** E − n: every kept term is a multiple of 2^quantumExponent. */
      readonly quantumExponent: number;
      readonly terms: readonly AlignedTerm[];
      /** One ulp of the step's result is 2^ulpExponent (at its largest finite value for an infinity). */
      readonly ulpExponent: number;
    })
  | (StepBase & {
      /** The exact sum of the cut terms beside the exact sum of the terms, and the normalisation. */
      readonly kind: 'sum';
      /** Σ kept, exactly: what is rounded. */
      readonly kept: ExactValue;
      /** Σ terms, exactly: what the cuts would have kept with no cut. */
      readonly exact: ExactValue;
      /** exact − kept: what the cuts lost, and that in ulps of the step's result. */
      readonly lost: ExactValue;
      readonly lostUlps: ExactValue;
      readonly ulpExponent: number;
      /**
       * The kept sum as significand × 2^exponent: `exponent` its leading bit, `shift` =
       * exponent − E (positive: a carry above 2^E; negative: cancellation). Null for a zero sum.
       */
      readonly normalisation: null | { readonly exponent: number; readonly shift: number };
    })
  | (StepBase & {
      /**
       * A block-scaled mma's one element (9.7.14.3; tensor-cores.md "Block scaling",
       * semantics/block-scaled-dot.ts): each chunk's two scales, the group sums of 16 products
       * (mxf4, mxf4nvf4), the terms lined up with 2^E and cut to n fractional bits, the sums.
       */
      readonly kind: 'block-scale';
      readonly blockKind: 'mxf8f6f4' | 'mxf4' | 'mxf4nvf4';
      readonly scaleVec: '1X' | '2X' | '4X';
      /** k, and the elements each scale multiplies (k / chunks). */
      readonly k: number;
      readonly chunk: number;
      /** n: the fractional bits kept relative to 2^E. */
      readonly alignmentBits: number;
      /** Each chunk's scales of A's row and B's column (UE8M0, or UE4M3 without its sign bit). */
      readonly scales: readonly { readonly a: BitsView; readonly b: BitsView }[];
      /** The special case that decided d, or null. */
      readonly special: 'nan-scale' | 'nan-c' | 'nan-operand' | 'invalid' | 'infinity' | null;
      /** mxf4, mxf4nvf4: each group of 16 products summed exactly, before its scales. */
      readonly groups: readonly ExactValue[];
      /** c and the scaled products or scaled group sums, each with its exponent and kept part. */
      readonly terms: readonly {
        readonly source: 'c' | 'product' | 'group';
        readonly index: number;
        readonly value: ExactValue;
        readonly exponent: number;
        readonly kept: ExactValue;
      }[];
      /** E; null where a special decided d. */
      readonly largestExponent: number | null;
      /** Σ terms exactly, and Σ kept terms: what is rounded toward zero to f32. */
      readonly exact: ExactValue;
      readonly kept: ExactValue;
      readonly result: BitsView;
    })
  | (StepBase & {
      /** The element written into its bits of d, zero padding included. */
      readonly kind: 'result';
      readonly slot: BitRange;
      readonly valueBits: BitRange;
      /** The slot's bits as written (hex of the slot width). */
      readonly slotBits: string;
      readonly result: BitsView;
    });

export type StepKind = Step['kind'];

/**
 * A step's own steps (a tensor core's fused steps, fma links and sequence additions hold
 * theirs); none for the others.
 */
export function innerSteps(step: Step): readonly Step[] {
  return step.kind === 'fused' || step.kind === 'fma' || step.kind === 'sequence-add'
    ? step.steps
    : [];
}

export interface ElementTrace {
  /** The element's place in the spec's statement of the semantics (see the form's elements). */
  readonly index: number;
  readonly steps: readonly Step[];
  /** The element's result: hex of its format's width. */
  readonly result: string;
}

export interface EvalResult {
  /** Canonical instruction text evaluated. */
  readonly form: string;
  /** The destination register (hex of its width). */
  readonly d: string;
  readonly dBits: number;
  /** The destination's type as written in the form (`f16x2`, `e4m3x2`, `f32`). */
  readonly dType: string;
  readonly elements: readonly ElementTrace[];
  /** Documented decisions the result relies on, in order of first use. */
  readonly decisions: readonly DecisionId[];
}
