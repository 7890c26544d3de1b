/**
 * While a share link is being read (its codec is a chunk of its own: state/url-sync.ts), the page
 * on screen is the one served, the default state's: `#root[data-link-pending]` dims it and hides
 * its result (styles.css), and `aria-busy` tells assistive technology it is not the answer yet.
 * The mark is removed once the link's own page has been rendered (main.tsx).
 */
export function markLinkPending(root: HTMLElement): () => void {
  root.setAttribute('data-link-pending', '');
  root.setAttribute('aria-busy', 'true');
  return () => {
    root.removeAttribute('data-link-pending');
    root.removeAttribute('aria-busy');
  };
}
