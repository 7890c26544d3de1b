import { memo, type ReactNode } from 'react';
import type { CvtForm } from '../catalog/index.ts';
import { decision, type CvtEvalResult, type Step } from '../engine/index.ts';
import { CVT_STEP_BODIES } from './cvt-step-bodies.tsx';
import { DecisionNote } from './Steps.tsx';

const range = (r: { hi: number; lo: number }) =>
  r.hi === r.lo ? `[${r.hi}]` : `[${r.hi}:${r.lo}]`;

/**
 * The trace of a cvt: per element, in the Semantics block's order, the steps of its one
 * conversion, each with its spec rule and any documented interpretation it relies on.
 */
export const CvtSteps = memo(function CvtSteps({
  result,
  form,
}: {
  result: CvtEvalResult;
  form: CvtForm;
}) {
  return (
    <section className="panel steps" aria-label="How the result was computed" data-testid="steps">
      <h3>Steps</h3>
      <div className="lane-traces">
        {result.elements.map((e) => {
          const element = form.elements[e.index]!;
          return (
            <div key={e.index} className="lane-trace" data-testid={`cvt-trace-${e.index}`}>
              {result.elements.length > 1 && (
                <h4>
                  Element {e.index}: d{range(element.dest.slot)} = convert(
                  {element.source.operand}
                  {range(element.source.slot)})
                </h4>
              )}
              <ol>
                {e.steps.map((step, i) => (
                  <li key={i} className={`step step-${step.kind}`} data-kind={step.kind}>
                    <CvtStepBody step={step} />
                    <StepRule step={step} form={form} />
                  </li>
                ))}
              </ol>
            </div>
          );
        })}
      </div>
      {result.decisions.length > 0 && (
        <div className="decisions">
          <h4>Documented interpretations this result relies on</h4>
          <ul>
            {result.decisions.map((id) => (
              <li key={id} id={`decision-${id}`}>
                <DecisionNote id={id} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
});

function CvtStepBody({ step }: { step: Step }) {
  // Only cvt kinds occur in a cvt trace; indexing by the kind picks its renderer.
  const render = (CVT_STEP_BODIES as Record<string, (s: Step) => ReactNode>)[step.kind];
  return render ? render(step) : null;
}

function StepRule({ step, form }: { step: Step; form: CvtForm }) {
  const { rule } = step;
  const citation =
    rule.source === 'ieee-754' ? (
      <span className="citation">IEEE 754 §{rule.section}</span>
    ) : rule.section === form.record.section ? (
      <a href={form.record.anchor} target="_blank" rel="noreferrer">
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
          <a className="decision-link" href={`#decision-${step.decision}`}>
            interpretation: {decision(step.decision).title}
          </a>
        </>
      )}
    </p>
  );
}
