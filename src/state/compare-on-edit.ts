import { findCvtForm, findForm, type CvtSourceName } from '../catalog/index.ts';
import type { EvalInput } from '../engine/evaluate.ts';
import { compareWith, parseVariant } from '../engine/what-if/compare.ts';
import { compareCvtWith, parseCvtVariant } from '../engine/what-if/cvt-compare.ts';
import { useStore, type PlaygroundState } from './store.ts';

/**
 * Compare mode: after every edit of the instruction, the operands or the variant, the
 * comparison of A with B is recomputed on the main thread, as single evaluations are
 * (evaluate-on-edit.ts): it is two traced evaluations (three for an unfused fma), well under a
 * millisecond, so both results are painted in the frame that answers the edit. A cvt A is
 * compared with a cvt B on its registers (cvt-compare.ts).
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

type Computed = Pick<PlaygroundState, 'comparison' | 'cvtComparison' | 'compareError'>;

const none = (compareError: string | null = null): Computed => ({
  comparison: null,
  cvtComparison: null,
  compareError,
});

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The comparison of a cvt A with the cvt B `vs`, or why there is none. */
function cvtComparisonFor(s: PlaygroundState, vs: string): Computed {
  const form = findCvtForm(s.instr)!;
  const variant = parseCvtVariant(vs);
  if ('error' in variant) return none(variant.error);
  try {
    // The registers the form reads (the store keeps every name).
    const input = { a: s.cvtRegisters.a } as Record<CvtSourceName, bigint>;
    for (const op of form.operands.slice(1))
      input[op.name as CvtSourceName] = s.cvtRegisters[op.name as CvtSourceName];
    return { ...none(), cvtComparison: compareCvtWith(form, input, variant.form) };
  } catch (err) {
    return none(messageOf(err));
  }
}

/** The comparison for the store's state now (null when not comparing), or why there is none. */
export function comparisonFor(s: PlaygroundState): Computed {
  if (s.vs === null) return none();
  if (findCvtForm(s.instr)) return cvtComparisonFor(s, s.vs);
  const input = inputOf(s);
  const variant = parseVariant(s.vs);
  if (!input) return none(`${s.instr} is not a catalog form`);
  if ('error' in variant) return none(variant.error);
  try {
    return { ...none(), comparison: compareWith(s.instr, input, variant) };
  } catch (err) {
    return none(messageOf(err));
  }
}

/** Recompute the comparison whenever A, the operands or B change; returns the unsubscribe. */
export function startCompare(store: typeof useStore = useStore): () => void {
  const run = () => {
    const s = store.getState();
    const next = comparisonFor(s);
    if (
      next.comparison === null &&
      next.cvtComparison === null &&
      s.comparison === null &&
      s.cvtComparison === null &&
      next.compareError === s.compareError
    )
      return;
    s.setComparison(next.comparison, next.compareError, next.cvtComparison);
  };
  run();
  return store.subscribe((s, prev) => {
    if (
      s.instr !== prev.instr ||
      s.operands !== prev.operands ||
      s.cvtRegisters !== prev.cvtRegisters ||
      s.vs !== prev.vs
    )
      run();
  });
}
