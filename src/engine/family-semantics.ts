/**
 * Which families' semantics this JavaScript realm has (the page, the worker and a Node process
 * each have their own), and how one is loaded: `loadFamily` imports a family's module
 * dynamically — one chunk of the page's build per family — and keeps it here, where
 * `evaluate()` (pipeline.ts) finds it. The page loads a family before it evaluates a form of it
 * (state/evaluate-on-edit.ts); the CLI, the worker, hw/, bench/ and the tests import
 * all-families.ts once, which provides every family at once, statically.
 */
import { EngineError } from './engine-error.ts';
import type {
  FamilySemantics,
  FamilySemanticsMap,
  FamilySet,
  SemanticsFamily,
} from './semantics/family.ts';

const loaded: { -readonly [F in SemanticsFamily]?: FamilySemanticsMap[F] } = {};
const loading = new Map<SemanticsFamily, Promise<FamilySemantics>>();
/** Families whose last import failed (the page offline, a chunk gone after a deploy). */
const failed = new Set<SemanticsFamily>();

/** Each family's module, imported once it is first needed (family-chunks/: one chunk each). */
const IMPORTS: { readonly [F in SemanticsFamily]: () => Promise<FamilySemanticsMap[F]> } = {
  arithmetic: () => import('./family-chunks/arithmetic.ts').then((m) => m.semantics),
  convert: () => import('./family-chunks/convert.ts').then((m) => m.semantics),
  'tensor-core': () => import('./family-chunks/tensor-core.ts').then((m) => m.semantics),
};

/** Keep a family's semantics that were imported statically. */
export function provideFamily(semantics: FamilySemantics): void {
  (loaded as Record<SemanticsFamily, FamilySemantics>)[semantics.family] = semantics;
}

/** The families loaded so far (what evaluate() uses unless it is given others). */
export function loadedFamilies(): FamilySet {
  return loaded;
}

export function isFamilyLoaded(family: SemanticsFamily): boolean {
  return loaded[family] !== undefined;
}

/** The family's last import failed (and none has succeeded since). */
export function familyLoadFailed(family: SemanticsFamily): boolean {
  return failed.has(family);
}

/** The family's semantics, imported the first time they are asked for. */
export function loadFamily<F extends SemanticsFamily>(family: F): Promise<FamilySemanticsMap[F]> {
  const have = loaded[family];
  if (have) return Promise.resolve(have);
  let pending = loading.get(family);
  if (!pending) {
    pending = IMPORTS[family]().then(
      (semantics) => {
        provideFamily(semantics);
        failed.delete(family);
        loading.delete(family);
        return semantics;
      },
      (error: unknown) => {
        // Noted; a later call imports it again.
        failed.add(family);
        loading.delete(family);
        throw error;
      },
    );
    loading.set(family, pending);
  }
  return pending as Promise<FamilySemanticsMap[F]>;
}

/** The family's semantics from the set, or an EngineError (code `family`) naming it. */
export function familyFrom<F extends SemanticsFamily>(
  families: FamilySet,
  family: F,
): FamilySemanticsMap[F] {
  const semantics = families[family];
  if (!semantics)
    throw new EngineError(
      'family',
      `the ${family} semantics are not loaded: loadFamily('${family}') before evaluating a form of that family`,
    );
  return semantics as FamilySemanticsMap[F];
}
