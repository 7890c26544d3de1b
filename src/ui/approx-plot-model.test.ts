import { describe, expect, it } from 'vitest';
import { sweep } from '../engine/analysis/index.ts';
import { FORMATS, toDouble } from '../engine/format.ts';
import { evaluate } from '../engine/pipeline.ts';
import {
  columnsOf,
  cursorAfterKey,
  finiteValueOrder,
  inAllowedSet,
  inputsOverBound,
  powerOfTwoLabel,
  summarize,
  valuesBetween,
  visibleErrorRange,
  yScaleFor,
} from './approx-plot-model.ts';

describe('finite value order', () => {
  for (const name of ['f16', 'bf16'] as const) {
    it(`${name}: visits every finite pattern once, in non-decreasing value, and inverts`, () => {
      const f = FORMATS[name];
      const order = finiteValueOrder(f);
      const seen = new Set<number>();
      const problems: number[] = [];
      let previous = -Infinity;
      for (let r = 0; r < order.count; r++) {
        const bits = order.bitsAt(r);
        const v = toDouble(BigInt(bits), f);
        if (!Number.isFinite(v) || v < previous || order.rankOf(bits) !== r) problems.push(r);
        previous = v;
        seen.add(bits);
      }
      expect(problems).toEqual([]);
      let finite = 0;
      for (let bits = 0; bits < 65536; bits++)
        if (Number.isFinite(toDouble(BigInt(bits), f))) finite++;
      expect(seen.size).toBe(finite);
      expect(order.rankOf(Number(f.infBits))).toBeNull();
      expect(order.rankOf(0x7fff)).toBeNull();
    });
  }
});

describe('columns, range, summary', () => {
  const order = finiteValueOrder(FORMATS.f16);
  const ratio = new Float64Array(65536).fill(NaN);
  const one = 0x3c00;
  const two = 0x4000;
  ratio[one] = 0.3;
  ratio[two] = 2;
  ratio[0x3c01] = 0.9;

  it('each column keeps its largest ratio and the input that has it', () => {
    const columns = columnsOf(ratio, order, 1);
    expect(columns).toEqual([{ worst: 2, worstInput: two, unscored: false }]);
    const zoomed = columnsOf(ratio, order, 2, {
      from: order.rankOf(one)!,
      to: order.rankOf(0x3c02)!,
    });
    expect(zoomed).toEqual([
      { worst: 0.3, worstInput: one, unscored: false },
      { worst: 0.9, worstInput: 0x3c01, unscored: false },
    ]);
  });

  it('a column with only unscored inputs says so; one with a scored input does not', () => {
    const unscored = new Uint8Array(65536);
    unscored[0x0001] = 1;
    unscored[0x3c02] = 1;
    const view = (from: number, to: number) => ({
      from: order.rankOf(from)!,
      to: order.rankOf(to)!,
    });
    expect(columnsOf(ratio, order, 1, view(0x0001, 0x0002), unscored)[0]!.unscored).toBe(true);
    expect(columnsOf(ratio, order, 1, view(0x0002, 0x0003), unscored)[0]!.unscored).toBe(false);
    expect(columnsOf(ratio, order, 1, view(0x3c01, 0x3c03), unscored)[0]!.unscored).toBe(false);
  });

  it('zooms to the inputs whose error shows, with a margin', () => {
    const range = visibleErrorRange(ratio, order);
    expect(range.from).toBeLessThan(order.rankOf(one)!);
    expect(range.to).toBeGreaterThan(order.rankOf(two)!);
    expect(range.to - range.from).toBeLessThan(order.count / 10);
  });

  it('counts within and over the bound', () => {
    expect(summarize(ratio)).toEqual({ plotted: 3, withinBound: 2, overBound: 1, unscored: 0 });
    const unscored = new Uint8Array(65536);
    unscored[0x0001] = 1;
    expect(summarize(ratio, unscored).unscored).toBe(1);
  });
});

