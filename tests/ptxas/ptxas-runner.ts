import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Runs NVIDIA's `ptxas` on many instructions at once and says which ones it rejects.
 * One PTX file holds every instruction on its own line; ptxas reports `line N` for each error,
 * so one run answers for hundreds of instructions. Because an assembler may stop at its first
 * error, `rejectedLines` re-assembles what it accepted until that assembles cleanly.
 */

export interface PtxasInfo {
  readonly path: string;
  readonly release: string;
  /** Values `--gpu-name` accepts that name real GPUs (`sm_*`), from `ptxas --help`. */
  readonly gpuNames: readonly string[];
  /** `.version` values it accepts, from `ptxas --list-version`. */
  readonly ptxVersions: readonly string[];
}

/** Finds ptxas on PATH; null when it is absent (the agreement test then skips). */
export function findPtxas(): PtxasInfo | null {
  const version = spawnSync('ptxas', ['--version'], { encoding: 'utf8' });
  if (version.error || version.status !== 0) return null;
  const release = /release (\d+\.\d+)/.exec(version.stdout)?.[1] ?? 'unknown';
  const help = spawnSync('ptxas', ['--help'], { encoding: 'utf8' }).stdout ?? '';
  const gpuNames = [...new Set([...help.matchAll(/'(sm_\d+[af]?)'/g)].map((m) => m[1]!))];
  const listed = spawnSync('ptxas', ['--list-version'], { encoding: 'utf8' }).stdout ?? '';
  const ptxVersions = listed.split(/\s+/).filter((v) => /^\d+\.\d+$/.test(v));
  return { path: 'ptxas', release, gpuNames, ptxVersions };
}

/** The `-arch` to assemble PTX for `.target <target>` with, or null when ptxas has none. */
export function archFor(target: string, gpuNames: readonly string[]): string | null {
  if (gpuNames.includes(target)) return target;
  const m = /^sm_(\d+)([af]?)$/.exec(target);
  if (!m) return null;
  const [, num, suffix] = m;
  // sm_101* was renamed sm_110*; ptxas 13 compiles `.target sm_101*` PTX for sm_110*.
  if (num === '101') return gpuNames.includes(`sm_110${suffix}`) ? `sm_110${suffix}` : null;
  // PTX for a baseline `.target sm_XY` can be compiled for any GPU sm_MN with MN >= XY, so
  // targets older than ptxas's oldest GPU are assembled for that oldest one.
  if (suffix === '') {
    const baseline = gpuNames
      .map((g) => /^sm_(\d+)$/.exec(g))
      .filter((x): x is RegExpExecArray => x !== null)
      .map((x) => Number(x[1]))
      .filter((n) => n >= Number(num))
      .sort((a, b) => a - b)[0];
    return baseline === undefined ? null : `sm_${baseline}`;
  }
  return null;
}

/** One instruction line to assemble, with the register file it needs declared by the caller. */
export interface PtxFile {
  readonly version: string;
  readonly target: string;
  readonly instructions: readonly string[];
}

const HEADER_LINES = (file: PtxFile): string[] => [
  `.version ${file.version}`,
  `.target ${file.target}`,
  '.address_size 64',
  '.visible .entry agreement()',
  '{',
  '.reg .b16 h<4>;',
  '.reg .b32 r<4>;',
  '.reg .f32 f<4>;',
];

export function ptxText(file: PtxFile): { text: string; firstInstructionLine: number } {
  const header = HEADER_LINES(file);
  const text = [...header, ...file.instructions, 'ret;', '}', ''].join('\n');
  return { text, firstInstructionLine: header.length + 1 };
}

export interface RunOutcome {
  /** Indices (into `instructions`) of lines ptxas named in an error. */
  readonly errorLines: Set<number>;
  /** Errors ptxas reported outside the instructions (the `.target`/`.version` lines). */
  readonly fileErrors: string[];
  readonly exitCode: number;
  readonly messages: Map<number, string[]>;
}

