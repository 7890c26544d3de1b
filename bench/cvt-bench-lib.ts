/**
 * The cvt family of `npm run bench`: the fast path (compileFast(form).batch) on all 65,536 inputs of
 * forms with a 16-bit source, and on 1,048,576 .f32 values, next to a native loop in the same run
 * over the same values — a Float64Array → Float32Array copy, JavaScript's own float conversion
 * (round to nearest even): the speed a plain conversion loop gets on this machine, not a
 * reference for the results. Every figure is the median of several timed repeats after warm-up.
 */
// Every family's semantics, provided before anything evaluates (engine/family-semantics.ts).
import '../src/engine/all-families.ts';
import { compileFast } from '../src/engine/fast/index.ts';
import { timeMs, xorshiftWords } from './timing.ts';

export interface CvtBenchRow {
  readonly form: string;
  /** Source values converted per run (elements, not registers). */
  readonly values: number;
  readonly ms: number;
  /** The same number of values through the native conversion loop. */
  readonly nativeMs: number;
  readonly slowdown: number;
  /** compileFast once (builds the NaN/inf/zero results through the pipeline). */
  readonly compileMs: number;
}

/** .f32 words of values spread over the range a narrow destination cares about. */
function f32Values(count: number, seed: number): Uint32Array {
  const w = xorshiftWords(count, 0xffffffff, seed);
  // Keep the sign and mantissa, put the exponent in 2^-20 … 2^20.
  for (let i = 0; i < count; i++)
    w[i] = (w[i]! & 0x807fffff) | (((((w[i]! >>> 23) & 0xff) % 41) + 107) << 23);
  return w;
}

function nativeLoop(values: number): () => void {
  const x = new Float64Array(values);
  for (let i = 0; i < values; i++) x[i] = (i % 1000) * 1.000123;
  const out = new Float32Array(values);
  return () => {
    for (let i = 0; i < values; i++) out[i] = x[i]!;
  };
}

export function benchCvt(repeats: number): CvtBenchRow[] {
  const rows: CvtBenchRow[] = [];
  const run = (
    form: string,
    registers: Record<string, Uint32Array>,
    count: number,
    values: number,
  ) => {
    const t0 = performance.now();
    const { batch } = compileFast(form);
    const compileMs = performance.now() - t0;
    const out = new Uint32Array(count);
    const ms = timeMs(() => batch(registers, out, count), repeats);
    const nativeMs = timeMs(nativeLoop(values), repeats);
    rows.push({
      form,
      values,
      ms: Math.round(ms * 10) / 10,
      nativeMs: Math.round(nativeMs * 100) / 100,
      slowdown: Math.round((ms / nativeMs) * 10) / 10,
      compileMs: Math.round(compileMs),
    });
  };
  const all16 = Uint32Array.from({ length: 65536 }, (_, v) => v);
  const pairs16 = Uint32Array.from(
    { length: 65536 },
    (_, v) => v + ((v * 40503 + 12345) % 65536) * 65536,
  );
  run('cvt.rn.bf16.f16', { a: all16 }, 65536, 65536);
  run('cvt.f32.bf16', { a: all16 }, 65536, 65536);
  run('cvt.rn.satfinite.e4m3x2.f16x2', { a: pairs16 }, 65536, 131072);
  run('cvt.rz.satfinite.ue8m0x2.bf16x2', { a: pairs16 }, 65536, 131072);
  run('cvt.rn.f16x2.e4m3x2', { a: all16 }, 65536, 131072);
  const M = 1 << 20;
  const f = f32Values(M, 7);
  run('cvt.rn.f16.f32', { a: f }, M, M);
  run('cvt.rn.satfinite.bf16x2.f32', { a: f.subarray(0, M / 2), b: f.subarray(M / 2) }, M / 2, M);
  run('cvt.rn.satfinite.e4m3x2.f32', { a: f.subarray(0, M / 2), b: f.subarray(M / 2) }, M / 2, M);
  run('cvt.rna.tf32.f32', { a: f }, M, M);
  const q = M / 4;
  run(
    'cvt.rs.satfinite.e2m1x4.f32',
    {
      a: f.subarray(0, q),
      b: f.subarray(q, 2 * q),
      e: f.subarray(2 * q, 3 * q),
      f: f.subarray(3 * q),
      rbits: xorshiftWords(q, 0xffffffff, 11),
    },
    q,
    M,
  );
  return rows;
}
