import type { ApproxTableKey, MeasuredTable } from './ops/approx.ts';

/** Modes go in as arguments: everything the engine may be asked to read differently. */
export interface EngineOptions {
  /** When .ftz judges a result subnormal (decision 'ftz-after-rounding'). */
  readonly ftzTininess: 'after-rounding' | 'before-rounding';
  /** 16-bit pattern a lane marked OOB-NaN holds (decision 'oob-nan-pattern'). */
  readonly oobNanBits: number;
  /** Measured tanh.approx / ex2.approx results that replace the model (per target, by the caller). */
  readonly approxTables?: Partial<Record<ApproxTableKey, MeasuredTable>>;
}

export const DEFAULT_ENGINE_OPTIONS: EngineOptions = {
  ftzTininess: 'after-rounding',
  oobNanBits: 0x7fff,
};

export function resolveOptions(options?: Partial<EngineOptions>): EngineOptions {
  return { ...DEFAULT_ENGINE_OPTIONS, ...options };
}
