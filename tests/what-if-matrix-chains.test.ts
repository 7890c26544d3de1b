/**
 * The tensor-core what-if's CUDA-core chains (src/engine/what-if/matrix-chains.ts, decision
 * compare-cuda-core-chain): acc = c, then acc = fma.rn(a_i, b_i, acc) in f32 and in f64. Pinned
 * examples, and every result and link against the independent reference's chain
 * (tests/reference/tensor-core-ref.ts refCudaCoreChain: exact rationals, rounding by neighbour
 * search) over random rows and columns of every input format, on several targets.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findForm, MATRIX_FORMS } from '../src/catalog/all-forms.ts';
import type { Form } from '../src/catalog/instruction.ts';
import { matrixRegisters } from '../src/engine/matrix-registers.ts';
import { matrixChains } from '../src/engine/what-if/matrix-chains.ts';
import { vectorArb, type MatrixVector } from './reference/matrix-vectors.ts';
import {
  refCudaCoreChain,
  type RefAccumulator,
  type RefInput,
} from './reference/tensor-core-ref.ts';

function chainsOf(form: Form, v: MatrixVector, target = 'sm_90') {
  const r = matrixRegisters(form, v);
  if (!r.ok) throw new Error(r.error.message);
  return matrixChains(form, r.registers, target);
}

const F16_F32 = findForm('mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32')!;
/** 1, then eight products of 2^-24 (2^-12 = f16 0x0c00 squared), then zeros. */
const ROW = [0x3c00n, ...Array<bigint>(8).fill(0x0c00n), ...Array<bigint>(7).fill(0n)];

describe('the CUDA-core chains beside a tensor core', () => {
  it('f32 rounds each 2^-24 away (a tie at 1, to even); f64 and Hopper keep all eight', () => {
    const x = chainsOf(F16_F32, { a: ROW, b: ROW, c: 0n });
    expect(x.tensorCore.d.bits).toBe('0x3f800004');
    expect(x.tensorCore.ulpsFromExact).toBe(0);
    if (!x.f32.ok || !x.f64.ok) throw new Error('both chains exist');
    expect(x.f32.result.bits).toBe('0x3f800000');
    expect(x.f32.links.map((l) => l.rounded)).toEqual([
      false,
      ...Array<boolean>(8).fill(true),
      ...Array<boolean>(7).fill(false),
    ]);
    expect(x.f32.ulpsFromTensorCore).toBe(-4);
    expect(x.f32.ulpsFromExact).toBe(-4);
    expect(x.f32.sameAsTensorCore).toBe(false);
    expect(x.f64.result.bits).toBe('0x3ff0000080000000');
    expect(x.f64.inResultFormat.bits).toBe('0x3f800004');
    expect(x.f64.ulpsFromTensorCore).toBe(0);
    expect(x.f64.sameAsTensorCore).toBe(true);
    expect(x.f64.links.every((l) => !l.rounded)).toBe(true);
  });

  it('starts from c: an f16 accumulator is exact in f32', () => {
    const form = findForm('mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16')!;
    const zeros = Array<bigint>(16).fill(0n);
    const x = chainsOf(form, { a: zeros, b: zeros, c: 0x3555n });
    if (!x.f32.ok) throw new Error('an f32 chain');
    // Every product +0: acc stays c, in f32, and is c again in f16.
    expect(x.f32.result.bits).toBe('0x3eaaa000');
    expect(x.f32.inResultFormat.bits).toBe('0x3555');
    expect(x.f32.ulpsFromTensorCore).toBe(0);
  });

  it('specials by the fma rules: ∞ × 0 is the canonical NaN, as the tensor core gives', () => {
    const a = [0x7c00n, ...Array<bigint>(15).fill(0n)];
    const x = chainsOf(F16_F32, { a, b: Array<bigint>(16).fill(0n), c: 0n });
    if (!x.f32.ok || !x.f64.ok) throw new Error('both chains exist');
    expect(x.f32.result.bits).toBe('0x7fffffff');
    expect(x.f64.result.bits).toBe('0x7fffffffffffffff');
    expect(x.f32.ulpsFromTensorCore).toBeNull();
    expect(x.f32.sameAsTensorCore).toBe(true);
    expect(x.exact.kind).toBe('nan');
  });

  it('an f64 form has no f32 chain (its elements are f64 values)', () => {
    const form = findForm('mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64')!;
    const x = chainsOf(form, { a: [0x3ff0000000000001n, 0n, 0n, 0n], b: [0n, 0n, 0n, 0n], c: 0n });
    expect(x.f32).toEqual({ ok: false, format: 'f32', reason: 'f64-elements' });
    expect(x.f64.ok).toBe(true);
  });
});

/** One mma form per combination of input and accumulator formats. */
const SAMPLE = [
  ...new Map(
    // The block-scaled forms' loops, which dequantize first, are checked in block-scaled-mma.test.ts.
    MATRIX_FORMS.filter((f) => f.matrix!.instruction === 'mma' && !f.matrix!.blockScale).map(
      (f) => [
        `${f.matrix!.types.a}.${f.matrix!.types.b}.${f.matrix!.types.c}.${f.matrix!.types.d}`,
        f,
      ],
    ),
  ).values(),
];

describe('every chain agrees with the reference', () => {
  it.each(SAMPLE.map((f) => [f.text, f] as const))('%s', (_, form) => {
    const { a, b, c, d } = form.matrix!.types;
    const setup = { atype: a as RefInput, btype: b as RefInput, ctype: c as RefAccumulator };
    fc.assert(
      fc.property(vectorArb(form), fc.constantFrom('sm_80', 'sm_90', 'sm_120a'), (v, target) => {
        const x = chainsOf(form, v, target);
        for (const format of ['f32', 'f64'] as const) {
          const ref = refCudaCoreChain(setup, v.a, v.b, v.c, format);
          const got = x[format];
          if (ref === null) {
            expect(got.ok).toBe(false);
            continue;
          }
          if (!got.ok) throw new Error(`${format}: ${got.reason}`);
          expect(got.links.map((l) => BigInt(l.result.bits))).toEqual(ref.links);
          expect(BigInt(got.result.bits)).toBe(ref.d);
          expect(got.inResultFormat.format).toBe(d);
        }
      }),
      { numRuns: 40, seed: form.text.length },
    );
  });
});
