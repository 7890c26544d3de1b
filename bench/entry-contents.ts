/**
 * `node bin/run-ts.mjs bench/entry-contents.ts`: what the page's first load carries. Builds the
 * app (the project's vite.config.ts, into a temporary folder) and shares the minified code of the
 * entry chunk and the chunks it imports statically (index.html's modulepreloads) out to their
 * source files by the chunks' source maps, grouped by where they live —
 * React, each layer of src/, the catalog's records one by one — with each group's minified bytes
 * and its share of the chunk's gzipped size (the chunk is compressed as one file, so a group's
 * share is its part of the minified bytes: an estimate, not a separate compression). What it
 * prints is what bench:ui's "initial JavaScript" consists of; `--files` lists every source file
 * instead of the groups, `--json` prints it as JSON.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'vite';
import { groupOf, segmentsOf, shortName } from './entry-contents-lib.ts';

interface Group {
  readonly name: string;
  minifiedBytes: number;
  files: Set<string>;
}

async function main(): Promise<void> {
  const json = process.argv.includes('--json');
  const byFile = process.argv.includes('--files');
  const outDir = mkdtempSync(join(tmpdir(), 'entry-contents-'));
  let entryCode = '';
  const groups = new Map<string, Group>();
  const collect: Plugin = {
    name: 'entry-contents',
    apply: 'build',
    generateBundle(_, bundle) {
      // The page's entry chunk and the chunks it imports statically (index.html's modulepreloads).
      const chunks = new Map(
        Object.values(bundle).flatMap((c) =>
          c.type === 'chunk' ? [[c.fileName, c] as const] : [],
        ),
      );
      const initial = new Set([...chunks.values()].filter((c) => c.isEntry).map((c) => c.fileName));
      for (const name of initial) for (const i of chunks.get(name)!.imports) initial.add(i);
      for (const name of initial) {
        const chunk = chunks.get(name)!;
        entryCode += chunk.code;
        if (!chunk.map) {
          // Rolldown's runtime chunk has no source map: counted whole.
          const g = groups.get('other') ?? { name: 'other', minifiedBytes: 0, files: new Set() };
          g.minifiedBytes += chunk.code.length;
          g.files.add(chunk.fileName);
          groups.set('other', g);
          continue;
        }
        const { sources, mappings } = chunk.map;
        const codeLines = chunk.code.split('\n');
        segmentsOf(mappings).forEach((segments, line) => {
          const text = codeLines[line] ?? '';
          segments.forEach(([column, source], i) => {
            const end = i + 1 < segments.length ? segments[i + 1]![0] : text.length;
            const file = source < 0 ? 'other' : sources[source]!;
            const name = byFile ? shortName(file) : groupOf(file);
            const g = groups.get(name) ?? { name, minifiedBytes: 0, files: new Set<string>() };
            g.minifiedBytes += end - column;
            g.files.add(file);
            groups.set(name, g);
          });
        });
      }
    },
  };
  try {
    await build({ logLevel: 'error', plugins: [collect], build: { outDir, emptyOutDir: true } });
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
  const gzipBytes = gzipSync(entryCode).length;
  const minified = [...groups.values()].reduce((s, g) => s + g.minifiedBytes, 0);
  const rows = [...groups.values()]
    .sort((x, y) => y.minifiedBytes - x.minifiedBytes)
    .map((g) => ({
      name: g.name,
      minifiedBytes: g.minifiedBytes,
      files: g.files.size,
      gzipShareBytes: Math.round((g.minifiedBytes / minified) * gzipBytes),
    }));
  if (json) {
    process.stdout.write(
      `${JSON.stringify({ gzipBytes, minifiedBytes: minified, groups: rows })}\n`,
    );
    return;
  }
  const kb = (b: number) => `${(b / 1000).toFixed(1)} kB`;
  console.log(
    `Entry and its static imports: ${kb(minified)} minified, ${kb(gzipBytes)} gzipped as one (level 6)`,
  );
  console.log('  share of gz   minified    files  group');
  for (const r of rows)
    console.log(
      `  ${kb(r.gzipShareBytes).padStart(9)}  ${kb(r.minifiedBytes).padStart(9)}  ${String(r.files).padStart(7)}  ${r.name}`,
    );
}

await main();
