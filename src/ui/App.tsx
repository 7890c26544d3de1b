import { lazy } from 'react';
import { sweepProblem } from '../engine/analysis/sweep-request.ts';
import { shareUrl } from '../state/url-sync.ts';
import { useStore, type Theme } from '../state/store.ts';
import { useForm } from '../state/form.ts';
import type { Tab } from '../state/url-state.ts';
import { ComparePickerSlot, ResultLineSlot, ResultPanelSlot } from './AnswerSlots.tsx';
import { CanonicalText } from './CanonicalText.tsx';
import { ComparePanelSlot } from './ComparePanelSlot.tsx';
import { CopyButton } from './CopyButton.tsx';
import { ExtrasTabs } from './ExtrasTabs.tsx';
import { InstructionPicker } from './InstructionPicker.tsx';
import { Intro } from './Intro.tsx';
import { useNarrow } from './narrow.ts';
import { Operands } from './Operands.tsx';
import { TargetPicker } from './TargetPicker.tsx';

// Heavy or optional parts load on demand, keeping the first download small.
const CornerCases = lazy(() => import('./CornerCases.tsx'));
const SweepPanel = lazy(() => import('./SweepPanel.tsx'));
const Reproduce = lazy(() => import('./Reproduce.tsx'));
const FormatPage = lazy(() => import('./FormatPage.tsx'));
const BlockPanel = lazy(() => import('./BlockPanel.tsx'));

/** The one page, for every instruction: pickers, editors, result, comparison and panels. */
export function App() {
  // On a narrow screen the question (the instruction and its target, then its operands) comes
  // first and the answer right under it; the compare picker (what if…) follows the result, in
  // the page's order too, so the keyboard meets it where the eye does.
  const narrow = useNarrow();
  // What if: B beside the instruction (compare mode).
  const comparePicker = <ComparePickerSlot />;
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
          <div className="operand-column">
            <Operands />
            <ResultLineSlot />
          </div>
          <div className="result-column">
            <ComparePanelSlot />
            <ResultPanelSlot />
          </div>
        </div>
        {narrow && <div className="pickers">{comparePicker}</div>}
        <Extras />
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

/**
 * The panels below the editors, loaded when first opened: corner cases, the sweep over many
 * inputs (for forms of one input per element: cvt, tanh, ex2, neg, abs; with the error plot of
 * an approximation), the GPU program and the format pages.
 */
function Extras() {
  const form = useForm();
  const sweeps = sweepProblem(form, { kind: 'every-pattern' })?.code !== 'not-single-input';
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
