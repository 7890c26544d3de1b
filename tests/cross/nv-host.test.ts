/**
 * Cross-check of the engine against NVIDIA's host emulation of the half-precision intrinsics
 * (the host branches of cuda_fp16.hpp / cuda_bf16.hpp, built by nvcc, run on the CPU), and
 * against host emulations of what CUDA 13 has no host path for (fma, mixed precision; see
 * nv_host_ref.cpp). Host paths that are known not to follow the PTX semantics are listed with
 * their counts (never hidden): everything else must agree bit for bit. Skips, saying so, where
 * nvcc is missing. The binary is cached in node_modules/.cache/ptxf-cross keyed by source hash.
 * Budget: about 40 s of 2 cores (plus ~10 s for the first nvcc build).
 */
import { expect } from 'vitest';
import { compileFast } from '../../src/engine/fast/index.ts';
import { evaluate } from '../../src/engine/index.ts';
import type { CrossCase, EngineRoute } from './agreement.ts';
import { suiteNeeds } from '../support/tools.ts';
import { CROSS_SCALE, nvHostReference, type ReferenceRunner } from './reference-process.ts';
import { describeCrossSuite } from './suite.ts';
import {
  binaryVectors,
  exhaustiveUnary,
  fmaVectors,
  mixedAddVectors,
  packedVectors,
  type VectorSet,
} from './vectors.ts';

const RANDOM = 200_000 * CROSS_SCALE;
const FMA_RANDOM = 100_000 * CROSS_SCALE;
const MIXED_RANDOM = 60_000 * CROSS_SCALE;

const hasNvcc = suiteNeeds('engine ~ NVIDIA host emulation', ['nvcc']);

const BF16_ONE = 0x3f80;
const BF16_MINUS_ONE = 0xbf80;

/**
 * The device code of bf16 __hadd_sat / __hsub_sat / __hmul_sat (cuda_bf16.hpp, sm_80 branch):
 * fma.rn.bf16 f, x, y, z; max.bf16 f, f, 0; min.bf16 d, f, 1.0. There is no add.sat.bf16 in PTX,
 * so the engine runs the same three instructions.
 */
function bf16SatSequence(
  operands: (a: number, b: number) => [number, number, number],
): EngineRoute {
  const fma = compileFast('fma.rn.bf16').words!;
  const max = compileFast('max.bf16').words!;
  const min = compileFast('min.bf16').words!;
  return {
    fast: ([a, b]) => min(max(fma(...operands(a!, b!)), 0, 0), BF16_ONE, 0),
    traced: ([a, b]) => {
      const [x, y, z] = operands(a!, b!);
      const f = evaluate('fma.rn.bf16', { a: x, b: y, c: z }).d;
      const g = evaluate('max.bf16', { a: f, b: 0 }).d;
      return evaluate('min.bf16', { a: g, b: BF16_ONE }).d;
    },
  };
}

/**
 * cuda_bf16.hpp's host __hmin_nan/__hmax_nan pick with __hle/__hge, which treat -0 and +0 as
 * equal and return a; the PTX min/max pseudo-code orders -0 below +0 (the fp16 host versions go
 * through __hmin/__hmax, which do).
 */
function bf16HostNanMinMaxZeros([a, b]: readonly number[], _engine: number, reference: number) {
  const zeros = (a! & 0x7fff) === 0 && (b! & 0x7fff) === 0 && a !== b;
  return zeros && reference === a ? 'host bf16 min/max_nan: ±0 pair returns a' : null;
}

/**
 * fmaf rounds a*b + c to float, and the conversion rounds again: where the float lands exactly
 * on a half-way point of the 16-bit format, ties-to-even can go the wrong way by one ulp.
 */
function doubleRoundingByOneUlp(_ops: readonly number[], engine: number, reference: number) {
  const sameSign = engine >> 15 === reference >> 15;
  return sameSign && Math.abs(engine - reference) === 1
    ? 'double rounding through float: 1 ulp'
    : null;
}

function unaryOf(set: VectorSet): VectorSet {
  return { columns: [set.columns[0]!], edgeCount: set.edgeCount };
}

