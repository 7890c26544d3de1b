/** What every per-lane semantics function takes and returns. */
import type { Form } from '../catalog/forms.ts';
import type { EngineOptions } from './options.ts';
import type { RuleRef, Step } from './trace.ts';

export type SourceName = 'a' | 'b' | 'c';

export interface LaneInput {
  readonly lane: number;
  /** This lane's bits of each source operand (a lane marked OOB-NaN holds the OOB-NaN pattern). */
  readonly a: number;
  readonly b: number;
  readonly c: number;
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
