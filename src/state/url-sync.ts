import { decodeUrl, encodeUrl } from './url-codec.ts';
import { urlStateOf, useStore } from './store.ts';

/** Edits within this quiet period share one replaceState (browsers throttle floods of them). */
const REPLACE_DEBOUNCE_MS = 150;

/**
 * Keeps the address bar and the store in step: loads the URL on start (reporting what it
 * ignored), writes edits with replaceState and deliberate picks with pushState, and restores
 * the state on back/forward.
 */
export function startUrlSync(win: Window = window): () => void {
  const load = (intent: 'replace' | 'none') => {
    const { state, ignored, stored } = decodeUrl(win.location.search);
    useStore.getState().applyUrlState(state, intent);
    useStore.getState().setUrlNotices(ignored, stored);
  };
  load('replace');

  let timer: ReturnType<typeof setTimeout> | null = null;
  let written = win.location.search;
  const write = (mode: 'push' | 'replace') => {
    const query = encodeUrl(urlStateOf(useStore.getState()));
    if (query === written) return;
    written = query;
    const url = `${win.location.pathname}${query}${win.location.hash}`;
    if (mode === 'push') win.history.pushState(null, '', url);
    else win.history.replaceState(null, '', url);
  };
  // The first write normalises the loaded URL (canonical spelling, ignored parts dropped).
  write('replace');

  const unsubscribe = useStore.subscribe((s, prev) => {
    if (
      s.instr === prev.instr &&
      s.target === prev.target &&
      s.ptx === prev.ptx &&
      s.registers === prev.registers &&
      s.tab === prev.tab &&
      s.vs === prev.vs &&
      s.formatPage === prev.formatPage &&
      s.cornerFilters === prev.cornerFilters &&
      s.sweepRange === prev.sweepRange &&
      s.blockSettings === prev.blockSettings
    ) {
      return;
    }
    if (s.historyIntent === 'none') {
      written = encodeUrl(urlStateOf(s));
      return;
    }
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (s.historyIntent === 'push') write('push');
    else timer = setTimeout(() => write('replace'), REPLACE_DEBOUNCE_MS);
  });

  const onPop = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    load('none');
    written = win.location.search;
  };
  win.addEventListener('popstate', onPop);
  return () => {
    unsubscribe();
    win.removeEventListener('popstate', onPop);
    if (timer !== null) clearTimeout(timer);
  };
}

/** The shareable address of the current state. */
export function shareUrl(win: Window = window): string {
  return `${win.location.origin}${win.location.pathname}${encodeUrl(urlStateOf(useStore.getState()))}`;
}
