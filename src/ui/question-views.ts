/**
 * The views of the question — the first screen's examples and glossary, the instruction's pickers
 * and its target, the canonical PTX line, the operand editors, compare mode's panel and the panels
 * below them — one chunk, with the catalog and the value parsing they use, hydrated in place of
 * the served page (QuestionSlots.tsx).
 */
export { CanonicalText } from './CanonicalText.tsx';
export { ComparePanelSlot } from './ComparePanelSlot.tsx';
export { Extras } from './Extras.tsx';
export { Intro } from './Intro.tsx';
export { InstructionPicker } from './InstructionPicker.tsx';
export { Operands } from './Operands.tsx';
export { TargetPicker } from './TargetPicker.tsx';
