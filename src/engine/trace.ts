/**
 * The trace is data: an ordered list of typed steps per lane. The engine never writes prose;
 * the UI and the CLI render these records. Everything here is plain JSON (bit patterns as
 * numbers, exact values as strings) so it crosses the worker boundary and goes into golden files.
 */
import type { FormatName, RoundingMode } from '../catalog/types.ts';
import type { CvtStep } from './cvt-trace.ts';
import type { DecisionId } from './decisions.ts';
import type { SignificandCut } from './steps.ts';
import type { ExactValue, FloatClass, RuleRef } from './value.ts';

export type { ExactValue, FloatClass, RuleRef } from './value.ts';

export interface OperandView {
  readonly name: string;
  readonly bits: number;
  readonly format: FormatName;
  readonly class: FloatClass;
  readonly value: ExactValue;
}

interface StepBase {
  readonly rule: RuleRef;
  /** A documented interpretation this step relies on (see decisions.ts). */
  readonly decision?: DecisionId;
}

/** The bits of one lane value before and after a step. */
interface Change {
  readonly format: FormatName;
  readonly before: number;
  readonly after: number;
}

export type Step =
  | (StepBase & { readonly kind: 'inputs'; readonly operands: readonly OperandView[] })
  | (StepBase & Change & { readonly kind: 'flush-input'; readonly operand: string })
  | (StepBase &
      Change & {
        readonly kind: 'convert';
        readonly operand: string;
        readonly to: FormatName;
        /**
         * The value came through unchanged (every finite value and infinity of .f16/.bf16 is an
         * .f32 value). False for a NaN: it becomes the canonical NaN, its payload is not kept.
         */
        readonly exact: boolean;
      })
  | (StepBase & {
      readonly kind: 'oob-check';
      /** Operands of this lane holding the OOB-NaN pattern (c among them tests nothing). */
      readonly oobOperands: readonly string[];
      /** a or b holds it: the lane's result is +0.0. */
      readonly forcesZero: boolean;
      /** The OOB-NaN pattern tested (either sign). */
      readonly pattern: number;
    })
  | (StepBase & {
      readonly kind: 'special';
      /** Which special-value rule decided the result. */
      readonly case: 'nan-operand' | 'invalid' | 'infinity' | 'exact-zero' | 'corner-case';
      readonly format: FormatName;
      readonly result: number;
      readonly detail?: string;
    })
  | (StepBase & { readonly kind: 'exact'; readonly expression: string; readonly value: ExactValue })
  | (StepBase & RoundStep)
  | (StepBase & {
      /**
       * IEEE 754 §7.4 overflow: the exact value rounded as though the exponent range were
       * unbounded is beyond the largest finite value. Follows the round step.
       */
      readonly kind: 'overflow';
      readonly format: FormatName;
      readonly mode: RoundingMode;
      readonly to: 'infinity' | 'max-finite';
      readonly result: number;
    })
  | (StepBase & {
      /**
       * IEEE 754 §7.5: the exact value is nonzero and below the smallest normal 2^emin in
       * magnitude (tiny before rounding). Follows the round step whenever that is so.
       */
      readonly kind: 'tininess';
      readonly format: FormatName;
      /** The rounded result (before any .ftz). */
      readonly result: number;
      /** |exact| < 2^emin: true whenever this step is present. */
      readonly tinyBeforeRounding: boolean;
      /** The exact value rounded to the format's precision with an unbounded exponent is < 2^emin. */
      readonly tinyAfterRounding: boolean;
      /** The rounded result differs from the exact value (tiny and inexact: IEEE 754 underflow). */
      readonly inexact: boolean;
    })
  | (StepBase &
      Change & {
        /**
         * .ftz on a result. Arithmetic: present whenever the exact value is tiny before rounding
         * (the only values either reading can call tiny), with the reading that decided and both
         * readings; a tiny result becomes a zero of its sign, any other is kept. Approximations
         * (decision 'approx-ftz-result'): present when the value is subnormal; no tininess fields.
         */
        readonly kind: 'flush-result';
        readonly tininess?: 'after-rounding' | 'before-rounding';
        /** |exact| < 2^emin. */
        readonly tinyBeforeRounding?: boolean;
        /** The exact value rounded with an unbounded exponent range is below 2^emin. */
        readonly tinyAfterRounding?: boolean;
      })
  | (StepBase & Change & { readonly kind: 'saturate' })
  | (StepBase & Change & { readonly kind: 'relu' })
  | (StepBase & Change & { readonly kind: 'negate' | 'absolute' })
  | (StepBase & {
      readonly kind: 'minmax';
      readonly op: 'min' | 'max';
      readonly format: FormatName;
      /** The values the pseudo-code compares (after .ftz and .abs). */
      readonly a: number;
      readonly b: number;
      /** Which pseudo-code branch chose the result. */
      readonly branch: 'both-nan' | 'nan-modifier' | 'a-nan' | 'b-nan' | 'compare';
      /**
       * Branch 'compare': a against b in the spec's order (-0 < +0), and whether that order of
       * the zeros decided it (a and b are zeros of different signs).
       */
      readonly comparison?: {
        readonly order: 'less' | 'equal' | 'greater';
        readonly signedZeros: boolean;
      };
      /** The operand the branch took ('nan': the canonical NaN). */
      readonly chosen: 'a' | 'b' | 'nan';
      readonly result: number;
    })
  | (StepBase & Change & { readonly kind: 'abs-inputs'; readonly operand: string })
  | (StepBase & Change & { readonly kind: 'xorsign'; readonly sign: 0 | 1 })
  | (StepBase & ApproxStep)
  | (StepBase & CvtStep)
  | (StepBase & {
      readonly kind: 'result';
      readonly format: FormatName;
      readonly bits: number;
      readonly value: ExactValue;
    });

