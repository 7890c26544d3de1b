/**
 * Counter-based pseudo-random numbers for the seeded fma / mixed-precision samples.
 *
 * Counter-based (value = f(seed, index)) rather than a stream, so that each GPU thread computes
 * its own sample with no shared state and the CPU can jump straight to any sample index.
 * `mix32` is the "lowbias32" integer hash (Chris Wellons' hash-prospector); hw/harness.cuh
 * mirrors every function of this file.
 */

export function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

const GOLDEN = 0x9e3779b9;

/**
 * The four 32-bit random words of sample `index`: one per source operand a, b, c, plus a mode
 * word. Written into `into` (a fresh array by default), so bulk callers allocate nothing.
 */
export function sampleWords<T extends { [j: number]: number }>(
  seed: number,
  index: number,
  into: T = [0, 0, 0, 0] as unknown as T,
): T {
  const s = mix32((index ^ mix32(seed >>> 0)) >>> 0);
  for (let j = 0; j < 4; j++) into[j] = mix32((s + Math.imul(j + 1, GOLDEN)) >>> 0);
  return into;
}
