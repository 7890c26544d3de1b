/** Bit patterns where floating-point behaviour changes: zeros, subnormal edges, ±1, max, inf, NaNs. */
import type { FormatName } from '../../src/catalog/types.ts';
import { FORMATS, nextDown, nextUp, specialValues } from '../../src/engine/formats.ts';

export function interestingPatterns(name: FormatName): number[] {
  const f = FORMATS[name];
  const s = specialValues(f);
  const base = [
    s.plusZero,
    s.minusZero,
    s.minSubnormal,
    s.maxSubnormal,
    s.minNormal,
    s.one,
    s.minusOne,
    s.maxFinite,
    s.plusInf,
    s.minusInf,
    s.canonicalNaN,
    s.signalingNaN,
    f.bias * 2 ** f.manBits - 2 ** f.manBits, // 0.5
    (f.bias + 1) * 2 ** f.manBits, // 2
  ];
  const around = base.flatMap((b) => [b, nextUp(b, f), nextDown(b, f)]);
  const negated = around.map((b) => (b >= f.signMask ? b - f.signMask : b + f.signMask));
  return [...new Set([...around, ...negated])].filter((b) => b >= 0 && b < 2 ** f.width);
}
