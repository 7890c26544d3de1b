import { useStore } from './store.ts';

/**
 * Compare mode's code — the what-if engine, its parser of variants and its words — loads with the
 * first state that compares (`vs` set by a link or the picker): the default page compares
 * nothing. Once loaded, compare-on-edit.ts recomputes the comparison inline after every edit; until
 * then the store holds no comparison and the compare panel shows its pending frame.
 */
export function startCompareWhenAsked(store: typeof useStore = useStore): () => void {
  let stopCompare: (() => void) | null = null;
  let stopped = false;
  let unsubscribe: (() => void) | null = null;
  const load = () => {
    unsubscribe?.();
    void import('./compare-on-edit.ts').then(({ startCompare }) => {
      if (!stopped) stopCompare = startCompare(store);
    });
  };
  if (store.getState().vs !== null) load();
  else
    unsubscribe = store.subscribe((s) => {
      if (s.vs !== null) load();
    });
  return () => {
    stopped = true;
    unsubscribe?.();
    stopCompare?.();
  };
}
