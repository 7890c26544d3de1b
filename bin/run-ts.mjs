#!/usr/bin/env node
// Runs a TypeScript script (benchmarks, fuzzing) with tsx: `node bin/run-ts.mjs file.ts args...`.
import { register } from 'tsx/esm/api';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

register();
const [script, ...rest] = process.argv.slice(2);
if (!script) {
  console.error('usage: node bin/run-ts.mjs <script.ts> [args...]');
  process.exit(2);
}
process.argv = [process.argv[0], resolve(script), ...rest];
await import(pathToFileURL(resolve(script)).href);
