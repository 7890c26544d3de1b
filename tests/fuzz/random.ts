/**
 * A small seeded generator (mulberry32) so every fuzz run is reproducible from its seed: a
 * failure report names the target, the seed and the case index, and rerunning finds it again.
 */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** Unsigned random bits of the given width (up to 32). */
  bits(width: number): number {
    const x = Math.floor(this.next() * 4294967296) >>> 0;
    return width >= 32 ? x : x & ((1 << width) - 1);
  }
}
