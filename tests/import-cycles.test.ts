/**
 * Imports flow one way (docs/architecture.md): no module under src/ reaches itself through its
 * imports — type-only and dynamic imports included, as a reader follows them. A cycle fails this
 * test and names its files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?['"](\.[^'"]+)['"]/gs;
const DYNAMIC = /import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** The import graph of the files: each file to the files it imports. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const resolve = (from: string, spec: string): string | undefined => {
    const base = normalize(join(dirname(from), spec)).replace(/\.(js|mjs)$/, '');
    return [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((c) => known.has(c));
  };
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const specs = [...text.matchAll(IMPORT), ...text.matchAll(DYNAMIC)].map((m) => m[1]!);
    graph.set(
      file,
      specs.map((s) => resolve(file, s)).filter((f): f is string => f !== undefined && f !== file),
    );
  }
  return graph;
}

/** The strongly connected components of more than one file (Tarjan): the cycles. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('imports flow one way', () => {
  it('no import cycle anywhere in src/', () => {
    const files = sourceFiles(SRC);
    const found = cycles(importGraph(files)).map((c) => c.map((f) => relative(SRC, f)));
    expect(files.length).toBeGreaterThan(100);
    expect(found).toEqual([]);
  });

  it('finds a cycle where there is one', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(cycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });
});
