/**
 * The block-scaled mma forms of the catalog (records/block-scaled-mma.ts) through the one
 * pipeline: every form's text reads back through the one parser with its scale operands, and
 * its one output element — A's row, B's column, c and the scales placed in the form's registers
 * as the catalog says — evaluates (traced and untraced) to what the independent reference
 * (tests/reference/block-scaled-dot-ref.ts, exact rationals) gives for the elements it reads
 * from those registers by plain bit arithmetic.
 *
 * Size: PTXF_BLOCK_MMA_RUNS random registers per form (default 12; 54 forms).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MATRIX_FORMS } from '../src/catalog/all-forms.ts';
import type { Form } from '../src/catalog/instruction.ts';
import { parseInstruction } from '../src/catalog/parse-instruction.ts';
import { verdictFor } from '../src/catalog/verdict.ts';
import { findTarget } from '../src/catalog/targets.ts';
import { cornerTable } from '../src/engine/analysis/corner-cases.ts';
import { evaluate, evaluateBits } from '../src/engine/pipeline.ts';
import type { Step } from '../src/engine/steps.ts';
import { matrixChains } from '../src/engine/what-if/matrix-chains.ts';
import { refBlockScaledDot, type RefBlockDotRequest } from './reference/block-scaled-dot-ref.ts';
import { refCudaCoreChain } from './reference/tensor-core-ref.ts';

const RUNS = Number(process.env.PTXF_BLOCK_MMA_RUNS ?? 12);

const BLOCK_FORMS: readonly Form[] = MATRIX_FORMS.filter((f) => f.matrix?.blockScale);

/** Spec facts, written out: the element widths and where mxf8f6f4 pads them in 8 bits. */
const WIDTH = { e4m3: 8, e5m2: 8, e3m2: 6, e2m3: 6, e2m1: 4 } as const;
type Element = keyof typeof WIDTH;

/** The element bits of a row or column register: mxf8f6f4 in 8-bit containers, e2m1 at bits 5…2. */
function elementsOf(register: bigint, type: Element, k: number, padded: boolean): bigint[] {
  const slot = padded ? 8 : WIDTH[type];
  const shift = padded && type === 'e2m1' ? 2 : 0;
  const mask = (1n << BigInt(WIDTH[type])) - 1n;
  return Array.from({ length: k }, (_, i) => (register >> BigInt(i * slot + shift)) & mask);
}

/** The scale bytes, low byte first (the sign bit of a UE4M3 byte kept: the reference drops it). */
const bytesOf = (register: bigint, count: number) =>
  Array.from({ length: count }, (_, i) => (register >> BigInt(8 * i)) & 0xffn);

function requestOf(form: Form, r: Record<string, bigint>): RefBlockDotRequest {
  const m = form.matrix!;
  const s = m.blockScale!;
  const padded = s.kind === 'mxf8f6f4';
  return {
    kind: s.kind,
    atype: m.types.a as Element,
    btype: m.types.b as Element,
    stype: s.stype,
    a: elementsOf(r.a!, m.types.a as Element, m.shape.k, padded),
    b: elementsOf(r.b!, m.types.b as Element, m.shape.k, padded),
    c: r.c!,
    scaleA: bytesOf(r.scale_a!, s.chunks),
    scaleB: bytesOf(r.scale_b!, s.chunks),
  };
}

/** Registers of a form: random bits, scales near 1 mostly so that the products meet. */
function registersArb(form: Form): fc.Arbitrary<Record<string, bigint>> {
  const width = (name: string) => form.registers.find((x) => x.name === name)!.bits;
  const chunks = form.matrix!.blockScale!.chunks;
  const ue8m0 = form.matrix!.blockScale!.stype === 'ue8m0';
  const scale = fc.oneof(
    { weight: 5, arbitrary: fc.bigInt(ue8m0 ? 0x78n : 0x30n, ue8m0 ? 0x86n : 0x48n) },
    { weight: 1, arbitrary: fc.bigInt(0n, 0xffn) },
  );
  const scales = fc
    .array(scale, { minLength: chunks, maxLength: chunks })
    .map((xs) => xs.reduce((acc, x, i) => acc | (x << BigInt(8 * i)), 0n));
  const bits = (n: number) => fc.bigInt(0n, (1n << BigInt(n)) - 1n);
  return fc.record({
    a: bits(width('a')),
    b: bits(width('b')),
    c: fc.oneof(bits(32), fc.constant(0n), fc.constant(0x3f800000n)),
    scale_a: scales,
    scale_b: scales,
  });
}

