/**
 * The external references of the cross-checks: a numpy script and an nvcc-built host program.
 * Both speak one batched protocol (see numpy_ref.py): a request is "<op> <n>" and one line of
 * n 8-hex-digit values per operand; the answer is one line of n results. Whether python3 with
 * numpy, or nvcc, is here at all is for the suites to ask first (tests/support/tools.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { Columns } from './vectors.ts';

export interface BatchRequest {
  readonly op: string;
  readonly operands: Columns;
}

/** Sends the requests to a reference process and returns its answers, one per request. */
export type ReferenceRunner = (requests: readonly BatchRequest[]) => Uint32Array[];

const HERE = import.meta.dirname;
const ROOT = join(HERE, '../..');
/**
 * Multiplies the random vector counts: PTXF_CROSS_SCALE=10 for a deeper run than CI's
 * (the default, 1, keeps the cross-checks within their budget).
 */
export const CROSS_SCALE = Math.max(
  1,
  Math.floor(Number(process.env.PTXF_CROSS_SCALE ?? '1')) || 1,
);

export const CACHE_DIR = join(ROOT, 'node_modules/.cache/ptxf-cross');

function hexLine(values: Uint32Array): string {
  let s = '';
  for (let i = 0; i < values.length; i++) s += values[i]!.toString(16).padStart(8, '0');
  return s;
}

function parseHexLine(line: string, n: number, op: string): Uint32Array {
  if (line.length !== n * 8)
    throw new Error(`${op}: expected ${n} results, got ${line.length / 8}`);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = parseInt(line.slice(i * 8, i * 8 + 8), 16);
  return out;
}

/** Values per reference process: keeps each stdin string far below V8's string size limit. */
const VALUES_PER_RUN = 4_000_000;

function runOnce(command: string, args: readonly string[], requests: readonly BatchRequest[]) {
  const input = requests
    .map((r) => [`${r.op} ${r.operands[0]!.length}`, ...r.operands.map(hexLine)].join('\n'))
    .join('\n');
  const out = spawnSync(command, args, {
    input: input + '\n',
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (out.error || out.status !== 0)
    throw new Error(`${command} failed (${out.error?.message ?? out.status}): ${out.stderr}`);
  const lines = out.stdout.split('\n');
  return requests.map((r, i) => parseHexLine(lines[i] ?? '', r.operands[0]!.length, r.op));
}

function batchRunner(command: string, args: readonly string[]): ReferenceRunner {
  return (requests) => {
    const results: Uint32Array[] = [];
    let group: BatchRequest[] = [];
    let values = 0;
    for (const r of requests) {
      const size = r.operands.length * r.operands[0]!.length;
      if (group.length > 0 && values + size > VALUES_PER_RUN) {
        results.push(...runOnce(command, args, group));
        group = [];
        values = 0;
      }
      group.push(r);
      values += size;
    }
    if (group.length > 0) results.push(...runOnce(command, args, group));
    return results;
  };
}

/** python3 with numpy, running numpy_ref.py (the caller has checked that numpy is there). */
export function numpyReference(): ReferenceRunner {
  return batchRunner('python3', [join(HERE, 'numpy_ref.py')]);
}

/** python3 with numpy, running numpy_cvt_ref.py: numpy's conversions between its float types. */
export function numpyCvtReference(): ReferenceRunner {
  return batchRunner('python3', [join(HERE, 'numpy_cvt_ref.py')]);
}

const NV_SOURCE = join(HERE, 'nv_host_ref.cpp');
/** Included by both host programs: part of what their cached binaries are keyed by. */
const PROTOCOL_HEADER = join(HERE, 'host_ref_protocol.h');

/**
 * Builds nv_host_ref.cpp with nvcc (host code only) into the cache, keyed by a hash of the
 * source and of `nvcc --version`, so a rerun with nothing changed does not recompile. The caller
 * has checked that nvcc is there; a build that fails throws, with nvcc's messages.
 */
export function nvHostReference(): ReferenceRunner {
  return nvccHostProgram(NV_SOURCE);
}

/** The same for nv_cvt_host_ref.cpp: NVIDIA's host conversions of cvt's formats. */
export function nvCvtHostReference(): ReferenceRunner {
  return nvccHostProgram(join(HERE, 'nv_cvt_host_ref.cpp'));
}

function nvccHostProgram(source: string): ReferenceRunner {
  return batchRunner(nvccBinary(source), []);
}

/**
 * Builds a host program with nvcc (host code only) into the cache, keyed by a hash of the
 * source, of the protocol header and of `nvcc --version`, and returns the binary's path. The
 * caller has checked that nvcc is there; a build that fails throws, with nvcc's messages.
 */
export function nvccBinary(NV_SOURCE: string): string {
  const version = execFileSync('nvcc', ['--version'], { encoding: 'utf8' });
  const key = createHash('sha256')
    .update(readFileSync(NV_SOURCE))
    .update(readFileSync(PROTOCOL_HEADER))
    .update(version)
    .digest('hex')
    .slice(0, 16);
  const name = NV_SOURCE.split('/')
    .pop()!
    .replace(/\.cpp$/, '');
  const binary = join(CACHE_DIR, `${name}-${key}`);
  if (!existsSync(binary)) {
    mkdirSync(CACHE_DIR, { recursive: true });
    const partial = `${binary}.${process.pid}.tmp`;
    const build = spawnSync(
      'nvcc',
      ['-O2', '-std=c++17', '-Xcompiler', '-frounding-math', '-o', partial, NV_SOURCE],
      { encoding: 'utf8' },
    );
    if (build.error || build.status !== 0)
      throw new Error(
        `nvcc could not build ${NV_SOURCE}: ${build.error?.message ?? ''}${build.stderr}`,
      );
    renameSync(partial, binary);
  }
  return binary;
}
