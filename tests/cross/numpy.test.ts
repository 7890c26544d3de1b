/**
 * Cross-check of the engine against numpy (float16 and float32 arithmetic, which are correctly
 * rounded; numpy_ref.py says why each op is a valid reference). Every disagreement is either a
 * NaN payload numpy keeps (the engine returns the canonical NaN, decision 'canonical-nan') or a
 * failure listed with its exact vector. Skips, saying so, where python3 or numpy is missing.
 * Budget: about 15 s of 2 cores.
 */
import { expect } from 'vitest';
import type { CrossCase } from './agreement.ts';
import { probeTool, suiteNeeds } from '../support/tools.ts';
import { CROSS_SCALE, numpyReference, type ReferenceRunner } from './reference-process.ts';
import { describeCrossSuite } from './suite.ts';
import {
  binaryVectors,
  exhaustiveUnary,
  fmaVectors,
  mixedAddVectors,
  type VectorSet,
} from './vectors.ts';

const RANDOM = 200_000 * CROSS_SCALE;
const FMA_RANDOM = 100_000 * CROSS_SCALE;

const hasNumpy = suiteNeeds('engine ~ numpy', ['numpy']);

/** Every f16 (or bf16) pattern beside c = -0: a + (-0) is the exact conversion of a to f32. */
function conversionVectors(): VectorSet {
  const all = exhaustiveUnary().columns[0]!;
  return { columns: [all, new Uint32Array(all.length).fill(0x80000000)], edgeCount: all.length };
}

function cases(): CrossCase[] {
  const f16Pairs = binaryVectors('f16', RANDOM, 1);
  const unary = exhaustiveUnary();
  const nanNess = 'nan-ness' as const;
  return [
    { name: 'add.rn.f16 ~ numpy f16 +', form: 'add.rn.f16', refOp: 'f16.add', vectors: f16Pairs },
    { name: 'add.f16 ~ numpy f16 +', form: 'add.f16', refOp: 'f16.add', vectors: f16Pairs },
    { name: 'sub.rn.f16 ~ numpy f16 -', form: 'sub.rn.f16', refOp: 'f16.sub', vectors: f16Pairs },
    { name: 'mul.rn.f16 ~ numpy f16 *', form: 'mul.rn.f16', refOp: 'f16.mul', vectors: f16Pairs },
    {
      name: 'fma.rn.f16 ~ exact, round-to-odd, numpy f32->f16',
      form: 'fma.rn.f16',
      refOp: 'f16.fma',
      vectors: fmaVectors('f16', 'f16', FMA_RANDOM, 2),
    },
    { name: 'neg.f16 ~ numpy negative (all)', form: 'neg.f16', refOp: 'f16.neg', vectors: unary },
    { name: 'abs.f16 ~ numpy absolute (all)', form: 'abs.f16', refOp: 'f16.abs', vectors: unary },
    {
      name: 'add.rn.f32.f16 a + -0 ~ numpy f16->f32 (all)',
      form: 'add.rn.f32.f16',
      refOp: 'f16.to_f32',
      vectors: conversionVectors(),
      referenceOperands: [unary.columns[0]!],
    },
    {
      name: 'add.rn.f32.f16 ~ numpy f32 +',
      form: 'add.rn.f32.f16',
      refOp: 'f32f16.add',
      vectors: mixedAddVectors('f16', RANDOM, 3),
    },
    {
      name: 'sub.rn.f32.f16 ~ numpy f32 -',
      form: 'sub.rn.f32.f16',
      refOp: 'f32f16.sub',
      vectors: mixedAddVectors('f16', RANDOM, 4),
    },
    {
      name: 'fma.rn.f32.f16 ~ numpy f32 a*b + c',
      form: 'fma.rn.f32.f16',
      refOp: 'f32f16.fma',
      vectors: fmaVectors('f16', 'f32', RANDOM, 5),
    },
    {
      name: 'add.rn.f32.bf16 ~ numpy f32 +',
      form: 'add.rn.f32.bf16',
      refOp: 'f32bf16.add',
      vectors: mixedAddVectors('bf16', RANDOM, 6),
    },
    {
      name: 'sub.rn.f32.bf16 ~ numpy f32 -',
      form: 'sub.rn.f32.bf16',
      refOp: 'f32bf16.sub',
      vectors: mixedAddVectors('bf16', RANDOM, 7),
    },
    {
      name: 'fma.rn.f32.bf16 ~ exact, round-to-odd, numpy f64->f32',
      form: 'fma.rn.f32.bf16',
      refOp: 'f32bf16.fma',
      vectors: fmaVectors('bf16', 'f32', FMA_RANDOM, 8),
    },
  ].map((c) => ({ ...c, nan: nanNess }));
}

/** numpy on vectors whose answers are known by hand. */
function knownAnswers(numpy: ReferenceRunner): void {
  const col = (...v: number[]) => Uint32Array.from(v);
  const [add, fma, mixed] = numpy([
    // 1 + 2^-11 is a tie (to 1); (1 + 2^-10) + 2^-11 a tie (to 1 + 2^-9); -0 + -0 = -0.
    { op: 'f16.add', operands: [col(0x3c00, 0x3c01, 0x8000), col(0x1000, 0x1000, 0x8000)] },
    // 1*1 + 2^-11 ties to 1; 1.5 * (683/1024) = 1 + 2^-11 is a tie too: + -0 gives 1, but
    // + 2^-24 is a sticky bit above it and gives 1 + 2^-10.
    {
      op: 'f16.fma',
      operands: [
        col(0x3c00, 0x3e00, 0x3e00),
        col(0x3c00, 0x3956, 0x3956),
        col(0x1000, 0x8000, 0x0001),
      ],
    },
    // 1 + 2^-24 (f32) ties to 1; 1 + 3 * 2^-25 rounds up.
    { op: 'f32f16.add', operands: [col(0x3c00, 0x3c00), col(0x33800000, 0x33c00000)] },
  ]);
  expect([...add!]).toEqual([0x3c00, 0x3c02, 0x8000]);
  expect([...fma!]).toEqual([0x3c00, 0x3c00, 0x3c01]);
  expect([...mixed!]).toEqual([0x3f800000, 0x3f800001]);
}

describeCrossSuite({
  name: 'engine ~ numpy',
  available: hasNumpy,
  referenceName: 'numpy',
  start: numpyReference,
  cases,
  heading: () => {
    const probe = probeTool('numpy');
    const version = probe.state === 'present' ? probe.version : '';
    return `engine ~ numpy ${version}`;
  },
  knownAnswers: {
    name: 'the reference gives known answers (ties to even, sticky bits, signed zeros)',
    check: knownAnswers,
  },
});
