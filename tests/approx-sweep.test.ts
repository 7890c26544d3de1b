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
  it('scores a zero result for 2^x below the double range as relative error 1, not 0', async () => {
    const sweep = await createEngineApi().approxSweep(1, 'ex2.approx.f16', () => {});
    const boundTimes = 1 / 2 ** -9.9; // relative error 1, in units of the bound
    // 2^-2000 underflows even a double; 2^-100 does not. Both round to +0 in f16.
    expect(sweep.ratio[bitsOf('-2000')]).toBeCloseTo(boundTimes, 6);
    expect(sweep.ratio[bitsOf('-100')]).toBeCloseTo(boundTimes, 6);
    expect(sweep.ratio[bitsOf('1')]).toBe(0); // 2^1 is exact
    expect(sweep.ratio[bitsOf('-inf')]).toBe(0); // 2^-inf = +0 exactly, as the spec's table says
  });
});
