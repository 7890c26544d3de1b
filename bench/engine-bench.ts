/**
 * `npm run bench` (or `npm run --silent bench -- --json` for one JSON object): throughput of the
 * engine's fast path per op family on .f16 and .bf16, next to a native JavaScript float32 loop
 * (`Math.fround` ops) over the same operand values in the same run — the ratio is the figure —,
 * Berkeley SoftFloat 3e's f16_add, f16_mul, f16_mulAdd and f32_to_f16 built and run in the same
 * run beside the engine on the same operations and operands (softfloat-bench-lib.ts), the time
 * to evaluate all 65,536 inputs of unary forms, `ptxf batch` lines per second (in-process
 * through runBatch, and the real CLI on a file of 500,000 mixed lines with its peak memory:
 * batch-bench-lib.ts), and the cvt fast path. Every figure is the median of several timed
 * repeats after a warm-up, except beside SoftFloat, which takes the best of 10 runs as
 * SoftFloat's own program does.
 *
 * The native loop computes in float32 (not half precision: JavaScript has none), so it is the
 * speed a plain numeric loop gets on this machine, not a reference for the results.
 */
// Every family's semantics, provided before anything evaluates (engine/family-semantics.ts).
import '../src/engine/all-families.ts';
import { fileURLToPath } from 'node:url';
import { runBatchSummary, type BatchSink } from '../src/cli/batch.ts';
import { compileFast } from '../src/engine/fast/index.ts';
import { FORMATS, toDouble } from '../src/engine/format.ts';
import { evaluate } from '../src/engine/pipeline.ts';
import { benchBatchProcess, type BatchBenchResult } from './batch-bench-lib.ts';
import { benchCvt } from './cvt-bench-lib.ts';
import { benchMma } from './mma-bench-lib.ts';
import {
  benchBesideSoftFloat,
  runSoftFloat,
  type SoftFloatOp,
  type SoftFloatResult,
} from './softfloat-bench-lib.ts';
import { median, timeMs, xorshiftWords } from './timing.ts';

const json = process.argv.includes('--json');
// 3 × 2^16: a multiple of every family's form count, so each native loop stays in bounds.
const VECTORS = 3 * 65536;
const WARMUP = 2;
const REPEATS = 9;

type Native = (x: Float64Array, y: Float64Array, z: Float64Array, out: Float32Array) => void;

interface Family {
  readonly name: string;
  /** Forms per lane format; `{t}` is replaced by f16 or bf16. */
  readonly forms: readonly string[];
  readonly native: Native;
  /**
   * The speed goal: twice Berkeley SoftFloat 3e (-O2) on this operation, as measured in this run.
   */
  readonly goalOp?: SoftFloatOp;
  /**
   * The goal in Mop/s where SoftFloat cannot run (no gcc): twice its figures on this 2-core
   * machine when the goal was set (f16_add 63, f16_mulAdd 51 Mop/s).
   */
  readonly goalMops?: number;
}

