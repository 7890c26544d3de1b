import { describe, expect, it } from 'vitest';
import { createEngineApi } from './engine-api.ts';

describe('the worker contract for cvt', () => {
  it('evaluates from hex registers, 64-bit ones exactly, and answers bad input with an error', () => {
    const api = createEngineApi();
    const r = api.evaluateCvt({ form: 'cvt.rn.f32.f64', registers: { a: '0x3ff0000000000001' } });
    expect(r.ok && r.result.d).toBe('0x3F800000');
    const e4 = api.evaluateCvt({
      form: 'cvt.rn.satfinite.e4m3x2.f32',
      registers: { a: '0x43fa0000', b: '0x40880000' },
    });
    expect(e4.ok && e4.result.d).toBe('0x7E48'); // 500 → 448, 4.25 → 4
    expect(api.evaluateCvt({ form: 'cvt.rn.f16.f32', registers: { a: '1.5' } })).toEqual({
      ok: false,
      error: "operand a: '1.5' is not 0x… hex",
    });
    expect(api.evaluateCvt({ form: 'cvt.rn.f16.f32', registers: {} })).toMatchObject({
      ok: false,
      error: expect.stringContaining('needs operand a') as unknown,
    });
  });

  it('sweeps with progress and stops at the next chunk when cancelled', async () => {
    const api = createEngineApi();
    const reports: number[] = [];
    const sweep = await api.cvtSweep(
      7,
      { form: 'cvt.rn.satfinite.e4m3x2.f16x2', inputs: { kind: 'every-pattern' } },
      (p) => reports.push(p.done),
    );
    expect(sweep).toMatchObject({ count: 65536, cancelled: false });
    expect(reports).toEqual([65536]);
    const progress: number[] = [];
    const pending = api.cvtSweep(
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
});
