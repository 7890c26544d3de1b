/**
 * The mma capture harness (hw/mma) without a GPU: nvcc builds hw/mma/mma-capture.cu for sm_90
 * (so ptxas assembles every captured form), and its self-test writes the inputs the kernels
 * would read, the registers each lane would hand to mma and each register slot's matrix
 * coordinate. Checked here against hw/mma/lib: the tiles' inputs (tiles.ts), the fragment
 * layouts (layout.ts) and the register packing. Then compare.ts runs on a capture written from
 * the engine's model (a GPU stand-in): every element agrees, and a planted difference is
 * reported with its inputs, the model's d and the measured one.
 * Budget: about 2 minutes on this 2-core machine (nvcc ~20 s, the model's D ~30 s, compare.ts
 * twice).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MMA_GENERATED_HEADER, generateMmaHeader } from '../../hw/mma/gen-header.ts';
import {
  readMmaCapture,
  writeCaptureWithD,
  operandSize,
  type MmaCapturedForm,
} from '../../hw/mma/lib/capture-files.ts';
import { modelD } from '../../hw/mma/lib/compare-mma.ts';
import { cornerCasesOf } from '../../hw/mma/lib/corner-cases.ts';
import { PATTERN_FORMATS, smallInteger } from '../../hw/mma/lib/element-patterns.ts';
import { MMA_CAPTURE_FORMS } from '../../hw/mma/lib/forms.ts';
import {
  fragmentCoordinate,
  fragmentElements,
  matrixDims,
  slotBits,
  type FragmentOperand,
} from '../../hw/mma/lib/layout.ts';
import {
  aIndex,
  bIndex,
  cIndex,
  tileInputs,
  tilePlanOf,
  type TileInputs,
} from '../../hw/mma/lib/tiles.ts';
import { suiteNeeds } from '../support/tools.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
const SEED = 0x1234abcd;
const RANDOM_TILES = 8;
const OPERANDS: readonly FragmentOperand[] = ['a', 'b', 'c', 'd'];

const nvcc = suiteNeeds('hw/mma/mma-capture.cu with nvcc', ['nvcc', 'ptxas']);

describe('hw/mma: the TypeScript side alone', () => {
  it('the generated header is up to date', () => {
    expect(readFileSync(MMA_GENERATED_HEADER, 'utf8') === generateMmaHeader()).toBe(true);
  });

  it('captures the 36 forms sm_90 runs with f16, bf16, tf32, e4m3 and e5m2 inputs', () => {
    expect(MMA_CAPTURE_FORMS).toHaveLength(36);
    expect(MMA_CAPTURE_FORMS.map((f) => f.text)).toContain(
      'mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32',
    );
    expect(
      MMA_CAPTURE_FORMS.every((f) => f.matrix!.kind === null && f.matrix!.types.a !== 'f64'),
    ).toBe(true);
  });

  it('every layout places each element of each product in exactly one lane slot', () => {
    for (const form of MMA_CAPTURE_FORMS)
      for (const op of OPERANDS) {
        const { rows, cols } = matrixDims(form, op);
        const products = form.matrix!.threads === 8 ? 4 : 1;
        const seen = new Set<string>();
        for (let lane = 0; lane < 32; lane++)
          for (let i = 0; i < fragmentElements(form, op); i++) {
            const { product, row, col } = fragmentCoordinate(form, op, lane, i);
            expect(row >= 0 && row < rows && col >= 0 && col < cols && product < products).toBe(
              true,
            );
            seen.add(`${product},${row},${col}`);
          }
        expect(seen.size, `${form.text} ${op}`).toBe(products * rows * cols);
      }
  });

  it('the layouts the spec spells out, at a few points', () => {
    const byText = (t: string) => MMA_CAPTURE_FORMS.find((f) => f.text === t)!;
    const k16 = byText('mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32');
    // 9.7.14.5.8: a4 of lane 5 is row groupID = 1, col 2·1 + 0 + 8 = 10; a2 is row 9.
    expect(fragmentCoordinate(k16, 'a', 5, 4)).toEqual({ product: 0, row: 1, col: 10 });
    expect(fragmentCoordinate(k16, 'a', 5, 2)).toEqual({ product: 0, row: 9, col: 2 });
    expect(fragmentCoordinate(k16, 'b', 5, 3)).toEqual({ product: 0, row: 11, col: 1 });
    const tf32 = byText('mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32');
    // 9.7.14.5.7: tf32 a1 is row groupID + 8, a2 column threadID_in_group + 4.
    expect(fragmentCoordinate(tf32, 'a', 6, 1)).toEqual({ product: 0, row: 9, col: 2 });
    expect(fragmentCoordinate(tf32, 'a', 6, 2)).toEqual({ product: 0, row: 1, col: 6 });
    const fp8 = byText('mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32');
    // 9.7.14.5.10: a12 of lane 7 is row 1 + 8, col 3·4 + 0 + 16; b5 is row 3·4 + 1 + 16.
    expect(fragmentCoordinate(fp8, 'a', 7, 12)).toEqual({ product: 0, row: 9, col: 28 });
    expect(fragmentCoordinate(fp8, 'b', 7, 5)).toEqual({ product: 0, row: 29, col: 1 });
    const m884 = byText('mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f32');
    // 9.7.14.5.1: lane 21 (high group) holds product 1; f32 c5: row (1 + 0) + 4, col 4 + 0 + 1.
    expect(fragmentCoordinate(m884, 'c', 21, 5)).toEqual({ product: 1, row: 5, col: 5 });
    expect(fragmentCoordinate(m884, 'a', 21, 2)).toEqual({ product: 1, row: 6, col: 1 });
  });

  it('every corner case has k elements of A and B', () => {
    for (const form of MMA_CAPTURE_FORMS)
      for (const c of cornerCasesOf(form)) {
        expect(c.a).toHaveLength(form.matrix!.shape.k);
        expect(c.b).toHaveLength(form.matrix!.shape.k);
      }
  });
});

/** The registers lane `lane` hands to mma, packed from TypeScript's tile and layout. */
function expectedRegisters(
  form: (typeof MMA_CAPTURE_FORMS)[number],
  t: TileInputs,
  lane: number,
): number[] {
  const g = { products: form.matrix!.threads === 8 ? 4 : 1, ...form.matrix!.shape };
  const out: number[] = [];
  for (const op of ['a', 'b', 'c'] as const) {
    const bits = slotBits(form, op);
    const regs = new Array<number>(form.matrix!.fragments[op]!.count).fill(0);
    for (let i = 0; i < fragmentElements(form, op); i++) {
      const { product, row, col } = fragmentCoordinate(form, op, lane, i);
      const v =
        op === 'a'
          ? t.a[aIndex(g, product, row, col)]!
          : op === 'b'
            ? t.b[bIndex(g, product, row, col)]!
            : t.c[cIndex(g, product, row, col)]!;
      const per = 32 / bits;
      regs[Math.floor(i / per)] = (regs[Math.floor(i / per)]! | (v << ((i % per) * bits))) >>> 0;
    }
    out.push(...regs);
  }
  return out;
}

