/**
 * Runs the real `ptxf batch` as a child process on a generated stream of mixed lines (valid,
 * invalid, garbage), checks every answer against what its line should produce, and samples the
 * child's peak resident memory from /proc (Linux). Shared by the CLI test (200k lines) and
 * `node bin/run-ts.mjs tests/cli/batch-million.ts` (1,000,000 lines).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';

export const PTXF = fileURLToPath(new URL('../../bin/ptxf.mjs', import.meta.url));

export interface ExpectedLine {
  readonly text: string;
  /** null: the answer must be ok with this d; otherwise the error code expected. */
  readonly error: string | null;
  readonly d?: string;
  readonly id: unknown;
}

/** Line i of a deterministic mix: 3 ok kinds, 4 error kinds, garbage and a blank line. */
export function mixedLine(i: number, padding = ''): ExpectedLine {
  const id = `${padding}${i}`;
  switch (i % 10) {
    case 0:
    case 1:
    case 2:
      return {
        text: JSON.stringify({ id, instr: 'fma.rn.f16', a: '0x3e00', b: '0x4000', c: '0x3400' }),
        error: null,
        d: '0x4280',
        id,
      };
    case 3:
      return {
        text: JSON.stringify({
          id,
          instr: 'fma.rn.relu.bf16x2',
          a: '0x3c003c00',
          b: '0x40004000',
          c: '0x0',
        }),
        error: null,
        d: '0x3c803c80',
        id,
      };
    case 4:
      return {
        text: JSON.stringify({
          id,
          instr: 'add.rn.f32.f16',
          target: 'sm_100',
          a: '0x3c00',
          c: '0x3f800000',
          trace: i % 1000 === 4,
        }),
        error: null,
        d: '0x40000000',
        id,
      };
    case 5:
      return {
        text: JSON.stringify({ id, instr: 'fma.rn.oob.f16', a: '0x3c00', c: '0x3c00', oob: ['b'] }),
        error: null,
        d: '0x0000',
        id,
      };
    case 6:
      return {
        text: JSON.stringify({ id, instr: 'add.bf16', a: '0x0', b: '0x0', target: 'sm_80' }),
        error: 'target',
        id,
      };
    case 7:
      return {
        text: JSON.stringify({ id, instr: 'add.f16', a: '0x3c00', b: 'banana' }),
        error: 'operand',
        id,
      };
    case 8:
      return {
        text: `{"id": ${JSON.stringify(id)}, "instr": "add.f16"  garbage`,
        error: 'json',
        id: null,
      };
    default:
      return {
        text:
          i % 20 === 9
            ? ''
            : JSON.stringify({ id, instr: 'fma.rn.f16.rz', a: '0x0', b: '0x0', c: '0x0' }),
        error: i % 20 === 9 ? 'json' : 'syntax',
        id: i % 20 === 9 ? null : id,
      };
  }
}

export interface BatchProcessRun {
  readonly lines: number;
  readonly answers: number;
  readonly ok: number;
  readonly failed: number;
  /** Answers that did not match their line (wrong id, d, code or line number). */
  readonly mismatches: readonly string[];
  readonly status: number | null;
  readonly stderr: string;
  /** Peak resident set size of the child in MiB (null where /proc is missing). */
  readonly peakRssMiB: number | null;
  /** Resident set size of the child after the first tenth of the lines, in MiB. */
  readonly earlyRssMiB: number | null;
  readonly wallMs: number;
}

function readKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
      readFileSync(`/proc/${pid}/status`, 'utf8'),
    );
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

export const canMeasureRss = existsSync('/proc/self/status');

export async function runBatchProcess(lineCount: number, padding = ''): Promise<BatchProcessRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [PTXF, 'batch'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  let peakKiB: number | null = null;
  let earlyKiB: number | null = null;
  const sample = () => {
    const hwm = readKiB(child.pid!, 'VmHWM');
    if (hwm !== null) peakKiB = Math.max(peakKiB ?? 0, hwm);
  };
  const sampler = setInterval(sample, 20);

  function* lines() {
    for (let i = 0; i < lineCount; i++) yield `${mixedLine(i, padding).text}\n`;
  }
  const feeding = pipeline(Readable.from(lines()), child.stdin).catch(() => undefined);

  let answers = 0;
  let ok = 0;
  let failed = 0;
  const mismatches: string[] = [];
  const note = (message: string) => {
    if (mismatches.length < 20) mismatches.push(message);
  };
  for await (const text of createInterface({ input: child.stdout, crlfDelay: Infinity })) {
    const i = answers++;
    if (i === Math.floor(lineCount / 10)) earlyKiB = readKiB(child.pid!, 'VmRSS');
    const want = mixedLine(i, padding);
    let got: { id: unknown; ok: boolean; d?: string; error?: { code: string; message: string } };
    try {
      got = JSON.parse(text);
    } catch {
      note(`answer ${i + 1} is not JSON: ${text.slice(0, 80)}`);
      continue;
    }
    if (got.ok) ok++;
    else failed++;
    if (JSON.stringify(got.id) !== JSON.stringify(want.id))
      note(`answer ${i + 1}: id ${JSON.stringify(got.id)}`);
    if (want.error === null) {
      if (!got.ok || got.d !== want.d)
        note(`answer ${i + 1}: expected d ${want.d}, got ${text.slice(0, 120)}`);
    } else if (
      got.ok ||
      got.error?.code !== want.error ||
      !got.error.message.startsWith(`line ${i + 1}: `)
    ) {
      note(
        `answer ${i + 1}: expected error ${want.error} on line ${i + 1}, got ${text.slice(0, 120)}`,
      );
    }
  }
  const status = await new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.on('exit', (code) => resolve(code));
  });
  clearInterval(sampler);
  await feeding;
  const mib = (k: number | null) => (k === null ? null : Math.round((k / 1024) * 10) / 10);
  return {
    lines: lineCount,
    answers,
    ok,
    failed,
    mismatches,
    status,
    stderr,
    peakRssMiB: mib(peakKiB),
    earlyRssMiB: mib(earlyKiB),
    wallMs: Math.round(performance.now() - started),
  };
}
