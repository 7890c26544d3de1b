import { describe, expect, it } from 'vitest';
import { decodeElement } from '../element-format.ts';
import { evaluateCvt } from '../ops/cvt.ts';
import { cvtSweep, cvtSweepProblem, startCvtSweep } from './cvt-sweep.ts';
import { findCvtForm } from '../../catalog/cvt-forms.ts';

const numberOf = (hex: string, format: 'e4m3' | 'f16' | 'bf16' | 'e2m1'): number => {
  const v = decodeElement(BigInt(hex), format);
  if (v.kind === 'nan') return NaN;
  if (v.kind === 'inf') return v.negative ? -Infinity : Infinity;
  return (v.x.negative ? -1 : 1) * Number(v.x.mant) * 2 ** v.x.exp;
};

describe('cvt sweeps', () => {
  it('every .f16 pattern into e4m3 (.satfinite): the traced engine agrees on every input', () => {
    const form = 'cvt.rn.satfinite.e4m3x2.f16x2';
    const sweep = cvtSweep({ form, inputs: { kind: 'every-pattern' } });
    expect(sweep.count).toBe(65536);
    // Independently: the traced engine on each pattern, in the upper half of a.
    const classes = { nan: 0, infinity: 0, zero: 0, subnormal: 0, normal: 0 };
    const buckets = new Map<number, { count: number; lo: number; hi: number }>();
    for (let i = 0; i < 65536; i++) {
      const out = evaluateCvt(form, { a: BigInt(i) << 16n }).elements[0]!;
      const steps = out.steps;
      const cls =
        steps.at(-1)!.kind === 'cvt-pack'
          ? (steps.at(-1) as { result: { class: string } }).result.class
          : '';
      classes[(cls === 'qnan' || cls === 'snan' ? 'nan' : cls) as keyof typeof classes]++;
      const x = numberOf(`0x${i.toString(16)}`, 'f16');
      if (x !== x) continue;
      const bits = Number(BigInt(out.result));
      const b = buckets.get(bits) ?? { count: 0, lo: Infinity, hi: -Infinity };
      buckets.set(bits, { count: b.count + 1, lo: Math.min(b.lo, x), hi: Math.max(b.hi, x) });
    }
    expect(sweep.classes).toEqual(classes);
    expect(sweep.buckets!.length).toBe(buckets.size);
    for (const b of sweep.buckets!) {
      const mine = buckets.get(b.bits)!;
      expect({ count: b.count, lo: b.lo, hi: b.hi }, `bucket 0x${b.bits.toString(16)}`).toEqual(
        mine,
      );
    }
    // 448 takes everything from its lower tie (432) up, the infinities and beyond-range values.
    const max = sweep.buckets!.find((b) => b.bits === 0x7e)!;
    expect([max.lo, max.hi]).toEqual([432, Infinity]);
    expect(sweep.saturated).toBeGreaterThan(0);
    expect(sweep.plot).toBeNull();
  });

  it('a million .f32 values into e4m3: plot columns, saturation, the worst error', () => {
    const sweep = cvtSweep({
      form: 'cvt.rn.satfinite.e4m3x2.f32',
      inputs: { kind: 'range', from: -500, to: 500, count: 1 << 20 },
    });
    expect(sweep.count).toBe(1 << 20);
    const step = 1000 / ((1 << 20) - 1);
    // Inputs past ±448 are clamped: those above 464 (the tie goes to 448 anyway) and up to it.
    const beyond = Math.floor(52 / step) * 2;
    expect(Math.abs(sweep.saturated - beyond)).toBeLessThanOrEqual(4);
    expect(sweep.overflowed).toBe(0);
    expect(Math.abs(sweep.worst!.error)).toBeCloseTo(52, 0); // at ±500, clamped to ±448
    const plot = sweep.plot!;
    expect(plot.resultMin.length).toBe(512);
    expect(plot.resultMax[511]).toBe(448);
    expect(plot.resultMin[0]).toBe(-448);
    // Between 256 and 448 e4m3 values are 32 apart: the error is at most 16 there.
    for (let c = 0; c < 512; c++) {
      const x = -500 + ((c + 0.5) / 512) * 1000;
      if (Math.abs(x) > 260 && Math.abs(x) < 440)
        expect(Math.max(-plot.errorMin[c]!, plot.errorMax[c]!)).toBeLessThanOrEqual(16);
    }
    // The buckets hold every value, and each input lies within half a gap of its bucket.
    const total = sweep.buckets!.reduce((s, b) => s + b.count, 0);
    expect(total).toBe(1 << 20);
  });

  it('reports progress in chunks, stops when cancelled, and refuses what it cannot sweep', () => {
    const run = startCvtSweep({
      form: 'cvt.rn.f16.f32',
      inputs: { kind: 'range', from: 0, to: 1, count: 100000 },
    });
    expect(run.advance(65536)).toEqual({ done: 65536, total: 100000 });
    const partial = run.result(true);
    expect(partial).toMatchObject({ cancelled: true, count: 65536 });
    const form = findCvtForm('cvt.rn.f16.f32')!;
    expect(cvtSweepProblem(form, { kind: 'every-pattern' })).toMatch(/32-bit values/);
    expect(cvtSweepProblem(form, { kind: 'range', from: 1, to: 0, count: 10 })).toMatch(/below/);
    expect(cvtSweepProblem(form, { kind: 'range', from: 0, to: 1, count: 2 ** 21 })).toMatch(
      /at most|2 … /,
    );
    expect(
      cvtSweepProblem(findCvtForm('cvt.rn.f16x2.e4m3x2')!, {
        kind: 'range',
        from: 0,
        to: 1,
        count: 10,
      }),
    ).toMatch(/every pattern/);
    // ue8m0 has no zero: 0 gives its least value; the sweep counts it as a normal value.
    const ue = cvtSweep({
      form: 'cvt.rz.satfinite.ue8m0x2.f32',
      inputs: { kind: 'range', from: 0, to: 4, count: 5 },
    });
    expect(ue.buckets!.map((b) => [b.value, b.count])).toEqual([
      [2 ** -127, 1],
      [1, 1],
      [2, 2],
      [4, 1],
    ]);
    // e2m1 from every pattern of its 4 bits.
    const fp4 = cvtSweep({ form: 'cvt.rn.f16x2.e2m1x2', inputs: { kind: 'every-pattern' } });
    expect(fp4.count).toBe(16);
    expect(fp4.exact).toBe(16);
    expect(numberOf('0x7', 'e2m1')).toBe(6);
  });
});
