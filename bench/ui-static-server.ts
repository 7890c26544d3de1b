/**
 * A minimal static file server for the built app, so the UI benchmark needs no preview server:
 * serves one folder on 127.0.0.1 at a free port, uncompressed and uncached, and remembers which
 * paths were requested (the benchmark reads them to see which scripts a load really fetched).
 */
import { createServer, type Server } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export interface StaticServer {
  readonly origin: string;
  /** Site paths requested since the last `clearRequests()`, in arrival order (no leading '/'). */
  requests(): readonly string[];
  clearRequests(): void;
  close(): Promise<void>;
}

export async function serveStatic(rootDir: string): Promise<StaticServer> {
  const root = resolve(rootDir);
  let requested: string[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      const rel = urlPath === '/' ? 'index.html' : urlPath.replace(/^\/+/, '');
      requested.push(rel);
      const file = normalize(join(root, rel));
      // Never serve outside the folder (../ in a request).
      if (file !== root && !file.startsWith(root + sep)) {
        res.writeHead(403).end();
        return;
      }
      try {
        if (!(await stat(file)).isFile()) throw new Error('not a file');
        const body = await readFile(file);
        res.writeHead(200, {
          'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
          'content-length': body.length,
          'cache-control': 'no-store',
        });
        res.end(req.method === 'HEAD' ? undefined : body);
      } catch {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      }
    })();
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('server has no port');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    requests: () => [...requested],
    clearRequests: () => {
      requested = [];
    },
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
