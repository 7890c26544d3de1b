/**
 * The engine's base value types, in a module that imports nothing: what a pattern means (its
 * class, its exact value as a dyadic rational), how a value is written in a trace, and the rule a
 * step cites. Every other engine module builds on these.
 */

/** What a bit pattern is. */
export type FloatClass = 'zero' | 'subnormal' | 'normal' | 'infinity' | 'qnan' | 'snan';

/** An exact binary value: (-1)^negative × mant × 2^exp, mant a non-negative integer. */
export interface Dyadic {
  readonly negative: boolean;
  readonly mant: bigint;
  readonly exp: number;
}

/** A value as operations see it: NaN, a signed infinity, or an exact finite value. */
export type Value =
  | { readonly kind: 'nan' }
  | { readonly kind: 'inf'; readonly negative: boolean }
  | { readonly kind: 'finite'; readonly x: Dyadic };

/** An exact value, written out every way a trace shows it. */
export interface ExactValue {
  /** 'nan', 'inf', or a finite value. */
  readonly kind: 'finite' | 'inf' | 'nan';
  readonly negative: boolean;
  /** Exact decimal expansion, every digit, no trailing zeros ("-0.00006103515625"). */
  readonly decimal: string;
  /** Binary scientific form: "1.0110001b × 2^-3" or "0". */
  readonly binary: string;
  /** The value as a reduced dyadic rational: "-3 × 2^-26" (odd significand), "0", "NaN", "+inf". */
  readonly rational: string;
}

/**
 * The rule a step applies: a PTX ISA section (the form's own, or the chapter's where the rule is
 * stated for every instruction of it), a clause of IEEE 754-2019, or a tensor core's published
 * model (tensor-cores.md: what the PTX ISA leaves unspecified), and the rule's words.
 */
export interface RuleRef {
  readonly source: 'ptx' | 'ieee-754' | 'tensor-core-model';
  /** "9.7.4.1", "9.7.4" (PTX ISA), "7.4" (IEEE 754-2019) or the model's architecture ("Hopper"). */
  readonly section: string;
  readonly text: string;
}
