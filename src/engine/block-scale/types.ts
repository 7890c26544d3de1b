/**
 * What a block quantization is asked and what it answers (quantize.ts): plain data, bits as
 * lower-case hex strings, exact values as ExactValue.
 */
import type { SourceName } from '../../catalog/instruction.ts';
import type { BlockScaleDecisionId, DecisionId } from '../decisions.ts';
import type { BitsView } from '../format.ts';
import type { ExactValue } from '../value.ts';
import type { BlockErrorSummary, ElementError } from './element-error.ts';
import type { PtxProgram } from './ptx-program.ts';
import type { BlockElementFormat, BlockScheme, ElementRounding, ScaleRule } from './schemes.ts';

export interface BlockScaleRequest {
  /** mxfp8-e4m3, mxfp8-e5m2, mxfp6-e3m2, mxfp6-e2m3, mxfp4 or nvfp4. */
  readonly scheme: string;
  /** ocp, rp or rz for the MX schemes; nvfp4 for NVFP4. */
  readonly scaleRule: string;
  /** The block: 32 values for MX, 16 for NVFP4, as binary32 bit patterns (0 … 2^32 − 1). */
  readonly values: readonly number[];
  /** NVFP4 only: the tensor's amax as binary32 bits (default: the block's amax). */
  readonly tensorAmax?: number;
  /** The element conversions: 'rn' (default) or 'rs' (then rbits). */
  readonly rounding?: string;
  /** .rs: each element cvt's rbits register (one per four elements), or one for every cvt. */
  readonly rbits?: readonly number[];
}

export type BlockScaleErrorCode =
  'scheme' | 'scale-rule' | 'rounding' | 'length' | 'value' | 'tensor-amax' | 'rbits';

export interface BlockScaleError {
  readonly ok: false;
  readonly code: BlockScaleErrorCode;
  readonly message: string;
  /** The block element at fault, for code 'value'. */
  readonly index?: number;
}

/** A binary32 value: its bits (`0x3dcccccd`) and exact value. */
export interface F32View {
  readonly bits: string;
  readonly value: ExactValue;
}

/** A catalog cvt and the registers that reproduce one of its results (`ptxf eval` takes them). */
export interface CvtCall {
  readonly form: string;
  /** The source registers, hex of each register's width, lower case. */
  readonly registers: Readonly<Partial<Record<SourceName, string>>>;
  /** The form's element this is (0: the first line of its Semantics block, from a). */
  readonly element: number;
  /** The destination register the cvt writes (hex of its width). */
  readonly d: string;
}

export interface QuantizedElement {
  readonly index: number;
  readonly input: F32View;
  /** The binary32 value the element cvt converts (x × 2^−e, or x ÷ the NVFP4 divisor). */
  readonly scaled: F32View;
  readonly cvt: CvtCall;
  /** The element as stored in the element format (bits hex of its width). */
  readonly stored: BitsView;
  /** stored × the block's dequantization factor, exact. */
  readonly decoded: ExactValue;
  /** Null where the element is NaN. */
  readonly error: ElementError | null;
  readonly flags: {
    /** .satfinite clamped it to ±MAX_NORM. */
    readonly saturated: boolean;
    /** A nonzero input stored as zero. */
    readonly flushedToZero: boolean;
    /** Stored as NaN. */
    readonly nan: boolean;
  };
}

export interface BlockScale {
  /** UE8M0 (MX) or UE4M3 (NVFP4: the e4m3 pattern, sign bit 0). */
  readonly format: 'ue8m0' | 'ue4m3';
  /** `0x7f`. */
  readonly bits: string;
  readonly value: ExactValue;
  /** MX: e, the scale being 2^e; null for NVFP4. */
  readonly exponent: number | null;
  /** The scale cvt clamped its result to the largest finite value (.satfinite). */
  readonly saturated: boolean;
  /** The cvt the scale comes from (ocp: the one reading floor(log2 amax)). */
  readonly cvt: CvtCall;
}

export interface GlobalScale {
  readonly bits: string;
  readonly value: ExactValue;
  /** What was divided by 2688: the given tensorAmax, or the block's amax. */
  readonly from: 'tensor-amax' | 'block-amax';
  readonly dividend: F32View;
  /** The division gave zero, and the global scale is 1.0 instead. */
  readonly zeroReplaced: boolean;
}

export interface BlockQuantization {
  readonly ok: true;
  readonly scheme: BlockScheme;
  readonly scaleRule: ScaleRule;
  readonly element: BlockElementFormat;
  readonly blockSize: 16 | 32;
  readonly rounding: ElementRounding;
  readonly amax: F32View & { readonly index: number };
  readonly scale: BlockScale;
  /** NVFP4's per-tensor scale; null for MX. */
  readonly globalScale: GlobalScale | null;
  /** What each stored element is multiplied by to decode it (2^e; NVFP4: scale × global). */
  readonly dequantizeFactor: ExactValue;
  readonly program: PtxProgram;
  /** The catalog cvt forms the program uses, with the least target and PTX ISA of each. */
  readonly cvtForms: readonly { form: string; minTarget: string; minPtx: string }[];
  readonly elements: readonly QuantizedElement[];
  readonly summary: BlockErrorSummary;
  readonly decisions: readonly BlockScaleDecisionId[];
  /** The documented cvt decisions (src/engine/decisions.ts) the conversions relied on. */
  readonly cvtDecisions: readonly DecisionId[];
}

export type BlockScaleResult = BlockQuantization | BlockScaleError;
