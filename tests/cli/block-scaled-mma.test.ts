/**
 * `ptxf eval` and `ptxf batch` on the block-scaled mma forms: A's row, B's column and c as for
 * every mma form, and the scales of the row and of the column (--scale-a / --scale-b, or after c;
 * "scale_a" / "scale_b" on a batch line), one per chunk of .scale_vec_size. The answer is the
 * pipeline's; a wrong count, a bad element or a target without the form is a structured error.
 */
import { describe, expect, it } from 'vitest';
import { findForm } from '../../src/catalog/all-forms.ts';
import { evaluate } from '../../src/engine/pipeline.ts';
import { batch, expectEvalRefused, run } from './mma-cli.ts';

const MXF8 = 'mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.f32.e4m3.e4m3.f32.ue8m0';
const NVF4 =
  'mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3';
// 32 × 1 × 1 scaled by 2^1 × 2^-3, plus c = 0.5: 8.5.
const ONES_E4M3 = Array<string>(32).fill('0x38');
// 64 e2m1 ones; UE4M3 scales 1, 2, 0.5 and 0xb8 (-1 with the sign bit, which is ignored): 72.
const ONES_E2M1 = Array<string>(64).fill('1');
const NV_SCALE_A = ['0x38', '0x40', '0x30', '0xb8'];
const NV_SCALE_B = ['1', '1', '1', '1'];

describe('ptxf eval of a block-scaled mma element', () => {
  it('takes the scales by flag or after c, and prints d, the model and the block-scale step', async () => {
    const common = [ONES_E4M3.join(','), ONES_E4M3.join(','), '0.5'];
    const byFlag = await run(
      'eval',
      MXF8,
      ...common,
      '--scale-a',
      '0x80',
      '--scale-b',
      '0x7c',
      '--target',
      'sm_120a',
    );
    expect(byFlag.status).toBe(0);
    expect(byFlag.out[0]).toBe(`${MXF8}  →  d = 0x41080000`);
    expect(byFlag.out.find((l) => l.startsWith('  summary: '))).toContain(
      'RTX Blackwell model on sm_120a: 1 scale of A and of B',
    );
    expect(byFlag.out.find((l) => l.startsWith('  reference: '))).toContain('exact 8.5');
    expect(byFlag.out.find((l) => l.startsWith('  what if: '))).toBe(
      '  what if: Exact c + Σ (a_i·SF_A)·(b_i·SF_B) = 8.5; d is exact',
    );
    expect(byFlag.out.join('\n')).toContain(
      'Block scaling: .kind::mxf8f6f4, .scale_vec::1X (1 scale each, 32 elements per scale)',
    );
    const positional = await run('eval', MXF8, ...common, '0x80', '0x7c', '--target', 'sm_120a');
    expect(positional.out).toEqual(byFlag.out);
  });

  it('reads UE4M3 scales as bytes (the sign bit ignored) or values, as the pipeline does', async () => {
    const r = await run(
      'eval',
      NVF4,
      ONES_E2M1.join(','),
      ONES_E2M1.join(','),
      '0',
      '--scale-a',
      NV_SCALE_A.join(','),
      '--scale-b',
      NV_SCALE_B.join(','),
      '--target',
      'sm_121a',
      '--json',
    );
    const answer = JSON.parse(r.out[0]!) as { ok: boolean; d: string };
    expect(answer).toMatchObject({ ok: true, d: '0x42900000' });
    const form = findForm(NVF4)!;
    const ones = BigInt('0x' + '2'.repeat(64));
    const direct = evaluate(
      form,
      { a: ones, b: ones, c: 0n, scale_a: 0xb8304038n, scale_b: 0x38383838n },
      { target: 'sm_121a' },
    );
    expect(direct.d).toBe(answer.d);
  });

  it.each<[string, string[], string, string]>([
    [
      'a scale too many',
      ['--scale-a', '0x7f,0x7f', '--scale-b', '0x7f', '--target', 'sm_120a'],
      'operand',
      'scale_a is a list of 1 .ue8m0 elements; 2 given',
    ],
    [
      'a bad scale',
      ['--scale-a', 'zz', '--scale-b', '0x7f', '--target', 'sm_120a'],
      'operand',
      'operand scale_a: scale_a[0]:',
    ],
    [
      'a missing scale',
      ['--scale-a', '0x7f', '--target', 'sm_120a'],
      'operand',
      'takes 4 operands (a, b, c, scale_b); 3 given',
    ],
    [
      'a target without block scaling',
      ['--scale-a', '0x7f', '--scale-b', '0x7f', '--target', 'sm_90'],
      'target',
      'is not valid for sm_90',
    ],
  ])('refuses %s with a structured error', async (_what, flags, code, message) => {
    const elements = [ONES_E4M3.join(','), ONES_E4M3.join(','), '0'];
    await expectEvalRefused([MXF8, ...elements, ...flags], code, message);
  });

  it('refuses scales on a form without .block_scale', async () => {
    const r = await run(
      'eval',
      'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32',
      '1',
      '1',
      '1',
      '--scale-a',
      '0x7f',
      '--json',
    );
    expect(r.status).toBe(1);
    expect(JSON.parse(r.out[0]!)).toMatchObject({
      ok: false,
      error: { code: 'operand', message: expect.stringContaining('"scale_a" is not one of them') },
    });
  });
});

describe('ptxf batch lines of a block-scaled mma element', () => {
  it('answers d with "scale_a" and "scale_b", the trace on request, and structured errors', async () => {
    const line = {
      instr: NVF4,
      target: 'sm_120a',
      a: ONES_E2M1,
      b: ONES_E2M1,
      c: '0x00000000',
      scale_a: NV_SCALE_A,
      scale_b: NV_SCALE_B,
    };
    const r = await batch(
      { id: 1, ...line },
      { id: 2, ...line, trace: true },
      { id: 3, ...line, scale_a: NV_SCALE_A.slice(1) },
      { id: 4, ...line, scale_b: ['0x38', '0x38', '0x38', 'x'] },
      { id: 5, ...line, target: 'sm_100a' },
      { id: 6, ...line, scale_b: undefined },
      { id: 7, ...line, target: undefined },
    );
    expect(r.status).toBe(1);
    expect(r.answers[0]).toEqual({ id: 1, ok: true, d: '0x42900000' });
    const steps = (r.answers[1]!.steps as { kind: string }[][])[0]!.map((s) => s.kind);
    expect(steps).toEqual(['inputs', 'tensor-model', 'block-scale', 'result']);
    const errors = r.answers.slice(2).map((a) => (a.error as { code: string }).code);
    expect(errors).toEqual(['operand', 'operand', 'target', 'operand', 'target']);
    expect(JSON.stringify(r.answers[2])).toContain(
      'scale_a is a list of 4 .ue4m3 elements; 3 given',
    );
    expect(JSON.stringify(r.answers[3])).toContain('scale_b[3]');
    expect(JSON.stringify(r.answers[6])).toContain('the default sm_90');
  });
});
