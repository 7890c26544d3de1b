import { describe, expect, it } from 'vitest';
import { compareScaleRules, quantizeBlock } from '../engine/block-scale/index.ts';
import { flagWords, leastSentence, lossWords, ruleSentence } from './block-words.ts';

/** The panel's words on the published cases of issue 26. */

const f32 = (x: number) => {
  const v = new DataView(new ArrayBuffer(4));
  v.setFloat32(0, x);
  return v.getUint32(0);
};
const block = (first: number, rest = 0) => [f32(first), ...Array<number>(31).fill(f32(rest))];

describe('block panel words', () => {
  it('127.9999 in an MXFP8 E5M2 block: ocp saturates it, rp does not, and the sentence says so', () => {
    const values = block(127.9999, 1);
    const ocp = quantizeBlock({ scheme: 'mxfp8-e5m2', scaleRule: 'ocp', values });
    if (!ocp.ok) throw new Error(ocp.message);
    expect(flagWords(ocp.elements[0]!.flags)).toEqual(['saturated']);
    const c = compareScaleRules({ values });
    if (!c.ok) throw new Error(c.message);
    const words = ruleSentence(c, 'mxfp8-e5m2')!;
    expect(words).toMatch(/^Within MXFP8 \(E5M2\), r[pz] loses least/);
    expect(words).toContain('ocp 1 saturated');
  });

  it('957 under the floor rule in MXFP8 E4M3: saturated, and the least sentence names a rule that keeps it', () => {
    const c = compareScaleRules({ values: block(957, 3) });
    if (!c.ok) throw new Error(c.message);
    expect(ruleSentence(c, 'mxfp8-e4m3')).toContain('ocp 1 saturated');
    expect(leastSentence(c)).toMatch(
      /loses least \(RMS error [0-9.e× ^-]+, [0-9.]+ bits a value\)/,
    );
  });

  it('an all-tiny block: the scale clamps at 2^-127 and every element flushes to zero', () => {
    const tiny = Array<number>(32).fill(f32(1e-40));
    const q = quantizeBlock({ scheme: 'mxfp4', scaleRule: 'ocp', values: tiny });
    if (!q.ok) throw new Error(q.message);
    // amax ≈ 2^-133: the scale clamps at 2^-127, and 1e-40 × 2^127 ≈ 0.017 is below E2M1's 0.5.
    expect(q.scale.bits).toBe('0x00');
    expect(lossWords(q.summary)).toBe('32 flushed to zero');
    expect(flagWords(q.elements[5]!.flags)).toEqual(['flushed to zero']);
  });

  it("amax at the element format's largest normal (448 in E4M3): scale 2^0, nothing lost", () => {
    const q = quantizeBlock({ scheme: 'mxfp8-e4m3', scaleRule: 'ocp', values: block(448) });
    if (!q.ok) throw new Error(q.message);
    expect(q.scale.exponent).toBe(0);
    expect(lossWords(q.summary)).toBeNull();
  });
});
