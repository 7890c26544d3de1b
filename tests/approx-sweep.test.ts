/** The error sweep behind the approx plot scores every finite input against the spec's bound. */
import { describe, expect, it } from 'vitest';
import { FORMATS, parseValue } from '../src/engine/index.ts';
import { createEngineApi } from '../src/worker/engine-api.ts';

const bitsOf = (text: string) => {
  const r = parseValue(text, FORMATS.f16);
  if (!r.ok) throw new Error(r.error.message);
  return r.bits;
};

describe('approx error sweep', () => {
  it('does not score a relative bound where the exact value is below the smallest normal', async () => {
    const sweep = await createEngineApi().approxSweep(1, 'ex2.approx.f16', () => {});
    // 2^-2000 underflows even a double; 2^-100 and 2^-14.5 do not; all are below 2^-14.
    for (const x of ['-2000', '-100', '-25', '-14.5']) {
      expect(sweep.unscored[bitsOf(x)], x).toBe(1);
      expect(sweep.ratio[bitsOf(x)], x).toBeNaN();
    }
    expect(sweep.unscored[bitsOf('-14')]).toBe(0); // 2^-14 is the smallest normal: scored
    expect(sweep.ratio[bitsOf('1')]).toBe(0); // 2^1 is exact
    expect(sweep.ratio[bitsOf('-inf')]).toBe(0); // 2^-inf = +0 exactly, as the spec's table says
    expect(sweep.unscored[bitsOf('-inf')]).toBe(0);
    // The correctly rounded model meets the bound wherever it is scored (and some inputs are:
    // a sweep that scored nothing would have a worst ratio of 0).
    expect(sweep.worst.ratio).toBeGreaterThan(0);
    expect(sweep.worst.ratio).toBeLessThanOrEqual(1);
  });

  it('ex2.approx.ftz.bf16: flushed tiny results are not scored; the rest meet the bound', async () => {
    const sweep = await createEngineApi().approxSweep(2, 'ex2.approx.ftz.bf16', () => {});
    expect(sweep.worst.ratio).toBeGreaterThan(0);
    expect(sweep.worst.ratio).toBeLessThanOrEqual(1);
    expect(sweep.unscored.reduce((n, u) => n + u, 0)).toBeGreaterThan(0);
  });

  it('an absolute bound (tanh) scores every finite input', async () => {
    const sweep = await createEngineApi().approxSweep(3, 'tanh.approx.f16', () => {});
    expect(sweep.unscored.every((u) => u === 0)).toBe(true);
    // Every input but the 2,046 NaNs has a ratio (±inf too: tanh(±inf) = ±1 exactly).
    expect(sweep.ratio.filter(Number.isFinite).length).toBe(65536 - 2046);
    expect(sweep.worst.ratio).toBeGreaterThan(0);
    expect(sweep.worst.ratio).toBeLessThanOrEqual(1);
  });
});
