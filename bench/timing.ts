/**
 * Timing and test data for the engine benchmarks (engine-bench.ts, cvt-bench-lib.ts): the median
 * wall time of repeated runs after a warm-up, and deterministic operand words, so every run
 * measures the same work on the same data.
 */

/** The middle sample (the upper one of an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Median wall time of `fn` in milliseconds over `repeats` runs, after `warmup` untimed ones. */
export function timeMs(fn: () => void, repeats: number, warmup = 2): number {
  for (let i = 0; i < warmup; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** `count` deterministic words (xorshift32 from `seed`), each ANDed with `mask`. */
export function xorshiftWords(count: number, mask: number, seed: number): Uint32Array {
  const out = new Uint32Array(count);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < count; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & mask;
  }
  return out;
}
