import { memo, type ReactNode } from 'react';
import type { CvtForm } from '../catalog/index.ts';
import type { CvtEvalResult, Step } from '../engine/index.ts';
import { CVT_STEP_BODIES } from './cvt-step-bodies.tsx';
import { StepsFrame } from './StepsFrame.tsx';

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
    <StepsFrame
      label="How the result was computed"
      testId="steps"
      anchors="decision-"
      record={form.record}
      decisions={result.decisions}
      traces={result.elements.map((e) => {
        const element = form.elements[e.index]!;
        return {
          key: e.index,
          testId: `cvt-trace-${e.index}`,
          heading: (
            <h4>
              Element {e.index}: d{range(element.dest.slot)} = convert(
              {element.source.operand}
              {range(element.source.slot)})
            </h4>
          ),
          steps: e.steps,
        };
      })}
      body={(step) => <CvtStepBody step={step} />}
    />
  );
});

function CvtStepBody({ step }: { step: Step }) {
  // Only cvt kinds occur in a cvt trace; indexing by the kind picks its renderer.
  const render = (CVT_STEP_BODIES as Record<string, (s: Step) => ReactNode>)[step.kind];
  return render ? render(step) : null;
}
