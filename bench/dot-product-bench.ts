/**
 * A tensor-core element through the pipeline (src/engine/pipeline.ts, the dot product of
 * src/engine/semantics/dot-product.ts) with its whole trace — the work one edit of a row or a
 * column costs — and without it (evaluateBits: d alone, as a batch line needs it): per form,
 * the median, the 95th percentile and the slowest of 200 random rows and columns of finite
 * values (deterministic), after an untimed pass over them. The forms are the largest k of each
 * input type (32 for FP8, FP6 and FP4, 16 for f16, bf16 and f64, 8 for tf32).
 * `node bin/run-ts.mjs bench/dot-product-bench.ts`.
 */
// Every family's semantics, provided before anything evaluates (engine/family-semantics.ts).
import '../src/engine/all-families.ts';
import { findForm } from '../src/catalog/all-forms.ts';
import type { Form } from '../src/catalog/instruction.ts';
import { matrixRegisters, type MatrixElements } from '../src/engine/matrix-registers.ts';
import { evaluate, evaluateBits, type Registers } from '../src/engine/pipeline.ts';
import { median, xorshiftWords } from './timing.ts';

const VECTORS = 200;

interface Case {
  readonly label: string;
  readonly target: string;
  readonly form: string;
  /** A random word made a finite pattern of the format. */
  readonly finite: (word: number) => bigint;
}

const CASES: readonly Case[] = [
  {
    label: 'f16 inputs, f32 c (Ampere: two halves of 8)',
    target: 'sm_80',
    form: 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32',
    finite: (w) => BigInt(w & 0xffff & ~0x4000), // exponent field below 16: never inf/NaN
  },
  {
    label: 'bf16 inputs over the whole exponent range, f32 c (Hopper)',
    target: 'sm_90',
    form: 'mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32',
    finite: (w) => BigInt(w & 0xff7f),
  },
  {
    label: 'tf32 registers, f32 c (Hopper)',
    target: 'sm_90',
    form: 'mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32',
    finite: (w) => BigInt((w & 0xbfffffff) >>> 0),
  },
  {
    label: 'e4m3 inputs, f32 c (Ada: 13 bits, two halves)',
    target: 'sm_89',
    form: 'mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32',
    finite: (w) => BigInt(w & 0xf7),
  },
  {
    label: 'e2m1 inputs, f32 c (RTX Blackwell)',
    target: 'sm_120a',
    form: 'mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e2m1.f32',
    finite: (w) => BigInt(w & 0xf),
  },
  {
    label: 'f64 inputs within 2^±16 (chain of 16 fma)',
    target: 'sm_90',
    form: 'mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64',
    finite: (w) =>
      (BigInt(w >>> 31) << 63n) | (BigInt(1007 + (w & 31)) << 52n) | BigInt((w >>> 5) & 0x3ffffff),
  },
  {
    label: 'f64 inputs over the whole exponent range (chain of 16 fma)',
    target: 'sm_90',
    form: 'mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64',
    finite: (w) => (BigInt((w & 0xbfffffff) >>> 0) << 32n) | BigInt(w >>> 3),
  },
];

function vectors(c: Case, form: Form, seed: number): Registers[] {
  const k = form.matrix!.shape.k;
  const words = xorshiftWords(VECTORS * (2 * k + 1), 0xffffffff, seed);
  return Array.from({ length: VECTORS }, (_, v) => {
    const at = (i: number) => c.finite(words[v * (2 * k + 1) + i]!);
    const elements: MatrixElements = {
      a: Array.from({ length: k }, (_, i) => at(i)),
      b: Array.from({ length: k }, (_, i) => at(k + i)),
      c: form.matrix!.types.c === 'f32' ? 0x3f800000n : at(2 * k),
    };
    const r = matrixRegisters(form, elements);
    if (!r.ok) throw new Error(r.error.message);
    return r.registers;
  });
}

/** Per-element wall times over the inputs, after one untimed pass over all of them. */
function timeEach(run: (v: Registers) => unknown, inputs: readonly Registers[]) {
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

console.log(`${VECTORS} random finite rows and columns per case (ms per element)`);
for (const [i, c] of CASES.entries()) {
  const form = findForm(c.form)!;
  const inputs = vectors(c, form, 0x9e3779b9 + i);
  const options = { target: c.target };
  const traced = timeEach((v) => evaluate(form, v, options), inputs);
  const bits = timeEach((v) => evaluateBits(form, v, options), inputs);
  console.log(
    `${`${c.label}, k = ${form.matrix!.shape.k}`.padEnd(66)} with the trace: median ${traced.median.toFixed(2)}, 95th percentile ${traced.p95.toFixed(2)}, max ${traced.max.toFixed(2)}` +
      `   d only: median ${bits.median.toFixed(3)}`,
  );
}
