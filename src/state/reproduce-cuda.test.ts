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
import { findForm, FORMS } from '../catalog/all-forms.ts';
import type { SourceName } from '../catalog/instruction.ts';
import { NEWEST_PTX } from '../catalog/ptx-versions.ts';
import { findTarget } from '../catalog/targets.ts';
import { verdictFor } from '../catalog/verdict.ts';
import { evaluate } from '../engine/pipeline.ts';
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

type Registers = Partial<Record<SourceName, bigint>>;

/** The playground's own answer for these registers, as the component passes it. */
function expectedOf(form: string, registers: Registers): bigint {
  return BigInt(evaluate(form, registers).d);
}

describe('reproduceProgram: the program text', () => {
  it('half scalar: 16-bit registers with the "h" constraint, 4-digit hex', () => {
    const registers = { a: 0x3e00n, b: 0x4000n };
    const expected = expectedOf('add.rn.f16', registers);
    const p = program({
      form: 'add.rn.f16',
      registers,
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
    expect(expected).toBe(0x4300n); // 1.5 + 2 = 3.5
    expect(p.source).toContain('std::printf("d (GPU)  = 0x%04x\\n", d);');
    expect(p.source).toContain('match ? "MATCH" : "MISMATCH"');
    expect(p.source).toContain('//   a .f16 0x3e00 = 1.5');
  });

  it('x2: 32-bit registers with the "r" constraint, 8-digit hex, lanes in the comment', () => {
    const registers = { a: 0x3c003c00n, b: 0x3f803f80n, c: 0x3f003f00n };
    const expected = expectedOf('fma.rn.relu.bf16x2', registers);
    const p = program({
      form: 'fma.rn.relu.bf16x2',
      registers,
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
      registers: { a: 0x3f80n, c: 0x3f800000n },
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
      registers: { a: 0x3c00n, b: 0x4000n, c: 0x3e800000n },
      target: 'sm_100a',
      ptx: '8.6',
      expected: expectedOf('fma.rn.f32.f16', { a: 0x3c00n, b: 0x4000n, c: 0x3e800000n }),
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
      registers: { a: 0x7ff7n, b: 0x3c00n, c: 0x3c00n },
      target: 'sm_90',
      ptx: '8.6',
      expected: expectedOf('fma.rn.oob.relu.f16', { a: 0x7ff7n, b: 0x3c00n, c: 0x3c00n }),
    });
    expect(oob.source).toContain('const unsigned int in[3] = {0x7ff7u, 0x3c00u, 0x3c00u};');
    expect(oob.source).toContain('const unsigned int expected = 0x0000u;');
    expect(
      oob.notes.some((n) => /\.oob tests a and b for the OOB-NaN pattern 0x7ff7/.test(n)),
    ).toBe(true);
    expect(oob.source).not.toMatch(/cannot hold an OOB-NaN|marks/);
    const notOob = program({
      form: 'add.f16',
      registers: { a: 0n, b: 0n },
      target: 'sm_90',
      ptx: '8.6',
    });
    expect(notOob.source).not.toMatch(/OOB/);
  });

  it('never builds below sm_75, renames sm_101 to sm_110, keeps a family target', () => {
    const old = program({
      form: 'add.f16',
      registers: { a: 0n, b: 0n },
      target: 'sm_53',
      ptx: '4.2',
    });
    expect(old.arch).toBe('sm_75');
    expect(old.notes[0]).toMatch(/CUDA 13 compiles for sm_75 and newer/);
    expect(
      program({ form: 'add.f16', registers: { a: 0n, b: 0n }, target: 'sm_101a', ptx: '8.6' }).arch,
    ).toBe('sm_110a');
    const family = program({
      form: 'add.f16',
      registers: { a: 0n, b: 0n },
      target: 'sm_120f',
      ptx: '8.8',
    });
    expect(family.arch).toBe('sm_120f');
    expect(family.source).toMatch(/family target/);
  });

  it('says when the playground PTX ISA version is below the form minimum', () => {
    const p = program({
      form: 'add.bf16',
      registers: { a: 0n, b: 0n },
      target: 'sm_90',
      ptx: '7.0',
    });
    expect(p.notes.join(' ')).toMatch(/add\.bf16 needs PTX ISA 7\.8 or later/);
  });

  it('ignores a source register the form does not have', () => {
    const p = program({
      form: 'neg.f16',
      registers: { a: 0x3c00n, b: 0x1234n },
      target: 'sm_90',
      ptx: '8.6',
    });
    expect(p.source).toContain('const unsigned int in[1] = {0x3c00u};');
    expect(p.source).toContain('asm volatile("neg.f16 %0, %1;" : "=h"(d) : "h"(a));');
  });

  it('bad input gives a structured error', () => {
    const base = { registers: { a: 0n, b: 0n }, target: 'sm_90', ptx: '8.6' };
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
    expect(
      reproduceProgram({ ...base, form: 'add.f16', registers: { a: 0x10000n, b: 0n } }),
    ).toMatchObject({
      ok: false,
      error: /16-bit/,
    });
    expect(
      reproduceProgram({ form: 'add.f16', registers: { a: 0n }, target: 'sm_90', ptx: '8.6' }),
    ).toMatchObject({
      ok: false,
      error: /needs operand b/,
    });
    expect(reproduceProgram({ ...base, form: 'add.f16', expected: 0x12345n })).toMatchObject({
      ok: false,
      error: /expected/,
    });
  });

  it('cvt: the operands as its syntax line writes them, 8-bit registers in .b8, .f64 in 64 bits', () => {
    const e4 = program({
      form: 'cvt.rn.satfinite.e4m3x2.f32',
      registers: { a: 0x43fa0000n, b: 0x40880000n },
      target: 'sm_90',
      ptx: '8.6',
      expected: expectedOf('cvt.rn.satfinite.e4m3x2.f32', { a: 0x43fa0000n, b: 0x40880000n }),
    });
    expect(e4.source).toContain(
      'asm volatile("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(d) : "r"(a), "r"(b));',
    );
    expect(e4.source).toContain('const unsigned int expected = 0x7e48u;'); // 448, 4
    expect(e4.source).toContain('//   a .f32 0x43fa0000 = 500');
    expect(e4.source).toContain('//   expected d .e4m3x2 0x7e48 = element 0: 448, element 1: 4');
    const x4 = program({
      form: 'cvt.rs.satfinite.e2m1x4.f32',
      registers: {
        a: 0x40880000n,
        b: 0xbf000000n,
        e: 0x3e800000n,
        f: 0x40c00000n,
        rbits: 0x80ff7f01n,
      },
      target: 'sm_100a',
      ptx: '8.7',
    });
    expect(x4.arch).toBe('sm_100a');
    // .rs is sm_100a's own: the build must not also make the portable compute_100 PTX.
    expect(x4.compileCommand).toBe(
      'nvcc -arch=compute_100a -code=sm_100a repro.cu -o repro && ./repro',
    );
    expect(x4.source).toContain(
      'asm volatile("cvt.rs.satfinite.e2m1x4.f32 %0, {%1, %2, %3, %4}, %5;" : "=h"(d) : "r"(a), "r"(b), "r"(e), "r"(f), "r"(rbits));',
    );
    expect(x4.source).toContain(
      'const unsigned int in[5] = {0x40880000u, 0xbf000000u, 0x3e800000u, 0x40c00000u, 0x80ff7f01u};',
    );
    // FP4 pairs live in 8-bit registers: a .b8 register of the asm block stands for them.
    const fp4 = program({
      form: 'cvt.rn.f16x2.e2m1x2',
      registers: { a: 0x7an },
      target: 'sm_100a',
      ptx: '8.6',
    });
    expect(fp4.source).toContain(
      'asm volatile("{\\n\\t.reg .b8 a_b8;\\n\\tcvt.u8.u16 a_b8, %1;\\n\\tcvt.rn.f16x2.e2m1x2 %0, a_b8;\\n}" : "=r"(d) : "h"(a));',
    );
    expect(fp4.source).toContain('std::printf("a        = 0x%02x\\n", in[0]);');
    const f64 = program({
      form: 'cvt.rn.f32.f64',
      registers: { a: 0x3ff0000000000001n },
      target: 'sm_90',
      ptx: '8.6',
    });
    expect(f64.source).toContain('const unsigned long long a = in[0];');
    expect(f64.source).toContain('const unsigned long long in[1] = {0x3ff0000000000001ull};');
    expect(f64.source).toContain('asm volatile("cvt.rn.f32.f64 %0, %1;" : "=r"(d) : "l"(a));');
  });

  it('every catalog form: its exact text, one placeholder per operand, an arch that has it', () => {
    for (const form of FORMS) {
      const registers = Object.fromEntries(form.registers.slice(1).map((r) => [r.name, 0n]));
      const p = program({ form: form.text, registers, target: 'sm_75', ptx: '9.0' });
      expect(p.source).toContain(`asm volatile("`);
      expect(p.source).toContain(`${form.text} `);
      // One placeholder per register, or the .b8 register standing for it.
      form.registers.forEach((r, i) =>
        expect(p.source, `${form.text} ${r.name}`).toMatch(
          r.bits === 8 ? new RegExp(`\\b${r.name}_b8\\b`) : new RegExp(`%${i}\\b`),
        ),
      );
      const arch = findTarget(p.arch)!;
      expect(arch.number).toBeGreaterThanOrEqual(75);
      const reasons = verdictFor(form, arch, NEWEST_PTX).reasons;
      expect(
        reasons.filter((r) => r.code === 'target'),
        form.text,
      ).toEqual([]);
    }
  });
});

/** One form per opcode and type family, with operands that make a non-trivial result. */
const REPRESENTATIVES: readonly { form: string; registers: Registers }[] = [
  { form: 'add.rn.ftz.sat.f16', registers: { a: 0x3e00n, b: 0x4000n } },
  { form: 'sub.rn.bf16x2', registers: { a: 0x3f804000n, b: 0x3f003f80n } },
  { form: 'mul.ftz.sat.f16x2', registers: { a: 0x3c003e00n, b: 0x40004000n } },
  { form: 'fma.rn.relu.bf16', registers: { a: 0xbf80n, b: 0x4000n, c: 0x3f80n } },
  {
    form: 'fma.rn.oob.relu.bf16x2',
    registers: { a: 0x3c003c00n, b: 0x3f803f80n, c: 0x3f003f00n },
  },
  { form: 'neg.ftz.f16x2', registers: { a: 0x80013c00n } },
  { form: 'abs.bf16', registers: { a: 0xbf80n } },
  { form: 'min.NaN.xorsign.abs.bf16x2', registers: { a: 0xbf803f80n, b: 0x40007fc0n } },
  { form: 'max.ftz.NaN.f16', registers: { a: 0x0001n, b: 0x8000n } },
  { form: 'tanh.approx.bf16x2', registers: { a: 0x3f80bf80n } },
  { form: 'ex2.approx.ftz.bf16', registers: { a: 0x3f00n } },
  { form: 'add.rz.sat.f32.bf16', registers: { a: 0x3f80n, c: 0x3f000000n } },
  { form: 'sub.rm.f32.f16', registers: { a: 0x3c00n, c: 0x3f800000n } },
  { form: 'fma.rp.f32.f16', registers: { a: 0x3555n, b: 0x3555n, c: 0x3f800000n } },
  // cvt: FP8 from .f32, FP4 (an 8-bit register) both ways, .rs x4 with rbits, .f64, .tf32.
  { form: 'cvt.rn.satfinite.e4m3x2.f32', registers: { a: 0x43fa0000n, b: 0x40880000n } },
  { form: 'cvt.rn.satfinite.e2m1x2.f32', registers: { a: 0x40c00000n, b: 0xbf000000n } },
  { form: 'cvt.rn.f16x2.e2m1x2', registers: { a: 0x7an } },
  {
    form: 'cvt.rs.satfinite.e2m1x4.f32',
    registers: {
      a: 0x40880000n,
      b: 0xbf000000n,
      e: 0x3e800000n,
      f: 0x40c00000n,
      rbits: 0x80ff7f01n,
    },
  },
  { form: 'cvt.rn.f32.f64', registers: { a: 0x3ff0000010000001n } },
  { form: 'cvt.rna.tf32.f32', registers: { a: 0x3f800fffn } },
  { form: 'cvt.rp.satfinite.ue8m0x2.f32', registers: { a: 0x40400000n, b: 0x3f000000n } },
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
    expect(new Set(REPRESENTATIVES.map((r) => findForm(r.form)?.opcode)).size).toBe(11);
    const outcomes = await pooled(
      REPRESENTATIVES.map((r, i) => async () => {
        const p = program({
          ...r,
          target: 'sm_75',
          ptx: '9.0',
          expected: expectedOf(r.form, r.registers),
        });
        const file = join(dir, `repro-${i}.cu`);
        writeFileSync(file, p.source);
        try {
          await run('nvcc', [...p.archFlags, '-cubin', file, '-o', join(dir, `repro-${i}.cubin`)]);
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
    const r = {
      form: 'fma.rn.relu.bf16x2',
      registers: { a: 0x3c003c00n, b: 0x3f803f80n, c: 0x3f003f00n },
    };
    const p = program({
      ...r,
      target: 'sm_90',
      ptx: '8.6',
      expected: expectedOf(r.form, r.registers),
    });
    const file = join(dir, 'repro.cu');
    writeFileSync(file, p.source);
    const exe = join(dir, 'repro');
    await run('nvcc', [...p.archFlags, file, '-o', exe]);
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

  it('the whole program of a cvt builds: .rs x4 with rbits, and an .f64 source in 64 bits', async () => {
    for (const r of REPRESENTATIVES.filter((x) => /^cvt\.(rs|rn\.f32\.f64)/.test(x.form))) {
      const p = program({
        ...r,
        target: 'sm_100a',
        ptx: '8.7',
        expected: expectedOf(r.form, r.registers),
      });
      const file = join(dir, 'repro-cvt.cu');
      writeFileSync(file, p.source);
      expect(p.compileCommand).toBe(`nvcc ${p.archFlags.join(' ')} repro.cu -o repro && ./repro`);
      await run('nvcc', [...p.archFlags, file, '-o', join(dir, 'repro-cvt')]);
    }
  });
});