/**
 * One rounding of a nonzero finite exact value to a format (SoftFloat's roundPack, made
 * visible). Everything is judged against the format itself: its largest finite value and
 * infinity included.
 */
export interface RoundStep<N extends string = FormatName> {
  readonly kind: 'round';
  /** The arithmetic rounds to its lane formats; cvt rounds to any format (named N). */
  readonly format: N;
  readonly mode: RoundingMode;
  readonly exact: ExactValue;
  /** Absent when |exact| >= 2^(emax+1): the format has no exponent to hold those bits. */
  readonly cut?: SignificandCut;
  /** The result differs from the exact value. */
  readonly inexact: boolean;
  /** Where the result lies from the exact value: in value order ... */
  readonly direction: 'exact' | 'up' | 'down';
  /** ... and in magnitude. */
  readonly magnitude: 'exact' | 'larger' | 'smaller';
  /**
   * Why the result is that neighbour. 'overflow-threshold': |exact| is at least the largest
   * finite value plus half an ulp, where round-to-nearest gives infinity (IEEE 754 §4.3.1).
   */
  readonly reason:
    | 'exact'
    | 'below-half'
    | 'above-half'
    | 'tie-to-even'
    | 'toward-zero'
    | 'toward-plus-inf'
    | 'toward-minus-inf'
    | 'overflow-threshold';
  /**
   * The format's values next to the exact value (bits): the largest at most it and the
   * smallest at least it, infinities included (beyond the largest finite value the upper
   * neighbour is the infinity). A zero neighbour has the exact value's sign. Equal when exact.
   */
  readonly lower: number;
  readonly upper: number;
  readonly result: number;
  /** The result is a (nonzero) subnormal. */
  readonly subnormal: boolean;
}

/** Why no value of the format is within the bound (ApproxStep's allowed.count 0). */
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
  readonly format: FormatName;
  readonly input: number;
  /**
   * The mathematical value tanh(x) or 2^x, correctly rounded to 17 significant digits
   * ("0.76159415595576489", "2.4703282292062327e-324"); beyond the range 2^±1000 an ex2 value is
   * written as the power itself ("2^65504").
   */
  readonly mathValue: string;
  readonly model: 'correctly-rounded' | 'measured';
  readonly measuredOn?: string;
  /** With a measured result: what the model (correctly rounded) gives, to show beside it. */
  readonly modelResult?: number;
  readonly result: number;
  readonly bound: { readonly kind: 'absolute' | 'relative'; readonly log2: number };
  /**
   * The values v of the format with |v - exact| within the spec's bound, decided exactly: an
   * interval of the value order given by its ends (bits) and its size, where +0 and -0 count as
   * two values. With .ftz the results are zeros and normals only. `overflows`: |exact| is at
   * least the largest finite value plus half an ulp (it rounds to infinity), and the infinity of
   * its sign is in the set. count 0: no value qualifies, for the reason `emptyBecause`; lowest
   * and highest are then the model's result.
   */
  readonly allowed: {
    readonly lowest: number;
    readonly highest: number;
    readonly count: number;
    readonly overflows: boolean;
    readonly emptyBecause?: ApproxEmptyReason;
  };
}

export interface LaneTrace {
  readonly lane: number;
  readonly steps: readonly Step[];
  readonly result: number;
}

export interface EvalResult {
  /** Canonical instruction text that was evaluated. */
  readonly form: string;
  /** The destination register's bits. */
  readonly d: number;
  readonly dFormat: FormatName;
  readonly dBits: 16 | 32;
  readonly lanes: readonly LaneTrace[];
  /** Documented interpretations the result depends on. */
  readonly decisions: readonly DecisionId[];
}
