/**
 * The GPU program of one tensor-core element, for every mma and wgmma.mma_async form of the
 * catalog: its fragment tables (mma), its A registers and shared-memory stores (wgmma) hold the
 * row, the column and c exactly once each; D[0][0] is read from the thread that holds it; a
 * form whose layout the program does not load says why, with a code; and nvcc compiles one
 * program of every form family (nvcc absent: tests/support/tools.ts says what happens), all of
 * one target in one nvcc call, each program in a namespace of its own.
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
import { reproduceProgram, type ReproduceProgram } from './reproduce-cuda.ts';
import { elementSpot, matrixProgramProblem, type MatrixASource } from '../present/matrix-kernel.ts';

const run = promisify(execFile);

/** Bits of an element's pattern (its value bits) and of its container in a register. */
const PATTERN_BITS: Record<string, number> = {
  f16: 16,
  bf16: 16,
  tf32: 32,
  f64: 64,
  e4m3: 8,
  e5m2: 8,
  e3m2: 6,
  e2m3: 6,
  e2m1: 4,
};
const CONTAINER_BITS: Record<string, number> = {
  ...PATTERN_BITS,
  f32: 32,
  e3m2: 8,
  e2m3: 8,
  e2m1: 8,
};
/** Where an element's pattern sits in its container (9.7.14.5.14: e2m1 in the central 4 bits). */
const PATTERN_SHIFT: Record<string, number> = { e2m1: 2 };

/**
 * Nonzero patterns per element: 1 + (i mod (2^w − 2)) in the low bits, B's with its top bit set
 * too, so A's and B's differ and a 4-bit element still has a nonzero pattern.
 */
function testRegisters(form: Form) {
  const m = form.matrix!;
  const k = m.shape.k;
  const low = (t: string, i: number) =>
    BigInt(1 + (i % ((1 << Math.min(PATTERN_BITS[t]!, 16)) - 2)));
  const a = Array.from({ length: k }, (_, i) => low(m.types.a, i));
  const top = 1n << BigInt(PATTERN_BITS[m.types.b]! - 1);
  const b = Array.from({ length: k }, (_, i) => low(m.types.b, i) | top);
  const c = m.types.c === 'f64' ? 0x3ff0000000000000n : m.types.c === 'f32' ? 0x3f800000n : 0x3c00n;
  const r = matrixRegisters(form, { a, b, c });
  if (!r.ok) throw new Error(r.error.message);
  const container = (t: string, x: bigint) => x << BigInt(PATTERN_SHIFT[t] ?? 0);
  return {
    registers: r.registers,
    a: a.map((x) => container(m.types.a, x)),
    b: b.map((x) => container(m.types.b, x)),
    c,
  };
}

const sorted = (xs: readonly bigint[]) => [...xs].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
const nonzero = (xs: readonly bigint[]) => sorted(xs.filter((x) => x !== 0n));

/** `words` split into slots of `bits`, low first. */
function slots(words: readonly bigint[], wordBits: number, bits: number): bigint[] {
  const mask = (1n << BigInt(bits)) - 1n;
  return words.flatMap((w) =>
    Array.from({ length: wordBits / bits }, (_, j) => (w >> BigInt(j * bits)) & mask),
  );
}

/** Every constant the mma program's table `name` holds. */
function tableWords(source: string, name: string): { words: bigint[]; bits: number } {
  const start = source.search(new RegExp(`__constant__ unsigned (int|long long) ${name}\\[`));
  const end = source.indexOf('};', start);
  const text = source.slice(start, end);
  const words = [...text.matchAll(/0x([0-9a-f]+)u/g)].map((x) => BigInt(`0x${x[1]}`));
  return { words, bits: text.includes('long long') ? 64 : 32 };
}

/** The 32-bit words a wgmma program stores into `name` (a_smem, b_smem) or sets in a[]. */
function storedWords(source: string, pattern: RegExp): bigint[] {
  return [...source.matchAll(pattern)].map((x) => BigInt(`0x${x[1]}`));
}

function programOf(form: Form, target: string, aSource?: MatrixASource): ReproduceProgram {
  const { registers } = testRegisters(form);
  const expected = BigInt(evaluateBits(form, registers, { target }));
  const p = reproduceProgram({
    form: form.text,
    registers,
    target,
    ptx: '9.0',
    expected,
    ...(aSource ? { aSource } : {}),
  });
  if (!p.ok) throw new Error(p.error);
  return p;
}

