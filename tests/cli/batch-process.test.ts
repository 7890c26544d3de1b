/**
 * `ptxf batch` as a real process: closing stdout early ends it quietly, and memory does not grow
 * with the number of lines. (The million-line run is `node bin/run-ts.mjs tests/cli/batch-million.ts`.)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canMeasureRss, PTXF, runBatchProcess } from './batch-process.ts';

const hasShell =
  process.platform !== 'win32' &&
  spawnSync('bash', ['-c', 'command -v yes head'], { encoding: 'utf8' }).status === 0;

describe.skipIf(!hasShell)('ptxf batch | head', () => {
  it('ends quietly, exit 0, when head closes the pipe on an endless input', () => {
    const line = JSON.stringify({
      id: 1,
      instr: 'fma.rn.f16',
      a: '0x3e00',
      b: '0x4000',
      c: '0x3400',
    });
    const script = `yes '${line}' | "${process.execPath}" "${PTXF}" batch 2>"$ERR" | head -1; echo "status=\${PIPESTATUS[1]}"; cat "$ERR"`;
    const dir = mkdtempSync(join(tmpdir(), 'ptxf-head-'));
    const result = spawnSync('bash', ['-c', script], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, ERR: join(dir, 'stderr.txt') },
    });
    rmSync(dir, { recursive: true, force: true });
    expect(result.error).toBeUndefined();
    const out = result.stdout.split('\n');
    expect(out[0]).toBe('{"id":1,"ok":true,"d":"0x4280"}');
    expect(out[1]).toBe('status=0');
    // Nothing after the status: no stack trace, no EPIPE message on stderr.
    expect(out.slice(2).join('')).toBe('');
  });

  it('ends quietly when head closes the pipe on a finite input with bad lines', () => {
    const script = `printf '%s\\n' 'garbage' '{"id":2,"instr":"add.f16","a":"0x3c00","b":"0x3c00"}' | "${process.execPath}" "${PTXF}" batch | head -1; echo "status=\${PIPESTATUS[1]}"`;
    const result = spawnSync('bash', ['-c', script], { encoding: 'utf8', timeout: 60_000 });
    expect(result.stderr).toBe('');
    const out = result.stdout.split('\n');
    expect(JSON.parse(out[0]!)).toMatchObject({ id: null, ok: false, error: { code: 'json' } });
    // All lines were answered before head exited or not: the bad line makes the status 1 either way.
    expect(out[1]).toBe('status=1');
  });
});

describe('ptxf batch as a process', () => {
  it('answers 200,000 mixed lines in order in constant memory', async () => {
    // Ids padded to 400 characters: holding lines or answers would cost 80+ MB over 200k lines.
    const padding = 'p'.repeat(400);
    const small = await runBatchProcess(20_000, padding);
    const large = await runBatchProcess(200_000, padding);
    for (const run of [small, large]) {
      expect(run.mismatches).toEqual([]);
      expect(run.answers).toBe(run.lines);
      expect(run.failed).toBe(run.lines * 0.4);
      expect(run.status).toBe(1);
      expect(run.stderr).toBe('');
    }
    if (canMeasureRss) {
      console.log(
        `ptxf batch peak RSS: ${small.peakRssMiB} MiB for 20k lines, ${large.peakRssMiB} MiB for 200k lines`,
      );
      // Ten times the lines may not cost memory in proportion: buffering the answers would add
      // well over 100 MiB here; the garbage collector's own slack under load stays below 64.
      expect(large.peakRssMiB! - small.peakRssMiB!).toBeLessThan(64);
    }
  });
});
