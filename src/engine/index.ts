/** The engine's public surface. Pure: no DOM, React or worker code; modes in, data out. */
export { DEFAULT_ENGINE_OPTIONS, resolveOptions, type EngineOptions } from './options.ts';
export {
  evaluate,
  operandProblem,
  resolveForm,
  EngineError,
  type EvalInput,
  type OobMarks,
} from './evaluate.ts';
export { compileFast, compileFastBatch, type FastBatch } from './fast.ts';
export * from './formats.ts';
export { parseValue, shortestDecimal, type ParsedValue } from './values-text.ts';
export { readableDecimal, type ReadableDecimal } from './decimal-text.ts';
export { DECISIONS, decision, type Decision, type DecisionId } from './decisions.ts';
export { correctlyRounded, mathFunction, errorBoundOf } from './ops/approx.ts';
export type { ApproxTableKey, MeasuredTable } from './measured-format.ts';
export { allowedResults } from './semantics/approx-allowed.ts';
export { canonicalNaN } from './specialize.ts';
export type * from './trace.ts';
export {
  namedSpecialValues,
  SPECIAL_VALUE_NAMES,
  type SpecialValue,
  type SpecialValueName,
} from './analysis/special-values.ts';
export { inEveryLane, operandFormat } from './analysis/registers.ts';
export {
  cornerTable,
  describeValue,
  type CornerRow,
  type CornerTable,
  type CornerValue,
  type InputOperand,
} from './analysis/corner-table.ts';
export { specCornerChecks, type SpecCornerCheck } from './analysis/spec-corner-checks.ts';
export {
  approxErrorBound,
  approxSweep,
  startApproxSweep,
  SWEEP_INPUTS,
  type ApproxSweep,
  type ApproxSweepRun,
  type SweepProgress,
} from './analysis/approx-sweep.ts';
export {
  evaluateCvt,
  cvtOperandProblem,
  CvtInputError,
  type CvtInput,
  type CvtEvalResult,
  type CvtElementTrace,
} from './ops/cvt.ts';
export type { CvtStep, CvtRoundStep, ElementView } from './cvt-trace.ts';
export { ALT_FORMATS as ALTERNATE_FORMATS, FLOAT_FORMATS as ALL_FLOAT_FORMATS } from './formats.ts';
export {
  classifyElement,
  decodeElement,
  encodeElement,
  exactValueOfElement,
  elementWidth,
  F64,
  hexOf as elementHex,
} from './element-format.ts';
export {
  compileCvtFast,
  compileCvtFastBatch,
  type CvtFastBatch,
  type CvtRegisters,
} from './cvt-fast.ts';
export {
  cvtCornerRows,
  formatInfo,
  valueTable as formatValueTable,
  type CvtCornerRow,
  type FormatInfo,
  type ValueRow,
} from './analysis/format-info.ts';
export {
  MEASURED_FORMAT,
  MEASURED_FORMAT_VERSION,
  decodeMeasuredTable,
  measuredIndexSets,
  type MeasuredIndexSet,
} from './measured-format.ts';
export {
  cvtCornerTable,
  type CvtCornerCase,
  type CvtCornerTable,
  type CvtCaseValue,
} from './analysis/cvt-corner-table.ts';
export { cvtCaseOutcomes } from './analysis/cvt-case-outcomes.ts';
export { CASE_OUTCOMES, type CaseOutcome } from './analysis/case-outcomes.ts';
export { parseSweepBound, type SweepBound } from './analysis/sweep-bound.ts';
export {
  EVERY_FORMAT,
  valueInFormats,
  type StoredInFormat,
  type ValueInFormats,
} from './analysis/value-in-formats.ts';
export {
  cvtSweep,
  cvtSweepProblem,
  startCvtSweep,
  CvtSweepError,
  CVT_SWEEP_BINS,
  CVT_SWEEP_MAX_VALUES,
  type CvtSweep,
  type CvtSweepBucket,
  type CvtSweepInputs,
  type CvtSweepRequest,
  type CvtSweepRun,
} from './analysis/cvt-sweep.ts';
export { parseElementValue, shortestElementDecimal } from './element-text.ts';