// The block-scaled forms (.block_scale) are refused by the program writer (their scale operands
// are not loaded), as the test below checks; every other mma form gets a program.
const MMA = MATRIX_FORMS.filter((f) => f.matrix!.instruction === 'mma' && !f.matrix!.blockScale);
const BLOCK_SCALED = MATRIX_FORMS.filter((f) => f.matrix!.blockScale !== null);
const WGMMA = MATRIX_FORMS.filter((f) => f.matrix!.instruction === 'wgmma');

describe('the GPU program of a tensor-core element', () => {
  it('is written for every mma and wgmma.mma_async form of the catalog', () => {
    expect(MMA.length).toBeGreaterThanOrEqual(114);
    expect(WGMMA.length).toBeGreaterThanOrEqual(384);
    const refused = MATRIX_FORMS.filter(
      (f) => (f.matrix!.kind ?? 'f8f6f4') === 'f8f6f4' && matrixProgramProblem(f) !== null,
    );
    expect(refused.map((f) => f.text)).toEqual([]);
  });

  it('every block-scaled form of the catalog is refused, with why', () => {
    expect(BLOCK_SCALED.length).toBeGreaterThanOrEqual(54);
    const written = BLOCK_SCALED.filter(
      (f) => !/not available yet.*scale operands/.test(matrixProgramProblem(f) ?? ''),
    );
    expect(written.map((f) => f.text)).toEqual([]);
  });

  it('a form whose operands the program does not load is refused, with why and a code', () => {
    const base = findForm('mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e2m1.f32')!;
    const scaled = { ...base, matrix: { ...base.matrix!, kind: 'mxf4' } } as unknown as Form;
    expect(matrixProgramProblem(scaled)).toMatch(
      /not available yet.*\.kind::mxf4's scale operands/,
    );
    // A layout the sections do not have (A's fragment one register short) fails the check that
    // every element of A is held by exactly one slot.
    const short = {
      ...base,
      matrix: {
        ...base.matrix!,
        fragments: {
          ...base.matrix!.fragments,
          a: { ...base.matrix!.fragments.a, count: 3, elements: 12 },
        },
      },
    } as Form;
    expect(matrixProgramProblem(short)).toMatch(/do not place its elements \(element \d+ of A/);
  });

  it('mma: the tables hold each element of the row, the column and c in exactly one slot', () => {
    for (const form of MMA) {
      const { a, b, c } = testRegisters(form);
      const p = programOf(form, 'sm_90');
      const m = form.matrix!;
      const of = (name: string, type: string) => {
        const t = tableWords(p.source, name);
        return nonzero(slots(t.words, t.bits, CONTAINER_BITS[type]!));
      };
      expect(of('A', m.types.a), form.text).toEqual(sorted(a));
      expect(of('B', m.types.b), form.text).toEqual(sorted(b));
      expect(of('C', m.types.c), form.text).toEqual([c]);
    }
  });

  it('wgmma: shared memory (or A’s registers) holds the row and the column once; D[0][0] starts as c', () => {
    for (const form of WGMMA)
      for (const aSource of ['descriptor', 'registers'] as const) {
        const { a, b, c } = testRegisters(form);
        const p = programOf(form, 'sm_90a', aSource);
        const bits = CONTAINER_BITS[form.matrix!.types.a]!;
        const aWords =
          aSource === 'descriptor'
            ? storedWords(p.source, /a_smem\[\d+\] = 0x([0-9a-f]{8})u;/g)
            : storedWords(p.source, /a\[\d\] = 0x([0-9a-f]{8})u;/g);
        expect(nonzero(slots(aWords, 32, bits)), `${form.text} ${aSource}`).toEqual(sorted(a));
        const bWords = storedWords(p.source, /b_smem\[\d+\] = 0x([0-9a-f]{8})u;/g);
        expect(nonzero(slots(bWords, 32, CONTAINER_BITS[form.matrix!.types.b]!))).toEqual(
          sorted(b),
        );
        const init = /if \(thread == 0\) [fd]\[0\] = (?:__uint_as_float\()?0x([0-9a-f]+)u/.exec(
          p.source,
        );
        expect(BigInt(`0x${init![1]}`), form.text).toBe(c);
        expect(p.source).toContain('reproduce<<<1, 128>>>(dOut);');
        expect(p.archFlags).toEqual(['-arch=compute_90a', '-code=sm_90a']);
      }
  });

  it('wgmma: A in shared memory at row 0 of its K-major core matrices (LBO 128, SBO 256)', () => {
    const form = findForm('wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16')!;
    const p = programOf(form, 'sm_90a');
    // k 0–7: the first core matrix's row 0, words 0–3; k 8–15: the next core matrix along K,
    // 128 bytes on (word 32).
    expect(p.source).toContain('a_smem[0] = 0x00020001u;');
    expect(p.source).toContain('a_smem[32] = 0x000a0009u;');
    expect(p.source).toContain('0x0000001000080000ull'); // LBO 128 >> 4 at 16, SBO 256 >> 4 at 32
    expect(p.source).toContain(
      '"wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, 1, 1, 1, 0, 0;\\n\\t"',
    );
  });

  it('reads D[0][0] from thread 0: d0 of every shape (m8n8k4: product 0)', () => {
    const spot = (text: string) => elementSpot(findForm(text)!);
    expect(spot('mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32')).toEqual({
      lane: 0,
      register: 0,
      shift: 0,
      bits: 32,
    });
    expect(spot('mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16').bits).toBe(16);
    expect(spot('mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64')).toEqual({
      lane: 0,
      register: 0,
      shift: 0,
      bits: 64,
    });
    expect(spot('wgmma.mma_async.sync.aligned.m64n256k32.f16.e5m2.e4m3')).toEqual({
      lane: 0,
      register: 0,
      shift: 0,
      bits: 16,
    });
  });

  it('an .f64 element travels as 64 bits: the "d" constraint and a 64-bit expected value', () => {
    const form = findForm('mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64.rm')!;
    const p = programOf(form, 'sm_90');
    expect(p.source).toContain('"d"(__longlong_as_double(A[lane][0]))');
    expect(p.source).toContain('if (lane == 0) out[0] = __double_as_longlong(f[0]);');
    expect(p.source).toMatch(/const unsigned long long expected = 0x[0-9a-f]{16}ull;/);
  });
});

/**
 * One program of every form family: each mma form but the f64 roundings other than .rn (the same
 * program but for its text); each wgmma type combination at its least and greatest N, with A from
 * a descriptor and from registers. Each is built for the form's least target (sm_75 at least).
 */
function familyPrograms(): { label: string; program: ReproduceProgram }[] {
  const out: { label: string; program: ReproduceProgram }[] = [];
  for (const form of MMA) {
    if (/\.(rz|rm|rp)$/.test(form.text)) continue;
    out.push({ label: form.text, program: programOf(form, form.minTarget) });
  }
  for (const form of WGMMA) {
    const n = form.matrix!.shape.n;
    if (n !== 8 && n !== 256) continue;
    for (const aSource of ['descriptor', 'registers'] as const)
      out.push({ label: `${form.text} ${aSource}`, program: programOf(form, 'sm_90a', aSource) });
  }
  return out;
}

/** Programs as one translation unit: each in a namespace, the includes once at the top. */
function batched(programs: readonly ReproduceProgram[]): string {
  const body = programs.map(
    (p, i) =>
      `namespace repro_${i} {\n${p.source.replace(/^#include .*$/gm, '')}\n}  // namespace repro_${i}\n`,
  );
  return ['#include <cstdio>', '#include <cuda_runtime.h>', ...body].join('\n');
}

const SUITE = 'the GPU program of a tensor-core element: nvcc compiles it';
describe.runIf(suiteNeeds(SUITE, ['nvcc']))(SUITE, () => {
  const dir = mkdtempSync(join(tmpdir(), 'ptxf-repro-mma-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const programs = familyPrograms();
  const byArch = new Map<string, ReproduceProgram[]>();
  for (const { program } of programs) {
    const key = program.archFlags.join(' ');
    byArch.set(key, [...(byArch.get(key) ?? []), program]);
  }

  it('every family has a program, for the targets its gating names', () => {
    expect(programs.length).toBeGreaterThanOrEqual(150);
    expect([...byArch.keys()].sort()).toEqual([
      '-arch=compute_100a -code=sm_100a',
      '-arch=compute_120a -code=sm_120a',
      '-arch=compute_90a -code=sm_90a',
      '-arch=sm_75',
      '-arch=sm_80',
      '-arch=sm_89',
      '-arch=sm_90',
    ]);
    const arch = (text: string) =>
      programs.find((p) => p.label.startsWith(text))!.program.archFlags.join(' ');
    expect(arch('mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64')).toBe('-arch=sm_80');
    expect(arch('mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64')).toBe('-arch=sm_90');
    expect(arch('mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e3m2.f32')).toBe(
      '-arch=compute_120a -code=sm_120a',
    );
  });

  for (const [flags, group] of byArch)
    it(
      `nvcc ${flags} -cubin compiles the ${group.length} programs built for it`,
      { timeout: 300_000 },
      async () => {
        const file = join(dir, `${flags.replace(/\W+/g, '_')}.cu`);
        writeFileSync(file, batched(group));
        await run('nvcc', [...flags.split(' '), '-cubin', file, '-o', `${file}.cubin`], {
          maxBuffer: 1 << 24,
        });
      },
    );
});
