import { fileURLToPath } from 'node:url';
import { createServer, type Plugin } from 'vite';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The mount point of index.html with the text that stands in it until the app renders. */
const MOUNT = /<div id="root">[\s\S]*?<\/div>/;

const escapeAttribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * Build-only plugin: renders the default state's page (src/prerender.tsx: the same engine and
 * components as the browser's) to HTML and puts it in index.html's `#root`, so the page as
 * served shows the default instruction, its operands and its result in its first paint, before
 * any script has run. No script is inlined: the Content-Security-Policy stays as it is. The
 * modules load through a Vite server in SSR mode (TypeScript, JSX and CSS imports as in the
 * app); the dev server is left alone and renders on the client.
 */
export function prerenderDefaultState(): Plugin {
  return {
    name: 'ptxf-prerender-default-state',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        if (!MOUNT.test(html))
          throw new Error('index.html has no <div id="root"> to prerender into');
        const server = await createServer({
          root: ROOT,
          configFile: false,
          logLevel: 'error',
          appType: 'custom',
          server: { middlewareMode: true, hmr: false, ws: false },
          optimizeDeps: { noDiscovery: true, include: [] },
        });
        try {
          const entry = (await server.ssrLoadModule('/src/prerender.tsx')) as {
            prerenderDefaultState: () => Promise<{ html: string; state: string }>;
          };
          const page = await entry.prerenderDefaultState();
          return html.replace(
            MOUNT,
            () =>
              `<div id="root" data-prerendered="${escapeAttribute(page.state)}">${page.html}</div>`,
          );
        } finally {
          await server.close();
        }
      },
    },
  };
}
