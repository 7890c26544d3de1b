/**
 * The trace is data: an ordered list of typed steps per lane. The engine never writes prose;
 * the UI and the CLI render these records. Everything here is plain JSON (bit patterns as
 * numbers, exact values as strings) so it crosses the worker boundary and goes into golden files.
 */
import type { FormatName, RoundingMode } from '../catalog/types.ts';
import type { CvtStep } from './cvt-trace.ts';
import type { DecisionId } from './decisions.ts';

/** A spec rule a step applies: section number and the rule's words. */
export interface RuleRef {
  readonly section: string;
  readonly text: string;
}

export type FloatClass = 'zero' | 'subnormal' | 'normal' | 'infinity' | 'qnan' | 'snan';

/** An exact binary value, rendered several ways. */
export interface ExactValue {
  /** 'nan', '+inf', '-inf', or a finite value. */
  readonly kind: 'finite' | 'inf' | 'nan';
  readonly negative: boolean;
  /** Exact decimal expansion, every digit ("-0.000061035156250"). */
  readonly decimal: string;
  /** Binary scientific form: "1.0110001b × 2^-3" or "0". */
  readonly binary: string;
  /** The value as a reduced dyadic rational: "-3 × 2^-26" (odd significand), "0", "NaN", "+inf". */
  readonly rational: string;
}

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
      Change & { readonly kind: 'convert'; readonly operand: string; readonly to: FormatName })
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
      readonly kind: 'overflow';
      readonly format: FormatName;
      readonly mode: RoundingMode;
      readonly to: 'infinity' | 'max-finite';
      readonly result: number;
    })
  | (StepBase & {
      readonly kind: 'underflow';
      readonly format: FormatName;
      readonly result: number;
      readonly tinyBeforeRounding: boolean;
      readonly tinyAfterRounding: boolean;
    })
  | (StepBase &
      Change & {
        readonly kind: 'flush-result';
        /**
         * Arithmetic results: the tininess reading that decided (decision 'ftz-after-rounding'
         * or its option) and both readings. Absent where the flushed value is a subnormal
         * approximate result (decision 'approx-ftz-result').
         */
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
      readonly a: number;
      readonly b: number;
      /** Which pseudo-code branch chose the result. */
      readonly branch: 'both-nan' | 'nan-modifier' | 'a-nan' | 'b-nan' | 'compare';
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
 * One rounding, with the bits that decided it (SoftFloat's roundPack, made visible). The
 * arithmetic rounds to its lane formats; cvt rounds to any format (named N).
 */
export interface RoundStep<N extends string = FormatName> {
  readonly kind: 'round';
  readonly format: N;
  readonly mode: RoundingMode;
  readonly exact: ExactValue;
  /** Significand bits kept, as a binary string, MSB first (includes the leading 1 for normals). */
  readonly kept: string;
  readonly guard: 0 | 1;
  readonly round: 0 | 1;
  readonly sticky: 0 | 1;
  /** Exponent of the least significant kept bit (the ulp of the result is 2^ulpExponent). */
  readonly ulpExponent: number;
  readonly inexact: boolean;
  readonly direction: 'exact' | 'down' | 'up';
  /** Why that direction: e.g. 'tie-to-even', 'below-half', 'above-half', 'toward-zero'. */
  readonly reason:
    | 'exact'
    | 'below-half'
    | 'above-half'
    | 'tie-to-even'
    | 'toward-zero'
    | 'toward-plus-inf'
    | 'toward-minus-inf';
  /** The two representable neighbours (bits) around the exact value, and the one chosen. */
  readonly lower: number;
  readonly upper: number;
  readonly result: number;
  readonly subnormal: boolean;
}

export interface ApproxStep {
  readonly kind: 'approx';
  readonly fn: 'tanh' | 'ex2';
  readonly format: FormatName;
  readonly input: number;
  /** The mathematical value, to about 17 significant digits. */
  readonly mathValue: string;
  readonly model: 'correctly-rounded' | 'measured';
  readonly measuredOn?: string;
  /** With a measured result: what the model (correctly rounded) gives, to show beside it. */
  readonly modelResult?: number;
  readonly result: number;
  readonly bound: { readonly kind: 'absolute' | 'relative'; readonly log2: number };
  /**
   * Every representable result within the spec's bound. The set is an interval of the value
   * order, so it is given by its ends (bits) and its size.
   */
  /**
   * The values the bound allows, an interval of the value order (count 0: none); `overflows`:
   * the exact value rounds past the largest finite value, so the infinity is among them.
   */
  readonly allowed: {
    readonly lowest: number;
    readonly highest: number;
    readonly count: number;
    readonly overflows: boolean;
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
