/**
 * The odds of .rs against counting: for each case, every pattern of one element's random bits is
 * evaluated through the pipeline and the results counted; stochasticOdds, read off a single
 * round step, must give the same two counts and the same two neighbours.
 */
import { describe, expect, it } from 'vitest';
import { FORMS } from '../catalog/all-forms.ts';
import { evaluate } from './pipeline.ts';
import type { RoundStep, Step } from './steps.ts';
import { stochasticOdds } from './stochastic-odds.ts';

const CASES: readonly { form: string; a: bigint }[] = [
  { form: 'cvt.rs.satfinite.e2m1x4.f32', a: 0x40533333n }, // 3.3: 3 or 4 (the example)
  { form: 'cvt.rs.satfinite.e2m1x4.f32', a: 0xc0533333n }, // -3.3: away from zero is the lower
  { form: 'cvt.rs.satfinite.e4m3x4.f32', a: 0x3dcccccdn }, // 0.1
  { form: 'cvt.rs.satfinite.e5m2x4.f32', a: 0x00000123n }, // a subnormal f32: far below e5m2's least
  { form: 'cvt.rs.satfinite.e3m2x4.f32', a: 0x41f00001n }, // past MAX_NORM 28: saturates either way
  { form: 'cvt.rs.f16x2.f32', a: 0x3f8ccccdn }, // 1.1 into f16, 13 random bits
  { form: 'cvt.rs.relu.bf16x2.f32', a: 0xbf8ccccdn }, // relu: both neighbours become +0
];

describe('stochasticOdds: the odds of .rs are the counts over every pattern of the random bits', () => {
  it.each(CASES)('$form a=$a', ({ form: text, a }) => {
    const form = FORMS.find((f) => f.text === text)!;
    // The element whose source is register a, and its random bits' place in rbits.
    const element = form.elements.find((e) => e.inputs.some((p) => p.operand === 'a'))!;
    const slot = element.rbits!;
    const k = slot.hi - slot.lo + 1;
    const registers = { a, b: a, e: a, f: a };
    const counts = new Map<string, bigint>();
    let first: RoundStep | undefined;
    for (let r = 0n; r < 1n << BigInt(k); r++) {
      const result = evaluate(form, { ...registers, rbits: r << BigInt(slot.lo) });
      const trace = result.elements.find((e) => e.index === element.index)!;
      const round = trace.steps.find((s): s is Step & RoundStep => s.kind === 'round');
      first ??= round;
      const key = round?.result ?? 'none';
      counts.set(key, (counts.get(key) ?? 0n) + 1n);
    }
    const odds = stochasticOdds(first!)!;
    expect(odds.patterns).toBe(1n << BigInt(k));
    const expected = new Map<string, bigint>();
    for (const n of [odds.towardZero, odds.awayFromZero])
      if (n.patterns > 0n)
        expected.set(n.bits ?? 'none', (expected.get(n.bits ?? 'none') ?? 0n) + n.patterns);
    expect(counts).toEqual(expected);
  });

  it('gives no odds where nothing is random or nothing is lost', () => {
    const exact = evaluate('cvt.rs.satfinite.e2m1x4.f32', {
      a: 0x40400000n,
      b: 0n,
      e: 0n,
      f: 0n,
      rbits: 0x55n,
    });
    const round = exact.elements.flatMap((e) => e.steps).find((s) => s.kind === 'round');
    expect(round === undefined || stochasticOdds(round as RoundStep) === undefined).toBe(true);
    const nearest = evaluate('cvt.rn.satfinite.e4m3x2.f32', { a: 0x3dcccccdn, b: 0x3dcccccdn });
    const rn = nearest.elements[0]!.steps.find((s): s is Step & RoundStep => s.kind === 'round')!;
    expect(stochasticOdds(rn)).toBeUndefined();
  });

  it('the issue example: 3.3 into e2m1 is 4 with probability 76/256', () => {
    const result = evaluate('cvt.rs.satfinite.e2m1x4.f32', {
      a: 0x40533333n,
      b: 0n,
      e: 0n,
      f: 0n,
      rbits: 0x12345678n,
    });
    const steps = result.elements.flatMap((e) => e.steps);
    const round = steps.find((s): s is Step & RoundStep => s.kind === 'round' && s.inexact)!;
    const odds = stochasticOdds(round)!;
    expect(odds.awayFromZero).toEqual({ bits: '0x6', patterns: 76n });
    expect(odds.towardZero).toEqual({ bits: '0x5', patterns: 180n });
  });
});