describe('axes and allowed values', () => {
  it('linear while errors are near the bound, log2 for outliers', () => {
    expect(yScaleFor(0.5).kind).toBe('linear');
    const log = yScaleFor(955);
    expect(log.kind).toBe('log2');
    expect(log.position(955)).toBeLessThanOrEqual(1);
    expect(log.position(1)).toBeGreaterThan(0);
    expect(log.ticks).toContain(1);
  });

  it('labels powers of two with superscripts', () => {
    expect(powerOfTwoLabel(-6)).toBe('2⁻⁶');
    expect(powerOfTwoLabel(9)).toBe('2⁹');
  });

  it('lists an allowed interval in value order, across zero', () => {
    expect(valuesBetween('0x3a17', 2, 'f16')).toEqual(['0x3a17', '0x3a18']);
    expect(valuesBetween('0x8001', 3, 'f16')).toEqual(['0x8001', '0x0000', '0x0001']);
    expect(valuesBetween('0x0001', 0, 'f16')).toEqual([]); // an empty allowed set lists nothing
  });
});

describe('column cursor keys', () => {
  it('arrows move one column, Shift ten, Home and End jump; the ends hold', () => {
    expect(cursorAfterKey('ArrowRight', false, null, 99)).toBe(1);
    expect(cursorAfterKey('ArrowRight', true, 5, 99)).toBe(15);
    expect(cursorAfterKey('ArrowLeft', true, 5, 99)).toBe(0);
    expect(cursorAfterKey('ArrowRight', true, 95, 99)).toBe(99);
    expect(cursorAfterKey('Home', false, 40, 99)).toBe(0);
    expect(cursorAfterKey('End', false, null, 99)).toBe(99);
    expect(cursorAfterKey('Enter', false, 40, 99)).toBeNull();
    expect(cursorAfterKey('a', false, 40, 99)).toBeNull();
  });
});

describe('measured results on the plot', () => {
  const order = finiteValueOrder(FORMATS.bf16);
  const inputs = { kind: 'every-pattern' as const };
  const model = sweep({ form: 'tanh.approx.bf16', inputs });
  /** A table of the model's own results, where `off` changes one of them. */
  const table = (off: Readonly<Record<number, number>> = {}) => {
    const results = new Uint16Array(65536);
    for (let i = 0; i < 65536; i++)
      results[i] = off[i] ?? Number(evaluate('tanh.approx.bf16', { a: BigInt(i) }).d);
    return { 'tanh.bf16': { results, measuredOn: 'a test table' } };
  };

  it("scores the model's own results, given as a table, as the model sweep does", () => {
    const same = sweep({ form: 'tanh.approx.bf16', inputs }, { approxTables: table() });
    expect(same.measuredOn).toBe('a test table');
    const differing: number[] = [];
    for (let i = 0; i < 65536; i++) {
      const a = same.perInput!.ratio![i]!;
      const b = model.perInput!.ratio![i]!;
      if (!(Number.isNaN(a) && Number.isNaN(b)) && Math.abs(a - b) > 1e-12) differing.push(i);
    }
    expect(differing).toEqual([]);
    expect(same.worst).toEqual(model.worst);
    expect(inputsOverBound(same.perInput!.ratio!, order)).toEqual([]);
  });

  it('marks a result more than the bound away, and only that one', () => {
    // tanh(0x3f3f) = 0.6328…: 0x3f21 (0.6289…) is 0.0039 away, over the bound 2^-8.
    const off = sweep(
      { form: 'tanh.approx.bf16', inputs },
      { approxTables: table({ 0x3f3f: 0x3f21 }) },
    );
    const ratio = off.perInput!.ratio!;
    expect(inputsOverBound(ratio, order)).toEqual([0x3f3f]);
    expect(off.worst!.index).toBe(0x3f3f);
    expect(ratio[0x3f3f]).toBeGreaterThan(1);
    expect(ratio[0x3f3f]).toBeLessThan(1.01);
  });

  it('judges a result against the allowed set of the trace', () => {
    const step = evaluate('tanh.approx.bf16', { a: 0x3f3fn }).elements[0]!.steps.find(
      (s) => s.kind === 'approx',
    );
    if (step?.kind !== 'approx') throw new Error('no approx step');
    expect(step.allowed).toMatchObject({ lowest: '0x3f22', highest: '0x3f23', count: 2 });
    expect(
      ['0x3f21', '0x3f22', '0x3f23', '0x3f24'].map((b) => inAllowedSet(b, step.allowed, 'bf16')),
    ).toEqual([false, true, true, false]);
    expect(inAllowedSet('0x7fff', step.allowed, 'bf16')).toBe(false);
    expect(inAllowedSet('0x3f22', { ...step.allowed, count: 0 }, 'bf16')).toBe(false);
  });
});