describe('block-scaled mma forms in the catalog', () => {
  it('are the 54 forms of Table 36, each read back by its text with its scale operands', () => {
    expect(BLOCK_FORMS.length).toBe(54);
    for (const form of BLOCK_FORMS) {
      const line = `${form.text} d, a, b, c, sa, {byteA, threadA}, sb, {byteB, threadB};`;
      const read = parseInstruction(line);
      expect(read.ok && read.form.text, line).toBe(form.text);
      expect(form.registers.map((r) => r.name)).toEqual(['d', 'a', 'b', 'c', 'scale_a', 'scale_b']);
    }
    // The scale operands are part of the line: leaving them out is refused.
    expect(parseInstruction(`${BLOCK_FORMS[0]!.text} d, a, b, c;`).ok).toBe(false);
  });

  it('exist on sm_120a from PTX ISA 8.7 and the sm_120f family from 8.8, nowhere else', () => {
    const valid = (t: string, ptx: string) =>
      BLOCK_FORMS.every((f) => verdictFor(f, findTarget(t)!, ptx).valid);
    expect(valid('sm_120a', '8.7')).toBe(true);
    expect(valid('sm_121a', '8.8')).toBe(true);
    expect(valid('sm_121f', '8.8')).toBe(true);
    const none = (t: string, ptx: string) =>
      BLOCK_FORMS.every((f) => !verdictFor(f, findTarget(t)!, ptx).valid);
    expect(none('sm_120a', '8.6')).toBe(true);
    expect(none('sm_120', '9.0')).toBe(true);
    expect(none('sm_100a', '9.0')).toBe(true);
  });

  it('evaluate as the reference gives, traced and untraced, on random registers of every form', () => {
    for (const form of BLOCK_FORMS)
      fc.assert(
        fc.property(registersArb(form), (registers) => {
          const want = refBlockScaledDot(requestOf(form, registers));
          const result = evaluate(form, registers, { target: 'sm_120a' });
          expect(BigInt(result.d), form.text).toBe(want);
          expect(BigInt(evaluateBits(form, registers, { target: 'sm_120a' }))).toBe(want);
        }),
        { numRuns: RUNS, seed: form.text.length * 31 + form.text.charCodeAt(40) },
      );
  });

  it('trace the model, each chunk’s scales and the terms', () => {
    const form = BLOCK_FORMS.find(
      (f) => f.matrix!.blockScale!.kind === 'mxf4nvf4' && f.matrix!.blockScale!.chunks === 4,
    )!;
    // Every e2m1 element 1.0 (0b0010), the scales 1, 2, 0.5, 1 (UE4M3), c = 0: 16 × 4.5 = 72.
    const ones = BigInt('0x' + '2'.repeat(64));
    const registers = { a: ones, b: ones, c: 0n, scale_a: 0x38304038n, scale_b: 0x38383838n };
    const result = evaluate(form, registers, { target: 'sm_120a' });
    expect(result.d).toBe('0x42900000');
    const steps = result.elements[0]!.steps;
    expect(steps.map((s) => s.kind)).toEqual(['inputs', 'tensor-model', 'block-scale', 'result']);
    const block = steps[2] as Step & { kind: 'block-scale' };
    expect(block.scales.map((s) => s.a.bits)).toEqual(['0x38', '0x40', '0x30', '0x38']);
    expect(block.groups.length).toBe(4);
    expect(block.terms.map((t) => t.source)).toEqual(['c', 'group', 'group', 'group', 'group']);
    expect(block.alignmentBits).toBe(35);
  });

  it('have a corner-case table: the cases of the elements, under scales of 1', () => {
    for (const form of BLOCK_FORMS) {
      const table = cornerTable(form, { target: 'sm_120a' });
      expect(table.rows.length, form.text).toBeGreaterThan(4);
      const one = form.matrix!.blockScale!.stype === 'ue8m0' ? '7f' : '38';
      for (const row of table.rows)
        expect(row.registers.scale_a).toBe(`0x${one.repeat(form.matrix!.blockScale!.chunks)}`);
    }
  });
});

describe('the CUDA-core loops beside a block-scaled element', () => {
  it('dequantize each element by its chunk’s scale, then fma.rn in order, as the reference does', () => {
    for (const form of BLOCK_FORMS.filter((_, i) => i % 3 === 0))
      fc.assert(
        fc.property(registersArb(form), (registers) => {
          const r = requestOf(form, registers);
          const x = matrixChains(form, registers, 'sm_120a');
          const scales = {
            stype: r.stype,
            chunk: form.matrix!.shape.k / form.matrix!.blockScale!.chunks,
            a: r.scaleA,
            b: r.scaleB,
          };
          for (const format of ['f32', 'f64'] as const) {
            const ref = refCudaCoreChain(
              { atype: r.atype, btype: r.btype, ctype: 'f32' },
              r.a,
              r.b,
              r.c,
              format,
              scales,
            )!;
            const got = x[format];
            if (!got.ok) throw new Error(`${form.text} ${format}: ${got.reason}`);
            expect(got.links.map((l) => BigInt(l.result.bits))).toEqual(ref.links);
          }
        }),
        { numRuns: Math.max(2, Math.floor(RUNS / 2)), seed: form.text.length * 7 },
      );
  });
});
