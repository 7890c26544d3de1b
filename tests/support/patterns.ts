/** Bit patterns where floating-point behaviour changes: zeros, subnormal edges, ±1, max, inf, NaNs. */
import { FORMATS, nextDown, nextUp } from '../../src/engine/format.ts';

/** The arithmetic's formats (at most 32 bits, so a pattern is a number). */
export type PatternFormat = 'f16' | 'bf16' | 'f32';

export function interestingPatterns(name: PatternFormat): number[] {
  const f = FORMATS[name];
  const man = 2 ** f.manBits;
  const signMask = Number(f.signMask);
  const inf = Number(f.infBits!);
  const one = f.bias * man;
  const base = [
    0, // +0
    signMask, // -0
    1, // the least subnormal
    man - 1, // the largest subnormal
    man, // the least normal
    one,
    one + signMask, // -1
    Number(f.maxBits),
    inf,
    inf + signMask, // -inf
    Number(f.canonicalNaN!),
    inf + 1, // a signaling NaN
    f.bias * man - man, // 0.5
    (f.bias + 1) * man, // 2
  ];
  const step = (b: number, next: typeof nextUp) => Number(next(BigInt(b), f));
  const around = base.flatMap((b) => [b, step(b, nextUp), step(b, nextDown)]);
  const negated = around.map((b) => (b >= signMask ? b - signMask : b + signMask));
  return [...new Set([...around, ...negated])].filter((b) => b >= 0 && b < 2 ** f.width);
}