// One native loop per family, over the same values the fast path receives as bits.
const FAMILIES: readonly Family[] = [
  {
    name: 'add/sub/mul',
    forms: ['add.rn.{t}', 'sub.rn.{t}', 'mul.rn.{t}'],
    goalOp: 'f16_add',
    goalMops: 130,
    native: (x, y, _z, out) => {
      const n = out.length;
      for (let i = 0; i < n; i += 3) {
        out[i] = Math.fround(x[i]! + y[i]!);
        out[i + 1] = Math.fround(x[i + 1]! - y[i + 1]!);
        out[i + 2] = Math.fround(x[i + 2]! * y[i + 2]!);
      }
    },
  },
  {
    name: 'fma',
    forms: ['fma.rn.{t}'],
    goalOp: 'f16_mulAdd',
    goalMops: 100,
    native: (x, y, z, out) => {
      for (let i = 0; i < out.length; i++) out[i] = Math.fround(x[i]! * y[i]! + z[i]!);
    },
  },
  {
    name: 'min/max',
    forms: ['min.{t}', 'max.{t}'],
    native: (x, y, _z, out) => {
      for (let i = 0; i < out.length; i += 2) {
        out[i] = Math.fround(Math.min(x[i]!, y[i]!));
        out[i + 1] = Math.fround(Math.max(x[i + 1]!, y[i + 1]!));
      }
    },
  },
  {
    name: 'neg/abs',
    forms: ['neg.{t}', 'abs.{t}'],
    native: (x, _y, _z, out) => {
      for (let i = 0; i < out.length; i += 2) {
        out[i] = Math.fround(-x[i]!);
        out[i + 1] = Math.fround(Math.abs(x[i + 1]!));
      }
    },
  },
  {
    name: 'tanh/ex2',
    forms: ['tanh.approx.{t}', '{ex2}'],
    native: (x, _y, _z, out) => {
      for (let i = 0; i < out.length; i += 2) {
        out[i] = Math.fround(Math.tanh(x[i]!));
        out[i + 1] = Math.fround(2 ** x[i + 1]!);
      }
    },
  },
  {
    name: 'mixed',
    forms: ['add.rn.f32.{t}', 'fma.rn.f32.{t}'],
    goalOp: 'f16_mulAdd',
    goalMops: 100,
    native: (x, y, z, out) => {
      for (let i = 0; i < out.length; i += 2) {
        out[i] = Math.fround(x[i]! + z[i]!);
        out[i + 1] = Math.fround(x[i + 1]! * y[i + 1]! + z[i + 1]!);
      }
    },
  },
];

function formText(template: string, t: 'f16' | 'bf16'): string {
  // ex2.approx on bf16 exists only with .ftz.
  if (template === '{ex2}') return t === 'f16' ? 'ex2.approx.f16' : 'ex2.approx.ftz.bf16';
  return template.replace('{t}', t);
}

export interface FamilyResult {
  readonly family: string;
  readonly type: 'f16' | 'bf16';
  readonly forms: readonly string[];
  readonly ops: number;
  /** compileFast(form).batch: each form over its share of the vectors, the loop inside the engine. */
  readonly fastMops: number;
  /** compileFast(form).words called once per element, the forms interleaved as in the native loop. */
  readonly perCallMops: number;
  readonly nativeMops: number;
  /** fastMops over nativeMops. */
  readonly ratio: number;
  readonly goalMops?: number;
}

/** A family's goal: twice SoftFloat's figure of this run, or the recorded one without it. */
function goalOf(family: Family, softFloat: SoftFloatResult): number | undefined {
  if (family.goalOp && softFloat.ok) return Math.round(2 * softFloat.mops[family.goalOp]);
  return family.goalMops;
}