async function runOnce(file: PtxFile, arch: string, dir: string, tag: string): Promise<RunOutcome> {
  const { text, firstInstructionLine } = ptxText(file);
  const path = join(dir, `${tag}.ptx`);
  writeFileSync(path, text);
  const { stderr, code } = await new Promise<{ stderr: string; code: number }>(
    (resolve, reject) => {
      const child = spawn('ptxas', ['-arch', arch, path, '-o', '/dev/null'], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => (err += chunk));
      child.on('error', reject);
      child.on('close', (status) => resolve({ stderr: err, code: status ?? -1 }));
    },
  );
  const errorLines = new Set<number>();
  const messages = new Map<number, string[]>();
  const fileErrors: string[] = [];
  for (const line of stderr.split('\n')) {
    const m = /line (\d+); (error|fatal)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const index = Number(m[1]) - firstInstructionLine;
    if (index >= 0 && index < file.instructions.length) {
      errorLines.add(index);
      messages.set(index, [...(messages.get(index) ?? []), m[3]!]);
    } else {
      fileErrors.push(m[3]!);
    }
  }
  if (code !== 0 && errorLines.size === 0 && fileErrors.length === 0) {
    fileErrors.push(stderr.trim() || `ptxas exited with ${code}`);
  }
  return { errorLines, fileErrors, exitCode: code, messages };
}

export interface Rejections {
  /** Every instruction ptxas rejects, or null when it rejects the file as a whole. */
  readonly rejected: Set<number> | null;
  readonly fileErrors: string[];
  readonly messages: Map<number, string[]>;
  /** Lines found only by re-assembling the accepted rest (0 when ptxas reports all at once). */
  readonly foundOnRetry: number;
  readonly runs: number;
}

/**
 * Which instructions ptxas rejects for this target and version. An empty kernel is assembled
 * first: when ptxas refuses the `.target`/`.version` pair itself, every instruction is rejected
 * and the big file is not needed. After the run with every instruction, the accepted lines
 * are assembled again on their own; they must then pass, which proves ptxas reported every
 * erroneous line and not just the first few.
 */
export async function rejectedLines(
  file: PtxFile,
  arch: string,
  dir: string,
  tag: string,
): Promise<Rejections> {
  const header = await runOnce({ ...file, instructions: [] }, arch, dir, `${tag}-header`);
  if (header.exitCode !== 0) {
    const fileErrors = header.fileErrors.length > 0 ? header.fileErrors : ['rejected'];
    return { rejected: null, fileErrors, messages: new Map(), foundOnRetry: 0, runs: 1 };
  }
  const first = await runOnce(file, arch, dir, tag);
  if (first.fileErrors.length > 0) {
    return {
      rejected: null,
      fileErrors: first.fileErrors,
      messages: first.messages,
      foundOnRetry: 0,
      runs: 2,
    };
  }
  const rejected = new Set(first.errorLines);
  const messages = new Map(first.messages);
  let foundOnRetry = 0;
  let runs = 2;
  if (first.exitCode === 0) return { rejected, fileErrors: [], messages, foundOnRetry, runs };
  for (let round = 0; round < 8; round++) {
    const kept = file.instructions.map((_, i) => i).filter((i) => !rejected.has(i));
    if (kept.length === 0) return { rejected, fileErrors: [], messages, foundOnRetry, runs };
    const retry = await runOnce(
      { ...file, instructions: kept.map((i) => file.instructions[i]!) },
      arch,
      dir,
      `${tag}-r${round}`,
    );
    runs++;
    if (retry.fileErrors.length > 0) {
      return { rejected: null, fileErrors: retry.fileErrors, messages, foundOnRetry, runs };
    }
    if (retry.exitCode === 0) return { rejected, fileErrors: [], messages, foundOnRetry, runs };
    for (const j of retry.errorLines) {
      const original = kept[j]!;
      rejected.add(original);
      messages.set(original, retry.messages.get(j) ?? []);
      foundOnRetry++;
    }
  }
  throw new Error(`ptxas kept finding new errors in ${tag}`);
}

/** Runs `jobs` with at most `parallel` in flight (the CI machine has 2 cores). */
export async function inParallel<T>(
  jobs: readonly (() => Promise<T>)[],
  parallel: number,
): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, jobs.length) }, worker));
  return results;
}

export function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'ptxas-agreement-'));
  return fn(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}
