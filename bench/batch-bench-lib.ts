/**
 * The `ptxf batch` figure of `npm run bench`: the real CLI (bin/ptxf.mjs, a child process) on a
 * generated file of mixed untraced lines — one-lane and x2 arithmetic, mixed precision, min/max,
 * tanh/ex2, cvt — read from a file and written to /dev/null. It prints lines per second after
 * start-up (the wall time less the median start-up of a one-line batch, measured beside it) and
 * the child's peak resident memory, sampled from /proc (Linux).
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findForm } from '../src/catalog/all-forms.ts';
import { median, xorshiftWords } from './timing.ts';

export const PTXF = fileURLToPath(new URL('../bin/ptxf.mjs', import.meta.url));

/** The forms of the mix, each as many lines as the others, in this order, round and round. */
export const BATCH_MIX = [
  'add.rn.f16',
  'sub.rn.bf16',
  'mul.rn.f16',
  'fma.rn.f16',
  'fma.rn.relu.bf16',
  'add.rn.ftz.f16',
  'fma.rz.bf16',
  'add.rn.f32.f16',
  'fma.rn.f32.bf16',
  'add.rn.f16x2',
  'fma.rn.bf16x2',
  'mul.rn.ftz.f16x2',
  'min.f16',
  'max.NaN.bf16x2',
  'min.xorsign.abs.bf16',
  'tanh.approx.f16',
  'ex2.approx.ftz.bf16',
  'tanh.approx.bf16x2',
  'cvt.rn.f16.f32',
  'cvt.rn.satfinite.e4m3x2.f32',
  'cvt.f32.f16',
  'cvt.rn.bf16x2.f32',
  'cvt.rn.relu.f16.f32',
] as const;

/**
 * Each form's source registers (name and width) and the target its lines name: none where the
 * default target (sm_90) has the form, else the form's least target (the mixed forms need sm_100).
 */
function shapeOf(instr: string): { sources: { name: string; bits: number }[]; target: string } {
  const form = findForm(instr);
  if (!form) throw new Error(`batch bench: ${instr} is not a catalog form`);
  const sm = Number(/^sm_(\d+)/.exec(form.minTarget)?.[1]);
  return {
    sources: form.registers.slice(1).map((r) => ({ name: r.name, bits: r.bits })),
    target: sm > 90 ? `,"target":"${form.minTarget}"` : '',
  };
}

/**
 * Write `lines` lines of the mix to `path` (ids 0, 1, …; operands random register bits of the
 * operand's width, as hex), in chunks, so the file costs no more memory than one chunk.
 */
export function writeMixedBatch(path: string, lines: number): void {
  const forms = BATCH_MIX.map((instr) => ({ instr, ...shapeOf(instr) }));
  const words = xorshiftWords(4 * lines, 0xffffffff, 0x2545f491);
  const fd = openSync(path, 'w');
  let chunk = '';
  for (let i = 0; i < lines; i++) {
    const { instr, sources, target } = forms[i % forms.length]!;
    let line = `{"id":${i},"instr":"${instr}"${target}`;
    sources.forEach(({ name, bits }, k) => {
      const word = words[4 * i + k]! >>> (32 - Math.min(bits, 32));
      line += `,"${name}":"0x${word.toString(16).padStart(bits / 4, '0')}"`;
    });
    chunk += `${line}}\n`;
    if (chunk.length >= 1 << 20) {
      writeSync(fd, chunk);
      chunk = '';
    }
  }
  writeSync(fd, chunk);
  closeSync(fd);
}

export interface BatchRun {
  readonly wallMs: number;
  readonly status: number | null;
  /** Peak resident set size in MiB (VmHWM), or null where /proc is missing. */
  readonly peakRssMiB: number | null;
}

function peakKiB(pid: number): number | null {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** `ptxf batch < input > /dev/null`, timed from spawn to exit. */
export async function runBatchFile(input: string): Promise<BatchRun> {
  const stdin = openSync(input, 'r');
  const stdout = openSync('/dev/null', 'w');
  const t0 = performance.now();
  const child = spawn(process.execPath, [PTXF, 'batch'], { stdio: [stdin, stdout, 'inherit'] });
  let peak: number | null = null;
  const sample = () => {
    const k = peakKiB(child.pid!);
    if (k !== null) peak = Math.max(peak ?? 0, k);
  };
  const sampler = setInterval(sample, 10);
  const status = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const wallMs = performance.now() - t0;
  clearInterval(sampler);
  closeSync(stdin);
  closeSync(stdout);
  return {
    wallMs,
    status,
    peakRssMiB: peak === null ? null : Math.round((peak / 1024) * 10) / 10,
  };
}

export interface BatchBenchResult {
  readonly lines: number;
  readonly forms: number;
  /** Median wall time of the whole run, start-up included. */
  readonly wallMs: number;
  /** Median wall time of a one-line batch: what the process costs before its first line. */
  readonly startupMs: number;
  /** lines / (wallMs − startupMs). */
  readonly linesPerSecond: number;
  readonly peakRssMiB: number | null;
  readonly runs: number;
}

export async function benchBatchProcess(
  lines: number,
  runs: number,
  dir: string,
): Promise<BatchBenchResult> {
  mkdirSync(dir, { recursive: true });
  const big = join(dir, `batch-mix-${lines}.jsonl`);
  const one = join(dir, 'batch-one.jsonl');
  writeMixedBatch(big, lines);
  writeMixedBatch(one, 1);
  const walls: number[] = [];
  const starts: number[] = [];
  let peak: number | null = null;
  await runBatchFile(one); // a stale CLI bundle is rebuilt here, not in a timed run
  for (let r = 0; r < runs; r++) {
    const start = await runBatchFile(one);
    const run = await runBatchFile(big);
    if (run.status !== 0 || start.status !== 0)
      throw new Error(`batch bench: ptxf batch exited ${run.status} (expected 0: every line ok)`);
    walls.push(run.wallMs);
    starts.push(start.wallMs);
    if (run.peakRssMiB !== null) peak = Math.max(peak ?? 0, run.peakRssMiB);
  }
  const wallMs = median(walls);
  const startupMs = median(starts);
  return {
    lines,
    forms: BATCH_MIX.length,
    wallMs: Math.round(wallMs),
    startupMs: Math.round(startupMs),
    linesPerSecond: Math.round(lines / ((wallMs - startupMs) / 1000)),
    peakRssMiB: peak,
    runs,
  };
}