function benchFamily(family: Family, t: 'f16' | 'bf16', goalMops?: number): FamilyResult {
  const forms = family.forms.map((f) => formText(f, t));
  const fns = forms.map((f) => compileFast(f).words!);
  const batches = forms.map((f) => compileFast(f).batch);
  const k = fns.length;
  const fmt = FORMATS[t];
  const a = xorshiftWords(VECTORS, 0xffff, 0x9e3779b9);
  const b = xorshiftWords(VECTORS, 0xffff, 0x85ebca6b);
  // Mixed forms take a 32-bit c; others a 16-bit one.
  const mixed = family.name === 'mixed';
  const c = xorshiftWords(VECTORS, mixed ? 0xffffffff : 0xffff, 0xc2b2ae35);
  const x = Float64Array.from(a, (v) => toDouble(BigInt(v), fmt));
  const y = Float64Array.from(b, (v) => toDouble(BigInt(v), fmt));
  const z = Float64Array.from(c, (v) => toDouble(BigInt(v), mixed ? FORMATS.f32 : fmt));
  const out = new Uint32Array(VECTORS);
  const nativeOut = new Float32Array(VECTORS);

  // Batch: form j evaluates the j-th slice of the vectors (the same number of operations).
  const share = VECTORS / k;
  const slices = batches.map((_, j) => ({
    registers: {
      a: a.subarray(j * share, (j + 1) * share),
      b: b.subarray(j * share, (j + 1) * share),
      c: c.subarray(j * share, (j + 1) * share),
    },
    out: out.subarray(j * share, (j + 1) * share),
  }));
  const batch = () => {
    for (let j = 0; j < k; j++) {
      const s = slices[j]!;
      batches[j]!(s.registers, s.out, share);
    }
  };
  // Per call: form i of the family handles elements i, i+k, i+2k, ... as the native loop does.
  const perCall = () => {
    for (let i = 0; i < VECTORS; i += k) {
      for (let j = 0; j < k; j++) out[i + j] = fns[j]!(a[i + j]!, b[i + j]!, c[i + j]!);
    }
  };
  const fastMs = timeMs(batch, REPEATS, WARMUP);
  const perCallMs = timeMs(perCall, REPEATS, WARMUP);
  const nativeMs = timeMs(() => family.native(x, y, z, nativeOut), REPEATS, WARMUP);
  return {
    family: family.name,
    type: t,
    forms,
    ops: VECTORS,
    fastMops: round(VECTORS / fastMs / 1000, 2),
    perCallMops: round(VECTORS / perCallMs / 1000, 2),
    nativeMops: round(VECTORS / nativeMs / 1000, 2),
    ratio: round(nativeMs / fastMs, 3),
    ...(goalMops ? { goalMops } : {}),
  };
}

function round(x: number, digits: number): number {
  const p = 10 ** digits;
  return Math.round(x * p) / p;
}

export interface SweepResult {
  readonly form: string;
  readonly path: 'fast' | 'traced';
  readonly inputs: 65536;
  /** Evaluating all inputs with a compiled function. */
  readonly ms: number;
  /**
   * compileFast itself (fast path only). tanh/ex2 and neg/abs fill their tables of 65,536
   * results on first use, in the sweep's warm-up.
   */
  readonly compileMs?: number;
}

function benchSweep(form: string, path: 'fast' | 'traced'): SweepResult {
  const out = new Uint16Array(65536);
  if (path === 'fast') {
    const fn = compileFast(form).words!;
    return {
      form,
      path,
      inputs: 65536,
      compileMs: round(
        timeMs(() => compileFast(form), 3, 0),
        1,
      ),
      ms: round(
        timeMs(
          () => {
            for (let i = 0; i < 65536; i++) out[i] = fn(i, 0, 0);
          },
          REPEATS,
          WARMUP,
        ),
        2,
      ),
    };
  }
  // The pipeline builds a full trace per input: fewer repeats keep the bench short.
  const ms = timeMs(
    () => {
      for (let i = 0; i < 65536; i++) out[i] = Number(evaluate(form, { a: BigInt(i) }).d);
    },
    3,
    1,
  );
  return { form, path, inputs: 65536, ms: round(ms, 1) };
}

export interface BatchResult {
  readonly lines: number;
  readonly linesPerSecond: number;
  readonly tracedLinesPerSecond: number;
}

