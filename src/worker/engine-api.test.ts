import { describe, expect, it } from 'vitest';
import { createEngineApi } from './engine-api.ts';

describe('the worker contract', () => {
  it('evaluates any form from hex registers, 64-bit ones exactly, and answers bad input with an error', () => {
    const api = createEngineApi();
    const add = api.evaluate({ form: 'add.f16', registers: { a: '0x3c00', b: '0x4000' } });
    expect(add.ok && add.result.d).toBe('0x4200');
    const r = api.evaluate({ form: 'cvt.rn.f32.f64', registers: { a: '0x3ff0000000000001' } });
    expect(r.ok && r.result.d).toBe('0x3f800000');
    const e4 = api.evaluate({
      form: 'cvt.rn.satfinite.e4m3x2.f32',
      registers: { a: '0x43fa0000', b: '0x40880000' },
    });
    expect(e4.ok && e4.result.d).toBe('0x7e48'); // 500 → 448, 4.25 → 4
    expect(api.evaluate({ form: 'cvt.rn.f16.f32', registers: { a: '1.5' } })).toEqual({
      ok: false,
      error: "operand a: '1.5' is not 0x… hex",
    });
    expect(api.evaluate({ form: 'cvt.rn.f16.f32', registers: {} })).toMatchObject({
      ok: false,
      error: expect.stringContaining('needs operand a') as unknown,
    });
    expect(api.evaluate({ form: 'div.f16', registers: {} })).toMatchObject({ ok: false });
  });

  it('compares a block under every scheme and rule, and refuses a block of the wrong length', () => {
    const api = createEngineApi();
    const ones = Array<number>(32).fill(0x3f800000);
    const c = api.compareBlock({ values: ones });
    expect(c.ok && c.entries.length).toBe(18);
    expect(api.compareBlock({ values: ones.slice(1) })).toMatchObject({
      ok: false,
      code: 'length',
    });
  });

  it('gives the corner-case table and the spec checks of any form', () => {
    const api = createEngineApi();
    expect(api.cornerTable('add.f16').rows).toHaveLength(225);
    expect(api.cornerTable('cvt.rn.satfinite.e4m3x2.f32').rows).toHaveLength(24);
    expect(api.specCornerChecks('tanh.approx.f16').every((c) => c.agrees)).toBe(true);
  });

  it('sweeps a conversion and an approximation with progress, and stops at the next chunk when cancelled', async () => {
    const api = createEngineApi();
    const reports: number[] = [];
    const sweep = await api.sweep(
      7,
      { form: 'cvt.rn.satfinite.e4m3x2.f16x2', inputs: { kind: 'every-pattern' } },
      (p) => reports.push(p.done),
    );
    expect(sweep).toMatchObject({ count: 65536, cancelled: false });
    expect(reports).toEqual(Array.from({ length: 16 }, (_, i) => (i + 1) * 4096));
    const tanh = await api.sweep(
      9,
      { form: 'tanh.approx.f16', inputs: { kind: 'every-pattern' } },
      () => undefined,
    );
    expect(tanh.bound).not.toBeNull();
    expect(tanh.perInput!.ratio).toHaveLength(65536);
    const progress: number[] = [];
    const pending = api.sweep(
      8,
      { form: 'cvt.rn.f16.f32', inputs: { kind: 'range', from: 0, to: 1, count: 1 << 20 } },
      (p) => {
        progress.push(p.done);
        if (p.done === 65536) api.cancelSweep(8);
      },
    );
    const stopped = await pending;
    expect(stopped).toMatchObject({ cancelled: true, count: 65536 });
    expect(progress).toEqual([65536]);
  });

  it('takes .rs random bits as hex', async () => {
    const api = createEngineApi();
    const request = {
      form: 'cvt.rs.satfinite.e2m1x4.f32',
      inputs: { kind: 'range' as const, from: -7, to: 7, count: 1001 },
    };
    const zero = await api.sweep(1, request, () => undefined);
    const ones = await api.sweep(2, { ...request, rbits: '0xffffffff' }, () => undefined);
    expect(zero.exact).toBe(ones.exact);
    expect(zero.worst).not.toEqual(ones.worst);
  });
});
