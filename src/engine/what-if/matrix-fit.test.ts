/**
 * Compare mode with tensor-core forms: B beside an mma or wgmma element is a tensor-core form of
 * the same k (else a structured mismatch), its one-click variants are such forms, and the
 * comparison evaluates both on the target it is given.
 */
import { describe, expect, it } from 'vitest';
import { MATRIX_FORMS, findForm } from '../../catalog/all-forms.ts';
import { matrixRegisters } from '../matrix-registers.ts';
import { evaluate } from '../pipeline.ts';
import { compareWith, parseVariant } from './comparison.ts';
import { matrixMismatch } from './matrix-fit.ts';
import { quickVariants } from './quick-variants.ts';

const F16 = 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32';
const BF16 = 'mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32';
const form = (text: string) => findForm(text)!;

describe('matrixMismatch', () => {
  it('takes tensor-core forms of the same k, whatever their formats and instruction', () => {
    expect(matrixMismatch(form(F16), form(BF16))).toBeNull();
    expect(
      matrixMismatch(form(F16), form('wgmma.mma_async.sync.aligned.m64n128k16.f16.f16.f16')),
    ).toBeNull();
    expect(matrixMismatch(form('fma.rn.f16'), form('add.rn.bf16'))).toBeNull();
  });

  it('refuses another k, and a tensor core beside any other instruction', () => {
    expect(
      matrixMismatch(form(F16), form('mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32')),
    ).toEqual({ kind: 'k', a: 16, b: 8 });
    expect(matrixMismatch(form(F16), form('fma.rn.f32.f16'))).toEqual({
      kind: 'one-matrix',
      matrix: 'a',
    });
    expect(matrixMismatch(form('fma.rn.f16'), form(F16))).toEqual({
      kind: 'one-matrix',
      matrix: 'b',
    });
  });
});

describe('quick variants of a tensor-core form', () => {
  it('m16n8k16 f16: the other accumulator, bf16 and FP8 inputs, and wgmma of the same k', () => {
    expect(quickVariants(F16).map((q) => q.variant)).toEqual([
      'mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16',
      BF16,
      'mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32',
      'mma.sync.aligned.m16n8k16.row.col.f32.e5m2.e5m2.f32',
      'wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16',
    ]);
  });

  it('an f64 form: each other rounding', () => {
    expect(
      quickVariants('mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64.rz').map((q) => q.change),
    ).toEqual(['rn', 'rm', 'rp'].map((rounding) => ({ kind: 'rounding', rounding })));
  });

  it('every variant of every tensor-core form is another form of the same k', () => {
    for (const f of MATRIX_FORMS)
      for (const q of quickVariants(f)) {
        const b = findForm(q.variant);
        expect(b && b.text !== f.text, `${f.text} → ${q.variant}`).toBe(true);
        expect(matrixMismatch(f, b!), `${f.text} → ${q.variant}`).toBeNull();
      }
  });
});

describe('a tensor-core form compared with another', () => {
  const a = form(F16);
  // A row of 1 + 2^-10 and a column of 1: bf16 holds no 1 + 2^-10, so B reads 1s.
  const r = matrixRegisters(a, {
    a: Array<bigint>(16).fill(0x3c01n),
    b: Array<bigint>(16).fill(0x3c00n),
    c: 0x3f800000n,
  });
  if (!r.ok) throw new Error(r.error.message);

  it('the text of any tensor-core form names B', () => {
    const v = parseVariant(` ${BF16} `);
    expect('error' in v ? v.error : v.kind === 'form' && v.form.text).toBe(BF16);
  });

  it('B is given A’s values in its formats, both evaluated on the target given', () => {
    const c = compareWith(a, r.registers, { kind: 'form', form: form(BF16) }, { target: 'sm_90' });
    expect(c.a.result.d).toBe(evaluate(a, r.registers, { target: 'sm_90' }).d);
    expect(c.b.kind === 'form' && c.b.result.d).toBe('0x41880000'); // 1 + 16 × 1 = 17
    expect(c.elements[0]!.a.result.value.decimal).toBe('17.015625');
    expect(c.elements[0]!.relation).toBe('differ');
    expect(c.b.kind === 'form' && c.b.carried.inputs[0]).toMatchObject({
      operand: 'a',
      format: 'bf16',
      bits: '0x3f80',
      how: 'rounded',
    });
  });
});
