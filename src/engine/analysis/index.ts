/**
 * The analyses of any form of the catalog, on the one pipeline: the named special values of
 * every format, the corner-case table with what happened in each case, the spec's own
 * corner-case tables checked, the sweep of a single-input form over many inputs, and the facts
 * of a format page. Plain data out: tags and ids, no words for people (src/present words them).
 */
export {
  NAMED_VALUE_IDS,
  namedValueBits,
  namedValues,
  type NamedValue,
  type NamedValueId,
} from './named-values.ts';
export { CASE_OUTCOMES, caseOutcomes, stepOutcomes, type CaseOutcome } from './outcomes.ts';
export {
  MATRIX_CASE_IDS,
  matrixCases,
  type MatrixCase,
  type MatrixCaseId,
} from './matrix-cases.ts';
export {
  registerHolding,
  registersHex,
  registersHolding,
  registersOfHex,
  zeroRegisters,
} from './form-registers.ts';
export {
  CONVERSION_CASE_IDS,
  conversionCases,
  type ConversionCase,
  type ConversionCaseId,
} from './conversion-cases.ts';
export {
  CORNER_ADDENDS,
  cornerTable,
  type CaseId,
  type CornerInput,
  type CornerRow,
  type CornerTable,
  type CornerValue,
} from './corner-cases.ts';
export { specCornerChecks, type SpecCornerCheck } from './spec-checks.ts';
export {
  formatFacts,
  formatValues,
  VALUE_TABLE_MAX_WIDTH,
  type FormatFacts,
  type FormatField,
  type FormatValue,
  type NaNEncoding,
} from './format-facts.ts';
export {
  SWEEP_MAX_PATTERN_BITS,
  SWEEP_MAX_VALUES,
  SWEEP_PLOT_BINS,
  SWEPT_OPERATIONS,
  SweepError,
  sweepProblem,
  sweptSource,
  type SweepInputs,
  type SweepProblem,
  type SweepRequest,
} from './sweep-request.ts';
export {
  startSweep,
  sweep,
  type ResultClasses,
  type Sweep,
  type SweepBucket,
  type SweepPerInput,
  type SweepPlot,
  type SweepProgress,
  type SweepRun,
} from './sweep.ts';
