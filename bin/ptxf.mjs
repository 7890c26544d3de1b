#!/usr/bin/env node
// Entry point of the `ptxf` CLI. The CLI is written in TypeScript under src/cli; tsx compiles it
// on load so that `npx ptxf` works right after `npm ci`, with no separate build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