function cases(): CrossCase[] {
  const f16 = binaryVectors('f16', RANDOM, 11);
  const bf16 = binaryVectors('bf16', RANDOM, 12);
  const f16x2 = packedVectors('f16', RANDOM / 4, 13);
  const bf16x2 = packedVectors('bf16', RANDOM / 4, 14);
  const unary = exhaustiveUnary();
  const host = (type: 'f16' | 'bf16', vectors: VectorSet, pairs: [string, string][]) =>
    pairs.map(([op, form]) => ({
      name: `${form} ~ host __h${op}`,
      form,
      refOp: `nv.${type}.${op}`,
      vectors: op === 'neg' || op === 'abs' ? unary : vectors,
      nan: 'exact' as const,
    }));
  const list: CrossCase[] = [
    ...host('f16', f16, [
      ['add', 'add.rn.f16'],
      ['sub', 'sub.rn.f16'],
      ['mul', 'mul.rn.f16'],
      ['add_sat', 'add.rn.sat.f16'],
      ['sub_sat', 'sub.rn.sat.f16'],
      ['mul_sat', 'mul.rn.sat.f16'],
      ['min', 'min.f16'],
      ['max', 'max.f16'],
      ['min_nan', 'min.NaN.f16'],
      ['max_nan', 'max.NaN.f16'],
      ['neg', 'neg.f16'],
      ['abs', 'abs.f16'],
    ]),
    ...host('bf16', bf16, [
      ['add', 'add.rn.bf16'],
      ['sub', 'sub.rn.bf16'],
      ['mul', 'mul.rn.bf16'],
      ['min', 'min.bf16'],
      ['max', 'max.bf16'],
      ['neg', 'neg.bf16'],
      ['abs', 'abs.bf16'],
    ]),
    ...host('bf16', bf16, [
      ['min_nan', 'min.NaN.bf16'],
      ['max_nan', 'max.NaN.bf16'],
    ]).map((c) => ({ ...c, known: bf16HostNanMinMaxZeros })),
    ...(
      [
        ['add_sat', (a: number, b: number) => [a, BF16_ONE, b]],
        ['sub_sat', (a: number, b: number) => [b, BF16_MINUS_ONE, a]],
        ['mul_sat', (a: number, b: number) => [a, b, 0x8000]],
      ] as const
    ).map(([op, operands]) => ({
      name: `fma.rn.bf16; max.bf16; min.bf16 (device __h${op}) ~ host __h${op}`,
      form: 'add.rn.bf16',
      refOp: `nv.bf16.${op}`,
      vectors: bf16,
      nan: 'exact' as const,
      route: bf16SatSequence(operands as (a: number, b: number) => [number, number, number]),
    })),
    ...(
      [
        ['f16x2.add', 'add.rn.f16x2', f16x2],
        ['f16x2.mul', 'mul.rn.f16x2', f16x2],
        ['f16x2.min', 'min.f16x2', f16x2],
        ['f16x2.max_nan', 'max.NaN.f16x2', f16x2],
        ['f16x2.neg', 'neg.f16x2', unaryOf(f16x2)],
        ['bf16x2.add', 'add.rn.bf16x2', bf16x2],
        ['bf16x2.mul', 'mul.rn.bf16x2', bf16x2],
        ['bf16x2.max', 'max.bf16x2', bf16x2],
        ['bf16x2.abs', 'abs.bf16x2', unaryOf(bf16x2)],
      ] as const
    ).map(([op, form, vectors]) => ({
      name: `${form} ~ host __h${op.split('.')[1]}2 (${op.split('.')[0]})`,
      form,
      refOp: `nv.${op}`,
      vectors,
      nan: 'exact' as const,
    })),
    {
      name: 'fma.rn.f16 ~ exact fma, round-to-odd, host __double2half',
      form: 'fma.rn.f16',
      refOp: 'emu.f16.fma',
      vectors: fmaVectors('f16', 'f16', FMA_RANDOM, 15),
      nan: 'exact',
    },
    {
      name: 'fma.rn.sat.f16 ~ same, then host __hmin(__hmax(x, 0), 1)',
      form: 'fma.rn.sat.f16',
      refOp: 'emu.f16.fma_sat',
      vectors: fmaVectors('f16', 'f16', FMA_RANDOM, 16),
      nan: 'exact',
    },
    {
      name: 'fma.rn.bf16 ~ exact fma, round-to-odd, host __double2bfloat16',
      form: 'fma.rn.bf16',
      refOp: 'emu.bf16.fma',
      vectors: fmaVectors('bf16', 'bf16', FMA_RANDOM, 17),
      nan: 'exact',
    },
    ...(['f16', 'bf16'] as const).map((type) => ({
      name: `fma.rn.${type} ~ naive host fma: float fmaf, then __float2${type === 'f16' ? 'half' : 'bfloat16'}`,
      form: `fma.rn.${type}`,
      refOp: `naive.${type}.fma`,
      vectors: fmaVectors(type, type, FMA_RANDOM, type === 'f16' ? 18 : 19),
      nan: 'exact' as const,
      known: doubleRoundingByOneUlp,
    })),
  ];
  let seed = 100;
  for (const src of ['f16', 'bf16'] as const) {
    const addVectors = mixedAddVectors(src, MIXED_RANDOM, seed++);
    const fmaSet = fmaVectors(src, 'f32', MIXED_RANDOM, seed++);
    for (const mode of ['rn', 'rz', 'rm', 'rp'] as const) {
      for (const op of ['add', 'sub', 'fma'] as const) {
        list.push({
          name: `${op}.${mode}.f32.${src} ~ x86 float ${op === 'fma' ? 'fmaf' : op} under fesetround`,
          form: `${op}.${mode}.f32.${src}`,
          refOp: `emu.f32${src}.${op}.${mode}`,
          vectors: op === 'fma' ? fmaSet : addVectors,
          // x86 returns its default NaN 0xFFC00000 or propagates a payload.
          nan: 'nan-ness',
          tracedSample: 200,
        });
      }
    }
  }
  return list;
}

