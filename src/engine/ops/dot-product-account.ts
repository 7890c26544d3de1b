/**
 * The account of one `mma` / `wgmma` output element (ops/dot-product.ts): every step of the
 * model as plain JSON-safe data. Bit patterns are hex strings of their format's width (`0x7E`,
 * `0x3F800000`, 16 digits for .f64), exact values are ExactValue (every decimal digit, binary
 * scientific, reduced dyadic), bit strings are '0'/'1' text. No prose: codes only.
 */
import type { CitationId, TensorArchitecture } from '../../catalog/tensor-core-models.ts';
import type { ElementFormatName } from '../../catalog/cvt-types.ts';
import type { RoundingMode } from '../../catalog/types.ts';
import type { DecisionId } from '../decisions.ts';
import type { ExactValue, FloatClass, RoundStep } from '../trace.ts';

export type DotOperandName = 'a' | 'b' | 'c';

/** One input element as the instruction reads it. */
export interface ElementReading {
  readonly operand: DotOperandName;
  /** Position in A's row / B's column (c: 0). */
  readonly index: number;
  readonly format: ElementFormatName;
  /** The element's own bits (hex of its width: tf32 19 bits, e2m1 4). */
  readonly bits: string;
  /** tf32 only: the 32-bit register as given, and its low 13 bits, ignored, as a bit string. */
  readonly register?: { readonly bits: string; readonly ignored: string };
  readonly class: FloatClass;
  readonly value: ExactValue;
}

/** Where an element comes from: A's row, B's column, or C. */
export interface ElementRef {
  readonly operand: DotOperandName;
  readonly index: number;
}

/**
 * Specials first. `none`: every term is finite. Otherwise the result is the canonical NaN or an
 * infinity, for the first reason that applies, with the elements behind it.
 */
export interface SpecialsDecision {
  readonly outcome: 'none' | 'nan' | 'infinity';
  readonly reason:
    null | 'nan-operand' | 'infinity-times-zero' | 'opposite-infinities' | 'infinite-term';
  readonly elements: readonly ElementRef[];
  /** The infinity's sign (outcome 'infinity'). */
  readonly negative?: boolean;
}

/** A '0'/'1' string whose first digit weighs 2^top (empty: nothing). */
export interface BitString {
  readonly bits: string;
  readonly top: number;
}

/** One term of a fused step: c or a product, as significand × 2^exponent, and what the cut kept. */
export interface TermAccount {
  /** 'c': the step's accumulator; 'product': a_index × b_index. */
  readonly source: 'c' | 'product';
  readonly index: number;
  readonly zero: boolean;
  readonly negative: boolean;
  /** |significand|: c in [1, 2) (a subnormal below 1), a product s_a·s_b in [1, 4) (or below). */
  readonly significand: ExactValue;
  /** The significand in binary: "10.0110001". */
  readonly significandBits: string;
  /** A zero stands at ZERO_TERM_EXPONENT. */
  readonly exponent: number;
  readonly value: ExactValue;
  /** E − exponent: how far right the term moves to line up with the largest. */
  readonly shift: number;
  /** |kept| / 2^E with n fraction digits: "01.0110…". */
  readonly keptBits: string;
  /** The cut term (signed): truncated toward zero to a multiple of 2^(E − n). */
  readonly kept: ExactValue;
  /** The bits below 2^(E − n), as the term has them (trailing zeros dropped). */
  readonly cutBits: BitString;
  /** term − kept (same sign as the term, or 0). */
  readonly cut: ExactValue;
  /** cut in units in the last place of the step's result. */
  readonly cutUlps: ExactValue;
}

export type ResultGeometryName = 'f32' | 'f16' | `e8m${number}`;

/** The normalised, once-rounded sum. */
export interface FinalRounding {
  /** f32, f16, or f32's exponent range with fewer fraction bits ("e8m13"). */
  readonly geometry: ResultGeometryName;
  readonly mode: RoundingMode;
  /**
   * roundToFormat's account (its patterns are the geometry's: an e8m13 pattern p is the f32
   * pattern p × 2^10). Null when the sum is zero.
   */
  readonly step: RoundStep<string> | null;
  /** A zero sum: the sign taken (decision 'mma-zero-sign'): every term a negative zero, or not. */
  readonly zero: null | { readonly negative: boolean; readonly allTermsNegativeZeros: boolean };
  /** The sum lies beyond the largest finite value (IEEE 754 §7.4). */
  readonly overflow: boolean;
  /** The result in the step's result format (hex). */
  readonly result: string;
}

