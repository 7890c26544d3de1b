import { describe, expect, it } from 'vitest';
import { FORMS } from '../../catalog/all-forms.ts';
import { dyadicOfDouble } from '../double.ts';
import { FORMATS, formatHex, toDouble } from '../format.ts';
import { evaluate } from '../pipeline.ts';
import { roundDyadic } from '../rounding.ts';
import { correctlyRounded } from '../semantics/approx.ts';
import { registersHolding } from './form-registers.ts';
import { SweepError, sweepProblem, sweepsOneInput, SWEPT_OPERATIONS } from './sweep-request.ts';
import { startSweep, sweep } from './sweep.ts';

const every = { kind: 'every-pattern' } as const;

/** The .f16 pattern of a value (rounded to nearest). */
const f16 = (x: number): number =>
  x === -Infinity ? 0xfc00 : Number(roundDyadic(dyadicOfDouble(x), FORMATS.f16, 'rn').bits!);

describe('sweeps of the approximations', () => {
  it('run in chunks, they give what the whole sweep gives', () => {
    const whole = sweep({ form: 'tanh.approx.bf16', inputs: every });
    const run = startSweep({ form: 'tanh.approx.bf16', inputs: every });
    const done: number[] = [];
    while (!run.finished) done.push(run.advance(5000).done);
    expect(done.at(-1)).toBe(65536);
    expect(done).toHaveLength(Math.ceil(65536 / 5000));
    const chunked = run.result(false);
    expect(chunked.worst).toEqual(whole.worst);
    expect(Array.from(chunked.perInput!.ratio!)).toEqual(Array.from(whole.perInput!.ratio!));
    expect(Array.from(chunked.perInput!.unscored!)).toEqual(Array.from(whole.perInput!.unscored!));
    expect(chunked.buckets).toEqual(whole.buckets);
  });

  it('stopped early, the result says so and leaves the rest unscored', () => {
    const run = startSweep({ form: 'ex2.approx.f16', inputs: every });
    run.advance(4096);
    const partial = run.result(true);
    expect(partial).toMatchObject({ cancelled: true, count: 4096, total: 65536 });
    expect(partial.perInput!.ratio!.slice(4096).every(Number.isNaN)).toBe(true);
  });

  it('do not score a relative bound where the exact value is below the least normal', () => {
    const s = sweep({ form: 'ex2.approx.f16', inputs: every });
    const { ratio, unscored } = s.perInput!;
    expect(s.bound).toMatchObject({ kind: 'relative' });
    // 2^-2000 underflows even a double; 2^-100 and 2^-14.5 do not; all are below 2^-14.
    for (const x of [-2000, -100, -25, -14.5]) {
      expect(unscored![f16(x)], String(x)).toBe(1);
      expect(ratio![f16(x)], String(x)).toBeNaN();
    }
    expect(unscored![f16(-14)]).toBe(0); // 2^-14 is the least normal: scored
    expect(ratio![f16(1)]).toBe(0); // 2^1 is exact
    expect(ratio![f16(-Infinity)]).toBe(0); // 2^-inf = +0 exactly, as the spec's table says
    expect(unscored![f16(-Infinity)]).toBe(0);
    // The correctly rounded model meets the bound wherever it is scored (and some are scored).
    expect(s.worst!.ratio).toBeGreaterThan(0);
    expect(s.worst!.ratio).toBeLessThanOrEqual(1);
    expect(s.measuredOn).toBeNull();
  });

  it('ex2.approx.ftz.bf16: flushed tiny results are not scored; the rest meet the bound', () => {
    const s = sweep({ form: 'ex2.approx.ftz.bf16', inputs: every });
    expect(s.worst!.ratio).toBeGreaterThan(0);
    expect(s.worst!.ratio).toBeLessThanOrEqual(1);
    expect(s.perInput!.unscored!.reduce((n, u) => n + u, 0)).toBeGreaterThan(0);
  });

  it('an absolute bound (tanh) scores every finite input', () => {
    const s = sweep({ form: 'tanh.approx.f16', inputs: every });
    expect(s.perInput!.unscored!.every((u) => u === 0)).toBe(true);
    // Every input but the 2,046 NaNs has a ratio (±inf too: tanh(±inf) = ±1 exactly).
    expect(s.perInput!.ratio!.filter(Number.isFinite).length).toBe(65536 - 2046);
    expect(s.classes.nan).toBe(2046);
    expect(s.worst!.ratio).toBeGreaterThan(0);
    expect(s.worst!.ratio).toBeLessThanOrEqual(1);
  });

  it("each input's result is the pipeline's (every 61st pattern of every approximate form)", () => {
    for (const form of FORMS.filter((f) => f.operation === 'tanh' || f.operation === 'ex2')) {
      const s = sweep({ form: form.text, inputs: every });
      const dest = FORMATS[form.elements[0]!.dest.format];
      for (let i = 0; i < 65536; i += 61) {
        const direct = evaluate(form, registersHolding(form, [BigInt(i)]));
        const bits = BigInt(direct.elements[0]!.result);
        expect(Object.is(s.perInput!.result[i], toDouble(bits, dest)), `${form.text} ${i}`).toBe(
          true,
        );
      }
    }
  });

  it('with measured tables, scores the measured results and says where they come from', () => {
    // A stand-in "measurement": the model's result one pattern up wherever it is finite and
    // positive, so each such result is one ulp off.
    const f = FORMATS.f16;
    const results = new Uint16Array(65536);
    for (let i = 0; i < 65536; i++) {
      const model = correctlyRounded('tanh', BigInt(i), f);
      results[i] = Number(model) + (model > 0n && model < 0x3c00n ? 1 : 0);
    }
    const options = { approxTables: { 'tanh.f16': { results, measuredOn: 'a test' } } };
    const model = sweep({ form: 'tanh.approx.f16', inputs: every });
    const measured = sweep({ form: 'tanh.approx.f16', inputs: every }, options);
    expect(measured.measuredOn).toBe('a test');
    expect(measured.worst!.ratio!).toBeGreaterThan(model.worst!.ratio!);
    const i = f16(0.5);
    expect(measured.perInput!.result[i]).toBe(toDouble(BigInt(results[i]!), f));
  });
});

