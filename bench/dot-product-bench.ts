/**
 * The tensor-core element (src/engine/ops/dot-product.ts) at k = 64 with its whole account —
 * the work one edit of a row or a column costs — and without it (d alone, as a batch line needs
 * it): per input format, the median, the 95th percentile and the slowest of 200 random rows and
 * columns of finite values (deterministic), after an untimed pass over them. `node bin/run-ts.mjs bench/dot-product-bench.ts`.
 */
import { tensorCoreModel, type TensorArchitecture } from '../src/catalog/tensor-core-models.ts';
import type { AccumulatorType, MatrixInputType } from '../src/catalog/mma-forms-data.ts';
import {
  dotProduct,
  dotProductBits,
  type DotProductOperands,
  type DotProductSetup,
} from '../src/engine/ops/dot-product.ts';
import { median, xorshiftWords } from './timing.ts';

const K = 64;
const VECTORS = 200;

interface Case {
  readonly label: string;
  readonly architecture: TensorArchitecture;
  readonly atype: MatrixInputType;
  readonly ctype: AccumulatorType;
  /** A random word made a finite pattern of the format. */
  readonly finite: (word: number) => bigint;
}

const CASES: readonly Case[] = [
  {
    label: 'f16 inputs, f32 c (Ampere: two halves of 32)',
    architecture: 'ampere',
    atype: 'f16',
    ctype: 'f32',
    finite: (w) => BigInt(w & 0xffff & ~0x4000), // exponent field below 16: never inf/NaN
  },
  {
    label: 'bf16 inputs over the whole exponent range, f32 c (Hopper)',
    architecture: 'hopper',
    atype: 'bf16',
    ctype: 'f32',
    finite: (w) => BigInt(w & 0xff7f),
  },
  {
    label: 'tf32 registers, f32 c (Hopper)',
    architecture: 'hopper',
    atype: 'tf32',
    ctype: 'f32',
    finite: (w) => BigInt((w & 0xbfffffff) >>> 0),
  },
  {
    label: 'e4m3 inputs, f32 c (Ada: 13 bits, two halves)',
    architecture: 'ada',
    atype: 'e4m3',
    ctype: 'f32',
    finite: (w) => BigInt(w & 0xf7),
  },
  {
    label: 'e2m1 inputs, f32 c (RTX Blackwell)',
    architecture: 'rtx-blackwell',
    atype: 'e2m1',
    ctype: 'f32',
    finite: (w) => BigInt(w & 0xf),
  },
  {
    label: 'f64 inputs within 2^±16 (chain of 64 fma)',
    architecture: 'hopper',
    atype: 'f64',
    ctype: 'f64',
    finite: (w) =>
      (BigInt(w >>> 31) << 63n) | (BigInt(1007 + (w & 31)) << 52n) | BigInt((w >>> 5) & 0x3ffffff),
  },
  {
    label: 'f64 inputs over the whole exponent range (chain of 64 fma)',
    architecture: 'hopper',
    atype: 'f64',
    ctype: 'f64',
    finite: (w) => (BigInt((w & 0xbfffffff) >>> 0) << 32n) | BigInt(w >>> 3),
  },
];

function vectors(c: Case, seed: number): DotProductOperands[] {
  const words = xorshiftWords(VECTORS * (2 * K + 1), 0xffffffff, seed);
  return Array.from({ length: VECTORS }, (_, v) => {
    const at = (i: number) => c.finite(words[v * (2 * K + 1) + i]!);
    return {
      a: Array.from({ length: K }, (_, i) => at(i)),
      b: Array.from({ length: K }, (_, i) => at(K + i)),
      c: c.ctype === 'f32' ? BigInt(0x3f800000) : at(2 * K),
    };
  });
}

/** Per-element wall times over the inputs, after one untimed pass over all of them. */
function timeEach(run: (v: DotProductOperands) => unknown, inputs: readonly DotProductOperands[]) {
  for (const v of inputs) run(v);
  const times = inputs.map((v) => {
    const t0 = performance.now();
    run(v);
    return performance.now() - t0;
  });
  const sorted = [...times].sort((x, y) => x - y);
  return {
    median: median(times),
    p95: sorted[Math.floor(0.95 * sorted.length)]!,
    max: sorted.at(-1)!,
  };
}

console.log(`k = ${K}, ${VECTORS} random finite rows and columns per case (ms per element)`);
for (const [i, c] of CASES.entries()) {
  const setup: DotProductSetup = {
    model: tensorCoreModel(c.architecture),
    instruction: 'mma',
    atype: c.atype,
    btype: c.atype,
    ctype: c.ctype,
    dtype: c.ctype === 'f64' ? 'f64' : 'f32',
  };
  const inputs = vectors(c, 0x9e3779b9 + i);
  const traced = timeEach((v) => dotProduct(setup, v), inputs);
  const bits = timeEach((v) => dotProductBits(setup, v), inputs);
  console.log(
    `${c.label.padEnd(58)} with account: median ${traced.median.toFixed(2)}, 95th percentile ${traced.p95.toFixed(2)}, max ${traced.max.toFixed(2)}` +
      `   d only: median ${bits.median.toFixed(3)}`,
  );
}
