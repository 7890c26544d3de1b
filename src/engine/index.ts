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
export { compileFast } from './fast.ts';
export * from './formats.ts';
export { parseValue, shortestDecimal, type ParsedValue } from './values-text.ts';
export { exactValueOfBits } from './exact.ts';
export { DECISIONS, decision, type Decision, type DecisionId } from './decisions.ts';
export {
  allowedInterval,
  correctlyRounded,
  mathFunction,
  errorBoundOf,
  type ApproxTableKey,
  type MeasuredTable,
} from './ops/approx.ts';
export { canonicalNaN } from './specialize.ts';
export type * from './trace.ts';
