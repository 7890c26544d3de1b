/**
 * What ptxf says of a cvt form measured on a GPU: public/measured/cvt.json (hw/export-measured-
 * cvt.ts) lists every form the H200 capture holds, what of it was measured, and the engine's
 * agreement with every full result as it was written (which this file checks again on a few
 * forms, and tests/hw/sm90-h200-cvt.test.ts on all); ptxf eval prints the line on sm_90 and
 * sm_90a and on no other target.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readSummary } from '../../hw/lib/capture-files.ts';
import { captureIO } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';
import { measuredCvt } from '../../src/cli/measured-cvt.ts';
import { measuredCvtSets } from '../../src/engine/measured-cvt.ts';

const ROOT = join(import.meta.dirname, '../..');
const sets = measuredCvtSets(
  JSON.parse(readFileSync(join(ROOT, 'public/measured/cvt.json'), 'utf8')),
);

async function eval_(argv: string[]) {
  const io = captureIO();
  const code = await main(['eval', ...argv], { io, stdin: Readable.from([]) });
  return { code, out: io.stdout.join('\n') };
}

describe('public/measured/cvt.json', () => {
  it('lists every form of the H200 capture, from its device.txt and summary', () => {
    expect(sets).toHaveLength(1);
    const set = sets[0]!;
    expect(set.targets).toEqual(['sm_90', 'sm_90a']);
    expect(set.measuredOn).toBe('NVIDIA H200 (driver 580.159.04, CUDA 13.0)');
    expect(set.capture).toBe('hw/captures/sm_90/h200');
    const captured = readSummary(join(ROOT, set.capture)).forms.filter((f) => f.captured);
    expect(Object.keys(set.forms).sort()).toEqual(captured.map((f) => f.form).sort());
    const byInputs = new Map<string, number>();
    for (const f of Object.values(set.forms))
      byInputs.set(f.inputs, (byInputs.get(f.inputs) ?? 0) + 1);
    expect(Object.fromEntries(byInputs)).toEqual({
      'every-input': 50,
      'every-input-row-hashes': 90,
      'f64-sample': 38,
    });
    // Every full result agreed with the engine when the file was written.
    for (const [form, f] of Object.entries(set.forms))
      expect([form, f.agree]).toEqual([
        form,
        f.inputs === 'every-input-row-hashes' ? null : f.count,
      ]);
  });
});

describe('ptxf eval of a measured cvt form', () => {
  it('says on which GPU, what was measured and that the engine agrees', async () => {
    const bf16 = await eval_(['cvt.f32.bf16', '0x7f81', '--no-trace']);
    expect(bf16.out).toContain('d = 0x7f810000');
    expect(bf16.out).toContain(
      '  measured on NVIDIA H200 (driver 580.159.04, CUDA 13.0): all 65,536 inputs agree (hw/captures/sm_90/h200)',
    );
    const f64 = await eval_(['cvt.rn.f16.f64', '0x7ff65d0282937f6b', '--no-trace']);
    expect(f64.out).toContain('d = 0x7f97');
    expect(f64.out).toContain(': 65,536 sampled inputs agree (hw/captures/sm_90/h200)');
    const f32 = await eval_(['cvt.rn.f16.f32', '1.0', '--target', 'sm_90a', '--no-trace']);
    expect(f32.out).toContain(': every input (2^32), as row hashes; the rows compared agree');
  });

  it('says nothing on another target, or for a form the capture does not hold', async () => {
    expect((await eval_(['cvt.rn.f16.f32', '1.0', '--target', 'sm_80'])).out).not.toContain(
      'measured on',
    );
    expect(measuredCvt('sm_90', 'cvt.rn.satfinite.tf32.f32')).toBeNull();
    expect(measuredCvt('sm_100', 'cvt.rn.f16.f32')).toBeNull();
  });

  it('carries the measurement in --json', async () => {
    const r = await eval_(['cvt.f64.f16', '0xfc01', '--json']);
    const json = JSON.parse(r.out) as { d: string; measured: Record<string, unknown> };
    expect(json.d).toBe('0xfff8040000000000');
    expect(json.measured).toMatchObject({
      on: 'NVIDIA H200 (driver 580.159.04, CUDA 13.0)',
      capture: 'hw/captures/sm_90/h200',
      inputs: 'every-input',
      count: 65536,
      agree: 65536,
    });
  });
});
