import { lazy } from 'react';
import { approxErrorBound } from '../engine/index.ts';
import { shareUrl } from '../state/url-sync.ts';
import { useForm, useStore, type Theme } from '../state/store.ts';
import type { Tab } from '../state/url-codec.ts';
import { CanonicalText } from './CanonicalText.tsx';
import { ComparePanel } from './ComparePanel.tsx';
import { ComparePicker } from './ComparePicker.tsx';
import { CopyButton } from './CopyButton.tsx';
import { CvtComparePicker } from './CvtComparePicker.tsx';
import { CvtExtras, CvtWorkbench } from './CvtWorkbench.tsx';
import { ExtrasTabs } from './ExtrasTabs.tsx';
import { InstructionPicker } from './InstructionPicker.tsx';
import { Intro } from './Intro.tsx';
import { useNarrow } from './narrow.ts';
import { Operands } from './Operands.tsx';
import { ResultLine } from './ResultLine.tsx';
import { ResultPanel } from './ResultPanel.tsx';
import { TargetPicker } from './TargetPicker.tsx';

// Heavy or optional parts load on demand, keeping the first download small.
const CornerCases = lazy(() => import('./CornerCases.tsx'));
const ApproxPlot = lazy(() => import('./ApproxPlot.tsx'));
const Reproduce = lazy(() => import('./Reproduce.tsx'));
const FormatPage = lazy(() => import('./FormatPage.tsx'));

export function App() {
  // cvt forms have their own editors, result and panels (CvtWorkbench.tsx).
  const cvt = useStore((s) => s.instr.startsWith('cvt.'));
  // On a narrow screen the question (the instruction and its target, then its operands) comes
  // first and the answer right under it; the compare picker (what if…) follows the result, in
  // the page's order too, so the keyboard meets it where the eye does.
  const narrow = useNarrow();
  // What if: B beside the instruction (compare mode).
  const comparePicker = cvt ? <CvtComparePicker /> : <ComparePicker />;
  return (
    <>
      <a className="skip" href="#main">
        Skip to the playground
      </a>
      <header className="top">
        <h1>PTX Float Playground</h1>
        <div className="top-actions">
          <CopyButton text={shareUrl} label="Copy link" testId="copy-link" />
          <ThemeToggle />
        </div>
      </header>
      <Notices />
      <Intro />
      <main id="main">
        <div className="pickers">
          <InstructionPicker />
          <TargetPicker />
          {!narrow && comparePicker}
        </div>
        <CanonicalText />
        <div className="workbench">
          {cvt ? (
            <CvtWorkbench />
          ) : (
            <>
              <div className="operand-column">
                <Operands />
                <ResultLine />
              </div>
              <div className="result-column">
                <ComparePanel />
                <ResultPanel />
              </div>
            </>
          )}
        </div>
        {narrow && <div className="pickers">{comparePicker}</div>}
        {cvt ? <CvtExtras /> : <Extras />}
      </main>
      <footer>
        Results are computed in your browser by a model of the PTX ISA; where the spec is silent the
        engine says which interpretation it took.
      </footer>
    </>
  );
}

function ThemeToggle() {
  const theme = useStore((s) => s.theme);
  const setTheme = useStore((s) => s.setTheme);
  return (
    <label className="theme">
      Theme
      <select value={theme} onChange={(e) => setTheme(e.target.value as Theme)} data-testid="theme">
        <option value="system">system</option>
        <option value="light">light</option>
        <option value="dark">dark</option>
      </select>
    </label>
  );
}

function Notices() {
  const notices = useStore((s) => s.urlNotices);
  const stored = useStore((s) => s.urlStored);
  const setUrlNotices = useStore((s) => s.setUrlNotices);
  const health = useStore((s) => s.workerHealth);
  const message = useStore((s) => s.workerMessage);
  return (
    <>
      {notices.length > 0 && (
        <div className="notice warn" role="alert" data-testid="url-notices">
          <p>
            <strong>Parts of the link were ignored:</strong>
          </p>
          <ul>
            {notices.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
          <button type="button" onClick={() => setUrlNotices([], stored)}>
            Dismiss
          </button>
        </div>
      )}
      {stored.length > 0 && (
        <div className="notice info" role="status" data-testid="url-stored">
          <p>
            <strong>The link gave values; this is what was stored:</strong>
          </p>
          <ul>
            {stored.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
          <button type="button" onClick={() => setUrlNotices(notices, [])}>
            Dismiss
          </button>
        </div>
      )}
      {message && (
        <div
          className={`notice ${health === 'restarting' ? 'warn' : 'info'}`}
          role="status"
          data-testid="worker-status"
        >
          {message}
        </div>
      )}
    </>
  );
}

/** Corner cases, the approximation plot and the GPU program: loaded when first opened. */
function Extras() {
  const form = useForm();
  // The error plot is for forms whose catalog record gives an error bound (the approximate ones).
  const approx = approxErrorBound(form) !== null;
  const tab = useStore((s) => s.tab);
  const tabs: { id: Tab; label: string }[] = [
    { id: 'corners', label: 'Corner cases' },
    ...(approx ? [{ id: 'approx' as Tab, label: 'Error plot' }] : []),
    { id: 'repro', label: 'Reproduce on a GPU' },
    { id: 'format', label: 'Number formats' },
  ];
  const shown = (tab === 'approx' && !approx) || tab === 'sweep' ? null : tab;
  return (
    <ExtrasTabs tabs={tabs} shown={shown}>
      {shown === 'corners' && <CornerCases />}
      {shown === 'approx' && <ApproxPlot />}
      {shown === 'repro' && <Reproduce />}
      {shown === 'format' && <FormatPage />}
    </ExtrasTabs>
  );
}
