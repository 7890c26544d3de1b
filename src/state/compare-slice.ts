import { parseVariant, variantText, type Comparison } from '../engine/what-if/compare.ts';
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
  /** Why the comparison could not be computed (an engine error), else null. */
  compareError: string | null;
  /** Compare with a form (as typed: any spelling the parser reads) or 'unfused'; null stops. */
  setVs: (vs: string | null, history?: 'push' | 'replace') => void;
  setComparison: (comparison: Comparison | null, error?: string | null) => void;
}

/** What this slice writes: its own fields, and how the URL records a change of B. */
type Written = Partial<CompareSlice & { historyIntent: HistoryIntent }>;
type Set = (partial: Written | ((s: CompareSlice) => Written)) => void;

/** The canonical variant for `text` (as the share link reads it), or undefined for none. */
export function canonicalVariant(text: string | null): string | null | undefined {
  if (text === null) return null;
  const variant = parseVariant(text);
  return 'error' in variant ? undefined : variantText(variant);
}

export const compareSlice = (set: Set): CompareSlice => ({
  vs: DEFAULT_STATE.vs,
  comparison: null,
  compareError: null,
  // A pick gets its own history entry, as choosing the instruction does; further keystrokes of
  // the same typing replace it.
  setVs: (text, history = 'push') =>
    set((s) => {
      const vs = canonicalVariant(text);
      return vs === undefined || vs === s.vs ? {} : { vs, historyIntent: history };
    }),
  setComparison: (comparison, error = null) => set({ comparison, compareError: error }),
});