export interface Alignment {
  /** n: fractional bits kept relative to 2^E. */
  readonly n: number;
  /** E: the largest exponent among the terms. */
  readonly E: number;
  /** Which term (or terms) stand at E. */
  readonly atE: readonly number[];
  readonly terms: readonly TermAccount[];
  /** The exact sum of the cut terms … */
  readonly keptSum: ExactValue;
  /** … beside the exact sum of the terms. */
  readonly exactSum: ExactValue;
  /** exactSum − keptSum: what the cuts lost, and that in ulps of the result. */
  readonly lost: ExactValue;
  readonly lostUlps: ExactValue;
  /**
   * The sum as significand × 2^exponent: `exponent` its leading bit, `shift` = exponent − E
   * (positive: carries above 2^E; negative: cancellation). Null fields for a zero sum.
   */
  readonly normalisation: { readonly exponent: number | null; readonly shift: number | null };
  readonly rounding: FinalRounding;
  /** The exponent of one ulp of the result (2^ulpExponent). */
  readonly ulpExponent: number;
}

/** One fused step: all products at once, or one half (Ampere/Ada). */
export interface FusedStepAccount {
  /** The products it adds: indices from … to, inclusive. */
  readonly products: { readonly from: number; readonly to: number };
  /** Its c: the instruction's, or the first half's result. */
  readonly c: {
    readonly from: 'operand' | 'first-half';
    readonly format: 'f16' | 'f32';
    readonly bits: string;
    readonly value: ExactValue;
  };
  readonly specials: SpecialsDecision;
  /** Null when the specials decided the result. */
  readonly alignment: Alignment | null;
  readonly result: { readonly bits: string; readonly value: ExactValue };
}

/** One link of the f64 chain: d_(i+1) = fma(a_i, b_i, d_i), rounded in the chain's mode. */
export interface FmaLinkAccount {
  readonly index: number;
  readonly accumulator: { readonly bits: string; readonly value: ExactValue };
  readonly specials: SpecialsDecision;
  /** a_i × b_i + d_i, exactly (null when the specials decided). */
  readonly exact: ExactValue | null;
  /**
   * roundToFormat's account of |exact| in the binade geometry of f64 (pattern p of it is
   * p × 2^quantumExponent; the mode is the instruction's as it acts on the magnitude). Null for
   * specials and exact zeros.
   */
  readonly rounding: null | {
    readonly step: RoundStep<string>;
    readonly quantumExponent: number;
    readonly magnitudeMode: RoundingMode;
  };
  /** An exact zero: the sign IEEE 754 §6.3 gives it in the chain's mode. */
  readonly zero: null | { readonly negative: boolean };
  readonly result: { readonly bits: string; readonly value: ExactValue };
}

export interface ModelAccount {
  readonly architecture: TensorArchitecture;
  readonly name: string;
  readonly sources: readonly CitationId[];
  /** Fused models: n, whether k is split in halves, and the final rounding. */
  readonly fused: null | {
    readonly alignmentBits: number;
    readonly halves: boolean;
    readonly result: ResultGeometryName;
    readonly mode: RoundingMode;
  };
  /** f64: the chain's rounding. */
  readonly chain: null | { readonly mode: RoundingMode };
}

export interface DotProductAccount {
  readonly model: ModelAccount;
  readonly k: number;
  readonly inputs: {
    readonly a: readonly ElementReading[];
    readonly b: readonly ElementReading[];
    readonly c: ElementReading;
  };
  readonly evaluation:
    | { readonly kind: 'fused'; readonly steps: readonly FusedStepAccount[] }
    | { readonly kind: 'fma-chain'; readonly links: readonly FmaLinkAccount[] };
  /** d in its format (hex) and its value. */
  readonly d: {
    readonly format: 'f16' | 'f32' | 'f64';
    readonly bits: string;
    readonly value: ExactValue;
  };
  /** The documented decisions this element relied on. */
  readonly decisions: readonly DecisionId[];
}
