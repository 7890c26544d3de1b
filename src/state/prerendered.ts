import { encodeUrl } from './url-codec.ts';
import { urlStateOf, type PlaygroundState } from './store.ts';

/**
 * What the prerendered page (index.html, built by src/build/prerender.ts) shows, as one string:
 * the state's share-link query. The page hydrates the prerendered HTML only where its own first
 * render would be the same — the same state, with no notices about the link and the theme the
 * system's; otherwise (a share link, a saved theme) it renders afresh over it.
 */
export function prerenderedStateKey(s: PlaygroundState): string {
  return encodeUrl(urlStateOf(s));
}

/** The state now renders exactly what `key` (the prerendered page's) was rendered from. */
export function rendersAsPrerendered(s: PlaygroundState, key: string | undefined): boolean {
  return (
    key !== undefined &&
    key === prerenderedStateKey(s) &&
    s.urlNotices.length === 0 &&
    s.urlStored.length === 0 &&
    s.theme === 'system'
  );
}
