import { loadUrlLink, shareUrl } from '../state/url-sync.ts';
import { useStore, type Theme } from '../state/store.ts';
import { ComparePickerSlot, ResultLineSlot, ResultPanelSlot } from './AnswerSlots.tsx';
import { CopyButton } from './CopyButton.tsx';
import { useNarrow } from './narrow.ts';
import {
  CanonicalTextSlot,
  CompareSlot,
  ExtrasSlot,
  InstructionPickerSlot,
  IntroSlot,
  OperandsSlot,
  TargetPickerSlot,
} from './QuestionSlots.tsx';

/**
 * The one page, for every instruction: pickers, editors, result, comparison and panels. The page's
 * frame is here; its parts come with their code (QuestionSlots.tsx, AnswerSlots.tsx).
 */
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
          <CopyButton
            text={shareUrl}
            prepare={() => void loadUrlLink().catch(() => undefined)}
            label="Copy link"
            testId="copy-link"
          />
          <ThemeToggle />
        </div>
      </header>
      <Notices />
      <IntroSlot />
      <main id="main">
        <div className="pickers">
          <InstructionPickerSlot />
          <TargetPickerSlot />
          {!narrow && comparePicker}
        </div>
        <CanonicalTextSlot />
        <div className="workbench">
          <div className="operand-column">
            <OperandsSlot />
            <ResultLineSlot />
          </div>
          <div className="result-column">
            <CompareSlot />
            <ResultPanelSlot />
          </div>
        </div>
        {narrow && <div className="pickers">{comparePicker}</div>}
        <ExtrasSlot />
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
