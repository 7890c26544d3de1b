import type { Plugin } from 'vite';

/**
 * The built site's Content-Security-Policy: scripts, styles, workers and fetches only from the
 * page's own origin, no inline script or style, no eval, nothing may frame the page; images
 * (the favicon from public/) from the page's own origin only. Dev mode is left alone: React
 * refresh injects an inline script there.
 */
export const CSP_DIRECTIVES: Readonly<Record<string, string>> = {
  'default-src': "'self'",
  'script-src': "'self'",
  'style-src': "'self'",
  'img-src': "'self'",
  'connect-src': "'self'",
  'worker-src': "'self'",
  'object-src': "'none'",
  'base-uri': "'none'",
  'form-action': "'none'",
  'frame-ancestors': "'none'",
};

/** Directives a browser ignores (and warns about) in a `<meta>` policy: header only. */
const HEADER_ONLY = new Set(['frame-ancestors']);

function policy(include: (directive: string) => boolean): string {
  return Object.entries(CSP_DIRECTIVES)
    .filter(([directive]) => include(directive))
    .map(([directive, sources]) => `${directive} ${sources}`)
    .join('; ');
}

/** The full policy, for the HTTP header (`vite preview`, or a host that can set headers). */
export const CSP_HEADER = policy(() => true);

/** The policy the page carries itself, so it holds on any static host. */
export const CSP_META = policy((d) => !HEADER_ONLY.has(d));

/** Build-only plugin: puts the policy in a `<meta http-equiv>` first thing in `<head>`. */
export function contentSecurityPolicy(): Plugin {
  return {
    name: 'ptxf-content-security-policy',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: () => [
        {
          tag: 'meta',
          attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP_META },
          injectTo: 'head-prepend',
        },
      ],
    },
  };
}
