/**
 * A GPU capture made small enough for the repository, and checked against the files the GPU
 * wrote. A capture root (what hw/capture-all.sh writes) holds capture directories (`main/`,
 * `fma-rn-2p32/`, …) and device files; the packed copy keeps `main/` at its top level and the
 * other directories below it, with in each:
 *  - summary.json and the device files: as written;
 *  - full-result sections: `<file>.gz` (gzip -9), except the sections digestOnly names;
 *  - hashed sections of the forms KEEP_WHOLE names, and sections of at most one block of rows:
 *    the row-hash file as written;
 *  - every other hashed section: `<file>.blocks`, the block digests of its row hashes
 *    (hash.ts: blockDigests);
 *  - full sections digestOnly names: `<file>.blocks`, the block digests of the row hashes of
 *    its results (hash.ts: resultBlockDigests);
 *  - SHA256SUMS: the SHA-256 of every file as the GPU wrote it, by its path in the capture
 *    root (the format of `sha256sum`, so `sha256sum -c SHA256SUMS` checks an unpacked root).
 * compare-capture reads the packed copy as it reads a capture.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { findForm } from '../../src/catalog/all-forms.ts';
import { isApproximate } from './approx-judge.ts';
import {
  SUMMARY_FILE,
  decodeHashes,
  decodeResults,
  encodeHashes,
  readSummary,
  type CaptureForm,
  type CaptureSection,
  type ResultBits,
} from './capture-files.ts';
import { gzip } from './gzip.ts';
import { BLOCK_ROWS, blockDigests, resultBlockDigests } from './hash.ts';
import { shapeOf } from './plan.ts';

/** Hashed sections committed whole: the forms issue 11 asks about by name. */
export const KEEP_WHOLE = /^(add|sub|mul|fma)\.rn\.(f16|bf16)(x2)?$/;

/**
 * Full sections kept as block digests only: the two-lane sections of exact forms whose lanes
 * see inputs a one-lane section of the same operation holds in full — neg/abs .x2 (x2-same,
 * x2-distinct: every 16-bit pattern in each lane) and fma .oob .x2 (nan-probe: the same tuple
 * in both lanes). Their results are as incompressible as a counter (2.7 MB
 * gzipped in all, a fifth of the capture packed with them); the digests still check every one of their results, and the
 * files as written are listed in SHA256SUMS. Two-lane edges (small) and every approximate
 * section (the measured tables) are kept in full.
 */
export function digestOnly(form: CaptureForm, section: CaptureSection): boolean {
  const f = findForm(form.form);
  if (
    !f ||
    f.family === 'convert' ||
    f.family === 'matrix' ||
    section.layout !== 'full' ||
    section.name === 'edges'
  )
    return false;
  return shapeOf(f).lanes === 2 && !isApproximate(f);
}

export const SUMS_FILE = 'SHA256SUMS';
/** The capture directory that the packed copy puts at its top level. */
export const MAIN_CAPTURE = 'main';

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Every file under `dir`, as paths relative to it, sorted. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out.sort();
}

/** Where a capture-root path lands in the packed copy (main/ at the top). */
export function packedPath(rawPath: string): string {
  return rawPath.startsWith(`${MAIN_CAPTURE}/`) ? rawPath.slice(MAIN_CAPTURE.length + 1) : rawPath;
}

/**
 * as-written: copied; gzip: `.gz`; blocks: `.blocks` of a row-hash file; result-blocks:
 * `.blocks` of a full-result file (its results hashed row by row first).
 */
export type PackedKind = 'as-written' | 'gzip' | 'blocks' | 'result-blocks';

export interface PackedFile {
  /** Path in the capture root, as the GPU wrote it. */
  readonly raw: string;
  /** Path of what stands for it in the packed copy. */
  readonly packed: string;
  readonly kind: PackedKind;
  /** Width of one result (full sections). */
  readonly resultBits?: ResultBits;
}

function sectionKind(form: CaptureForm, section: CaptureSection): PackedKind {
  if (section.layout === 'full') return digestOnly(form, section) ? 'result-blocks' : 'gzip';
  // A section of one block (the 64 default sample rows: 512 bytes) is kept whole: its digest
  // would save nothing worth having, and its rows can be checked one by one.
  const oneBlock = (section.rows ?? 0) <= BLOCK_ROWS;
  return KEEP_WHOLE.test(form.form) || oneBlock ? 'as-written' : 'blocks';
}

/**
 * How each file of a capture root is kept, from the summaries of the capture directories
 * `dirs`. `root` is the capture root or a packed copy: `layout` maps a capture-root path to
 * its place in `root`.
 */
function packedFiles(
  root: string,
  rawPaths: readonly string[],
  layout: (rawPath: string) => string,
): PackedFile[] {
  const sections = new Map<string, { kind: PackedKind; resultBits: ResultBits }>();
  const dirs = rawPaths.filter((p) => p.endsWith(`/${SUMMARY_FILE}`)).map((p) => dirname(p));
  for (const dir of dirs) {
    const summaryDir = join(root, dirname(layout(`${dir}/${SUMMARY_FILE}`)));
    for (const form of readSummary(summaryDir).forms)
      for (const section of form.sections)
        sections.set(`${dir}/${section.file}`, {
          kind: sectionKind(form, section),
          resultBits: form.resultBits,
        });
  }
  return rawPaths.map((raw) => {
    const s = sections.get(raw);
    const kind = s?.kind ?? 'as-written';
    const path = layout(raw);
    const packed = kind === 'gzip' ? `${path}.gz` : kind === 'as-written' ? path : `${path}.blocks`;
    return { raw, packed, kind, resultBits: s?.resultBits };
  });
}

