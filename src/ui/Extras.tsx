import { lazy } from 'react';
import { sweepsOneInput } from '../engine/analysis/sweep-request.ts';
import { useForm } from '../state/form.ts';
import { useStore } from '../state/store.ts';
import type { Tab } from '../state/url-state.ts';
import { ExtrasTabs } from './ExtrasTabs.tsx';

// Heavy or optional parts load on demand, keeping the first download small.
const CornerCases = lazy(() => import('./CornerCases.tsx'));
const SweepPanel = lazy(() => import('./SweepPanel.tsx'));
const Reproduce = lazy(() => import('./Reproduce.tsx'));
const FormatPage = lazy(() => import('./FormatPage.tsx'));
const BlockPanel = lazy(() => import('./BlockPanel.tsx'));

/**
 * The panels below the editors, loaded when first opened: corner cases, the sweep over many
 * inputs (for forms of one input per element: cvt, tanh, ex2, neg, abs; with the error plot of
 * an approximation), the GPU program and the format pages.
 */
export function Extras() {
  const form = useForm();
  const sweeps = sweepsOneInput(form);
  const tab = useStore((s) => s.tab);
  const tabs: { id: Tab; label: string }[] = [
    { id: 'corners', label: 'Corner cases' },
    ...(sweeps
      ? [{ id: 'sweep' as Tab, label: form.errorBound ? 'Error plot' : 'Sweep many inputs' }]
      : []),
    { id: 'repro', label: 'Reproduce on a GPU' },
    { id: 'format', label: 'Number formats' },
    { id: 'block', label: 'Block scaling' },
  ];
  const shown = tab === 'sweep' && !sweeps ? null : tab;
  return (
    <ExtrasTabs tabs={tabs} shown={shown}>
      {shown === 'corners' && <CornerCases />}
      {shown === 'sweep' && <SweepPanel />}
      {shown === 'repro' && <Reproduce />}
      {shown === 'format' && <FormatPage />}
      {shown === 'block' && <BlockPanel />}
    </ExtrasTabs>
  );
}
