/**
 * The per-row hash the GPU harness computes over 65,536 results and the CPU recomputes.
 *
 * Two MurmurHash3-style (x86_32 body, one 32-bit word per result) accumulators with different
 * seeds run over the same words; together they make the row's 64-bit hash. Only 32-bit
 * operations are used so that JavaScript (Math.imul) computes it as fast as it computes the
 * engine, and so that hw/harness.cuh mirrors it line for line. A result is one word: 16-bit
 * results are zero-extended, packed x2 and f32 results are the whole 32-bit register.
 */

export const ROW_HASH_NAME = 'murmur3-words-2x32';
export const ROW_HASH_SEED_LO = 0x00000000;
export const ROW_HASH_SEED_HI = 0x9747b28c;

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

function rotl(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

/** One body step of the accumulator: mixes word `w` into state `h`. */
export function hashStep(h: number, w: number): number {
  let k = Math.imul(w, C1);
  k = rotl(k, 15);
  k = Math.imul(k, C2);
  h ^= k;
  h = rotl(h, 13);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
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

/** Row hash of a sequence of result words, as the pair [low word, high word]. */
export function hashWords(words: ArrayLike<number>): [number, number] {
  let lo = ROW_HASH_SEED_LO;
  let hi = ROW_HASH_SEED_HI | 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    lo = hashStep(lo, w);
    hi = hashStep(hi, w);
  }
  return [hashFinish(lo, words.length), hashFinish(hi, words.length)];
}

export function formatHash([lo, hi]: readonly [number, number]): string {
  return `0x${hi.toString(16).padStart(8, '0')}${lo.toString(16).padStart(8, '0')}`;
}
