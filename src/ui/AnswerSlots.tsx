import { lazy, memo, Suspense, useEffect, type ComponentType, type ReactNode } from 'react';
import { evaluationStarted } from '../state/evaluation-when-loaded.ts';
import { LoadFailed } from './LoadFailed.tsx';
import { partCommitted, type LivePart } from './page-live.ts';
import { ResultArea } from './ResultArea.tsx';
// The answer's styles come with the page: the served page shows the answer before its code.
import './compare.css';

/**
 * Where the answer goes: the result panel, the result line and the picker of B. Their code and
 * the engine that computes what they show load together, right after the page's entry
 * (`answerLoaded`): the page as served already shows the default state's answer, which stays in
 * place until its code has come and takes it over (React hydrates each slot on its own); a share
 * link shows each slot's pending frame until then. Each slot is memoized without props, so that a
 * render of the page around it does not reach a slot still waiting for its code.
 */
let views: Promise<typeof import('./answer-views.ts')> | null = null;

export function answerLoaded(): Promise<typeof import('./answer-views.ts')> {
  views ??= Promise.all([import('./answer-views.ts'), evaluationStarted()]).then(([m]) => m);
  return views;
}

type AnswerViews = Awaited<ReturnType<typeof answerLoaded>>;

/** Reports its slot to page-live.ts once the slot's content is on the page. */
function Committed({ part }: { part: LivePart }) {
  useEffect(() => partCommitted(part), [part]);
  return null;
}

/**
 * One slot: the view `pick` names from the answer's chunk, in a Suspense boundary showing
 * `fallback` until the chunk has come, and `what` in a message if it cannot be fetched.
 */
function answerSlot(
  part: LivePart,
  what: string,
  pick: (views: AnswerViews) => ComponentType,
  fallback: ReactNode,
) {
  const View = lazy(() => answerLoaded().then((views) => ({ default: pick(views) })));
  return memo(function AnswerSlot() {
    return (
      <LoadFailed what={what}>
        <Suspense fallback={fallback}>
          <View />
          <Committed part={part} />
        </Suspense>
      </LoadFailed>
    );
  });
}

export const ResultPanelSlot = answerSlot(
  'result',
  'The result',
  (views) => views.ResultPanel,
  <ResultArea pending error={null}>
    {null}
  </ResultArea>,
);

export const ResultLineSlot = answerSlot(
  'result-line',
  'The result line',
  (views) => views.ResultLine,
  <div className="result-line" aria-label="Result, kept in view">
    <p>
      <span className="who">d</span> …
    </p>
  </div>,
);

export const ComparePickerSlot = answerSlot(
  'compare-picker',
  'Compare mode’s picker',
  (views) => views.ComparePicker,
  <section className="panel compare-picker" aria-busy="true">
    <h2>Compare with B (what if…)</h2>
    <p className="muted picker-legend">Loading the what-if choices…</p>
  </section>,
);
