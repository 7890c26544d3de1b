/**
 * The generated CUDA program, as text for several shapes of form, and compiled with nvcc for a
 * representative form of every opcode and type family (nvcc absent: tests/support/tools.ts says
 * what happens). Budget: about 90 s on a loaded 2-core machine; measured in the report of this test.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baselineTarget, findForm, findTarget, FORMS, targetProvides } from '../catalog/index.ts';
import { evaluate } from '../engine/index.ts';
import { suiteNeeds } from '../../tests/support/tools.ts';
import {
  reproduceProgram,
  type ReproduceProgram,
  type ReproduceRequest,
} from './reproduce-cuda.ts';

function program(request: ReproduceRequest): ReproduceProgram {
  const result = reproduceProgram(request);
  if (!result.ok) throw new Error(result.error);
  return result;
}

/** The playground's own answer for these registers, as the component passes it. */
function expectedOf(form: string, a: number, b?: number, c?: number): number {
  return evaluate(form, { a, b, c }).d;
}

describe('reproduceProgram: the program text', () => {
  it('half scalar: 16-bit registers with the "h" constraint, 4-digit hex', () => {
    const expected = expectedOf('add.rn.f16', 0x3e00, 0x4000);
    const p = program({
      form: 'add.rn.f16',
      a: 0x3e00,
      b: 0x4000,
      target: 'sm_90',
      ptx: '8.6',
      expected,
    });
    expect(p.arch).toBe('sm_90');
    expect(p.compileCommand).toBe('nvcc -arch=sm_90 repro.cu -o repro && ./repro');
    expect(p.source).toContain(`//   ${p.compileCommand}`);
    expect(p.source).toContain('const unsigned short a = (unsigned short)in[0];');
    expect(p.source).toContain('const unsigned short b = (unsigned short)in[1];');
    expect(p.source).toContain('unsigned short d;');
    expect(p.source).toContain(
      'asm volatile("add.rn.f16 %0, %1, %2;" : "=h"(d) : "h"(a), "h"(b));',
    );
    expect(p.source).toContain('const unsigned int in[2] = {0x3e00u, 0x4000u};');
    expect(p.source).toContain(`const unsigned int expected = 0x${expected.toString(16)}u;`);
    expect(expected).toBe(0x4300); // 1.5 + 2 = 3.5
    expect(p.source).toContain('std::printf("d (GPU)  = 0x%04x\\n", d);');
    expect(p.source).toContain('match ? "MATCH" : "MISMATCH"');
    expect(p.source).toContain('//   a .f16 0x3e00 = 1.5');
  });

  it('x2: 32-bit registers with the "r" constraint, 8-digit hex, lanes in the comment', () => {
    const [a, b, c] = [0x3c003c00, 0x3f803f80, 0x3f003f00];
    const expected = expectedOf('fma.rn.relu.bf16x2', a, b, c);
    const p = program({
      form: 'fma.rn.relu.bf16x2',
      a,
      b,
      c,
      target: 'sm_90',
      ptx: '8.6',
      expected,
    });
    expect(p.arch).toBe('sm_90');
    expect(p.source).toContain(
      'asm volatile("fma.rn.relu.bf16x2 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));',
    );
    expect(p.source).toContain(
      'const unsigned int in[3] = {0x3c003c00u, 0x3f803f80u, 0x3f003f00u};',
    );
    expect(p.source).toContain('std::printf("d (GPU)  = 0x%08x\\n", d);');
    expect(p.source).toContain('//   b .bf16x2 0x3f803f80 = lane 0: 1, lane 1: 1');
    // The form's least target is sm_80: the comment offers the portable build.
    expect(p.source).toContain('build with -arch=sm_80 instead');
  });

  it('mixed add: a is 16-bit, c and d are 32-bit; built for the least target when the chosen one lacks the form', () => {
    const p = program({
      form: 'add.rz.f32.bf16',
      a: 0x3f80,
      c: 0x3f800000,
      target: 'sm_90',
      ptx: '8.6',
    });
    expect(p.arch).toBe('sm_100');
    expect(p.notes[0]).toMatch(/least target .*sm_90 lacks it/);
    expect(p.source).toContain('const unsigned short a = (unsigned short)in[0];');
    expect(p.source).toContain('const unsigned int c = in[1];');
    expect(p.source).toContain(
      'asm volatile("add.rz.f32.bf16 %0, %1, %2;" : "=r"(d) : "h"(a), "r"(c));',
    );
    expect(p.source).toContain('const unsigned int in[2] = {0x3f80u, 0x3f800000u};');
    expect(p.source).not.toMatch(/MATCH|expected =/);
    expect(p.source).toContain('expected: none given');
  });

  it('mixed fma: four operands, h h r', () => {
    const p = program({
      form: 'fma.rn.f32.f16',
      a: 0x3c00,
      b: 0x4000,
      c: 0x3e800000,
      target: 'sm_100a',
      ptx: '8.6',
      expected: expectedOf('fma.rn.f32.f16', 0x3c00, 0x4000, 0x3e800000),
    });
    expect(p.arch).toBe('sm_100a');
    expect(p.source).toContain(
      'asm volatile("fma.rn.f32.f16 %0, %1, %2, %3;" : "=r"(d) : "h"(a), "h"(b), "r"(c));',
    );
    expect(p.source).toContain('const unsigned int expected = 0x40100000u;'); // 2.25
    expect(p.source).toMatch(/runs only on sm_100 GPUs/);
  });

  it('.oob forms pass the OOB-NaN pattern as register bits, and say the GPU tests it', () => {
    // a holds the pattern 0x7ff7: the GPU zeroes the lane, and so does the playground.
    const oob = program({
      form: 'fma.rn.oob.relu.f16',
      a: 0x7ff7,
      b: 0x3c00,
      c: 0x3c00,
      target: 'sm_90',
      ptx: '8.6',
      expected: expectedOf('fma.rn.oob.relu.f16', 0x7ff7, 0x3c00, 0x3c00),
    });
    expect(oob.source).toContain('const unsigned int in[3] = {0x7ff7u, 0x3c00u, 0x3c00u};');
    expect(oob.source).toContain('const unsigned int expected = 0x0000u;');
    expect(
      oob.notes.some((n) => /\.oob tests a and b for the OOB-NaN pattern 0x7ff7/.test(n)),
    ).toBe(true);
    expect(oob.source).not.toMatch(/cannot hold an OOB-NaN|marks/);
    const notOob = program({ form: 'add.f16', a: 0, b: 0, target: 'sm_90', ptx: '8.6' });
    expect(notOob.source).not.toMatch(/OOB/);
  });

  it('never builds below sm_75, renames sm_101 to sm_110, keeps a family target', () => {
    const old = program({ form: 'add.f16', a: 0, b: 0, target: 'sm_53', ptx: '4.2' });
    expect(old.arch).toBe('sm_75');
    expect(old.notes[0]).toMatch(/CUDA 13 compiles for sm_75 and newer/);
    expect(program({ form: 'add.f16', a: 0, b: 0, target: 'sm_101a', ptx: '8.6' }).arch).toBe(
      'sm_110a',
    );
    const family = program({ form: 'add.f16', a: 0, b: 0, target: 'sm_120f', ptx: '8.8' });
    expect(family.arch).toBe('sm_120f');
    expect(family.source).toMatch(/family target/);
  });

  it('says when the playground PTX ISA version is below the form minimum', () => {
    const p = program({ form: 'add.bf16', a: 0, b: 0, target: 'sm_90', ptx: '7.0' });
    expect(p.notes.join(' ')).toMatch(/add\.bf16 needs PTX ISA 7\.8 or later/);
  });

  it('ignores a source register the form does not have', () => {
    const p = program({ form: 'neg.f16', a: 0x3c00, b: 0x1234, target: 'sm_90', ptx: '8.6' });
    expect(p.source).toContain('const unsigned int in[1] = {0x3c00u};');
    expect(p.source).toContain('asm volatile("neg.f16 %0, %1;" : "=h"(d) : "h"(a));');
  });

  it('bad input gives a structured error', () => {
    const base = { a: 0, b: 0, target: 'sm_90', ptx: '8.6' };
    expect(reproduceProgram({ ...base, form: 'add.f64' })).toEqual({
      ok: false,
      error: "unknown instruction form 'add.f64'",
    });
    expect(reproduceProgram({ ...base, form: 'add.f16', target: 'sm_99' })).toMatchObject({
      ok: false,
      error: /unknown target/,
    });
    expect(reproduceProgram({ ...base, form: 'add.f16', ptx: '1.0' })).toMatchObject({
      ok: false,
      error: /PTX ISA/,
    });
    expect(reproduceProgram({ ...base, form: 'add.f16', a: 0x10000 })).toMatchObject({
      ok: false,
      error: /16-bit/,
    });
    expect(reproduceProgram({ form: 'add.f16', a: 0, target: 'sm_90', ptx: '8.6' })).toMatchObject({
      ok: false,
      error: /needs operand b/,
    });
    expect(reproduceProgram({ ...base, form: 'add.f16', expected: 0x12345 })).toMatchObject({
      ok: false,
      error: /expected/,
    });
  });

  it('every catalog form: its exact text, one placeholder per operand, an arch that has it', () => {
    for (const form of FORMS) {
      const p = program({ form: form.text, a: 0, b: 0, c: 0, target: 'sm_75', ptx: '9.0' });
      const placeholders = form.operands.map((_, i) => `%${i}`).join(', ');
      expect(p.source).toContain(`asm volatile("${form.text} ${placeholders};"`);
      const arch = findTarget(p.arch)!;
      expect(arch.number).toBeGreaterThanOrEqual(75);
      for (const r of form.requirements)
        expect(targetProvides(arch, baselineTarget(r.sm))).toBe(true);
    }
  });
});