describe('sweeps of cvt', () => {
  it('every .f16 pattern into e4m3 (.satfinite): the traced pipeline agrees on every input', () => {
    const form = 'cvt.rn.satfinite.e4m3x2.f16x2';
    const s = sweep({ form, inputs: every });
    expect(s.count).toBe(65536);
    // Independently: the pipeline on each pattern, in element 0 (the upper half of a).
    const classes = { nan: 0, infinity: 0, zero: 0, subnormal: 0, normal: 0 };
    const buckets = new Map<string, { count: number; lo: number; hi: number }>();
    for (let i = 0; i < 65536; i++) {
      const out = evaluate(form, { a: BigInt(i) << 16n }).elements[0]!;
      const last = out.steps.at(-1)!;
      if (last.kind !== 'result') throw new Error('the last step writes the result');
      const cls = last.result.class;
      classes[cls === 'qnan' || cls === 'snan' ? 'nan' : cls]++;
      const x = toDouble(BigInt(i), FORMATS.f16);
      if (x !== x) continue;
      const b = buckets.get(out.result) ?? { count: 0, lo: Infinity, hi: -Infinity };
      buckets.set(out.result, {
        count: b.count + 1,
        lo: Math.min(b.lo, x),
        hi: Math.max(b.hi, x),
      });
    }
    expect(s.classes).toEqual(classes);
    expect(s.buckets!.length).toBe(buckets.size);
    for (const b of s.buckets!)
      expect({ count: b.count, lo: b.lo, hi: b.hi }, `bucket ${b.bits}`).toEqual(
        buckets.get(b.bits),
      );
    // 448 takes everything from its lower tie (432) up, the infinities and beyond-range values.
    const max = s.buckets!.find((b) => b.bits === '0x7e')!;
    expect([max.lo, max.hi]).toEqual([432, Infinity]);
    expect(max.maxError).toBe(65504 - 448);
    expect(s.saturated).toBeGreaterThan(0);
    expect(s.plot).toBeNull();
    expect(s.bound).toBeNull();
  });

  it('a million .f32 values into e4m3: plot columns, saturation, the worst error', () => {
    const s = sweep({
      form: 'cvt.rn.satfinite.e4m3x2.f32',
      inputs: { kind: 'range', from: -500, to: 500, count: 1 << 20 },
    });
    expect(s.count).toBe(1 << 20);
    const step = 1000 / ((1 << 20) - 1);
    // Inputs past ±448 are clamped: those above 464 (the tie goes to 448 anyway) and up to it.
    const beyond = Math.floor(52 / step) * 2;
    expect(Math.abs(s.saturated - beyond)).toBeLessThanOrEqual(4);
    expect(s.overflowed).toBe(0);
    expect(Math.abs(s.worst!.error)).toBeCloseTo(52, 0); // at ±500, clamped to ±448
    expect(s.worst).toMatchObject({ index: 0, input: -500, result: -448, ratio: null });
    const plot = s.plot!;
    expect(plot.resultMin.length).toBe(512);
    expect(plot.resultMax[511]).toBe(448);
    expect(plot.resultMin[0]).toBe(-448);
    // Between 256 and 448 e4m3 values are 32 apart: the error is at most 16 there.
    for (let c = 0; c < 512; c++) {
      const x = -500 + ((c + 0.5) / 512) * 1000;
      if (Math.abs(x) > 260 && Math.abs(x) < 440)
        expect(Math.max(-plot.errorMin[c]!, plot.errorMax[c]!)).toBeLessThanOrEqual(16);
    }
    // The buckets hold every value.
    expect(s.buckets!.reduce((n, b) => n + b.count, 0)).toBe(1 << 20);
    expect(s.perInput).toBeNull();
  });

  it('reports progress in chunks, stops when cancelled, and refuses what it cannot sweep', () => {
    const run = startSweep({
      form: 'cvt.rn.f16.f32',
      inputs: { kind: 'range', from: 0, to: 1, count: 100000 },
    });
    expect(run.advance(65536)).toEqual({ done: 65536, total: 100000 });
    expect(run.result(true)).toMatchObject({ cancelled: true, count: 65536 });
    const form = FORMS.find((f) => f.text === 'cvt.rn.f16.f32')!;
    expect(sweepProblem(form, every)).toEqual({
      code: 'too-many-patterns',
      format: 'f32',
      width: 32,
      maxValues: 1 << 20,
    });
    expect(sweepProblem(form, { kind: 'range', from: 1, to: 0, count: 10 })).toMatchObject({
      code: 'range-empty',
    });
    expect(sweepProblem(form, { kind: 'range', from: 0, to: 1, count: 2 ** 21 })).toMatchObject({
      code: 'range-count',
      max: 1 << 20,
    });
    expect(sweepProblem(form, { kind: 'range', from: 0, to: NaN, count: 9 })).toMatchObject({
      code: 'range-not-finite',
    });
    const fromE4m3 = FORMS.find((f) => f.text === 'cvt.rn.f16x2.e4m3x2')!;
    expect(sweepProblem(fromE4m3, { kind: 'range', from: 0, to: 1, count: 10 })).toMatchObject({
      code: 'range-needs-f32-or-f64',
      format: 'e4m3',
    });
    expect(() => sweep({ form: 'add.f16', inputs: every })).toThrow(SweepError);
    try {
      sweep({ form: 'nonsense', inputs: every });
    } catch (e) {
      expect(e).toBeInstanceOf(SweepError);
      expect((e as SweepError).problem).toEqual({ code: 'unknown-form', form: 'nonsense' });
    }
    expect(() => sweep({ form: 'cvt.rs.satfinite.e4m3x4.f32', inputs: every, rbits: -1n })).toThrow(
      SweepError,
    );
  });

  it('ue8m0 has no zero; e2m1 every pattern; f64 and .rs sources and destinations', () => {
    // 0 gives ue8m0's least value; the sweep counts it as a normal value.
    const ue = sweep({
      form: 'cvt.rz.satfinite.ue8m0x2.f32',
      inputs: { kind: 'range', from: 0, to: 4, count: 5 },
    });
    expect(ue.buckets!.map((b) => [b.value, b.count])).toEqual([
      [2 ** -127, 1],
      [1, 1],
      [2, 2],
      [4, 1],
    ]);
    expect(ue.classes).toMatchObject({ zero: 0, normal: 5 });
    const fp4 = sweep({ form: 'cvt.rn.f16x2.e2m1x2', inputs: every });
    expect(fp4.count).toBe(16);
    expect(fp4.exact).toBe(16);
    expect(fp4.buckets!.map((b) => b.bits)).toContain(formatHex(0x4600n, FORMATS.f16)); // 6
    // .f64 to .f32: 2^-149 × 1.5 is a tie between the two least subnormals (to even: 2^-148).
    const least = 2 ** -149;
    const f64 = sweep({
      form: 'cvt.rn.f32.f64',
      inputs: { kind: 'range', from: least, to: 2 * least, count: 3 },
    });
    expect(f64.classes).toMatchObject({ subnormal: 3 });
    expect(f64.worst).toMatchObject({ input: 1.5 * least, result: 2 * least });
    // .f32 to .f64 is exact.
    const wide = sweep({
      form: 'cvt.f64.f32',
      inputs: { kind: 'range', from: -1e30, to: 1e30, count: 1001 },
    });
    expect(wide.exact).toBe(1001);
    expect(wide.buckets).toBeNull();
    // .rs with every random bit set rounds every inexact input away from zero.
    const up = sweep({
      form: 'cvt.rs.satfinite.e4m3x4.f32',
      inputs: { kind: 'range', from: 1, to: 1.125, count: 1001 },
      rbits: 0xffffffffn,
    });
    const down = sweep({
      form: 'cvt.rs.satfinite.e4m3x4.f32',
      inputs: { kind: 'range', from: 1, to: 1.125, count: 1001 },
    });
    expect(up.buckets!.map((b) => b.value)).toEqual([1, 1.125]);
    expect(down.buckets!.map((b) => [b.value, b.count])).toEqual([
      [1, 1000],
      [1.125, 1],
    ]);
  });
});

