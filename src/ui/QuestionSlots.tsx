import { hydratedSlot } from './hydrated-slot.tsx';

/**
 * Where the question goes: the first screen's examples and glossary, the instruction's pickers,
 * its target, its canonical PTX line, the operand editors, compare mode's panel and the panels
 * below. Their code comes with one dynamic import (`questionLoaded`), started right after the
 * page's entry has run, beside the answer's (AnswerSlots.tsx; the build puts both into one chunk,
 * vite.config.ts). The page as served already shows them for the default state; each stays as
 * served until its code has come, and React then hydrates it (hydrated-slot.tsx). A share link is
 * rendered once this chunk is there (main.tsx), so its frames below are seen only while the chunk
 * is late.
 */
let views: Promise<typeof import('./question-views.ts')> | null = null;

export function questionLoaded(): Promise<typeof import('./question-views.ts')> {
  views ??= import('./question-views.ts');
  return views;
}

/** A panel of the question while its code is on its way. */
function PendingPanel({ title }: { title: string }) {
  return (
    <section className="panel" aria-busy="true">
      <h2>{title}</h2>
      <p className="muted picker-legend">Loading…</p>
    </section>
  );
}

export const IntroSlot = hydratedSlot(
  questionLoaded,
  'intro',
  'The introduction',
  (views) => views.Intro,
  null,
);

export const InstructionPickerSlot = hydratedSlot(
  questionLoaded,
  'instruction-picker',
  'The instruction’s pickers',
  (views) => views.InstructionPicker,
  <PendingPanel title="Instruction" />,
);

export const TargetPickerSlot = hydratedSlot(
  questionLoaded,
  'target-picker',
  'The target picker',
  (views) => views.TargetPicker,
  <PendingPanel title="Target" />,
);

export const CanonicalTextSlot = hydratedSlot(
  questionLoaded,
  'canonical-text',
  'The PTX line',
  (views) => views.CanonicalText,
  <div className="canonical" aria-busy="true" />,
);

export const OperandsSlot = hydratedSlot(
  questionLoaded,
  'operands',
  'The operand editors',
  (views) => views.Operands,
  <p className="muted">Loading the operand editors…</p>,
);

export const CompareSlot = hydratedSlot(
  questionLoaded,
  'compare-panel',
  'Compare mode',
  (views) => views.ComparePanelSlot,
  null,
);

export const ExtrasSlot = hydratedSlot(
  questionLoaded,
  'extras',
  'The panels below',
  (views) => views.Extras,
  null,
);
