/** What every per-lane semantics function takes and returns. */
import type { Form } from '../catalog/forms.ts';
import type { EngineOptions } from './options.ts';
import type { RuleRef, Step } from './trace.ts';

export type SourceName = 'a' | 'b' | 'c';

export interface LaneInput {
  readonly lane: number;
  /** This lane's bits of each source operand (after OOB-NaN substitution). */
  readonly a: number;
  readonly b: number;
  readonly c: number;
  /** Operands whose value in this lane is OOB-NaN. */
  readonly oob: readonly SourceName[];
}

export interface LaneContext {
  readonly form: Form;
  readonly options: EngineOptions;
}

export interface LaneOutput {
  readonly result: number;
  readonly steps: readonly Step[];
}

export type LaneSemantics = (ctx: LaneContext, input: LaneInput) => LaneOutput;

/** A spec rule of the form's own section. */
export function rule(form: Form, text: string): RuleRef {
  return { section: form.record.section, text };
}

export function has(form: Form, modifier: string): boolean {
  return (form.modifiers as readonly string[]).includes(modifier);
}
