/** The sweep behind the error plot scores every finite input against the spec's bound. */
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../src/engine/format.ts';
import { readValueText } from '../src/engine/stored-value.ts';
import { createEngineApi } from '../src/worker/engine-api.ts';

const bitsOf = (text: string) => {
  const r = readValueText(text, FORMATS.f16);
  if (!r.ok) throw new Error(r.error.message);
  return Number(r.value.bits);
};

const sweepOf = (form: string) =>
  createEngineApi().sweep(1, { form, inputs: { kind: 'every-pattern' } }, () => {});

describe('approx error sweep', () => {
  it('does not score a relative bound where the exact value is below the smallest normal', async () => {
    const sweep = await sweepOf('ex2.approx.f16');
    const { ratio, unscored } = sweep.perInput!;
    // 2^-2000 underflows even a double; 2^-100 and 2^-14.5 do not; all are below 2^-14.
    for (const x of ['-2000', '-100', '-25', '-14.5']) {
      expect(unscored![bitsOf(x)], x).toBe(1);
      expect(ratio![bitsOf(x)], x).toBeNaN();
    }
    expect(unscored![bitsOf('-14')]).toBe(0); // 2^-14 is the smallest normal: scored
    expect(ratio![bitsOf('1')]).toBe(0); // 2^1 is exact
    expect(ratio![bitsOf('-inf')]).toBe(0); // 2^-inf = +0 exactly, as the spec's table says
    expect(unscored![bitsOf('-inf')]).toBe(0);
    // The correctly rounded model meets the bound wherever it is scored (and some inputs are:
    // a sweep that scored nothing would have a worst ratio of 0).
    expect(sweep.worst!.ratio).toBeGreaterThan(0);
    expect(sweep.worst!.ratio).toBeLessThanOrEqual(1);
  });

  it('ex2.approx.ftz.bf16: flushed tiny results are not scored; the rest meet the bound', async () => {
    const sweep = await sweepOf('ex2.approx.ftz.bf16');
    expect(sweep.worst!.ratio).toBeGreaterThan(0);
    expect(sweep.worst!.ratio).toBeLessThanOrEqual(1);
    expect(sweep.perInput!.unscored!.reduce((n, u) => n + u, 0)).toBeGreaterThan(0);
  });

  it('an absolute bound (tanh) scores every finite input', async () => {
    const sweep = await sweepOf('tanh.approx.f16');
    expect(sweep.perInput!.unscored!.every((u) => u === 0)).toBe(true);
    // Every input but the 2,046 NaNs has a ratio (±inf too: tanh(±inf) = ±1 exactly).
    expect(Array.from(sweep.perInput!.ratio!).filter(Number.isFinite).length).toBe(65536 - 2046);
    expect(sweep.worst!.ratio).toBeGreaterThan(0);
    expect(sweep.worst!.ratio).toBeLessThanOrEqual(1);
  });
});
