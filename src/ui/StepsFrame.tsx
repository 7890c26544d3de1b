import type { ReactNode } from 'react';
import { decision, type DecisionId, type Step } from '../engine/index.ts';

/** One trace in the steps list: a lane of the arithmetic, an element of a cvt. */
export interface StepTrace {
  key: number;
  testId?: string;
  /** Shown above the trace when there is more than one; null for none. */
  heading: ReactNode;
  steps: readonly Step[];
}

/** The spec section a form's own rules link to. */
export interface SectionLink {
  readonly section: string;
  readonly anchor: string;
}

/**
 * The steps list of the arithmetic and the cvt workbench alike: per trace an ordered list of
 * steps, each drawn by `body` and followed by its spec rule, then the documented interpretations
 * the result relies on. A second list on the page (compare mode's B) takes its own `anchors`
 * prefix and test id.
 */
export function StepsFrame({
  label,
  testId,
  anchors,
  traces,
  decisions,
  record,
  body,
}: {
  label: string;
  testId: string;
  anchors: string;
  traces: readonly StepTrace[];
  decisions: readonly DecisionId[];
  record: SectionLink;
  body: (step: Step) => ReactNode;
}) {
  return (
    <section className="panel steps" aria-label={label} data-testid={testId}>
      <h3>Steps</h3>
      <div className="lane-traces">
        {traces.map((trace) => (
          <div key={trace.key} className="lane-trace" data-testid={trace.testId}>
            {traces.length > 1 && trace.heading}
            <ol>
              {trace.steps.map((step, i) => (
                <li key={i} className={`step step-${step.kind}`} data-kind={step.kind}>
                  {body(step)}
                  <StepRule step={step} record={record} anchors={anchors} />
                </li>
              ))}
            </ol>
          </div>
        ))}
      </div>
      {decisions.length > 0 && (
        <div className="decisions">
          <h4>Documented interpretations this result relies on</h4>
          <ul>
            {decisions.map((id) => (
              <li key={id} id={`${anchors}${id}`}>
                <DecisionNote id={id} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

export function DecisionNote({ id }: { id: DecisionId }) {
  const d = decision(id);
  return (
    <>
      <strong>{d.title}.</strong> <span className="muted">Spec: {d.spec}</span> Engine: {d.decision}
    </>
  );
}

function StepRule({ step, record, anchors }: { step: Step; record: SectionLink; anchors: string }) {
  const { rule } = step;
  // A link for the form's own section; a chapter-wide PTX rule or an IEEE 754 clause is cited.
  const citation =
    rule.source === 'ieee-754' ? (
      <span className="citation">IEEE 754 §{rule.section}</span>
    ) : rule.section === record.section ? (
      <a href={record.anchor} target="_blank" rel="noreferrer">
        §{rule.section}
      </a>
    ) : (
      <span className="citation">PTX ISA §{rule.section}</span>
    );
  return (
    <p className="rule">
      {citation} <span className="muted">{rule.text}</span>
      {step.decision && (
        <>
          {' '}
          <a className="decision-link" href={`#${anchors}${step.decision}`}>
            interpretation: {decision(step.decision).title}
          </a>
        </>
      )}
    </p>
  );
}
