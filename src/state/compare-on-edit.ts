import { findForm } from '../catalog/all-forms.ts';
import { familyLoadFailed, isFamilyLoaded, loadFamily } from '../engine/family-semantics.ts';
import { semanticsFamilyOf, type SemanticsFamily } from '../engine/semantics/family.ts';
import { compareWith, parseVariant, type Comparison } from '../engine/what-if/comparison.ts';
import { matrixMismatch } from '../engine/what-if/matrix-fit.ts';
import { matrixMismatchText, variantErrorText } from '../present/variant-words.ts';
import { formRegisters } from './registers.ts';
import { useStore, type PlaygroundState } from './store.ts';

/**
 * Compare mode: after every edit of the instruction, the registers or the variant, the
 * comparison of A with B (engine/what-if/comparison.ts) is recomputed on the main thread, as
 * single evaluations are (evaluate-on-edit.ts): it is two traced evaluations (three for an
 * unfused fma), well under a millisecond, so both results are painted in the frame that answers
 * the edit. A tensor-core form beside another of the same k: both are evaluated on the page's
 * target (its architecture's model), so the target is an edit too.
 */

interface Computed {
  readonly comparison: Comparison | null;
  readonly compareError: string | null;
}

const none = (compareError: string | null = null): Computed => ({
  comparison: null,
  compareError,
});

/** The comparison for the store's state now (null when not comparing), or why there is none. */
export function comparisonFor(s: PlaygroundState): Computed {
  if (s.vs === null) return none();
  const form = findForm(s.instr);
  if (!form) return none(`${s.instr} is not a catalog form`);
  const variant = parseVariant(s.vs);
  if ('error' in variant) return none(variantErrorText(variant.error));
  if (variant.kind === 'unfused' && form.matrix)
    return none('unfused: the mul-then-add sequence of an fma; a tensor-core form has none');
  const mismatch = variant.kind === 'form' ? matrixMismatch(form, variant.form) : null;
  if (mismatch && variant.kind === 'form')
    return none(matrixMismatchText(mismatch, variant.form.text));
  const matrix = form.matrix || (variant.kind === 'form' && variant.form.matrix);
  try {
    return {
      comparison: compareWith(
        form,
        formRegisters(form, s.registers),
        variant,
        matrix ? { target: s.target } : undefined,
      ),
      compareError: null,
    };
  } catch (err) {
    return none(err instanceof Error ? err.message : String(err));
  }
}

/** The families A and B need whose semantics are not loaded yet (nor failed to load). */
function familiesToLoad(s: PlaygroundState): SemanticsFamily[] {
  if (s.vs === null) return [];
  const variant = parseVariant(s.vs);
  const forms = [findForm(s.instr), 'form' in variant ? variant.form : undefined];
  const needed = new Set(forms.flatMap((f) => (f ? [semanticsFamilyOf(f)] : [])));
  return [...needed].filter((f) => !isFamilyLoaded(f) && !familyLoadFailed(f));
}

/** Recompute the comparison whenever A, the registers or B change; returns the unsubscribe. */
export function startCompare(store: typeof useStore = useStore): () => void {
  const show = () => {
    const s = store.getState();
    const next = comparisonFor(s);
    if (next.comparison === null && s.comparison === null && next.compareError === s.compareError)
      return;
    s.setComparison(next.comparison, next.compareError);
  };
  const run = () => {
    // B may be of another family than A: its semantics load first.
    const toLoad = familiesToLoad(store.getState());
    if (toLoad.length > 0) void Promise.allSettled(toLoad.map((f) => loadFamily(f))).then(show);
    else show();
  };
  run();
  return store.subscribe((s, prev) => {
    if (
      s.instr !== prev.instr ||
      s.registers !== prev.registers ||
      s.vs !== prev.vs ||
      (s.target !== prev.target && s.vs !== null)
    )
      run();
  });
}
