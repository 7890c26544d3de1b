import type { CaseOutcome } from '../engine/analysis/outcomes.ts';

/**
 * The open panel's settings as the store holds them: the corner-case table's filters and a
 * sweep's range. How a share link writes and reads them is panel-url.ts.
 */

/** The result classes the corner-case table filters by (a NaN is a NaN, quiet or signalling). */
export const RESULT_CLASSES = ['nan', 'infinity', 'zero', 'subnormal', 'normal'] as const;
export type ResultClass = (typeof RESULT_CLASSES)[number];

export interface CornerFilters {
  /** The search box's text, as typed. */
  readonly query: string;
  readonly resultClass: ResultClass | null;
  readonly happened: CaseOutcome | null;
}

export const NO_CORNER_FILTERS: CornerFilters = { query: '', resultClass: null, happened: null };

export function hasCornerFilters(f: CornerFilters): boolean {
  return f.query !== '' || f.resultClass !== null || f.happened !== null;
}

/** A range sweep's inputs: `count` values evenly spaced from `from` to `to`. */
export interface SweepRange {
  readonly from: number;
  readonly to: number;
  readonly count: number;
}