/** The host program on vectors whose answers are known by hand. */
function knownAnswers(nv: ReferenceRunner): void {
  const col = (...v: number[]) => Uint32Array.from(v);
  const [add, maxNaN, rz, rm, fmaRp, fma, naive] = nv([
    // inf + -inf is the canonical NaN; -0 + -0 = -0; 1 + 2^-11 ties to 1.
    { op: 'nv.f16.add', operands: [col(0x7c00, 0x8000, 0x3c00), col(0xfc00, 0x8000, 0x1000)] },
    // bf16 host max_nan(-0, +0) returns -0 (the documented host difference).
    { op: 'nv.bf16.max_nan', operands: [col(0x8000, 0x0000), col(0x0000, 0x8000)] },
    // 1 + 2^-24 in f32: rz gives 1; 1 - 2^-25 under rm gives 1 - 2^-24; 1 - 1 under rm is -0.
    { op: 'emu.f32f16.add.rz', operands: [col(0x3c00), col(0x33800000)] },
    { op: 'emu.f32f16.sub.rm', operands: [col(0x3c00, 0x3c00), col(0x33000000, 0x3f800000)] },
    // fmaf under rp: 1 * 1 + 2^-24 rounds up to 1 + 2^-23 (bf16 source: the same value).
    { op: 'emu.f32bf16.fma.rp', operands: [col(0x3f80), col(0x3f80), col(0x33800000)] },
    // 1.5 * (683/1024) = 1 + 2^-11, a tie: + 2^-24 rounds up, + -0 to even.
    { op: 'emu.f16.fma', operands: [col(0x3e00, 0x3e00), col(0x3956, 0x3956), col(1, 0x8000)] },
    // Through float, 1 + 2^-11 + 2^-24 becomes the tie 1 + 2^-11 and then rounds to even: 1.
    { op: 'naive.f16.fma', operands: [col(0x3e00), col(0x3956), col(1)] },
  ]);
  expect([...add!]).toEqual([0x7fff, 0x8000, 0x3c00]);
  expect([...maxNaN!]).toEqual([0x8000, 0x0000]);
  expect([...rz!]).toEqual([0x3f800000]);
  expect([...rm!]).toEqual([0x3f7fffff, 0x80000000]);
  expect([...fmaRp!]).toEqual([0x3f800001]);
  expect([...fma!]).toEqual([0x3c01, 0x3c00]);
  expect([...naive!]).toEqual([0x3c00]);
}

describeCrossSuite({
  name: 'engine ~ NVIDIA host emulation',
  available: hasNvcc,
  referenceName: 'the host reference',
  start: nvHostReference,
  cases,
  heading: () => 'engine ~ NVIDIA host (CUDA headers)',
  knownAnswers: {
    name: 'the reference gives known answers (canonical NaN, signed zeros, directed rounding)',
    check: knownAnswers,
  },
});