async function benchBatch(): Promise<BatchResult> {
  const lines = 100_000;
  const hex = (v: number, w: number) => `0x${v.toString(16).padStart(w / 4, '0')}`;
  const a = xorshiftWords(lines, 0xffffffff, 1);
  const b = xorshiftWords(lines, 0xffffffff, 2);
  const c = xorshiftWords(lines, 0xffffffff, 3);
  const forms = ['fma.rn.f16', 'add.rn.bf16x2', 'max.NaN.f16x2', 'add.rn.f32.f16'];
  const makeChunks = (trace: boolean, count: number) => {
    const chunks: string[] = [];
    let chunk = '';
    for (let i = 0; i < count; i++) {
      const instr = forms[i % forms.length]!;
      const line =
        instr === 'fma.rn.f16'
          ? {
              id: i,
              instr,
              a: hex(a[i]! & 0xffff, 16),
              b: hex(b[i]! & 0xffff, 16),
              c: hex(c[i]! & 0xffff, 16),
              trace,
            }
          : instr === 'add.rn.f32.f16'
            ? // sm_90, the default target, has no mixed-precision add.
              {
                id: i,
                instr,
                target: 'sm_100',
                a: hex(a[i]! & 0xffff, 16),
                c: hex(c[i]!, 32),
                trace,
              }
            : { id: i, instr, a: hex(a[i]!, 32), b: hex(b[i]!, 32), trace };
      chunk += `${JSON.stringify(line)}\n`;
      if (chunk.length > 64 * 1024) {
        chunks.push(chunk);
        chunk = '';
      }
    }
    chunks.push(chunk);
    return chunks;
  };
  const discard: BatchSink = { closed: false, write: () => undefined };
  const run = async (chunks: string[]) => {
    const t0 = performance.now();
    const summary = await runBatchSummary(chunks, discard);
    if (summary.failed !== 0) throw new Error(`bench batch: ${summary.failed} lines failed`);
    return performance.now() - t0;
  };
  const plain = makeChunks(false, lines);
  const traced = makeChunks(true, lines / 10);
  const plainTimes: number[] = [];
  const tracedTimes: number[] = [];
  await run(plain);
  await run(traced);
  for (let i = 0; i < 5; i++) plainTimes.push(await run(plain));
  for (let i = 0; i < 3; i++) tracedTimes.push(await run(traced));
  return {
    lines,
    linesPerSecond: Math.round(lines / (median(plainTimes) / 1000)),
    tracedLinesPerSecond: Math.round(lines / 10 / (median(tracedTimes) / 1000)),
  };
}

// SoftFloat first: the families' goals are twice its figures in this run.
const softFloat = runSoftFloat();
const families: FamilyResult[] = [];
for (const family of FAMILIES)
  for (const t of ['f16', 'bf16'] as const)
    families.push(benchFamily(family, t, goalOf(family, softFloat)));
const beside = benchBesideSoftFloat(softFloat);
const sweeps: SweepResult[] = [
  benchSweep('tanh.approx.f16', 'fast'),
  benchSweep('ex2.approx.ftz.bf16', 'fast'),
  benchSweep('neg.f16', 'fast'),
  benchSweep('tanh.approx.f16', 'traced'),
];
const batch = await benchBatch();
const BATCH_PROCESS_LINES = 500_000;
const batchProcess: BatchBenchResult = await benchBatchProcess(
  BATCH_PROCESS_LINES,
  5,
  fileURLToPath(new URL('../.bench-tmp', import.meta.url)),
);
const cvt = benchCvt(REPEATS);
const mma = await benchMma();

const report = {
  node: process.version,
  vectorsPerFamily: VECTORS,
  repeats: REPEATS,
  statistic: 'median',
  families,
  softFloat,
  beside,
  sweeps,
  batch,
  batchProcess,
  cvt,
  mma,
};

