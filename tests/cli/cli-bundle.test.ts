/**
 * bin/cli-bundle.mjs: the CLI runs from a bundle that is rebuilt whenever a file it was built
 * from changed, and only then. Checked on a small project of its own in a temporary folder.
 */
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { cliBundle } from '../../bin/cli-bundle.mjs';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project with src/main.ts importing src/dep.ts; returns its root and a cache folder. */
function project(): { root: string; cacheDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'ptxf-bundle-'));
  made.push(root);
  writeFileSync(join(root, 'tsconfig.json'), '{}\n');
  writeFileSync(
    join(root, 'src-main.ts'),
    "import { dep } from './src-dep.ts';\nexport const value: number = 1 + dep;\nexport const here = import.meta.url;\n",
  );
  writeFileSync(join(root, 'src-dep.ts'), 'export const dep: number = 10;\n');
  return { root, cacheDir: join(root, 'cache') };
}

let loads = 0;
/** Import a bundle afresh (the module cache is keyed by URL). */
async function load(url: string): Promise<{ value: number; here: string }> {
  return import(/* @vite-ignore */ `${url}?load=${++loads}`);
}

describe('the CLI bundle', () => {
  it('is built once, then reused while its sources are unchanged', async () => {
    const { root, cacheDir } = project();
    const first = await cliBundle({ root, entry: 'src-main.ts', cacheDir });
    expect(first.built).toBe(true);
    expect((await load(first.url)).value).toBe(11);
    const second = await cliBundle({ root, entry: 'src-main.ts', cacheDir });
    expect(second).toEqual({ url: first.url, built: false });
  });

  it('keeps import.meta.url the URL of the source file, not of the bundle', async () => {
    const { root, cacheDir } = project();
    const { url } = await cliBundle({ root, entry: 'src-main.ts', cacheDir });
    expect((await load(url)).here).toBe(pathToFileURL(join(root, 'src-main.ts')).href);
  });

  it('is rebuilt when the entry or a module it imports changes, even to the same size', async () => {
    const { root, cacheDir } = project();
    await cliBundle({ root, entry: 'src-main.ts', cacheDir });
    writeFileSync(join(root, 'src-dep.ts'), 'export const dep: number = 20;\n');
    const afterDep = await cliBundle({ root, entry: 'src-main.ts', cacheDir });
    expect(afterDep.built).toBe(true);
    expect((await load(afterDep.url)).value).toBe(21);
    writeFileSync(
      join(root, 'src-main.ts'),
      "import { dep } from './src-dep.ts';\nexport const value: number = 2 + dep;\nexport const here = import.meta.url;\n",
    );
    const afterMain = await cliBundle({ root, entry: 'src-main.ts', cacheDir });
    expect(afterMain.built).toBe(true);
    expect((await load(afterMain.url)).value).toBe(22);
  });

  it('is rebuilt when tsconfig.json changes', async () => {
    const { root, cacheDir } = project();
    await cliBundle({ root, entry: 'src-main.ts', cacheDir });
    writeFileSync(join(root, 'tsconfig.json'), '{ }\n');
    expect((await cliBundle({ root, entry: 'src-main.ts', cacheDir })).built).toBe(true);
  });

  it('reports a source that no longer builds with esbuild’s errors, naming the file', async () => {
    const { root, cacheDir } = project();
    await cliBundle({ root, entry: 'src-main.ts', cacheDir });
    unlinkSync(join(root, 'src-dep.ts'));
    await expect(cliBundle({ root, entry: 'src-main.ts', cacheDir })).rejects.toMatchObject({
      errors: [expect.objectContaining({ text: expect.stringContaining('src-dep.ts') })],
    });
  });
});
