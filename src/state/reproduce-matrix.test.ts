/**
 * The GPU program of one tensor-core element: its fragment tables hold the row, the column and c
 * exactly once each, where the ISA's layouts put A's row 0, B's column 0 and C[0][0]; forms whose
 * layout the program does not load say so; and nvcc compiles the programs for sm_90 and sm_80
 * (nvcc absent: tests/support/tools.ts says what happens).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { MATRIX_FORMS, findForm } from '../catalog/all-forms.ts';
import type { Form } from '../catalog/instruction.ts';
import { evaluateBits } from '../engine/pipeline.ts';
import { matrixRegisters } from '../engine/matrix-registers.ts';
import { suiteNeeds } from '../../tests/support/tools.ts';
import { reproduceProgram } from './reproduce-cuda.ts';
import { elementSpot, matrixProgramProblem } from './reproduce-matrix.ts';

const run = promisify(execFile);

/** Distinct nonzero patterns per element (i + 1 in the low bits, a tag above), so each is findable. */
function distinctRegisters(form: Form) {
  const k = form.matrix!.shape.k;
  const width = (f: string) => ({ f16: 16, bf16: 16, tf32: 32, e4m3: 8, e5m2: 8 })[f]!;
  const m = form.matrix!;
  const a = Array.from({ length: k }, (_, i) => BigInt(i + 1));
  const b = Array.from(
    { length: k },
    (_, i) => BigInt(i + 1) | (1n << BigInt(width(m.types.b) - 2)),
  );
  const r = matrixRegisters(form, { a, b, c: 0x3c00n });
  if (!r.ok) throw new Error(r.error.message);
  return { registers: r.registers, a, b };
}

/** Every constant the program's table `name` holds, split into its slots of `bits`. */
function slotsOf(source: string, name: string, bits: number): bigint[] {
  const start = source.indexOf(`__constant__ unsigned int ${name}[`);
  const end = source.indexOf('};', start);
  const words = [...source.slice(start, end).matchAll(/0x([0-9a-f]{8})u/g)].map((x) =>
    BigInt(`0x${x[1]}`),
  );
  const mask = (1n << BigInt(bits)) - 1n;
  return words.flatMap((w) =>
    Array.from({ length: 32 / bits }, (_, j) => (w >> BigInt(j * bits)) & mask),
  );
}

const PROGRAM_FORMS = MATRIX_FORMS.filter((f) => matrixProgramProblem(f) === null);

describe('the GPU program of a tensor-core element', () => {
  it('covers the mma forms of f16, bf16, tf32 and FP8 inputs; the others say why not', () => {
    expect(PROGRAM_FORMS.length).toBeGreaterThanOrEqual(36);
    const wgmma = findForm('wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16')!;
    expect(matrixProgramProblem(wgmma)).toContain('shared-memory descriptors');
    const r = reproduceProgram({ form: wgmma.text, registers: {}, target: 'sm_90a', ptx: '8.6' });
    expect(r.ok).toBe(false);
  });

  it('loads each element of the row, the column and c into exactly one slot of one lane', () => {
    for (const form of PROGRAM_FORMS) {
      const { registers, a, b } = distinctRegisters(form);
      const p = reproduceProgram({ form: form.text, registers, target: 'sm_90', ptx: '8.7' });
      if (!p.ok) throw new Error(p.error);
      const m = form.matrix!;
      const bitsOf = (t: string) =>
        ({ f16: 16, bf16: 16, tf32: 32, e4m3: 8, e5m2: 8, f32: 32 })[t]!;
      const nonzero = (xs: bigint[]) => xs.filter((x) => x !== 0n).sort((x, y) => (x < y ? -1 : 1));
      expect(nonzero(slotsOf(p.source, 'A', bitsOf(m.types.a))), form.text).toEqual(a);
      expect(nonzero(slotsOf(p.source, 'B', bitsOf(m.types.b))), form.text).toEqual(
        [...b].sort((x, y) => (x < y ? -1 : 1)),
      );
      expect(slotsOf(p.source, 'C', bitsOf(m.types.c)).filter((x) => x !== 0n)).toHaveLength(1);
    }
  });

  it('reads D[0][0] from lane 0 (m16n8: d0; m8n8k4: d0 of product 0)', () => {
    const f32 = findForm('mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32')!;
    expect(elementSpot(f32)).toEqual({ lane: 0, register: 0, shift: 0, bits: 32 });
    const f16 = findForm('mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16')!;
    expect(elementSpot(f16)).toEqual({ lane: 0, register: 0, shift: 0, bits: 16 });
  });
});

const SUITE = 'the GPU program of a tensor-core element: nvcc compiles it';
describe.runIf(suiteNeeds(SUITE, ['nvcc']))(SUITE, () => {
  const dir = mkdtempSync(join(tmpdir(), 'ptxf-repro-mma-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const cases: [string, string][] = [
    ['mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32', 'sm_90'],
    ['mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32', 'sm_80'],
    ['mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32', 'sm_80'],
    ['mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16', 'sm_80'],
    ['mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32', 'sm_90'],
  ];
  for (const [text, target] of cases)
    it(`${text} for ${target}`, { timeout: 120_000 }, async () => {
      const form = findForm(text)!;
      const { registers } = distinctRegisters(form);
      const expected = BigInt(evaluateBits(form, registers, { target }));
      const p = reproduceProgram({ form: text, registers, target, ptx: '8.7', expected });
      if (!p.ok) throw new Error(p.error);
      expect(p.archFlags).toEqual([`-arch=${target}`]);
      const file = join(dir, `${text}-${target}.cu`);
      writeFileSync(file, p.source);
      await run('nvcc', [...p.archFlags, '-cubin', file, '-o', `${file}.cubin`]);
    });
});