/** One form per opcode and type family, with operands that make a non-trivial result. */
const REPRESENTATIVES: readonly { form: string; a: number; b?: number; c?: number }[] = [
  { form: 'add.rn.ftz.sat.f16', a: 0x3e00, b: 0x4000 },
  { form: 'sub.rn.bf16x2', a: 0x3f804000, b: 0x3f003f80 },
  { form: 'mul.ftz.sat.f16x2', a: 0x3c003e00, b: 0x40004000 },
  { form: 'fma.rn.relu.bf16', a: 0xbf80, b: 0x4000, c: 0x3f80 },
  { form: 'fma.rn.oob.relu.bf16x2', a: 0x3c003c00, b: 0x3f803f80, c: 0x3f003f00 },
  { form: 'neg.ftz.f16x2', a: 0x80013c00 },
  { form: 'abs.bf16', a: 0xbf80 },
  { form: 'min.NaN.xorsign.abs.bf16x2', a: 0xbf803f80, b: 0x40007fc0 },
  { form: 'max.ftz.NaN.f16', a: 0x0001, b: 0x8000 },
  { form: 'tanh.approx.bf16x2', a: 0x3f80bf80 },
  { form: 'ex2.approx.ftz.bf16', a: 0x3f00 },
  { form: 'add.rz.sat.f32.bf16', a: 0x3f80, c: 0x3f000000 },
  { form: 'sub.rm.f32.f16', a: 0x3c00, c: 0x3f800000 },
  { form: 'fma.rp.f32.f16', a: 0x3555, b: 0x3555, c: 0x3f800000 },
];

