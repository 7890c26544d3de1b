import { findForm } from '../catalog/index.ts';
import type { EvalInput } from '../engine/evaluate.ts';
import { compareWith, parseVariant } from '../engine/what-if/compare.ts';
import { useStore, type PlaygroundState } from './store.ts';

/**
 * Compare mode: after every edit of the instruction, the operands or the variant, the
 * comparison of A with B is recomputed on the main thread, as single evaluations are
 * (evaluate-on-edit.ts): it is two traced evaluations (three for an unfused fma), well under a
 * millisecond, so both results are painted in the frame that answers the edit.
 */

/** A's operands as the engine takes them: only those the form has. */
function inputOf(s: PlaygroundState): EvalInput | null {
  const form = findForm(s.instr);
  if (!form) return null;
  const has = (k: 'b' | 'c') => form.operands.some((o) => o.name === k);
  return {
    a: s.operands.a,
    ...(has('b') ? { b: s.operands.b } : {}),
    ...(has('c') ? { c: s.operands.c } : {}),
  };
}

/** The comparison for the store's state now (null when not comparing), or why there is none. */
export function comparisonFor(
  s: PlaygroundState,
): Pick<PlaygroundState, 'comparison' | 'compareError'> {
  if (s.vs === null) return { comparison: null, compareError: null };
  const input = inputOf(s);
  const variant = parseVariant(s.vs);
  if (!input) return { comparison: null, compareError: `${s.instr} is not a catalog form` };
  if ('error' in variant) return { comparison: null, compareError: variant.error };
  try {
    return { comparison: compareWith(s.instr, input, variant), compareError: null };
  } catch (err) {
    return { comparison: null, compareError: err instanceof Error ? err.message : String(err) };
  }
}

/** Recompute the comparison whenever A, the operands or B change; returns the unsubscribe. */
export function startCompare(store: typeof useStore = useStore): () => void {
  const run = () => {
    const s = store.getState();
    const next = comparisonFor(s);
    if (next.comparison === null && s.comparison === null && next.compareError === s.compareError)
      return;
    s.setComparison(next.comparison, next.compareError);
  };
  run();
  return store.subscribe((s, prev) => {
    if (s.instr !== prev.instr || s.operands !== prev.operands || s.vs !== prev.vs) run();
  });
}