describe('sweeps of neg and abs', () => {
  it('are exact on every input that is a number', () => {
    const neg = sweep({ form: 'neg.f16', inputs: every });
    expect(neg.exact).toBe(65536 - 2046);
    expect(neg.worst).toMatchObject({ error: 0, ratio: null });
    expect(neg.bound).toBeNull();
    const abs = sweep({ form: 'abs.bf16x2', inputs: every });
    expect(abs.exact).toBe(65536 - 254);
  });

  it('every form the sweep takes is a single-input form', () => {
    for (const form of FORMS) {
      const swept = sweepProblem(form, every)?.code !== 'not-single-input';
      expect(swept, form.text).toBe(
        SWEPT_OPERATIONS.includes(form.operation) && form.elements[0]!.inputs.length === 1,
      );
      expect(swept, form.text).toBe(form.elements.every((e) => e.inputs.length === 1));
    }
  });
});

describe('sweeps into 32-bit destinations', () => {
  it('count the classes of .f32 results by value: every .f16 subnormal is an .f32 normal', () => {
    const s = sweep({ form: 'cvt.f32.f16', inputs: every });
    expect(s.classes).toEqual({ nan: 2046, infinity: 2, zero: 2, subnormal: 0, normal: 63486 });
    expect(s.exact).toBe(65536 - 2046);
    const tf32 = sweep({
      form: 'cvt.rna.satfinite.tf32.f32',
      inputs: { kind: 'range', from: -1e-38, to: 1e-38, count: 1001 },
    });
    // |x| < 2^-126 ≈ 1.18e-38: every input is subnormal in .tf32 but the zero in the middle.
    expect(tf32.classes).toMatchObject({ subnormal: 1000, zero: 1, normal: 0 });
  });
});

describe('which forms have a sweep', () => {
  it('one input per element of an operation the sweep runs: cvt, tanh, ex2, neg and abs', () => {
    const swept = FORMS.filter(sweepsOneInput);
    expect(swept.length).toBeGreaterThan(0);
    for (const form of FORMS) {
      const one =
        SWEPT_OPERATIONS.includes(form.operation) && form.elements[0]!.inputs.length === 1;
      expect(sweepsOneInput(form), form.text).toBe(one);
      // The sweep's own refusal says the same.
      expect(sweepProblem(form, every)?.code === 'not-single-input', form.text).toBe(!one);
    }
    expect(swept.some((f) => f.opcode === 'add')).toBe(false);
    expect(swept.some((f) => f.opcode === 'tanh')).toBe(true);
  });
});
