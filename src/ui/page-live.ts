/**
 * `#root[data-live]` says the page answers input: the page's own parts have committed (hydrated or
 * rendered) and so have the parts that come with their own code (QuestionSlots.tsx,
 * AnswerSlots.tsx), each of which reports here once it is on the page.
 */
const PARTS = [
  'page',
  'intro',
  'instruction-picker',
  'target-picker',
  'canonical-text',
  'operands',
  'compare-panel',
  'extras',
  'result',
  'result-line',
  'compare-picker',
] as const;
export type LivePart = (typeof PARTS)[number];

const committed = new Set<LivePart>();

export function partCommitted(part: LivePart): void {
  committed.add(part);
  if (PARTS.every((p) => committed.has(p)))
    document.getElementById('root')?.setAttribute('data-live', '');
}
