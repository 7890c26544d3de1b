/**
 * `ptxf eval` and `ptxf check` on the matrix forms: A's row and B's column as lists, C's element;
 * the result is the pipeline's under the target's tensor-core model (Ampere's n = 24 against
 * Hopper's n = 25 tells them apart), the trace is the one step text, and a wrong count, a bad
 * element or a target no model covers is a structured error.
 */
import { describe, expect, it } from 'vitest';
import { findForm } from '../../src/catalog/all-forms.ts';
import { matrixRegisters } from '../../src/engine/matrix-registers.ts';
import { evaluate } from '../../src/engine/pipeline.ts';
import { traceText } from '../../src/present/step-text.ts';
import { traceWords } from '../../src/present/step-words.ts';
import { decision } from '../../src/engine/decisions.ts';
import { batch, expectEvalRefused, run } from './mma-cli.ts';

const FORM = 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32';
// c = 1 and four products 2^-12 × 2^-13 = 2^-25: Hopper keeps 25 fractional bits below 2^E, so
// they add up to 2^-23, one ulp of 1; Ampere keeps 24 and cuts each of them to 0.
const A = ['0x0c00', '0x0c00', '0x0c00', '0x0c00', ...Array<string>(12).fill('0')];
const B = ['0x0800', '0x0800', '0x0800', '0x0800', ...Array<string>(12).fill('0')];

function pipeline(target: string) {
  const form = findForm(FORM)!;
  const bits = (list: string[]) => list.map((t) => BigInt(t));
  const r = matrixRegisters(form, { a: bits(A), b: bits(B), c: 0x3f800000n });
  if (!r.ok) throw new Error(r.error.message);
  return evaluate(form, r.registers, { target });
}

describe('ptxf eval of an mma element', () => {
  it.each([
    ['sm_80', '0x3f800000', 'Ampere model on sm_80'],
    ['sm_90', '0x3f800001', 'Hopper model on sm_90'],
  ])(
    'on %s gives %s, with the model named and the steps in the one step text',
    async (target, d, model) => {
      const r = await run('eval', FORM, A.join(','), B.join(','), '1', '--target', target);
      expect(r.status).toBe(0);
      expect(r.out[0]).toBe(`${FORM}  →  d = ${d}`);
      expect(r.out.find((l) => l.startsWith('  summary: '))).toContain(model);
      const result = pipeline(target);
      expect(result.d).toBe(d);
      const steps = traceText(traceWords(result, decision));
      expect(r.out.join('\n')).toContain(steps.join('\n'));
      expect(steps.join('\n')).toMatch(/Tensor-core model: .*\n(.*\n)*.*Line up with 2\^E/);
    },
  );

  it('prints the exact value and the f32 and f64 loops of fma.rn beside the tensor core', async () => {
    // c = 1 and four 2^-25: each fma.rn.f32 at 1 drops a quarter ulp; f64 keeps them, as Hopper.
    const r = await run('eval', FORM, A.join(','), B.join(','), '1', '--target', 'sm_90');
    const at = r.out.findIndex((l) => l.startsWith('  what if: '));
    expect(r.out.slice(at, at + 3)).toEqual([
      '  what if: Exact c + Σ a_i·b_i = 1.0000001192092895…; d is exact',
      '    A loop of fma.rn.f32 from acc = c gives 1 (f32 0x3f800000), 1 ulp below the tensor core: 4 of its 16 fmas rounded to nearest even (-1 ulp from the exact value in all); the tensor core cuts each term to 25 fractional bits below the largest and rounds the sum once toward zero (exact here).',
      '    A loop of fma.rn.f64 from acc = c gives 1.0000001192092895… (f64 0x3ff0000020000000), the same value as the tensor core: none of its 16 fmas rounded, so it holds the exact value; the tensor core cuts each term to 25 fractional bits below the largest and rounds the sum once toward zero (exact here).',
    ]);
    const json = await run('eval', FORM, A.join(','), B.join(','), '1', '--json');
    const answer = JSON.parse(json.out[0]!) as { loops: Record<string, unknown> };
    expect(answer.loops).toEqual({
      f32: {
        ok: true,
        result: '0x3f800000',
        inResultFormat: '0x3f800000',
        rounded: 4,
        ulpsFromTensorCore: -1,
        ulpsFromExact: -1,
      },
      f64: {
        ok: true,
        result: '0x3ff0000020000000',
        inResultFormat: '0x3f800001',
        rounded: 0,
        ulpsFromTensorCore: 0,
        ulpsFromExact: 0,
      },
    });
  });

  it('--json carries d and the trace; a value a format cannot hold exactly is noted', async () => {
    const a = ['0.1', ...A.slice(1)].join(',');
    const r = await run('eval', FORM, a, B.join(','), '1', '--json');
    const answer = JSON.parse(r.out[0]!) as { ok: boolean; d: string; stored: string[] };
    expect(answer.ok).toBe(true);
    expect(answer.d).toMatch(/^0x[0-9a-f]{8}$/);
    expect(answer.stored).toEqual([
      'a[0] = 0.1: 0.1 is not an f16 value: stored 0x2e66 = 0.0999755859375 (rounded to nearest even; error -2.44140625e-5)',
      'c = 1: stored 0x3f800000 = 1',
    ]);
  });

  it.each<[string, string[], string, string]>([
    [
      'a row one short',
      [A.slice(1).join(','), B.join(','), '1'],
      'operand',
      'a is a list of 16 .f16 elements; 15 given',
    ],
    [
      'a bad element',
      [A.join(','), ['zz', ...B.slice(1)].join(','), '1'],
      'operand',
      'operand b: b[0]:',
    ],
    [
      'a target no model covers',
      [A.join(','), B.join(','), '1', '--target', 'sm_60'],
      'target',
      'no published tensor-core model covers sm_60',
    ],
  ])('refuses %s with a structured error', async (_what, args, code, message) => {
    await expectEvalRefused([FORM, ...args], code, message);
  });
});

