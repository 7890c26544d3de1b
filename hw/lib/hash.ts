/**
 * The per-row hash the GPU harness computes over 65,536 results and the CPU recomputes.
 *
 * Two MurmurHash3-style (x86_32 body, one 32-bit word per result) accumulators with different
 * seeds run over the same words; together they make the row's 64-bit hash. Only 32-bit
 * operations are used so that JavaScript (Math.imul) computes it as fast as it computes the
 * engine, and so that hw/harness.cuh mirrors it line for line. A result is one word: 16-bit
 * results are zero-extended, packed x2 and f32 results are the whole 32-bit register.
 */

import { ROW_LENGTH } from './plan.ts';

export const ROW_HASH_NAME = 'murmur3-words-2x32';
export const ROW_HASH_SEED_LO = 0x00000000;
export const ROW_HASH_SEED_HI = 0x9747b28c;

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

function rotl(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

/** MurmurHash3's per-word scramble: the 32-bit block k that a body step mixes in. */
function scramble(w: number): number {
  return Math.imul(rotl(Math.imul(w, C1), 15), C2);
}

/** Mixes a scrambled word into state `h`. */
function mixIn(h: number, k: number): number {
  h = rotl(h ^ k, 13);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/** One body step of the accumulator: mixes word `w` into state `h`. */
export function hashStep(h: number, w: number): number {
  return mixIn(h, scramble(w));
}

/** MurmurHash3's finaliser, after folding in the number of words. */
export function hashFinish(h: number, count: number): number {
  h ^= count;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Row hash of a sequence of result words, as the pair [low word, high word]. Both accumulators
 * mix in the same scrambled word, so it is scrambled once (the same arithmetic as two
 * hashStep calls).
 */
export function hashWords(words: ArrayLike<number>): [number, number] {
  let lo = ROW_HASH_SEED_LO;
  let hi = ROW_HASH_SEED_HI | 0;
  const n = words.length;
  for (let i = 0; i < n; i++) {
    const k = scramble(words[i]!);
    lo = mixIn(lo, k);
    hi = mixIn(hi, k);
  }
  return [hashFinish(lo, n), hashFinish(hi, n)];
}

/**
 * Block digests: a compact stand-in for a file of row hashes. The rows are cut into blocks of
 * BLOCK_ROWS consecutive rows (the last block may be shorter) and each block's digest is the
 * row hash (hashWords) of its rows' hash words in row order, low word then high word:
 * 2 × (rows in the block) words. A `.blocks` file holds the digests of its blocks in order,
 * 8 bytes each like a row hash (low word, then high word, little-endian). One block of a
 * `pairs` section is 64 × 65,536 results: small enough to recompute in a test, and 1,024
 * digests (8 KiB) stand for a 512 KiB hash file.
 */
export const BLOCK_ROWS = 64;

export function blockCount(rows: number): number {
  return Math.ceil(rows / BLOCK_ROWS);
}

/**
 * Block digests of a full-result section: its results cut into rows of ROW_LENGTH (the last
 * row may be shorter), each row hashed (hashWords; a 64-bit result is two words, low then
 * high, as in a row hash), then blockDigests of those row hashes.
 */
export function resultBlockDigests(
  results: Uint16Array | Uint32Array | BigUint64Array,
): [number, number][] {
  const rows: [number, number][] = [];
  for (let first = 0; first < results.length; first += ROW_LENGTH) {
    const row = results.subarray(first, first + ROW_LENGTH);
    rows.push(
      hashWords(
        row instanceof BigUint64Array
          ? new Uint32Array(row.buffer, row.byteOffset, 2 * row.length)
          : row,
      ),
    );
  }
  return blockDigests(rows);
}

/** The digest of the row hashes of one block, in row order. */
export function blockDigest(rowHashes: readonly (readonly [number, number])[]): [number, number] {
  const words = new Uint32Array(2 * rowHashes.length);
  rowHashes.forEach(([lo, hi], i) => {
    words[2 * i] = lo;
    words[2 * i + 1] = hi;
  });
  return hashWords(words);
}

/** The digests of every block of a section's row hashes (rows in order from its first row). */
export function blockDigests(
  rowHashes: readonly (readonly [number, number])[],
): [number, number][] {
  return Array.from({ length: blockCount(rowHashes.length) }, (_, k) =>
    blockDigest(rowHashes.slice(k * BLOCK_ROWS, (k + 1) * BLOCK_ROWS)),
  );
}

export function formatHash([lo, hi]: readonly [number, number]): string {
  return `0x${hi.toString(16).padStart(8, '0')}${lo.toString(16).padStart(8, '0')}`;
}
