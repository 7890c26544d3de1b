/**
 * Berkeley SoftFloat 3e beside the engine in `npm run bench`: its own timing program (sfbench.c
 * in the anchors folder: f16_add, f16_mul, f16_mulAdd and f32_to_f16 over 2^20 values, best of
 * 10 runs, round to nearest even) built with gcc and run in the same bench run, so the ratios
 * compare figures measured under the same load.
 *
 * The folder is `../shared/anchors/softfloat-3e` from the repository root, or PTXF_SOFTFLOAT_DIR.
 * It is copied to a cache folder (node_modules/.cache/ptxf-softfloat-<hash>) and built there
 * once (`make -C build/Linux-x86_64-GCC SPECIALIZE_TYPE=8086-SSE`, then sfbench.c at -O2, as
 * the folder's Makefile builds the library); a change to sfbench.c or the Makefile, or another
 * folder, builds it afresh. Without gcc or the folder, the result says why and the bench goes on.
 */
// Every family's semantics, provided before anything evaluates (engine/family-semantics.ts).
import '../src/engine/all-families.ts';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileFast } from '../src/engine/fast/index.ts';
import { median } from './timing.ts';

export const SOFTFLOAT_OPS = ['f16_add', 'f16_mul', 'f16_mulAdd', 'f32_to_f16'] as const;
export type SoftFloatOp = (typeof SOFTFLOAT_OPS)[number];

export type SoftFloatResult =
  | {
      readonly ok: true;
      readonly dir: string;
      readonly mops: Readonly<Record<SoftFloatOp, number>>;
    }
  | { readonly ok: false; readonly reason: string };

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The anchors folder: PTXF_SOFTFLOAT_DIR, else ../shared/anchors/softfloat-3e from the root. */
export function softFloatDir(): string {
  return resolve(
    process.env.PTXF_SOFTFLOAT_DIR ?? join(ROOT, '..', 'shared', 'anchors', 'softfloat-3e'),
  );
}

