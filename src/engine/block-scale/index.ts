/**
 * Block scaling (issue 26): a block of binary32 values quantized to MXFP8/MXFP6/MXFP4 or NVFP4
 * by the PTX sequence of a scale rule, every step as the instruction it is, and the same values
 * compared under every scheme and rule. Pure data in and out, as the rest of the engine.
 */
export { quantizeBlock } from './quantize.ts';
export type {
  BlockQuantization,
  BlockScale,
  BlockScaleError,
  BlockScaleErrorCode,
  BlockScaleRequest,
  BlockScaleResult,
  CvtCall,
  F32View,
  GlobalScale,
  QuantizedElement,
} from './types.ts';
export {
  compareScaleRules,
  type BlockComparison,
  type BlockComparisonRequest,
  type ComparedElement,
  type SchemeEntry,
  type StorageEntry,
} from './compare.ts';
export type { BlockErrorSummary, ElementError } from './element-error.ts';
export type { PtxInput, PtxLine, PtxPhase, PtxProgram } from './ptx-program.ts';
export {
  BLOCK_SCALE_DECISIONS,
  blockScaleDecision,
  type BlockScaleDecision,
  type BlockScaleDecisionId,
} from '../decisions.ts';
export {
  BLOCK_SCHEMES,
  ELEMENT_ROUNDINGS,
  MX_SCALE_RULES,
  SCALE_RULES,
  SCHEMES,
  bitsPerValue,
  elementCvtForm,
  isBlockScheme,
  isScaleRule,
  type BlockElementFormat,
  type BlockScheme,
  type ElementRounding,
  type ScaleRule,
  type SchemeInfo,
} from './schemes.ts';
