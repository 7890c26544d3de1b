// The `ptxf` CLI as one JavaScript file: esbuild bundles src/cli/main.ts on first use into a
// cache folder outside the working tree, and again whenever a file it was built from changed.
// Starting from the bundle costs a few stat calls instead of compiling about a hundred TypeScript
// files on every start, and `npx ptxf` still needs no build step after `npm ci`.
//
// Never stale: the bundle's first line lists every file esbuild read (the sources, tsconfig.json,
// this file, esbuild's package.json) with its size and its modification and change times, each
// taken before the file was read. Any difference, a missing file or another checkout root
// rebuilds it. A file modified within a few seconds of the build also gets a hash of its content,
// compared on every start: on a file system whose times are coarse, an edit in the same tick as
// the build would keep its stamp (git's "racy clean" entries, solved the same way). A new bundle
// is written beside the old one and renamed over it, so a process that starts meanwhile reads
// the old one or the new one, never half of one.
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HEADER = '// ptxf-cli-bundle ';
/** The header line is read with one read of this size (it lists about a hundred files). */
const HEADER_LIMIT = 256 * 1024;
const LOADERS = {
  '.ts': 'ts',
  '.tsx': 'tsx',
  '.mts': 'ts',
  '.js': 'js',
  '.mjs': 'js',
  '.cjs': 'js',
  '.json': 'json',
};

/** Inputs modified this close to the end of a build (ms) get a content hash as well. */
const RACY_MS = 5000;

/** What a file's stat says about its content: size, modification and change times (ns). */
function stamp(path) {
  try {
    const s = statSync(path, { bigint: true });
    return `${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return null;
  }
}

/** The modification time in ms from a stamp. */
function stampMs(seen) {
  return Number(BigInt(seen.split(':')[1]) / 1000000n);
}

function contentHash(path) {
  try {
    return hashOf(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

/** A short hash of a string (FNV-1a, 32 bits), to give each checkout its own cache folder. */
function hashOf(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The header of a bundle file, or null when there is none (no file, or not a bundle). */
function readHeader(file) {
  let fd;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const buffer = Buffer.alloc(HEADER_LIMIT);
    const n = readSync(fd, buffer, 0, HEADER_LIMIT, 0);
    const text = buffer.toString('utf8', 0, n);
    const end = text.indexOf('\n');
    if (!text.startsWith(HEADER) || end < 0) return null;
    return JSON.parse(text.slice(HEADER.length, end));
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Whether every file the bundle was built from is as it was then, in the same checkout. */
function isFresh(header, root) {
  if (header === null || header.root !== root || !Array.isArray(header.inputs)) return false;
  for (const [path, seen, hash] of header.inputs) {
    const file = resolve(root, path);
    if (stamp(file) !== seen) return false;
    if (hash !== undefined && contentHash(file) !== hash) return false;
  }
  return true;
}

/**
 * Bundle `entry` (relative to `root`) into `file`. Each input is stamped before it is read, so
 * an edit during the build leaves a stamp that no longer matches: the next start rebuilds.
 * `import.meta.url` in a source becomes that source's own URL, so paths it resolves (the
 * measured tables, relative to src/cli) stay what they are when the TypeScript runs directly.
 */
async function build(root, entry, file) {
  const esbuild = await import('esbuild');
  /** Each input: its stamp, taken before it is read, and a hash of the text read. */
  const inputs = new Map();
  const record = (path) => {
    const seen = stamp(path);
    inputs.set(path, { seen, hash: contentHash(path) });
  };
  record(fileURLToPath(import.meta.url));
  record(fileURLToPath(import.meta.resolve('esbuild/package.json')));
  record(join(root, 'tsconfig.json'));
  const stampInputs = {
    name: 'stamp-inputs',
    setup(b) {
      b.onLoad({ filter: /.*/ }, (args) => {
        const seen = stamp(args.path);
        const text = readFileSync(args.path, 'utf8');
        inputs.set(args.path, { seen, hash: hashOf(text) });
        const url = JSON.stringify(pathToFileURL(args.path).href);
        return {
          contents: text.replace(/\bimport\.meta\.url\b/g, url),
          loader: LOADERS[extname(args.path)] ?? 'default',
        };
      });
    },
  };
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'silent',
    plugins: [stampInputs],
  });
  const racy = Date.now() - RACY_MS;
  const list = [...inputs].map(([path, { seen, hash }]) => {
    const row = [relative(root, path), seen];
    return seen !== null && stampMs(seen) > racy ? [...row, hash] : row;
  });
  const header = { root, entry, inputs: list };
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temp, `${HEADER}${JSON.stringify(header)}\n${result.outputFiles[0].text}`);
  try {
    renameSync(temp, file);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
}

/** The cache folder: node_modules/.cache, or the system's temporary folder where that is read-only. */
function cacheFile(root, entry, base) {
  const dir = join(base, `ptxf-cli-${hashOf(`${root}\0${entry}`)}`);
  mkdirSync(dir, { recursive: true });
  return join(dir, 'cli.mjs');
}

/**
 * The file URL of an up-to-date bundle of `entry` (a path relative to `root`), building it first
 * when there is none or it is stale. `built` says whether this call built it.
 */
export async function cliBundle({
  root = fileURLToPath(new URL('..', import.meta.url)),
  entry = 'src/cli/main.ts',
  cacheDir,
} = {}) {
  const bases = cacheDir ? [cacheDir] : [join(root, 'node_modules', '.cache'), tmpdir()];
  let lastError;
  for (const base of bases) {
    let file;
    try {
      file = cacheFile(root, entry, base);
    } catch (e) {
      lastError = e;
      continue;
    }
    if (isFresh(readHeader(file), root)) return { url: pathToFileURL(file).href, built: false };
    try {
      await build(root, entry, file);
      return { url: pathToFileURL(file).href, built: true };
    } catch (e) {
      // A compile error is the sources' and is the same in every folder: report it.
      if (e && Array.isArray(e.errors)) throw e;
      lastError = e;
    }
  }
  throw lastError;
}
