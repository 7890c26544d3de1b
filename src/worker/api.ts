/**
 * The contract between the UI and the engine worker. Only plain data crosses it (structured
 * clone): bit patterns as numbers, traces as the JSON records of engine/trace.ts, tables and
 * sweeps as the engine's analysis records (engine/analysis/).
 */
import type {
  ApproxSweep,
  CornerTable,
  EngineOptions,
  EvalResult,
  InputOperand,
  SpecCornerCheck,
  SweepProgress,
} from '../engine/index.ts';

export type {
  ApproxSweep,
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
  cancelSweep(id: number): void;
  /** Test hooks: make the worker fail (throw outside any call) or stop answering. */
  crash(): void;
  hang(ms: number): void;
}