describe('ptxf check of an mma form', () => {
  it('names the target and PTX ISA version the form needs', async () => {
    const fp8 = 'mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32';
    const refused = await run('check', fp8, '--target', 'sm_80');
    expect(refused.status).toBe(1);
    expect(refused.out.join('\n')).toContain('minimal target: sm_89, minimal PTX ISA: 8.7');
    const valid = await run('check', FORM, '--target', 'sm_80');
    expect(valid.status).toBe(0);
    expect(valid.out.join('\n')).toContain('minimal target: sm_80, minimal PTX ISA: 7.0');
  });
});

describe('ptxf batch lines of an mma element', () => {
  it('answers d under the line target’s model, the trace on request, and structured errors', async () => {
    const line = { instr: FORM, a: A, b: B, c: '0x3f800000' };
    const r = await batch(
      { id: 1, ...line, target: 'sm_80' },
      { id: 2, ...line, target: 'sm_90' },
      { id: 3, ...line, target: 'sm_90', trace: true },
      { id: 4, ...line, a: ['1'] },
      { id: 5, ...line, b: [1, ...B.slice(1)] },
      { id: 6, instr: 'add.f16', a: ['1'], b: '1' },
      { id: 7, ...line, target: 'sm_60' },
    );
    expect(r.status).toBe(1);
    expect(r.answers.slice(0, 2)).toEqual([
      { id: 1, ok: true, d: pipeline('sm_80').d },
      { id: 2, ok: true, d: pipeline('sm_90').d },
    ]);
    expect(r.answers[0]!.d).not.toBe(r.answers[1]!.d);
    expect(r.answers[2]!.steps).toEqual(pipeline('sm_90').elements.map((e) => e.steps));
    const errors = r.answers.slice(3).map((a) => (a.error as { code: string }).code);
    expect(errors).toEqual(['operand', 'operand', 'operand', 'target']);
    expect(JSON.stringify(r.answers[3])).toContain('a is a list of 16 .f16 elements; 1 given');
  });
});
