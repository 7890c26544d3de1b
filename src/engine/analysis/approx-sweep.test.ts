import { describe, expect, it } from 'vitest';
import { FORMS, findForm } from '../../catalog/index.ts';
import { approxErrorBound, approxSweep, startApproxSweep, SWEEP_INPUTS } from './approx-sweep.ts';

describe('approx sweep', () => {
  it('run in chunks, it gives what the whole sweep gives', () => {
    const whole = approxSweep('tanh.approx.bf16');
    const run = startApproxSweep('tanh.approx.bf16');
    const done: number[] = [];
    while (!run.finished) done.push(run.advance(5000).done);
    expect(done.at(-1)).toBe(SWEEP_INPUTS);
    expect(done).toHaveLength(Math.ceil(SWEEP_INPUTS / 5000));
    const chunked = run.result(false);
    expect(chunked.worst).toEqual(whole.worst);
    expect(Array.from(chunked.ratio)).toEqual(Array.from(whole.ratio));
    expect(Array.from(chunked.unscored)).toEqual(Array.from(whole.unscored));
  });

  it('stopped early, the result says so and leaves the rest unscored', () => {
    const run = startApproxSweep('ex2.approx.f16');
    run.advance(4096);
    const partial = run.result(true);
    expect(partial.cancelled).toBe(true);
    expect(partial.ratio.slice(4096).every(Number.isNaN)).toBe(true);
  });

  it('refuses forms without an error bound', () => {
    expect(() => startApproxSweep('add.f16')).toThrow('add.f16 is not an approximate op');
    expect(() => startApproxSweep('nonsense')).toThrow('nonsense is not an approximate op');
  });

  it('the forms with an error bound are exactly the .approx forms', () => {
    const bounded = FORMS.filter((f) => approxErrorBound(f) !== null).map((f) => f.text);
    const approx = FORMS.filter((f) => f.modifiers.includes('approx')).map((f) => f.text);
    expect(bounded).toEqual(approx);
    expect(approxErrorBound(findForm('ex2.approx.ftz.bf16')!)).toMatchObject({
      kind: 'relative',
      log2: -7,
    });
  });
});
