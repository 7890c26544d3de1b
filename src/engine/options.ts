import type { ApproxTableKey, MeasuredTable } from './ops/approx.ts';
import type { TininessReading } from './nvidia-rules.ts';

/** Modes go in as arguments: everything the engine may be asked to read differently. */
export interface EngineOptions {
  /** When .ftz judges a result tiny (decision 'ftz-after-rounding'). */
  readonly ftzTininess: TininessReading;
  /**
   * The 16-bit OOB-NaN pattern (decision 'oob-nan-pattern'): .oob tests a and b for it (either
   * sign), and a lane marked OOB-NaN holds it.
   */
  readonly oobNanBits: number;
  /** Measured tanh.approx / ex2.approx results that replace the model (per target, by the caller). */
  readonly approxTables?: Partial<Record<ApproxTableKey, MeasuredTable>>;
  /**
   * The GPU target (`sm_80`, `sm_90a`, …) a matrix form (mma, wgmma) is evaluated for: a tensor
   * core's result is its architecture's model (tensor-cores.md). Absent: sm_90
   * (DEFAULT_EVAL_TARGET, the page's and `ptxf eval`'s default), under decision
   * mma-default-target. A target no published model covers (before sm_70, sm_88) is an
   * EngineError with code `target`. The other instructions compute the same on every target.
   */
  readonly target?: string;
}

export const DEFAULT_ENGINE_OPTIONS: EngineOptions = {
  ftzTininess: 'after-rounding',
  /** Measured on sm_90 (hw/captures/sm_90): 0x7FF7 and 0xFFF7 in a or b zero an .oob lane. */
  oobNanBits: 0x7ff7,
};

export function resolveOptions(options?: Partial<EngineOptions>): EngineOptions {
  return { ...DEFAULT_ENGINE_OPTIONS, ...options };
}
