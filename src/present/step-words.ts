/**
 * The one presentation of a trace: for every step of the one vocabulary (src/engine/steps.ts,
 * docs/trace.md) a structured description — a title, lines of parts (word-parts.ts), the rule it
 * applies with its citation and the documented decision it relies on, and for a rounding between
 * two values the number line's data — which the page and the CLI (step-text.ts) show as they
 * are, composing no words of their own. The words are the same for the arithmetic and cvt.
 *
 *   stepWords(step, stepContext(form, 0), decision)   one step
 *   traceWords(result, decision)                      every element's steps, headed, and the decisions
 *
 * The decisions' words come in as `texts` (engine/decisions.ts's `decision`): the CLI imports them,
 * the page loads them with the first trace that cites a decision (src/ui/decision-texts.ts).
 */
import { findForm } from '../catalog/all-forms.ts';
import type { Form } from '../catalog/instruction.ts';
import type { Decision, DecisionId } from '../engine/decisions.ts';
import { innerSteps, type EvalResult, type Step, type StepKind } from '../engine/steps.ts';
import type { NumberLineWords } from './round-words.ts';
import { elementWord } from './element-word.ts';
import { STEP_BODIES, type StepBody, type StepContext, type StepOf } from './step-bodies.ts';
import { citationOf, code, placeText, text, type Line, type RuleCitation } from './word-parts.ts';

export type { StepContext } from './step-bodies.ts';
export type { NumberLineWords } from './round-words.ts';

/** The documented decisions by id: engine/decisions.ts's `decision`. */
export type DecisionTexts = (id: DecisionId) => Decision;

/** One step, described. */
export interface StepWords {
  readonly kind: StepKind;
  readonly title: Line;
  readonly lines: readonly Line[];
  readonly rule: RuleCitation;
  /** A rounding between two values of the format: where the page's number line puts it. */
  readonly numberLine?: NumberLineWords;
  /** A tensor core's fused step or fma link: its own steps, described. */
  readonly steps?: readonly StepWords[];
}

/** Every kind of step there is (each has its words: STEP_BODIES is typed by the Step union). */
export const STEP_KINDS: readonly StepKind[] = Object.keys(STEP_BODIES) as StepKind[];

/** The context of element `index` of a form. */
export function stepContext(form: Form, index: number): StepContext {
  const element = form.elements.find((e) => e.index === index);
  if (!element) throw new Error(`${form.text} has no element ${index}`);
  return { form, element };
}

/** The decision a step relies on, as its citation says it. */
function decisionOf(step: Step, texts: DecisionTexts): RuleCitation['decision'] {
  if (!step.decision) return null;
  const reading =
    step.kind === 'flush-result' && step.tininess === 'before-rounding'
      ? 'the other reading, as asked: tininess judged before rounding'
      : texts(step.decision).title;
  return { id: step.decision, text: reading };
}

export function ruleCitation(step: Step, texts: DecisionTexts): RuleCitation {
  const { source, section, text: words } = step.rule;
  return {
    source,
    section,
    citation: citationOf(source, section),
    text: words,
    decision: decisionOf(step, texts),
  };
}

/** One step's description. */
export function stepWords(step: Step, context: StepContext, texts: DecisionTexts): StepWords {
  // Indexing by the step's own kind picks its entry; TypeScript cannot follow the correlation
  // through the union, hence the widening.
  const body = (STEP_BODIES[step.kind] as (s: StepOf<StepKind>, c: StepContext) => StepBody)(
    step,
    context,
  );
  const inner = innerSteps(step);
  // A sequence's additions round to f32, whatever d's format.
  const within =
    step.kind === 'sequence-add' ? { ...context, within: step.result.format } : context;
  return {
    kind: step.kind,
    title: body.title,
    lines: body.lines,
    rule: ruleCitation(step, texts),
    ...(body.numberLine ? { numberLine: body.numberLine } : {}),
    ...(inner.length > 0 ? { steps: inner.map((s) => stepWords(s, within, texts)) } : {}),
  };
}

/**
 * An element's heading: "lane 1: d[31:16] from a[31:16], b[31:16]", "element 0: d[15:8] from a",
 * with the random bits an .rs element takes.
 */
export function elementHeading(context: StepContext): Line {
  const { form, element } = context;
  const width = (name: string) => form.registers.find((r) => r.name === name)?.bits ?? 0;
  // A matrix form's element reads whole registers: A's row, B's column, C.
  const sources =
    form.family === 'matrix'
      ? [...new Set(element.inputs.map((p) => p.operand))]
      : element.inputs.map((p) => placeText(p.operand, p.slot, width(p.operand)));
  if (element.rbits) sources.push(placeText('rbits', element.rbits, width('rbits')));
  return [
    text(`${elementWord(form)} ${element.index}: `),
    code(placeText('d', element.dest.slot, width('d'))),
    text(' from '),
    code(sources.join(', ')),
  ];
}

export interface ElementWords {
  readonly index: number;
  readonly heading: Line;
  readonly steps: readonly StepWords[];
}

export interface DecisionWords {
  readonly id: DecisionId;
  readonly title: string;
  /** What the spec says, or fails to say. */
  readonly spec: string;
  /** What the engine does, and why. */
  readonly decision: string;
}

export interface TraceWords {
  readonly form: string;
  /** What the elements are called: lanes of the arithmetic, elements of cvt. */
  readonly elementWord: 'lane' | 'element';
  readonly elements: readonly ElementWords[];
  /** The documented decisions the result relies on, in the order the result lists them. */
  readonly decisions: readonly DecisionWords[];
}

export function decisionWords(id: DecisionId, texts: DecisionTexts): DecisionWords {
  const d = texts(id);
  return { id, title: d.title, spec: d.spec, decision: d.decision };
}

/** A whole evaluation described: its form is looked up by its text unless given. */
export function traceWords(result: EvalResult, texts: DecisionTexts, form?: Form): TraceWords {
  const f = form ?? findForm(result.form);
  if (!f) throw new Error(`not a catalog form: ${result.form}`);
  return {
    form: result.form,
    elementWord: elementWord(f),
    elements: result.elements.map((e) => {
      const context = stepContext(f, e.index);
      return {
        index: e.index,
        heading: elementHeading(context),
        steps: e.steps.map((s) => stepWords(s, context, texts)),
      };
    }),
    decisions: result.decisions.map((id) => decisionWords(id, texts)),
  };
}
