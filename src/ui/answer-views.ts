/**
 * The views of the answer — the result panel with its trace, the result line beside the editors,
 * and compare mode's picker of B with its what-if choices — one chunk, loaded with the evaluation
 * they show (AnswerSlots.tsx). Their words and the what-if engine come with them.
 */
export { ComparePicker } from './ComparePicker.tsx';
export { ResultLine } from './ResultLine.tsx';
export { ResultPanel } from './ResultPanel.tsx';
