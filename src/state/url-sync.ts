import { useStore, type PlaygroundState } from './store.ts';
import type { UrlLink } from './url-link.ts';

/** Edits within this quiet period share one replaceState (browsers throttle floods of them). */
const REPLACE_DEBOUNCE_MS = 150;

/** The link codec (url-link.ts: the codec, the catalog, the operand readers), a chunk of its own. */
export function loadUrlLink(): Promise<UrlLink> {
  return import('./url-link.ts').then((m) => m.URL_LINK);
}

/** What the link on start turned out to be, once it is read. */
export interface UrlSync {
  /**
   * Resolves once the state is the link's: at once (null) where the page was opened without a
   * query string — the store's first state is that page's — else with the codec that read it
   * (null where the codec could not load: the page says so and keeps the default state).
   */
  readonly linkRead: Promise<UrlLink | null>;
  readonly stop: () => void;
}

/**
 * Keeps the address bar and the store in step: loads the URL on start (reporting what it
 * ignored), writes edits with replaceState and deliberate picks with pushState, and restores
 * the state on back/forward.
 *
 * The codec loads on first use (`loadLink`): on start only where there is a query string to read,
 * otherwise with the first write or back/forward. Until it is there, what needs it waits in a
 * queue, in order, each write with the state it was asked for; once it is there, everything runs
 * at once, as if it had always been.
 */
export function startUrlSync(win: Window = window, loadLink = loadUrlLink): UrlSync {
  let link: UrlLink | null = null;
  let loading: Promise<UrlLink> | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  let waiting = 0;
  /** Runs `job` with the codec: now where it is loaded and nothing waits, else after the rest. */
  const withLink = (job: (l: UrlLink) => void): Promise<void> => {
    if (link && waiting === 0) {
      job(link);
      return Promise.resolve();
    }
    waiting++;
    // The fetch starts now; the job runs after those before it.
    const loaded = (loading ??= loadLink().then((l) => (link = l)));
    const done = queue
      .then(() => loaded)
      .then(job)
      .finally(() => waiting--);
    // A chunk that failed to load is fetched again by the next job that needs it.
    queue = done.catch(() => {
      if (link === null) loading = null;
    });
    return done;
  };
  /** A write or a read nobody waits for: a codec that did not load is said in the console. */
  const later = (job: (l: UrlLink) => void) =>
    void withLink(job).catch((error: unknown) => console.error('url sync:', error));

  const load = (l: UrlLink, search: string, intent: 'replace' | 'none') => {
    const { state, ignored, stored } = l.read(search);
    useStore.getState().applyUrlState(state, intent);
    useStore.getState().setUrlNotices(ignored, stored);
  };

  let timer: ReturnType<typeof setTimeout> | null = null;
  let written = win.location.search;
  const write = (l: UrlLink, s: PlaygroundState, mode: 'push' | 'replace') => {
    const query = l.queryOf(s);
    if (query === written) return;
    written = query;
    const url = `${win.location.pathname}${query}${win.location.hash}`;
    if (mode === 'push') win.history.pushState(null, '', url);
    else win.history.replaceState(null, '', url);
  };

  let stopped = false;
  let unsubscribe = () => {};
  const follow = () => {
    if (stopped) return;
    unsubscribe = useStore.subscribe((s, prev) => {
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
        later((l) => (written = l.queryOf(s)));
        return;
      }
      if (timer !== null) clearTimeout(timer);
      timer = null;
      if (s.historyIntent === 'push') later((l) => write(l, s, 'push'));
      else
        timer = setTimeout(() => {
          const now = useStore.getState();
          later((l) => write(l, now, 'replace'));
        }, REPLACE_DEBOUNCE_MS);
    });
  };

  // A page without a query string is the store's first state, and its address is that state's
  // link as it is: nothing to read, nothing to write.
  const start = win.location.search;
  const linkRead: Promise<UrlLink | null> =
    start === ''
      ? Promise.resolve(null)
      : withLink((l) => {
          load(l, start, 'replace');
          // The first write normalises the loaded URL (canonical spelling, ignored parts dropped).
          write(l, useStore.getState(), 'replace');
        }).then(
          () => link,
          () => {
            useStore
              .getState()
              .setUrlNotices([
                'all of it: the code that reads links could not be fetched (reloading the page tries again); showing the default instruction',
              ]);
            return null;
          },
        );
  // Edits are followed from the link's state on (where there is none to read, at once).
  if (start === '') follow();
  else void linkRead.then(follow);

  const onPop = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const search = win.location.search;
    later((l) => {
      load(l, search, 'none');
      written = search;
    });
  };
  win.addEventListener('popstate', onPop);
  return {
    linkRead,
    stop: () => {
      stopped = true;
      unsubscribe();
      win.removeEventListener('popstate', onPop);
      if (timer !== null) clearTimeout(timer);
    },
  };
}

/** The shareable address of the current state (once the codec is loaded). */
export async function shareUrl(win: Window = window): Promise<string> {
  const { queryOf } = await loadUrlLink();
  return `${win.location.origin}${win.location.pathname}${queryOf(useStore.getState())}`;
}
