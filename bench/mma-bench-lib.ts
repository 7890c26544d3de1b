/**
 * The tensor cores in `npm run bench`: one output element with its whole trace at the largest k
 * of the dense forms (32: mma and wgmma with FP8 inputs; k = 64 exists only among the
 * block-scaled forms), the median of 50 random rows and columns; and a `ptxf batch` of 100,000
 * mma lines (f16 k = 16, e4m3 k = 32, tf32 k = 8 in turn, on sm_80, sm_89 and sm_90) run in
 * process through runBatchSummary, one timed run after a warm-up on its first 2,000 lines (a run
 * takes tens of seconds on this 2-core machine).
 */
// Every family's semantics, provided before anything evaluates (engine/family-semantics.ts).
import '../src/engine/all-families.ts';
import { runBatchSummary, type BatchSink } from '../src/cli/batch.ts';
import { findForm } from '../src/catalog/all-forms.ts';
import { matrixRegisters } from '../src/engine/matrix-registers.ts';
import { evaluate } from '../src/engine/pipeline.ts';
import { median, xorshiftWords } from './timing.ts';

export interface MmaBenchResult {
  readonly tracedForm: string;
  readonly tracedK: number;
  /** Median milliseconds of one traced element (evaluate with its trace). */
  readonly tracedMs: number;
  readonly batchLines: number;
  /** Median milliseconds of the whole batch. */
  readonly batchMs: number;
  readonly batchLinesPerSecond: number;
}

const TRACED_FORM = 'mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32';
/** A finite e4m3 pattern (0x7f and 0xff are NaN). */
const e4m3 = (w: number) => BigInt(w & 0xff) & 0xf7n;
const f16 = (w: number) => BigInt(w & 0x7bff);

const BATCH_FORMS = [
  { instr: 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32', k: 16, digits: 4, word: f16 },
  { instr: TRACED_FORM, k: 32, digits: 2, word: e4m3 },
  {
    instr: 'mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32',
    k: 8,
    digits: 8,
    word: (w: number) => BigInt(w & 0x7f7fe000),
  },
];
const TARGETS = ['sm_80', 'sm_89', 'sm_90'];

export async function benchMma(batchLines = 100_000): Promise<MmaBenchResult> {
  const form = findForm(TRACED_FORM)!;
  const words = xorshiftWords(50 * 65, 0xffffffff, 0x5eed);
  const times: number[] = [];
  for (let pass = 0; pass < 2; pass++)
    for (let v = 0; v < 50; v++) {
      const w = (i: number) => words[v * 65 + i]!;
      const r = matrixRegisters(form, {
        a: Array.from({ length: 32 }, (_, i) => e4m3(w(i))),
        b: Array.from({ length: 32 }, (_, i) => e4m3(w(32 + i))),
        c: BigInt(w(64) & 0x3fffffff),
      });
      if (!r.ok) throw new Error(r.error.message);
      const t0 = performance.now();
      evaluate(form, r.registers, { target: 'sm_89' });
      if (pass === 1) times.push(performance.now() - t0);
    }

  const lineWords = xorshiftWords(65 * 1024, 0xffffffff, 0xbeef);
  let chunk = '';
  const chunks: string[] = [];
  for (let i = 0; i < batchLines; i++) {
    const f = BATCH_FORMS[i % BATCH_FORMS.length]!;
    const w = (j: number) => lineWords[(i * 7 + j) % lineWords.length]!;
    const hex = (x: bigint) => `0x${x.toString(16).padStart(f.digits, '0')}`;
    const line = {
      id: i,
      instr: f.instr,
      target: TARGETS[i % TARGETS.length],
      a: Array.from({ length: f.k }, (_, j) => hex(f.word(w(j)))),
      b: Array.from({ length: f.k }, (_, j) => hex(f.word(w(f.k + j)))),
      c: `0x${(w(63) & 0x3fffffff).toString(16).padStart(8, '0')}`,
    };
    chunk += `${JSON.stringify(line)}\n`;
    if (chunk.length > 64 * 1024) {
      chunks.push(chunk);
      chunk = '';
    }
  }
  chunks.push(chunk);
  const discard: BatchSink = { closed: false, write: () => undefined };
  const run = async (of: string[]) => {
    const t0 = performance.now();
    const summary = await runBatchSummary(of, discard);
    if (summary.failed !== 0) throw new Error(`mma batch: ${summary.failed} lines failed`);
    return performance.now() - t0;
  };
  const warmUp = chunks.join('').split('\n').slice(0, 2000).join('\n');
  await run([`${warmUp}\n`]);
  const batchMs = await run(chunks);
  return {
    tracedForm: TRACED_FORM,
    tracedK: 32,
    tracedMs: Number(median(times).toFixed(3)),
    batchLines,
    batchMs: Math.round(batchMs),
    batchLinesPerSecond: Math.round(batchLines / (batchMs / 1000)),
  };
}