/** The exact value of a small-integer pattern (the exact tile's elements). */
function smallIntegerValue(format: keyof typeof PATTERN_FORMATS, pattern: number): number {
  for (let v = -3; v <= 3; v++) if (smallInteger(PATTERN_FORMATS[format], v) === pattern) return v;
  throw new Error(`${pattern.toString(16)} is not a small integer of ${format}`);
}

describe.runIf(nvcc)('hw/mma/mma-capture.cu with nvcc (self-test, no GPU)', () => {
  let dir = '';
  let forms: MmaCapturedForm[] = [];
  const binary = () => join(dir, 'mma-capture');
  const selftest = () => join(dir, 'selftest');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ptxf-mma-'));
    await run(
      'nvcc',
      ['-std=c++17', '-O2', '-arch=sm_90', '-o', binary(), join(ROOT, 'hw/mma/mma-capture.cu')],
      {
        maxBuffer: 16 << 20,
      },
    );
    await run('mkdir', ['-p', selftest()]);
    await run(binary(), [
      '--selftest',
      selftest(),
      '--seed',
      String(SEED),
      '--random-tiles',
      String(RANDOM_TILES),
    ]);
    forms = readMmaCapture(selftest()).forms;
  }, 240_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists the forms of hw/mma/lib/forms.ts, in order', async () => {
    const { stdout } = await run(binary(), ['--list']);
    expect(stdout.trim().split('\n')).toEqual(MMA_CAPTURE_FORMS.map((f) => f.text));
  });

  it('writes the summary: forms, tile plan, corner cases, files', () => {
    const summary = JSON.parse(readFileSync(join(selftest(), 'summary.json'), 'utf8'));
    expect(summary).toMatchObject({
      format: 'ptxf-mma-capture',
      mode: 'selftest',
      seed: SEED,
      randomTiles: RANDOM_TILES,
    });
    MMA_CAPTURE_FORMS.forEach((form, i) => {
      const entry = summary.forms[i];
      const plan = tilePlanOf(form, RANDOM_TILES);
      expect(entry.form).toBe(form.text);
      expect(entry.tiles).toBe(plan.total);
      expect(entry.sections).toEqual({
        exact: plan.exact,
        corner: plan.corner,
        random: plan.random,
      });
      expect(entry.cornerCases).toEqual(cornerCasesOf(form).map((c) => c.name));
    });
  });

  it('generates every tile exactly as hw/mma/lib/tiles.ts does', () => {
    forms.forEach((captured, formIndex) => {
      const g = captured.geometry;
      for (let tile = 0; tile < captured.entry.tiles; tile++) {
        const t = tileInputs(formIndex, tile, SEED, RANDOM_TILES);
        for (const op of ['a', 'b', 'c'] as const) {
          const size = operandSize(g, op);
          const got = captured[op].subarray(tile * size, (tile + 1) * size);
          expect(
            Buffer.from(got.buffer, got.byteOffset, got.byteLength).equals(
              Buffer.from(t[op].buffer),
            ),
            `${captured.form.text} tile ${tile} ${op}`,
          ).toBe(true);
        }
      }
    });
  });

  it('maps every register slot of every lane to the element layout.ts names', () => {
    const layout = readFileSync(join(selftest(), 'mma-layout.bin'));
    let at = 0;
    for (const form of MMA_CAPTURE_FORMS)
      for (const op of OPERANDS)
        for (let lane = 0; lane < 32; lane++)
          for (let i = 0; i < fragmentElements(form, op); i++) {
            const want = fragmentCoordinate(form, op, lane, i);
            const got = { product: layout[at]!, row: layout[at + 1]!, col: layout[at + 2]! };
            at += 3;
            if (got.product !== want.product || got.row !== want.row || got.col !== want.col)
              expect(got, `${form.text} ${op} lane ${lane} slot ${i}`).toEqual(want);
          }
    expect(at).toBe(layout.length);
  });

  it('hands mma the registers that layout.ts packs from the tiles', () => {
    const registers = readFileSync(join(selftest(), 'mma-registers.bin'));
    let at = 0;
    MMA_CAPTURE_FORMS.forEach((form, formIndex) => {
      for (let tile = 0; tile < tilePlanOf(form, RANDOM_TILES).total; tile++) {
        const t = tileInputs(formIndex, tile, SEED, RANDOM_TILES);
        for (let lane = 0; lane < 32; lane++) {
          const want = expectedRegisters(form, t, lane);
          const got = want.map((_, r) => registers.readUInt32LE(at + 4 * r));
          at += 4 * want.length;
          if (got.some((x, r) => x !== want[r]))
            expect(got, `${form.text} tile ${tile} lane ${lane}`).toEqual(want);
        }
      }
    });
    expect(at).toBe(registers.length);
  });

  describe('compare.ts on a capture written from the model (a GPU stand-in)', () => {
    const modelDir = () => join(dir, 'model');
    const compare = (...args: string[]) =>
      run(
        'node',
        [join(ROOT, 'bin/run-ts.mjs'), join(ROOT, 'hw/mma/compare.ts'), modelDir(), ...args],
        {
          cwd: ROOT,
          maxBuffer: 16 << 20,
        },
      );

    beforeAll(async () => {
      await run('mkdir', ['-p', modelDir()]);
      writeCaptureWithD(selftest(), modelDir(), 'model', modelD);
    }, 240_000);

    it("the model's d of every exact tile is the exact sum (small integers, so every model agrees)", () => {
      for (const captured of readMmaCapture(modelDir()).forms) {
        const g = captured.geometry;
        const { form } = captured;
        for (let p = 0; p < g.products; p++)
          for (let row = 0; row < g.m; row++)
            for (let col = 0; col < g.n; col++) {
              let sum = smallIntegerValue(
                form.matrix!.types.c as 'f32',
                captured.c[cIndex(g, p, row, col)]!,
              );
              for (let kk = 0; kk < g.k; kk++)
                sum +=
                  smallIntegerValue(
                    form.matrix!.types.a as 'f16',
                    captured.a[aIndex(g, p, row, kk)]!,
                  ) *
                  smallIntegerValue(
                    form.matrix!.types.b as 'f16',
                    captured.b[bIndex(g, p, kk, col)]!,
                  );
              const d = captured.d[cIndex(g, p, row, col)]!;
              const value =
                form.matrix!.types.d === 'f32'
                  ? new Float32Array(new Uint32Array([d]).buffer)[0]!
                  : f16Value(d);
              expect(
                value === sum,
                `${form.text} d[${p}][${row}][${col}]: ${value}, exact ${sum}`,
              ).toBe(true);
            }
      }
    });

    it('agrees everywhere: exit 0, every form AGREE', async () => {
      const { stdout } = await compare();
      expect(stdout).toContain(
        `${MMA_CAPTURE_FORMS.length} of ${MMA_CAPTURE_FORMS.length} forms agree`,
      );
      expect(stdout).not.toContain('DIFFER');
    }, 240_000);

    it('reports a planted difference with its inputs, the model and the measured d', async () => {
      const formIndex = MMA_CAPTURE_FORMS.findIndex(
        (f) => f.text === 'mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32',
      );
      const captured = readMmaCapture(modelDir()).forms[formIndex]!;
      // The first corner tile's d[2][2] holds corner case 2 (nan-c); make it 1.0 instead.
      const tile = captured.entry.sections.exact;
      const index = tile * operandSize(captured.geometry, 'd') + cIndex(captured.geometry, 0, 2, 2);
      const file = join(modelDir(), captured.entry.file);
      const bytes = readFileSync(file);
      const at = captured.entry.offsets.d + 4 * index;
      const model = bytes.readUInt32LE(at);
      bytes.writeUInt32LE(0x3f800000, at);
      writeFileSync(file, bytes);
      const result = await compare('--forms', 'm16n8k16\\.row\\.col\\.f32\\.bf16').then(
        () => ({ code: 0, stdout: '' }),
        (e: { code: number; stdout: string }) => e,
      );
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(
        `DIFFER mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32  (exact 128/128, corner `,
      );
      expect(result.stdout).toContain(
        `tile ${tile} (corner: ${cornerCasesOf(captured.form)[2]!.name}) product 0 d[2][2]: model 0x${model.toString(16).padStart(8, '0')}, measured 0x3f800000`,
      );
      expect(result.stdout).toContain('c = 0x7fc00000');
      expect(result.stdout).toContain('0 of 1 forms agree');
    }, 240_000);
  });
});

function f16Value(bits: number): number {
  const e = (bits >> 10) & 0x1f;
  const f = bits & 0x3ff;
  const s = bits & 0x8000 ? -1 : 1;
  if (e === 0) return s * f * 2 ** -24;
  return s * (1 + f / 1024) * 2 ** (e - 15);
}
