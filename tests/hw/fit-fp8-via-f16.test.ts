/**
 * hw/mma/fit-fp8-via-f16.ts reads each FP8 element as the f16 of the same value
 * (lib/fit-reference.ts asF16Pattern): every one of the 256 e4m3 and 256 e5m2 patterns, checked
 * against the exact value of both patterns by the reference's own decoder.
 */
import { describe, expect, it } from 'vitest';
import { asF16Pattern, decode, type Val } from '../../hw/mma/lib/fit-reference.ts';

const KEEP = { tf32: 'trunc', subnormals: 'keep' } as const;

/** A value as text: its sign and m·2^e with m odd, or its kind. */
function text(v: Val): string {
  if (v.kind !== 'fin') return v.kind === 'inf' ? `${v.neg ? '-' : '+'}inf` : 'nan';
  let { m, e } = v.x;
  while (m !== 0n && (m & 1n) === 0n) {
    m >>= 1n;
    e++;
  }
  return `${v.x.neg ? '-' : '+'}${m}·2^${m === 0n ? 0 : e}`;
}

describe('FP8 elements as f16 patterns', () => {
  it.each(['e4m3', 'e5m2'] as const)('every %s pattern keeps its value', (format) => {
    for (let bits = 0; bits < 256; bits++) {
      const f16 = asF16Pattern(bits, format);
      expect(text(decode(f16, 'f16', KEEP)), `${format} 0x${bits.toString(16)}`).toBe(
        text(decode(bits, format, KEEP)),
      );
    }
  });
  it('an e4m3 subnormal becomes an f16 normal; NaN the canonical NaN', () => {
    expect(asF16Pattern(0x01, 'e4m3')).toBe(0x1800); // 2^-9
    expect(asF16Pattern(0x7f, 'e4m3')).toBe(0x7fff);
    expect(asF16Pattern(0x7e, 'e4m3')).toBe(0x5f00); // 448
    expect(asF16Pattern(0xfc, 'e5m2')).toBe(0xfc00); // −∞
  });
});
