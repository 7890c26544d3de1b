import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Runs NVIDIA's `ptxas` on many instructions at once and says which ones it rejects.
 * One PTX file holds every instruction on its own line; ptxas reports `line N` for each error,
 * so one run answers for thousands of instructions. Because an assembler may stop at its first
 * error, `rejectedLines` re-assembles what it accepted until that assembles cleanly.
 * Each file is assembled by its own ptxas process (one module per run: ptxas given several
 * files mixes up their .version/.target checks); a shell script runs them in a row, so the
 * test process forks a few shells instead of a ptxas per file.
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
  '.reg .b8 q<4>;',
  '.reg .b16 h<4>;',
  '.reg .b32 r<4>;',
  '.reg .f32 f<4>;',
  '.reg .f64 fd<4>;',
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

/** One PTX file to assemble for `-arch arch`; `tag` names it (file-name safe, unique). */
export interface RejectionJob {
  readonly file: PtxFile;
  readonly arch: string;
  readonly tag: string;
}

/** Reads one ptxas run's stderr: the instruction lines it names, and other errors. */
function outcomeOf(file: PtxFile, stderr: string, code: number): RunOutcome {
  const { firstInstructionLine } = ptxText(file);
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

const quoted = (path: string) => `'${path.replace(/'/g, `'\\''`)}'`;

/**
 * Assembles every job's file, each by its own ptxas (-O0: whether a line assembles is decided
 * before optimisation, which only costs time here), `parallel` shell scripts at a time.
 */
async function assembleAll(
  jobs: readonly RejectionJob[],
  dir: string,
  parallel: number,
): Promise<RunOutcome[]> {
  const paths = jobs.map((job) => {
    const path = join(dir, `${job.tag}.ptx`);
    writeFileSync(path, ptxText(job.file).text);
    return path;
  });
  const chunks = Array.from({ length: Math.min(parallel, jobs.length) }, (_, c) =>
    jobs.map((_, i) => i).filter((i) => i % parallel === c),
  );
  await Promise.all(
    chunks.map((indices, c) => {
      const script = join(dir, `batch-${c}.sh`);
      const lines = indices.map((i) => {
        const path = quoted(paths[i]!);
        const errPath = quoted(`${paths[i]!}.err`);
        const rcPath = quoted(`${paths[i]!}.rc`);
        return `ptxas -O0 -arch ${jobs[i]!.arch} ${path} -o /dev/null 2>${errPath}; echo $? >${rcPath}`;
      });
      writeFileSync(script, `${lines.join('\n')}\n`);
      return new Promise<void>((resolve, reject) => {
        const child = spawn('sh', [script], { stdio: ['ignore', 'ignore', 'inherit'] });
        child.on('error', reject);
        child.on('close', (status) =>
          status === 0 ? resolve() : reject(new Error(`${script} exited with ${status}`)),
        );
      });
    }),
  );
  return jobs.map((job, i) => {
    const stderr = readFileSync(`${paths[i]!}.err`, 'utf8');
    const code = Number(readFileSync(`${paths[i]!}.rc`, 'utf8').trim());
    for (const ext of ['', '.err', '.rc']) rmSync(`${paths[i]!}${ext}`);
    return outcomeOf(job.file, stderr, code);
  });
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
 * Which instructions ptxas rejects in each file. An empty kernel with the file's header is
 * assembled first: when ptxas refuses the `.target`/`.version` pair itself, every instruction
 * is rejected and the big file is not needed. After the run with every instruction, the
 * accepted lines are assembled again on their own; they must then pass, which proves ptxas
 * reported every erroneous line and not just the first few.
 */
export async function rejectedLines(
  files: readonly RejectionJob[],
  dir: string,
  parallel: number,
): Promise<Rejections[]> {
  const header = await assembleAll(
    files.map((f) => ({ ...f, file: { ...f.file, instructions: [] }, tag: `${f.tag}-header` })),
    dir,
    parallel,
  );
  const results: (Rejections | null)[] = header.map((h) =>
    h.exitCode !== 0
      ? {
          rejected: null,
          fileErrors: h.fileErrors.length > 0 ? h.fileErrors : ['rejected'],
          messages: new Map(),
          foundOnRetry: 0,
          runs: 1,
        }
      : null,
  );
  const open = files.map((_, i) => i).filter((i) => results[i] === null);
  const first = await assembleAll(
    open.map((i) => files[i]!),
    dir,
    parallel,
  );
  interface Pending {
    readonly index: number;
    readonly rejected: Set<number>;
    readonly messages: Map<number, string[]>;
    foundOnRetry: number;
    runs: number;
  }
  let pending: Pending[] = [];
  open.forEach((i, k) => {
    const run = first[k]!;
    if (run.fileErrors.length > 0) {
      results[i] = {
        rejected: null,
        fileErrors: run.fileErrors,
        messages: run.messages,
        foundOnRetry: 0,
        runs: 2,
      };
      return;
    }
    const state = {
      index: i,
      rejected: new Set(run.errorLines),
      messages: new Map(run.messages),
      foundOnRetry: 0,
      runs: 2,
    };
    if (run.exitCode === 0) results[i] = { ...state, fileErrors: [] };
    else pending.push(state);
  });
  for (let round = 0; round < 8 && pending.length > 0; round++) {
    // Files whose every line was rejected have nothing left to re-assemble.
    for (const p of pending.filter(
      (x) => x.rejected.size === files[x.index]!.file.instructions.length,
    ))
      results[p.index] = { ...p, fileErrors: [] };
    pending = pending.filter((p) => results[p.index] === null);
    if (pending.length === 0) break;
    const kept = pending.map((p) =>
      files[p.index]!.file.instructions.map((_, i) => i).filter((i) => !p.rejected.has(i)),
    );
    const retries = await assembleAll(
      pending.map((p, k) => {
        const f = files[p.index]!;
        const instructions = kept[k]!.map((i) => f.file.instructions[i]!);
        return { ...f, file: { ...f.file, instructions }, tag: `${f.tag}-r${round}` };
      }),
      dir,
      parallel,
    );
    const still: Pending[] = [];
    pending.forEach((p, k) => {
      const retry = retries[k]!;
      p.runs++;
      if (retry.fileErrors.length > 0) {
        results[p.index] = { ...p, rejected: null, fileErrors: retry.fileErrors };
        return;
      }
      if (retry.exitCode === 0) {
        results[p.index] = { ...p, fileErrors: [] };
        return;
      }
      for (const j of retry.errorLines) {
        const original = kept[k]![j]!;
        p.rejected.add(original);
        p.messages.set(original, retry.messages.get(j) ?? []);
        p.foundOnRetry++;
      }
      still.push(p);
    });
    pending = still;
  }
  if (pending.length > 0) {
    throw new Error(`ptxas kept finding new errors in ${files[pending[0]!.index]!.tag}`);
  }
  return results.map((r) => r!);
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