/** Runs the jobs at most `limit` at a time (the machine has 2 cores). */
async function pooled<T>(jobs: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results = new Array<T>(jobs.length);
  let next = 0;
  const lanes = Array.from({ length: limit }, async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]!();
    }
  });
  await Promise.all(lanes);
  return results;
}

const run = promisify(execFile);

const SUITE = 'reproduceProgram: nvcc compiles the generated programs';
describe.runIf(suiteNeeds(SUITE, ['nvcc']))(SUITE, () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ptxf-repro-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ptxas assembles the inline PTX of one form per opcode and type family', async () => {
    expect(new Set(REPRESENTATIVES.map((r) => findForm(r.form)?.opcode)).size).toBe(10);
    const outcomes = await pooled(
      REPRESENTATIVES.map((r, i) => async () => {
        const p = program({
          ...r,
          target: 'sm_75',
          ptx: '9.0',
          expected: expectedOf(r.form, r.a, r.b, r.c),
        });
        const file = join(dir, `repro-${i}.cu`);
        writeFileSync(file, p.source);
        try {
          await run('nvcc', [
            `-arch=${p.arch}`,
            '-cubin',
            file,
            '-o',
            join(dir, `repro-${i}.cubin`),
          ]);
          return `${r.form} ${p.arch}: ok`;
        } catch (e) {
          const err = e as { stderr?: string; message: string };
          return `${r.form} ${p.arch}: ${err.stderr ?? err.message}`;
        }
      }),
      2,
    );
    expect(outcomes.filter((o) => !o.endsWith(': ok'))).toEqual([]);
  });

  it('the whole program builds and, without a GPU, stops with the CUDA error it met', async () => {
    const r = { form: 'fma.rn.relu.bf16x2', a: 0x3c003c00, b: 0x3f803f80, c: 0x3f003f00 };
    const p = program({
      ...r,
      target: 'sm_90',
      ptx: '8.6',
      expected: expectedOf(r.form, r.a, r.b, r.c),
    });
    const file = join(dir, 'repro.cu');
    writeFileSync(file, p.source);
    const exe = join(dir, 'repro');
    await run('nvcc', [`-arch=${p.arch}`, file, '-o', exe]);
    const outcome = await run(exe).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }),
    );
    if (outcome.code === 1) {
      expect(outcome.stdout).toMatch(/^CUDA error: .+ \(cuda\w+\) in \w+/m);
    } else {
      // A machine with a GPU runs it: the result and the verdict are printed.
      expect(outcome.stdout).toMatch(/^d \(GPU\) {2}= 0x[0-9a-f]{8}$/m);
      expect(outcome.stdout).toMatch(/^(MATCH|MISMATCH)$/m);
      expect(outcome.code).toBe(/^MATCH$/m.test(outcome.stdout) ? 0 : 2);
    }
  });
});
