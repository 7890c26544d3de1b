/**
 * The contract between the page and the engine, one for every instruction. Only plain data crosses
 * it (structured clone): registers as lower-case hex of their widths (exact at 64 bits), results
 * and traces as the records of engine/steps.ts, tables and sweeps as the analyses'
 * (engine/analysis/). The page runs `evaluate` inline for each edit (evaluate-requests.ts) and
 * the rest in the worker (engine-api.ts); both hosts answer through this one object shape.
 */
import type { SourceName } from '../catalog/instruction.ts';
import type { CornerTable, SpecCornerCheck, Sweep, SweepInputs } from '../engine/analysis/index.ts';
import type {
  BlockComparison,
  BlockComparisonRequest,
  BlockScaleError,
} from '../engine/block-scale/index.ts';
import type { EngineOptions } from '../engine/options.ts';
import type { EvalResult } from '../engine/steps.ts';

export type {
  CornerRow,
  CornerTable,
  CornerValue,
  SpecCornerCheck,
  Sweep,
  SweepBucket,
  SweepInputs,
  SweepProgress,
} from '../engine/analysis/index.ts';

/** Measured tanh/ex2 results to use instead of the model (the target's, when it has some). */
export type ApproxTables = EngineOptions['approxTables'];

/** Registers by the spec's names, each `0x…` hex of the register's width. */
export type HexRegisters = Readonly<Partial<Record<SourceName, string>>>;

export interface EvaluateRequest {
  /** The form's canonical text. */
  readonly form: string;
  readonly registers: HexRegisters;
  readonly approxTables?: ApproxTables;
  /** A matrix form's target: its tensor core's model (EngineOptions.target). */
  readonly target?: string;
}

export type EvaluateAnswer =
  | { readonly ok: true; readonly result: EvalResult }
  | { readonly ok: false; readonly error: string };

export interface SweepRequest {
  readonly form: string;
  readonly inputs: SweepInputs;
  /** .rs: the rbits register, `0x…` (zero when left out). */
  readonly rbits?: string;
  readonly approxTables?: ApproxTables;
}

export interface EngineApi {
  ping(): string;
  /** The form on the registers, with its trace; an answer with the reason where there is none. */
  evaluate(request: EvaluateRequest): EvaluateAnswer;
  /**
   * The form over its corner cases (the model's results), each case marked by what happened; a
   * tensor core's on `target` (its architecture's model).
   */
  cornerTable(form: string, target?: string): CornerTable;
  /** The spec's own corner-case tables (tanh, ex2) beside the engine's answers. */
  specCornerChecks(form: string): readonly SpecCornerCheck[];
  /**
   * A single-input form (cvt, tanh, ex2, neg, abs) over every pattern of a source of 16 bits or
   * fewer, or over up to 2^20 .f32/.f64 values; reports progress, and stops at its next chunk
   * when `cancelSweep(id)` is called.
   */
  sweep(
    id: number,
    request: SweepRequest,
    onProgress: (p: { readonly done: number; readonly total: number }) => void,
  ): Promise<Sweep>;
  /** Stop the sweep `id` at its next chunk. */
  cancelSweep(id: number): void;
  /** A block under every block-scaling scheme and rule, and as f32/bf16 (the block panel). */
  compareBlock(request: BlockComparisonRequest): BlockComparison | BlockScaleError;
}
