import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  assetPath,
  eagerScripts,
  judge,
  jsSizes,
  median,
  percentile,
  stripModuleScripts,
} from '../../bench/ui-bench-lib.ts';

describe('percentile (nearest rank)', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted on purpose

  it('p95 of 1..100 is 95 and p100 the maximum', () => {
    expect(percentile(hundred, 95)).toBe(95);
    expect(percentile(hundred, 100)).toBe(100);
    expect(percentile(hundred, 1)).toBe(1);
  });

  it('is an observed sample: p95 of 200 samples is the 190th smallest', () => {
    const xs = Array.from({ length: 200 }, (_, i) => i * 0.5);
    expect(percentile(xs, 95)).toBe(189 * 0.5);
  });

  it('median takes the lower middle of an even count and the middle of an odd one', () => {
    expect(median([4, 1, 3, 2])).toBe(2);
    expect(median([5, 1, 3])).toBe(3);
  });

  it('does not reorder its input', () => {
    const xs = [3, 1, 2];
    percentile(xs, 50);
    expect(xs).toEqual([3, 1, 2]);
  });

  it('refuses no samples and percentiles outside (0, 100]', () => {
    expect(() => percentile([], 50)).toThrow(/no samples/);
    expect(() => percentile([1], 0)).toThrow(/outside/);
    expect(() => percentile([1], 101)).toThrow(/outside/);
  });
});

describe('eagerScripts', () => {
  it('finds entry scripts and modulepreloads whatever the attribute order and quoting', () => {
    const html = `<!doctype html><html><head>
      <script type="module" crossorigin src="./assets/index-abc.js"></script>
      <link rel="modulepreload" crossorigin href="./assets/react-123.js">
      <link href='/assets/vendor.js' rel='modulepreload'>
      <link rel="stylesheet" href="./assets/index.css">
      <link rel="preload" as="font" href="./assets/font.woff2">
      <script>console.log('inline')</script>
      <!-- <script src="./assets/commented-out.js"></script> -->
      <script src=legacy.js defer></script>
    </head><body></body></html>`;
    expect(eagerScripts(html)).toEqual({
      entries: ['./assets/index-abc.js', 'legacy.js'],
      modulepreloads: ['./assets/react-123.js', '/assets/vendor.js'],
    });
  });
});

describe('stripModuleScripts', () => {
  const csp = `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'">`;
  const moduleScript = '<script type="module" crossorigin src="./assets/index-abc.js"></script>';
  const inlineModule = "<script type=module>import './assets/x.js';</script>";
  const preload = '<link rel="modulepreload" crossorigin href="./assets/runtime.js">';
  const preloadTwoRels = "<link href='./assets/dep.js' rel='preload modulepreload' />";
  const kept = [
    csp,
    '<link rel="icon" href="./favicon.svg" type="image/svg+xml" />',
    '<link rel="stylesheet" crossorigin href="./assets/index.css">',
    '<link rel="preload" as="font" href="./assets/font.woff2">',
    '<script src="./classic.js" defer></script>',
    '<script type="application/json" id="data">{"a":1}</script>',
    '<!-- <script type="module" src="./assets/commented-out.js"></script> -->',
  ];
  const page = (...tags: string[]) =>
    `<!doctype html>\n<html lang="en">\n  <head>\n${tags.map((t) => `    ${t}\n`).join('')}` +
    `  </head>\n  <body><div id="root"><output data-testid="result-bits">0x4280</output></div></body>\n</html>\n`;

  it('removes exactly the module scripts and modulepreload links, in document order', () => {
    const html = page(
      kept[0]!,
      moduleScript,
      preload,
      ...kept.slice(1),
      inlineModule,
      preloadTwoRels,
    );
    const { html: out, removed } = stripModuleScripts(html);
    expect(removed).toEqual([moduleScript, preload, inlineModule, preloadTwoRels]);
    // Every other byte is the same: the page with those tags replaced by nothing.
    expect(out).toBe(page(kept[0]!, '', '', ...kept.slice(1), '', ''));
    for (const tag of kept) expect(out).toContain(tag);
  });

  it('returns a page with nothing to strip unchanged', () => {
    const html = page(...kept);
    expect(stripModuleScripts(html)).toEqual({ html, removed: [] });
  });
});

describe('assetPath', () => {
  it('maps relative and root-relative URLs into the site and drops queries', () => {
    expect(assetPath('./assets/a.js')).toBe('assets/a.js');
    expect(assetPath('/assets/a.js?v=2#x')).toBe('assets/a.js');
    expect(assetPath('assets/a.js')).toBe('assets/a.js');
  });

  it('returns null for other origins and data URLs', () => {
    expect(assetPath('https://cdn.example/x.js')).toBeNull();
    expect(assetPath('//cdn.example/x.js')).toBeNull();
    expect(assetPath('data:text/javascript,1')).toBeNull();
  });
});

describe('jsSizes', () => {
  let dir = '';
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('sums the gzipped entry and modulepreloads and lists the other scripts apart', () => {
    dir = mkdtempSync(join(tmpdir(), 'ui-bench-lib-'));
    mkdirSync(join(dir, 'assets'));
    const entry = 'import "./dep.js";\n'.repeat(50) + 'console.log("entry");';
    const dep = 'export const table = [' + '1,2,3,'.repeat(400) + '];';
    const lazy = 'export default function Lazy() { return 42; }';
    writeFileSync(join(dir, 'assets', 'entry.js'), entry);
    writeFileSync(join(dir, 'assets', 'dep.js'), dep);
    writeFileSync(join(dir, 'assets', 'lazy.js'), lazy);
    writeFileSync(join(dir, 'assets', 'entry.js.map'), '{}');
    writeFileSync(
      join(dir, 'index.html'),
      '<script type="module" src="./assets/entry.js"></script>' +
        '<link rel="modulepreload" href="./assets/dep.js">',
    );
    const sizes = jsSizes(dir);
    const gz = (s: string) => gzipSync(Buffer.from(s)).length;
    expect(sizes.eager.map((f) => f.path)).toEqual(['assets/entry.js', 'assets/dep.js']);
    expect(sizes.eager[0]).toEqual({
      path: 'assets/entry.js',
      bytes: entry.length,
      gzipBytes: gz(entry),
    });
    expect(sizes.eagerGzipBytes).toBe(gz(entry) + gz(dep));
    // Repetitive text compresses: the figure really is the gzipped size, not the raw one.
    expect(sizes.eagerGzipBytes).toBeLessThan(entry.length + dep.length);
    expect(sizes.other.map((f) => f.path)).toEqual(['assets/lazy.js']);
  });
});

describe('judge', () => {
  it('passes strictly below the limit only', () => {
    expect(judge({ name: 'p95', value: 15.9, unit: 'ms', limit: 16 }).pass).toBe(true);
    expect(judge({ name: 'p95', value: 16, unit: 'ms', limit: 16 }).pass).toBe(false);
    expect(judge({ name: 'p95', value: Number.NaN, unit: 'ms', limit: 16 }).pass).toBe(false);
  });
});
