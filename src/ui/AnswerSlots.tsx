import { evaluationStarted } from '../state/evaluation-when-loaded.ts';
import { hydratedSlot } from './hydrated-slot.tsx';
import { ResultArea } from './ResultArea.tsx';
// The answer's styles come with the page: the served page shows the answer before its code.
import './compare.css';

/**
 * Where the answer goes: the result panel, the result line and the picker of B. Their code and
 * the engine that computes what they show load together, right after the page's entry
 * (`answerLoaded`): the page as served already shows the default state's answer, which stays in
 * place until its code has come and takes it over (React hydrates each slot on its own); a share
 * link shows each slot's pending frame until then (hydrated-slot.tsx).
 */
let views: Promise<typeof import('./answer-views.ts')> | null = null;

export function answerLoaded(): Promise<typeof import('./answer-views.ts')> {
  views ??= Promise.all([import('./answer-views.ts'), evaluationStarted()]).then(([m]) => m);
  return views;
}

export const ResultPanelSlot = hydratedSlot(
  answerLoaded,
  'result',
  'The result',
  (views) => views.ResultPanel,
  <ResultArea pending error={null}>
    {null}
  </ResultArea>,
);

export const ResultLineSlot = hydratedSlot(
  answerLoaded,
  'result-line',
  'The result line',
  (views) => views.ResultLine,
  <div className="result-line" aria-label="Result, kept in view">
    <p>
      <span className="who">d</span> …
    </p>
  </div>,
);

export const ComparePickerSlot = hydratedSlot(
  answerLoaded,
  'compare-picker',
  'Compare mode’s picker',
  (views) => views.ComparePicker,
  <section className="panel compare-picker" aria-busy="true">
    <h2>Compare with B (what if…)</h2>
    <p className="muted picker-legend">Loading the what-if choices…</p>
  </section>,
);
