import { memo, Suspense, use, useMemo } from 'react';
import { findForm } from '../catalog/all-forms.ts';
import type { Form } from '../catalog/instruction.ts';
import type { EvalResult } from '../engine/steps.ts';
import {
  traceWords,
  type DecisionTexts,
  type DecisionWords,
  type StepWords,
} from '../present/step-words.ts';
import { loadDecisionTexts } from './decision-texts.ts';
import { NumberLine } from './NumberLine.tsx';
import { LineView } from './Words.tsx';

/**
 * The trace of any evaluation, in the words of src/present/step-words.ts: per element (a lane of
 * an x2 form, an element of a cvt) the ordered steps, each with its spec rule and the documented
 * decision it relies on, then those decisions. A second trace on the page (compare mode's B)
 * takes its own `anchors` prefix and test id.
 */
export const Steps = memo(function Steps(props: StepsProps) {
  const { label = 'How the result was computed', testId = 'steps' } = props;
  // A trace that cites a documented decision waits for their words (loaded on first use).
  return (
    <Suspense
      fallback={
        <section className="panel steps" aria-label={label} data-testid={testId} aria-busy="true">
          <h3>Steps</h3>
          <p className="muted">Loading the documented interpretations…</p>
        </section>
      }
    >
      <StepsBody {...props} />
    </Suspense>
  );
});

interface StepsProps {
  result: EvalResult;
  label?: string;
  testId?: string;
  anchors?: string;
}

/** A result lists every decision its steps cite: without any, no words are needed. */
const noDecisions: DecisionTexts = (id) => {
  throw new Error(`a step cites decision ${id}, which its result does not list`);
};

function StepsBody({
  result,
  label = 'How the result was computed',
  testId = 'steps',
  anchors = 'decision-',
}: StepsProps) {
  const form = findForm(result.form)!;
  const texts = result.decisions.length > 0 ? use(loadDecisionTexts()) : noDecisions;
  const trace = useMemo(() => traceWords(result, texts, form), [result, texts, form]);
  return (
    <section className="panel steps" aria-label={label} data-testid={testId}>
      <h3>Steps</h3>
      <div className="lane-traces">
        {trace.elements.map((element) => (
          <div
            key={element.index}
            className="lane-trace"
            data-testid={`${testId}-${element.index}`}
          >
            {trace.elements.length > 1 && (
              <h4>
                <LineView line={element.heading} />
              </h4>
            )}
            <ol>
              {element.steps.map((step, i) => (
                <li key={i} className={`step step-${step.kind}`} data-kind={step.kind}>
                  <StepView step={step} form={form} anchors={anchors} />
                </li>
              ))}
            </ol>
          </div>
        ))}
      </div>
      {trace.decisions.length > 0 && (
        <div className="decisions">
          <h4>Documented interpretations this result relies on</h4>
          <ul>
            {trace.decisions.map((d) => (
              <li key={d.id} id={`${anchors}${d.id}`}>
                <DecisionNote decision={d} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

function StepView({ step, form, anchors }: { step: StepWords; form: Form; anchors: string }) {
  return (
    <>
      {step.lines.length === 1 ? (
        <p>
          <strong>
            <LineView line={step.title} />
          </strong>
          : <LineView line={step.lines[0]!} />
        </p>
      ) : (
        <div>
          <strong>
            <LineView line={step.title} />
          </strong>
          {step.lines.map((line, i) => (
            <p key={i} className="step-line">
              <LineView line={line} />
            </p>
          ))}
        </div>
      )}
      {step.numberLine && <NumberLine line={step.numberLine} />}
      <StepRule step={step} form={form} anchors={anchors} />
    </>
  );
}

export function DecisionNote({ decision: d }: { decision: DecisionWords }) {
  return (
    <>
      <strong>{d.title}.</strong> <span className="muted">Spec: {d.spec}</span> Engine: {d.decision}
    </>
  );
}

function StepRule({ step, form, anchors }: { step: StepWords; form: Form; anchors: string }) {
  const { rule } = step;
  // A link for the form's own section; a chapter-wide PTX rule or an IEEE 754 clause is cited.
  const citation =
    rule.source === 'ieee-754' ? (
      <span className="citation">{rule.citation}</span>
    ) : rule.section === form.section.section ? (
      <a href={form.section.anchor} target="_blank" rel="noreferrer">
        {rule.citation}
      </a>
    ) : (
      <span className="citation">PTX ISA {rule.citation}</span>
    );
  return (
    <p className="rule">
      {citation} <span className="muted">{rule.text}</span>
      {rule.decision && (
        <>
          {' '}
          <a className="decision-link" href={`#${anchors}${rule.decision.id}`}>
            interpretation: {rule.decision.text}
          </a>
        </>
      )}
    </p>
  );
}
