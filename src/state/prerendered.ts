import type { PlaygroundState } from './store.ts';

/**
 * What the prerendered page (index.html, built by src/build/prerender.ts) shows is named by one
 * string, the default state's share-link query (src/prerender.tsx writes it). The page hydrates
 * the prerendered HTML only where its own first render would be the same — the same state, with
 * no notices about the link and the theme the system's; otherwise (a share link, a saved theme)
 * it renders afresh over it.
 *
 * `linkQuery` is the state's own query where the page was opened from a link (read by the codec,
 * url-sync.ts), and null where it was opened without one: then the state is the store's first,
 * the very state the build rendered, and no codec is needed to say so.
 */
export function rendersAsPrerendered(
  s: PlaygroundState,
  key: string | undefined,
  linkQuery: string | null,
): boolean {
  return (
    key !== undefined &&
    (linkQuery === null || key === linkQuery) &&
    s.urlNotices.length === 0 &&
    s.urlStored.length === 0 &&
    s.theme === 'system'
  );
}
