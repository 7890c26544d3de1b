/**
 * The trace steps of `cvt` (PTX ISA 9.7.9.21), one conversion per element. Bit patterns are
 * hex strings of the element's own width (`0x7E` for e4m3, 16 digits for .f64): JSON-safe, and
 * exact for 64-bit values. trace.ts adds these kinds to the Step union, with a rule and a
 * documented decision like every step.
 */
import type { RandomAddition, SignificandCut } from './steps.ts';
import type { BitRange, CvtOperandName } from '../catalog/cvt-forms.ts';
import type { CvtRounding, ElementFormatName } from '../catalog/cvt-types.ts';
import type { ExactValue, FloatClass } from './value.ts';

/** One element's value: its bits (hex), class and exact value. */
export interface ElementView {
  readonly format: ElementFormatName;
  readonly bits: string;
  readonly class: FloatClass;
  readonly value: ExactValue;
}

export type CvtStep =
  /** Where the element's source value sits, and any padding bits beside it. */
  | {
      readonly kind: 'cvt-source';
      readonly operand: CvtOperandName;
      readonly slot: BitRange;
      readonly valueBits: BitRange;
      /** The padding bits as read (hex), when the slot holds any; nonzero ones are ignored. */
      readonly padding: string | null;
      readonly input: ElementView;
    }
  /** .ftz on an .f32 input: a subnormal becomes a zero of the same sign. */
  | { readonly kind: 'cvt-flush-input'; readonly before: ElementView; readonly after: ElementView }
  /** NaN, infinity or zero: decided by a rule, not by rounding. */
  | {
      readonly kind: 'cvt-special';
      readonly case: 'nan' | 'infinity' | 'zero';
      readonly result: ElementView | null;
    }
  /** The exact value to convert. */
  | { readonly kind: 'cvt-exact'; readonly value: ExactValue; readonly representable: boolean }
  | CvtRoundStep
  /** The rounded value lies past MAX_NORM: what the mode makes of it without .satfinite. */
  | {
      readonly kind: 'cvt-overflow';
      readonly format: ElementFormatName;
      readonly to: 'infinity' | 'max-norm' | 'nan';
      readonly result: ElementView;
    }
  /** ue8m0 has no sign and no zero: |x| is converted, and 2^-127 is the least it gives. */
  | {
      readonly kind: 'cvt-unsigned';
      readonly what: 'drop-sign' | 'least-value';
      readonly result: ElementView | null;
    }
  /** .ftz on an .f32 result: a tiny result becomes a zero of the same sign. */
  | {
      readonly kind: 'cvt-flush-result';
      readonly before: ElementView;
      readonly after: ElementView;
      readonly tininess: 'after-rounding' | 'before-rounding';
      readonly tinyBeforeRounding: boolean;
      readonly tinyAfterRounding: boolean;
    }
  /** .satfinite: NaN stays NaN (or becomes +MAX_NORM); beyond MAX_NORM becomes ±MAX_NORM. */
  | {
      readonly kind: 'cvt-satfinite';
      readonly case: 'nan' | 'beyond-max-norm' | 'in-range';
      readonly before: ElementView | null;
      readonly after: ElementView;
    }
  | { readonly kind: 'cvt-sat'; readonly before: ElementView; readonly after: ElementView }
  | { readonly kind: 'cvt-relu'; readonly before: ElementView; readonly after: ElementView }
  /** The element written into d, zero padding included. */
  | {
      readonly kind: 'cvt-pack';
      readonly slot: BitRange;
      readonly valueBits: BitRange;
      /** The slot's bits as written (hex of the slot width). */
      readonly slotBitsHex: string;
      readonly result: ElementView;
    };

/** One rounding of a cvt: the bits that decided it, as the arithmetic's round step shows them. */
export interface CvtRoundStep {
  readonly kind: 'cvt-round';
  readonly format: ElementFormatName;
  readonly mode: CvtRounding;
  /** Rounding to an integral value (.rni .rzi .rmi .rpi) rather than to the format's precision. */
  readonly toInteger: boolean;
  readonly exact: ExactValue;
  /**
   * The significand cut at the result's quantum (kept bits, guard, round, sticky), as the
   * arithmetic's round step gives it; absent beyond the format's exponent range.
   */
  readonly cut?: SignificandCut;
  readonly inexact: boolean;
  readonly direction: 'exact' | 'down' | 'up';
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
  /** The representable neighbours around the exact value; null past MAX_NORM. */
  readonly lower: string | null;
  readonly upper: string | null;
  /** The rounded value; null when it lies past MAX_NORM (overflow, settled by the next step). */
  readonly result: string | null;
  readonly subnormal: boolean;
  /** .rs: the addition of the random bits to the most significant discarded bits. */
  readonly random?: RandomAddition;
}
