#!/usr/bin/env node
// Entry point of the `ptxf` CLI. The CLI is written in TypeScript under src/cli; it runs from a
// bundle that bin/cli-bundle.mjs builds on first use and rebuilds whenever a source changed, so
// `npx ptxf` works right after `npm ci`, with no separate build step and no compiling on start.
import { cliBundle } from './cli-bundle.mjs';

let bundle;
try {
  bundle = await cliBundle();
} catch (e) {
  // esbuild's messages name the file and line of each error in the sources.
  const errors = Array.isArray(e?.errors) ? e.errors : [{ text: String(e?.message ?? e) }];
  for (const { text, location } of errors) {
    const where = location ? `${location.file}:${location.line}:${location.column + 1}: ` : '';
    console.error(`ptxf: cannot build the CLI: ${where}${text}`);
  }
  process.exit(70);
}
const { main } = await import(bundle.url);
process.exitCode = await main(process.argv.slice(2));
