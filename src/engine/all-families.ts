/**
 * Every family's semantics, imported statically and provided at once (family-semantics.ts).
 * The entries that evaluate any form synchronously import this module once — the CLI
 * (cli/main.ts), the worker (worker/engine-api.ts), hw/ and bench/ tools, and the unit tests
 * (vite.config.ts `setupFiles`) — while the page loads each family when it first needs it.
 */
import { provideFamily } from './family-semantics.ts';
import { arithmeticFamily } from './semantics/arithmetic-family.ts';
import { convertFamily } from './semantics/convert-family.ts';
import type { FamilySemanticsMap } from './semantics/family.ts';
import { tensorCoreFamily } from './semantics/tensor-core.ts';

export const ALL_FAMILIES: FamilySemanticsMap = {
  arithmetic: arithmeticFamily,
  convert: convertFamily,
  'tensor-core': tensorCoreFamily,
};

for (const semantics of Object.values(ALL_FAMILIES)) provideFamily(semantics);
