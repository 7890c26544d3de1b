/**
 * The contract between the UI and the engine worker. Only plain data crosses it (structured
 * clone): bit patterns as numbers, traces as the JSON records of engine/trace.ts, tables and
 * sweeps as the engine's analysis records (engine/analysis/).
 */
import type { CvtSourceName } from '../catalog/index.ts';
import type {
  ApproxSweep,
  CornerTable,
  EngineOptions,
  CvtCornerTable,
  CvtEvalResult,
  CvtSweep,
  CvtSweepRequest,
  EvalResult,
  InputOperand,
  SpecCornerCheck,
  SweepProgress,
} from '../engine/index.ts';

export type {
  ApproxSweep,
  CvtCornerCase,
  CvtCornerTable,
  CvtSweep,
  CvtSweepRequest,
  CornerRow,
  CornerTable,
  CornerValue,
  SpecCornerCheck,
  SweepProgress,
} from '../engine/index.ts';

export type OperandKey = InputOperand;

export interface EvaluateRequest {
  readonly form: string;
  readonly a: number;
  readonly b?: number;
  readonly c?: number;
  /** OOB-NaN marks per operand and lane. */
  readonly oob?: Partial<Record<OperandKey, readonly [boolean, boolean]>>;
  /** Measured tanh/ex2 results to use instead of the model (the target's, when it has some). */
  readonly approxTables?: EngineOptions['approxTables'];
}

export type EvaluateAnswer =
  | { readonly ok: true; readonly result: EvalResult }
  | { readonly ok: false; readonly error: string };

/**
 * One cvt evaluation: the form and its source registers by the spec's names, each as `0x…` hex
 * of the register's width (a 64-bit register stays exact: no JavaScript number holds it).
 */
export interface CvtEvaluateRequest {
  readonly form: string;
  readonly registers: Readonly<Partial<Record<CvtSourceName, string>>>;
}

export type CvtEvaluateAnswer =
  | { readonly ok: true; readonly result: CvtEvalResult }
  | { readonly ok: false; readonly error: string };

export interface EngineApi {
  ping(): string;
  evaluate(request: EvaluateRequest): EvaluateAnswer;
  cornerTable(form: string): CornerTable;
  specCornerChecks(form: string): readonly SpecCornerCheck[];
  /** Sweep all 65,536 inputs; reports progress; stops early when `cancelSweep(id)` is called. */
  approxSweep(
    id: number,
    form: string,
    onProgress: (p: SweepProgress) => void,
  ): Promise<ApproxSweep>;
  /** Stop the sweep `id` (an error sweep or a cvt sweep) at its next chunk. */
  cancelSweep(id: number): void;
  /** cvt: the traced conversion of every element. */
  evaluateCvt(request: CvtEvaluateRequest): CvtEvaluateAnswer;
  /** cvt: the form over its corner cases, each marked by what happened. */
  cvtCornerTable(form: string): CvtCornerTable;
  /**
   * cvt over every pattern of a 16-bit source or up to 2^20 .f32/.f64 values; reports progress;
   * stops early when `cancelSweep(id)` is called.
   */
  cvtSweep(
    id: number,
    request: CvtSweepRequest,
    onProgress: (p: SweepProgress) => void,
  ): Promise<CvtSweep>;
}
