import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App.tsx';
import { startCompare } from './state/compare-on-edit.ts';
import { startEvaluation } from './state/evaluate-on-edit.ts';
import { installTestSwitches } from './state/test-switches.ts';
import { startUrlSync } from './state/url-sync.ts';
import { startTheme } from './state/theme.ts';
import './ui/styles.css';

// URL first (so the first evaluation is of the linked state), then the engine, then the page.
startUrlSync();
startTheme();
const evaluation = startEvaluation();
startCompare();
// The end-to-end tests ask for their switches before the page loads; nobody else gets them.
if ((window as { __ptxfEnableTestHooks?: unknown }).__ptxfEnableTestHooks === true)
  installTestSwitches(evaluation);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