if (json) {
  console.log(JSON.stringify(report));
} else {
  console.log(
    `engine fast path vs native float32 loop (Math.fround), ${VECTORS} vectors, median of ${REPEATS}, node ${process.version}`,
  );
  console.log(
    'family        type   fast Mop/s  per call  native Mop/s  fast/native  goal         forms',
  );
  for (const r of families) {
    const goal =
      r.goalMops === undefined
        ? ''
        : `≥${r.goalMops} ${r.fastMops >= r.goalMops ? 'met' : 'MISSED'}`;
    console.log(
      `${r.family.padEnd(13)} ${r.type.padEnd(5)} ${r.fastMops.toFixed(2).padStart(11)} ${r.perCallMops.toFixed(2).padStart(9)} ${r.nativeMops.toFixed(2).padStart(13)} ${`${r.ratio}×`.padStart(12)}  ${goal.padEnd(11)}  ${r.forms.join(', ')}`,
    );
  }
  console.log(
    'fast: compileFast(form).batch (each form over its share of the vectors); per call: compileFast(form).words once per element;',
  );
  console.log(
    softFloat.ok
      ? 'goal: twice Berkeley SoftFloat 3e -O2 in this run (f16_add for add/sub/mul, f16_mulAdd for fma and mixed)'
      : `goal: twice SoftFloat as measured when it was set (f16_add 63, f16_mulAdd 51 Mop/s): ${softFloat.reason}`,
  );
  console.log('');
  console.log(
    softFloat.ok
      ? `beside Berkeley SoftFloat 3e (${softFloat.dir}, built with gcc -O2, run now), same operations and operands (2^20), best of 10 runs each:`
      : `beside Berkeley SoftFloat 3e: not run (${softFloat.reason}); the engine alone, best of 10 runs:`,
  );
  console.log(
    '  SoftFloat     Mop/s   engine form         Mop/s (median)   engine/SoftFloat  goal ≥ 2×',
  );
  for (const r of beside) {
    const sf = r.softFloatMops === null ? '—' : r.softFloatMops.toFixed(1);
    const ratio = r.ratio === null ? '—' : `${r.ratio}×`;
    const goal = r.ratio === null ? '' : r.ratio >= 2 ? 'met' : 'MISSED';
    console.log(
      `  ${r.op.padEnd(11)} ${sf.padStart(7)}   ${r.form.padEnd(16)} ${r.engineMops.toFixed(1).padStart(8)} (${r.engineMedianMops.toFixed(1)})   ${ratio.padStart(14)}    ${goal}`,
    );
  }
  console.log('');
  console.log('all 65,536 inputs of a unary form:');
  for (const s of sweeps) {
    const compile = s.compileMs === undefined ? '' : `  (+ compileFast ${s.compileMs} ms)`;
    console.log(`  ${s.form.padEnd(22)} ${s.path.padEnd(7)} ${s.ms} ms${compile}`);
  }
  console.log('');
  console.log(
    `ptxf batch in-process (runBatch): ${batch.linesPerSecond} lines/s untraced, ${batch.tracedLinesPerSecond} lines/s with trace: true`,
  );
  const p = batchProcess;
  const batchGoal = p.linesPerSecond >= 500_000 ? 'met' : 'MISSED';
  console.log(
    `ptxf batch as a process (bin/ptxf.mjs batch < file > /dev/null, ${p.lines} untraced lines of ${p.forms} forms: arithmetic, x2, mixed, min/max, tanh/ex2, cvt; median of ${p.runs}):`,
  );
  console.log(
    `  ${p.linesPerSecond} lines/s after start-up (goal ≥ 500000: ${batchGoal}); whole run ${p.wallMs} ms, start-up (one line) ${p.startupMs} ms; peak RSS ${p.peakRssMiB ?? '—'} MiB`,
  );
  console.log('');
  console.log(
    'cvt fast path (compileFast(form).batch) vs a native Float64Array → Float32Array copy of as many values:',
  );
  for (const r of cvt) {
    console.log(
      `  ${r.form.padEnd(32)} ${String(r.values).padStart(8)} values ${`${r.ms} ms`.padStart(9)}  native ${`${r.nativeMs} ms`.padStart(8)}  ${`${r.slowdown}×`.padStart(6)}  (compile ${r.compileMs} ms)`,
    );
  }
  console.log('');
  console.log('tensor cores (mma):');
  console.log(
    `  one element with its trace, k = ${mma.tracedK} (${mma.tracedForm}, sm_89; the largest k of a dense form): ${mma.tracedMs} ms (median of 50)`,
  );
  console.log(
    `  ptxf batch of ${mma.batchLines} mma lines in process: ${mma.batchMs} ms, ${mma.batchLinesPerSecond} lines/s`,
  );
}