function hashOf(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The built sfbench program (built now if the cache has none for this folder), or why not. */
function buildSfbench(dir: string): { ok: true; program: string } | { ok: false; reason: string } {
  if (!existsSync(join(dir, 'sfbench.c')))
    return { ok: false, reason: `no sfbench.c in ${dir} (set PTXF_SOFTFLOAT_DIR)` };
  if (spawnSync('gcc', ['--version'], { stdio: 'ignore' }).status !== 0)
    return { ok: false, reason: 'gcc is not installed: SoftFloat was not built or run' };
  const makefile = join(dir, 'build', 'Linux-x86_64-GCC', 'Makefile');
  const key = hashOf(
    [dir, readFileSync(join(dir, 'sfbench.c'), 'utf8'), readFileSync(makefile, 'utf8')].join('\0'),
  );
  const cache = join(ROOT, 'node_modules', '.cache', `ptxf-softfloat-${key}`);
  const program = join(cache, 'sfbench');
  if (existsSync(program)) return { ok: true, program };
  try {
    rmSync(cache, { recursive: true, force: true });
    mkdirSync(cache, { recursive: true });
    const copy = join(cache, 'softfloat-3e');
    cpSync(dir, copy, { recursive: true });
    // The anchors folder is read-only; its copy must not be.
    execFileSync('chmod', ['-R', 'u+w', copy]);
    execFileSync(
      'make',
      ['-s', '-C', join(copy, 'build', 'Linux-x86_64-GCC'), 'SPECIALIZE_TYPE=8086-SSE'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    execFileSync('gcc', [
      '-O2',
      '-I',
      join(copy, 'source', 'include'),
      join(copy, 'sfbench.c'),
      join(copy, 'build', 'Linux-x86_64-GCC', 'softfloat.a'),
      '-o',
      `${program}.tmp`,
    ]);
    execFileSync('mv', [`${program}.tmp`, program]);
    writeFileSync(join(cache, 'SOURCE'), `${dir}\n`);
    return { ok: true, program };
  } catch (e) {
    return {
      ok: false,
      reason: `building SoftFloat failed: ${(e as Error).message.split('\n')[0]}`,
    };
  }
}

/** Build (once) and run SoftFloat's timing program: its Mop/s per operation. */
export function runSoftFloat(): SoftFloatResult {
  const dir = softFloatDir();
  const built = buildSfbench(dir);
  if (!built.ok) return built;
  const text = execFileSync(built.program, { encoding: 'utf8' });
  const mops: Partial<Record<SoftFloatOp, number>> = {};
  for (const line of text.trim().split('\n')) {
    const { op, mops: value } = JSON.parse(line) as { op: string; mops: number };
    if ((SOFTFLOAT_OPS as readonly string[]).includes(op)) mops[op as SoftFloatOp] = value;
  }
  for (const op of SOFTFLOAT_OPS)
    if (mops[op] === undefined) return { ok: false, reason: `sfbench printed no ${op}` };
  return { ok: true, dir, mops: mops as Record<SoftFloatOp, number> };
}

/**
 * sfbench's operands, generated as it generates them (a linear congruential sequence from
 * 12345, four draws per index: the upper halves of the first three are the f16 operands a, b,
 * c, the fourth whole is the f32 value), so the engine converts and computes the same values.
 */
export function sfbenchOperands(count: number): {
  a: Uint32Array;
  b: Uint32Array;
  c: Uint32Array;
  f: Uint32Array;
} {
  const a = new Uint32Array(count);
  const b = new Uint32Array(count);
  const c = new Uint32Array(count);
  const f = new Uint32Array(count);
  let s = 12345;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0);
  for (let i = 0; i < count; i++) {
    a[i] = next() >>> 16;
    b[i] = next() >>> 16;
    c[i] = next() >>> 16;
    f[i] = next();
  }
  return { a, b, c, f };
}

export interface BesideRow {
  readonly op: SoftFloatOp;
  readonly form: string;
  /** The engine's batch fast path over sfbench's 2^20 operands: best of 10 runs, as sfbench. */
  readonly engineMops: number;
  /** The same runs' median. */
  readonly engineMedianMops: number;
  /** SoftFloat's figure in this run, or null where it did not run. */
  readonly softFloatMops: number | null;
  /** engineMops / softFloatMops. */
  readonly ratio: number | null;
}

const BESIDE: readonly { op: SoftFloatOp; form: string }[] = [
  { op: 'f16_add', form: 'add.rn.f16' },
  { op: 'f16_mul', form: 'mul.rn.f16' },
  { op: 'f16_mulAdd', form: 'fma.rn.f16' },
  { op: 'f32_to_f16', form: 'cvt.rn.f16.f32' },
];

/** The engine on SoftFloat's operations and operands, beside SoftFloat's figures. */
export function benchBesideSoftFloat(softFloat: SoftFloatResult): BesideRow[] {
  const count = 1 << 20;
  const { a, b, c, f } = sfbenchOperands(count);
  const out = new Uint32Array(count);
  return BESIDE.map(({ op, form }) => {
    const { batch } = compileFast(form);
    const registers = op === 'f32_to_f16' ? { a: f } : { a, b, c };
    const run = () => batch(registers, out, count);
    for (let i = 0; i < 2; i++) run();
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t0 = performance.now();
      run();
      times.push(performance.now() - t0);
    }
    const engineMops = Math.round((count / Math.min(...times) / 1000) * 10) / 10;
    const engineMedianMops = Math.round((count / median(times) / 1000) * 10) / 10;
    const softFloatMops = softFloat.ok ? softFloat.mops[op] : null;
    return {
      op,
      form,
      engineMops,
      engineMedianMops,
      softFloatMops,
      ratio: softFloatMops === null ? null : Math.round((engineMops / softFloatMops) * 100) / 100,
    };
  });
}
