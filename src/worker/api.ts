import type { EvalResult, FloatClass } from '../engine/trace.ts';

/**
 * The contract between the UI and the engine worker. Only plain data crosses it (structured
 * clone): bit patterns as numbers, traces as the JSON records of engine/trace.ts.
 */

export type OperandKey = 'a' | 'b' | 'c';

export interface EvaluateRequest {
  readonly form: string;
  readonly a: number;
  readonly b?: number;
  readonly c?: number;
  /** OOB-NaN marks per operand and lane. */
  readonly oob?: Partial<Record<OperandKey, readonly [boolean, boolean]>>;
}

export type EvaluateAnswer =
  | { readonly ok: true; readonly result: EvalResult }
  | { readonly ok: false; readonly error: string };

/** One special input value with its name, as corner-case tables list them. */
export interface SpecialValue {
  readonly name: string;
  readonly bits: number;
}

export interface CornerRow {
  /** Operand bits (register patterns: x2 forms hold the same value in both lanes). */
  readonly a: number;
  readonly b?: number;
  readonly c?: number;
  readonly names: Readonly<Partial<Record<OperandKey, string>>>;
  /** Each operand's (lane) value: class, shortest decimal, and as a double for sorting. */
  readonly inputs: Readonly<Partial<Record<OperandKey, CornerValue>>>;
  readonly d: number;
  /** Lane 0 result: class and shortest decimal. */
  readonly dClass: string;
  readonly dValue: string;
  /** Lane 0 result as a double (NaN for NaN), for sorting. */
  readonly dNumber: number;
}

/** One value of a corner-case row, described for display. */
export interface CornerValue {
  readonly class: FloatClass;
  readonly value: string;
  readonly number: number;
}

export interface CornerTable {
  readonly form: string;
  readonly rows: readonly CornerRow[];
}

/** The engine's answers for one line of a spec corner-case table (tanh/ex2). */
export interface SpecCornerCheck {
  readonly title: string;
  readonly input: string;
  readonly inputBits: number;
  readonly expected: string;
  readonly engineBits: number;
  readonly engineValue: string;
  readonly agrees: boolean;
}

export interface SweepProgress {
  readonly done: number;
  readonly total: number;
}

/** Error of an approximate op's model over every 16-bit input, in units of the spec's bound. */
export interface ApproxSweep {
  readonly form: string;
  readonly boundKind: 'absolute' | 'relative';
  readonly boundLog2: number;
  /**
   * Per input bit pattern (index = lane-0 bits): model error / bound; NaN where not finite and
   * where the input is not scored (see `unscored`).
   */
  readonly ratio: Float64Array;
  /**
   * 1 where a relative bound is not scored: the exact value is below the smallest normal (a
   * subnormal result has fewer significant bits than the bound asks for, so usually no value
   * meets it; .ftz forms flush such results to zero, as the spec says). Absolute bounds score
   * every finite input.
   */
  readonly unscored: Uint8Array;
  /** Input value per pattern (for the x axis), NaN for NaN inputs. */
  readonly x: Float64Array;
  readonly worst: { readonly input: number; readonly ratio: number };
  readonly cancelled: boolean;
}

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
