import type { Comparison } from '../engine/what-if/compare.ts';
import type { CvtComparison } from '../engine/what-if/cvt-compare.ts';
import { variantFor } from './variant-text.ts';
import type { HistoryIntent } from './store.ts';
import { DEFAULT_STATE } from './url-codec.ts';

/**
 * What-if: the variant B compared with the instruction A on the same operand values, and the
 * comparison of the two, recomputed on every edit (compare-on-edit.ts).
 */
export interface CompareSlice {
  /** A form's canonical text or 'unfused'; null when not comparing (in the URL as `vs=`). */
  vs: string | null;
  comparison: Comparison | null;
  /** The comparison of a cvt A with a cvt B (cvt-compare.ts), else null. */
  cvtComparison: CvtComparison | null;
  /** Why the comparison could not be computed (an engine error), else null. */
  compareError: string | null;
  /** Compare with a form (as typed: any spelling the parser reads) or 'unfused'; null stops. */
  setVs: (vs: string | null, history?: 'push' | 'replace') => void;
  setComparison: (
    comparison: Comparison | null,
    error?: string | null,
    cvtComparison?: CvtComparison | null,
  ) => void;
}

/** What this slice writes: its own fields, and how the URL records a change of B. */
type Written = Partial<CompareSlice & { historyIntent: HistoryIntent }>;
type Set = (partial: Written | ((s: CompareSlice & { instr: string }) => Written)) => void;

export const compareSlice = (set: Set): CompareSlice => ({
  vs: DEFAULT_STATE.vs,
  comparison: null,
  cvtComparison: null,
  compareError: null,
  // A pick gets its own history entry, as choosing the instruction does; further keystrokes of
  // the same typing replace it.
  setVs: (text, history = 'push') =>
    set((s) => {
      // Only a variant of A's kind: a cvt beside a cvt, the arithmetic beside the arithmetic.
      if (text === null) return s.vs === null ? {} : { vs: null, historyIntent: history };
      const variant = variantFor(s.instr, text);
      return 'error' in variant || variant.vs === s.vs
        ? {}
        : { vs: variant.vs, historyIntent: history };
    }),
  setComparison: (comparison, error = null, cvtComparison = null) =>
    set({ comparison, compareError: error, cvtComparison }),
});
