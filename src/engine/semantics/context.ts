/**
 * What an operation's semantics file is given and gives back. The pipeline (pipeline.ts) reads
 * the element's inputs, applies the rules every instruction shares (.oob, .ftz, rounding,
 * overflow, .satfinite, .sat, .relu, the write) and calls the semantics of the form's operation
 * for the one thing that differs: the operation's exact value, or a result a rule decides.
 */
import type { ElementSpec, Form, RegisterName } from '../../catalog/instruction.ts';
import type { AnyModifier } from '../../catalog/modifiers.ts';
import type { SectionRules } from '../../catalog/section-rules.ts';
import type { DecisionId } from '../decisions.ts';
import type { Format } from '../format.ts';
import type { Unencoded } from '../nvidia-rules.ts';
import type { EngineOptions } from '../options.ts';
import type { Step } from '../steps.ts';
import type { Dyadic, RuleRef } from '../value.ts';

/** One input of the element, as the operation reads it (after .ftz where it applies). */
export interface Input {
  readonly name: RegisterName;
  readonly bits: bigint;
  readonly format: Format;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A step as a semantics file writes it: the pipeline adds the rule it cites. */
export type StepBody = DistributiveOmit<Step, 'rule' | 'decision'>;

export interface ElementContext {
  readonly form: Form;
  readonly element: ElementSpec;
  readonly options: EngineOptions;
  /** The destination element's format. */
  readonly dest: Format;
  /** The spec's words for the rules the form's section shares. */
  readonly rules: SectionRules;
  has(modifier: AnyModifier): boolean;
  /** Record a step that applies a rule of the form's own section, in the spec's words. */
  record(step: StepBody, text: string, decision?: DecisionId): void;
  /** Record a step that applies another rule (a chapter's, or IEEE 754's). */
  recordRule(step: StepBody, rule: RuleRef, decision?: DecisionId): void;
}

/** A destination value: its pattern, or what the destination cannot hold yet (.satfinite settles it). */
export type Pending = { readonly bits: bigint } | Unencoded;

export type Outcome =
  /** A nonzero finite exact value: the pipeline rounds it to the destination. */
  | {
      readonly kind: 'exact';
      readonly x: Dyadic;
      /** The operation as an expression of its inputs ("a × b + c", "convert(a)"). */
      readonly expression: string;
      /** The spec's words for it (the semantics line). */
      readonly rule: string;
    }
  /**
   * A result a rule decided (a NaN, an infinity, an exact zero, a chosen operand, an
   * approximation). `flushDecision`: .ftz flushes it where subnormal, under this decision.
   */
  | { readonly kind: 'value'; readonly value: Pending; readonly flushDecision?: DecisionId };

export type Semantics = (ctx: ElementContext, inputs: readonly Input[]) => Outcome;

/** A rule of IEEE 754-2019, which the PTX text relies on without restating. */
export function ieeeRule(section: string, text: string): RuleRef {
  return { source: 'ieee-754', section, text };
}

/** IEEE 754 §7.4, which every overflow step cites. */
export const overflowRule: RuleRef = ieeeRule(
  '7.4',
  'overflow: rounded as though the exponent range were unbounded, the result would exceed the largest finite value; round to nearest and rounding away from zero give ∞, the others the largest finite value',
);

/** A rule the PTX ISA states once for a whole chapter ("9.7.4" for the half-precision ones). */
export function chapterRule(form: Form, text: string): RuleRef {
  return { source: 'ptx', section: form.section.section.split('.').slice(0, 3).join('.'), text };
}
