/**
 * The pure parts of the UI benchmark (`bench/ui-bench.ts`): percentiles of latency samples, which
 * JavaScript the built `index.html` loads eagerly and how big it is gzipped, the same page without
 * its module scripts (the first render's floor), and the verdict of each figure against its target. Kept apart from the browser driving so tests can check them
 * (tests/bench/ui-bench-lib.test.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The nearest-rank percentile: the smallest sample such that at least `p` percent of the samples
 * are less than or equal to it. Always an observed value (no interpolation), so a p95 over 200
 * edits is the 190th fastest edit.
 */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new Error('percentile of no samples');
  if (!(p > 0 && p <= 100)) throw new Error(`percentile ${p} is outside (0, 100]`);
  const sorted = [...samples].sort((x, y) => x - y);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[rank - 1]!;
}

/** Median as the nearest-rank 50th percentile (the lower middle of an even count). */
export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

export interface EagerScripts {
  /** `<script src>` entries (module or classic): fetched and run on load. */
  readonly entries: readonly string[];
  /** `<link rel="modulepreload" href>`: fetched on load for the entry's static imports. */
  readonly modulepreloads: readonly string[];
}

/** The attributes of one start tag, lower-cased names; bare attributes map to ''. */
function attributesOf(tag: string): Map<string, string> {
  const attrs = new Map<string, string>();
  const re = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  // Skip the tag name itself.
  const body = tag.replace(/^<\s*[a-zA-Z0-9-]+/, '').replace(/\/?>$/, '');
  for (const m of body.matchAll(re)) {
    attrs.set(m[1]!.toLowerCase(), m[2] ?? m[3] ?? m[4] ?? '');
  }
  return attrs;
}

/**
 * The scripts a built `index.html` makes the browser fetch before the app can run: every
 * `<script src>` and every `<link rel="modulepreload">`, in document order. Inline scripts have
 * no file to size; comments are ignored.
 */
export function eagerScripts(html: string): EagerScripts {
  const text = html.replace(/<!--[\s\S]*?-->/g, '');
  const entries: string[] = [];
  const modulepreloads: string[] = [];
  for (const m of text.matchAll(/<script\b[^>]*>/gi)) {
    const src = attributesOf(m[0]).get('src');
    if (src) entries.push(src);
  }
  for (const m of text.matchAll(/<link\b[^>]*>/gi)) {
    const attrs = attributesOf(m[0]);
    const rels = (attrs.get('rel') ?? '').toLowerCase().split(/\s+/);
    const href = attrs.get('href');
    if (rels.includes('modulepreload') && href) modulepreloads.push(href);
  }
  return { entries, modulepreloads };
}

export interface StrippedPage {
  /** The page without its module scripts and modulepreload links, every other byte unchanged. */
  readonly html: string;
  /** The removed tags (a module script with its content and end tag), in document order. */
  readonly removed: readonly string[];
}

/**
 * The built page without the JavaScript that turns it into the app: every `<script type="module">`
 * element (start tag, content, end tag) and every `<link rel="modulepreload">`. Nothing else
 * changes — not the Content-Security-Policy, the stylesheets, the prerendered markup or the
 * whitespace around the removed tags — so loading it measures what the browser needs to show the
 * prerendered page alone. Tags inside comments are left as they are.
 */
export function stripModuleScripts(html: string): StrippedPage {
  const removed: string[] = [];
  const stripped = html.replace(
    /<!--[\s\S]*?-->|<script\b[^>]*>[\s\S]*?<\/script\s*>|<link\b[^>]*>/gi,
    (element) => {
      if (element.startsWith('<!--')) return element;
      const startTag = /^<[^>]*>/.exec(element)![0];
      const attrs = attributesOf(startTag);
      const isModuleScript =
        /^<script/i.test(element) && (attrs.get('type') ?? '').trim().toLowerCase() === 'module';
      const isModulePreload =
        /^<link/i.test(element) &&
        (attrs.get('rel') ?? '').toLowerCase().split(/\s+/).includes('modulepreload');
      if (!isModuleScript && !isModulePreload) return element;
      removed.push(element);
      return '';
    },
  );
  return { html: stripped, removed };
}

/**
 * The dist-relative path (forward slashes) of a URL written in `index.html`, or null for one
 * that does not point into the site (another origin, a data: URL).
 */
export function assetPath(url: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//')) return null;
  const path = url.split(/[?#]/)[0]!.replace(/^(\.\/|\/)+/, '');
  return path === '' ? null : path;
}

export interface SizedFile {
  /** Dist-relative path with forward slashes. */
  readonly path: string;
  readonly bytes: number;
  readonly gzipBytes: number;
}

export interface JsSizes {
  /** Entry scripts and modulepreloads of index.html. */
  readonly eager: readonly SizedFile[];
  readonly eagerGzipBytes: number;
  /** Every other .js file in the build: lazy chunks and worker scripts. */
  readonly other: readonly SizedFile[];
}

/** Gzipped size at zlib's default level (6), the level static servers commonly use. */
export function gzipBytes(content: Uint8Array): number {
  return gzipSync(content).length;
}

export function sizeFile(distDir: string, path: string): SizedFile {
  const content = readFileSync(join(distDir, ...path.split('/')));
  return { path, bytes: content.length, gzipBytes: gzipBytes(content) };
}

/** Every .js file under `dir` (source maps excluded), as dist-relative forward-slash paths. */
export function listJsFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.js') || name.endsWith('.mjs'))
        out.push(relative(dir, full).split(sep).join('/'));
    }
  };
  walk(dir);
  return out;
}

/** Sizes of the JavaScript of a build: what index.html loads eagerly, and everything else. */
export function jsSizes(distDir: string): JsSizes {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const { entries, modulepreloads } = eagerScripts(html);
  const eagerPaths = [
    ...new Set(
      [...entries, ...modulepreloads].map(assetPath).filter((p): p is string => p !== null),
    ),
  ];
  const eager = eagerPaths.map((p) => sizeFile(distDir, p));
  const eagerSet = new Set(eagerPaths);
  const other = listJsFiles(distDir)
    .filter((p) => !eagerSet.has(p))
    .map((p) => sizeFile(distDir, p));
  return { eager, eagerGzipBytes: eager.reduce((s, f) => s + f.gzipBytes, 0), other };
}

export interface Target {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** The figure must be strictly below this. */
  readonly limit: number;
}

export interface Verdict extends Target {
  readonly pass: boolean;
}

export function judge(target: Target): Verdict {
  return { ...target, pass: Number.isFinite(target.value) && target.value < target.limit };
}
