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
  return { source: 'ptx', section: form.record.section, text };
}

/** A rule the PTX ISA states once for a whole chapter ("9.7.4" for the half-precision ones). */
export function chapterRule(form: Form, text: string): RuleRef {
  return { source: 'ptx', section: form.record.section.split('.').slice(0, 3).join('.'), text };
}

/** A rule of IEEE 754-2019, which the PTX text relies on without restating. */
export function ieeeRule(section: string, text: string): RuleRef {
  return { source: 'ieee-754', section, text };
}

export function has(form: Form, modifier: string): boolean {
  return (form.modifiers as readonly string[]).includes(modifier);
}
