import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App.tsx';
import { startCompare } from './state/compare-on-edit.ts';
import { startCvtEvaluation } from './state/cvt-evaluate.ts';
import { startEvaluation } from './state/evaluate-on-edit.ts';
import { installTestHooks } from './state/worker-client.ts';
import { startUrlSync } from './state/url-sync.ts';
import { startTheme } from './state/theme.ts';
import './ui/styles.css';

// URL first (so the first evaluation is of the linked state), then the engine, then the page.
startUrlSync();
startTheme();
const evaluation = startEvaluation();
startCompare();
startCvtEvaluation();
// The end-to-end tests ask for their fault hooks before the page loads; nobody else gets them.
if ((window as { __ptxfEnableTestHooks?: unknown }).__ptxfEnableTestHooks === true)
  installTestHooks(evaluation);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