/** How each file of a capture root is kept. */
export function packPlan(rawRoot: string): PackedFile[] {
  return packedFiles(rawRoot, filesUnder(rawRoot), (p) => p).map((f) => ({
    ...f,
    packed: packedPath(f.packed),
  }));
}

function write(root: string, path: string, bytes: Uint8Array): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), bytes);
}

/** The packed form of one file's bytes. */
function packBytes(file: PackedFile, bytes: Uint8Array): Uint8Array {
  switch (file.kind) {
    case 'as-written':
      return bytes;
    case 'gzip':
      return gzip(bytes);
    case 'blocks':
      return encodeHashes(blockDigests(decodeHashes(bytes)));
    case 'result-blocks':
      return encodeHashes(resultBlockDigests(decodeResults(bytes, file.resultBits!)));
  }
}

/** Writes the packed copy of `rawRoot` to `outRoot`; returns the files and their sizes. */
export function packCapture(
  rawRoot: string,
  outRoot: string,
): { file: PackedFile; bytes: number }[] {
  const sums: string[] = [];
  const written = packPlan(rawRoot).map((file) => {
    const bytes = readFileSync(join(rawRoot, file.raw));
    sums.push(`${sha256(bytes)}  ${file.raw}`);
    const packed = packBytes(file, bytes);
    write(outRoot, file.packed, packed);
    return { file, bytes: packed.byteLength };
  });
  write(outRoot, SUMS_FILE, new TextEncoder().encode(sums.join('\n') + '\n'));
  return written;
}

/** SHA256SUMS of a packed copy: raw path → digest. */
export function readSums(packedRoot: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of readFileSync(join(packedRoot, SUMS_FILE), 'utf8').split('\n')) {
    if (line === '') continue;
    const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (!m) throw new Error(`${SUMS_FILE}: not a sha256sum line: ${line}`);
    sums.set(m[2]!, m[1]!);
  }
  return sums;
}

export interface VerifyReport {
  /** Files whose bytes (decompressed for .gz) match SHA256SUMS. */
  readonly matched: number;
  /** Block-digest files: checked against the files as written when a capture root is given. */
  readonly blocksChecked: number;
  readonly blocksUnchecked: number;
  readonly problems: readonly string[];
}

/**
 * Checks a packed copy: every file listed in SHA256SUMS is there in its packed form, whole and
 * gzip files match their digests, nothing else is there (but README.md, and folders with a
 * README.md of their own: other captures). With `rawRoot` (the
 * capture as written, e.g. the unpacked tarball) its files match SHA256SUMS too and each
 * block-digest file is the one its file gives.
 */
export function verifyPacked(packedRoot: string, rawRoot?: string): VerifyReport {
  const sums = readSums(packedRoot);
  const problems: string[] = [];
  let matched = 0;
  let blocksChecked = 0;
  let blocksUnchecked = 0;
  // A folder with a README.md of its own holds another capture (mma/, wgmma/), with its own sums.
  const all = filesUnder(packedRoot);
  const nested = all.filter((p) => p.endsWith('/README.md')).map((p) => dirname(p) + '/');
  const present = new Set(all.filter((p) => !nested.some((folder) => p.startsWith(folder))));
  const accounted = new Set([SUMS_FILE, 'README.md']);
  for (const file of packedFiles(packedRoot, [...sums.keys()], packedPath)) {
    const { raw, packed, kind } = file;
    const digest = sums.get(raw)!;
    if (!present.has(packed)) {
      problems.push(`${raw}: ${packed} is missing`);
      continue;
    }
    accounted.add(packed);
    const bytes = readFileSync(join(packedRoot, packed));
    const digestFile = kind === 'blocks' || kind === 'result-blocks';
    if (!digestFile) {
      const original = kind === 'gzip' ? gunzipSync(bytes) : bytes;
      if (sha256(original) === digest) matched++;
      else problems.push(`${packed}: SHA-256 differs from ${raw} in ${SUMS_FILE}`);
    }
    if (!rawRoot) {
      if (digestFile) blocksUnchecked++;
      continue;
    }
    const rawBytes = readFileSync(join(rawRoot, raw));
    if (sha256(rawBytes) !== digest)
      problems.push(`${raw} (raw): SHA-256 differs from ${SUMS_FILE}`);
    if (digestFile) {
      blocksChecked++;
      if (sha256(packBytes(file, rawBytes)) !== sha256(bytes))
        problems.push(`${packed}: not the block digests of ${raw}`);
    }
  }
  for (const p of present) if (!accounted.has(p)) problems.push(`${p}: not in ${SUMS_FILE}`);
  return { matched, blocksChecked, blocksUnchecked, problems };
}
