/** The capture plan, the row hash and the generated CUDA header (no nvcc needed). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_HEADER, generateHeader } from '../../hw/gen-forms.ts';
import { hashWords } from '../../hw/lib/hash.ts';
import { BIT_LAYOUTS, unbiasedExponent } from '../../hw/lib/bit-layout.ts';
import { mix32 } from '../../hw/lib/sample.ts';
import { FORMS } from '../../src/catalog/forms.ts';
import {
  DEFAULT_SAMPLE_SEED,
  capturedForms,
  edgeTupleCount,
  inputsAt,
  sampleTuple,
  sectionsOf,
} from '../../hw/lib/plan.ts';
import { shapeByName } from '../../hw/lib/expected.ts';

describe('hw/forms.generated.h', () => {
  it('is what hw/gen-forms.ts generates from the current catalog (regenerate it if not)', () => {
    expect(readFileSync(GENERATED_HEADER, 'utf8') === generateHeader()).toBe(true);
  });

  it('has one inline-PTX function per catalog form', () => {
    const header = generateHeader();
    for (const form of FORMS) expect(header).toContain(`asm("${form.text} %0, `);
    expect(capturedForms()).toHaveLength(FORMS.length);
  });
});

describe('capture plan', () => {
  it('gives each lane of a packed binary form every operand pair', () => {
    const shape = shapeByName('add.rn.f16x2');
    expect(sectionsOf(shape, 64)).toEqual([{ name: 'pairs', layout: 'hashed-rows', size: 65536 }]);
    const r = inputsAt(shape, 'pairs', 0x3c00 * 65536 + 0x0001, 0);
    expect(r).toEqual({ a: 0x00013c00, b: 0x3c000001, c: 0 });
  });

  it('puts mixed-precision operands where the instruction reads them (add: a and c)', () => {
    const shape = shapeByName('add.rz.f32.f16');
    expect(shape.sources.map((s) => `${s.name}:${s.format}`)).toEqual(['a:f16', 'c:f32']);
    expect(edgeTupleCount(shape)).toBe(24 * 23);
    // Last source fastest: tuple 1 is (first f16 edge, second f32 edge) = (+0, -0).
    expect(inputsAt(shape, 'edges', 1, 0)).toEqual({ a: 0, b: 0, c: 0x80000000 });
  });

  it('crosses the edge tuples in reverse in lane 1 of packed fma forms', () => {
    const shape = shapeByName('fma.rn.bf16x2');
    const n = edgeTupleCount(shape);
    const first = inputsAt(shape, 'edges', 0, 0);
    const last = inputsAt(shape, 'edges', n - 1, 0);
    expect(first.a & 0xffff).toBe(last.a >>> 16);
    expect(first.c >>> 16).toBe(last.c & 0xffff);
  });

  it('adds a nan-probe section to .oob forms only', () => {
    expect(sectionsOf(shapeByName('fma.rn.oob.relu.f16'), 8).map((s) => s.name)).toEqual([
      'edges',
      'sample',
      'nan-probe',
    ]);
    expect(sectionsOf(shapeByName('fma.rn.relu.f16'), 8).map((s) => s.name)).toEqual([
      'edges',
      'sample',
    ]);
    // Position 2 (c) holds the probed pattern; a and b are 1.0.
    expect(inputsAt(shapeByName('fma.rn.oob.f16'), 'nan-probe', 2 * 65536 + 0x7fff, 0)).toEqual({
      a: 0x3c00,
      b: 0x3c00,
      c: 0x7fff,
    });
  });

  it('draws fma samples whose addend is usually near the product, deterministically per seed', () => {
    const shape = shapeByName('fma.rn.f16');
    const f16 = BIT_LAYOUTS.f16;
    let near = 0;
    const n = 4000;
    for (let i = 0; i < n; i++) {
      const [a, b, c] = sampleTuple(shape, DEFAULT_SAMPLE_SEED, i);
      const product = unbiasedExponent(a, f16) + unbiasedExponent(b, f16);
      if (product > -14 && product < 15 && Math.abs(unbiasedExponent(c, f16) - product) <= 4)
        near++;
    }
    // Uniform bit patterns would put c within 4 binades of a·b about 1 time in 4.
    expect(near / n).toBeGreaterThan(0.5);
    // A sample is a fixed function of (seed, index): captures taken on a GPU are compared with
    // expected rows computed later, so a change to the generator must show up here.
    expect(sampleTuple(shape, 1, 7)).toEqual([0x7a81, 0x570e, 0x7a86]);
    expect(sampleTuple(shape, 2, 7)).toEqual([0x1753, 0x398f, 0x90a7]);
  });
});

describe('row hash', () => {
  const words = Array.from({ length: 65536 }, (_, i) => mix32(i));

  it('matches the value the CUDA harness printed for mix32(0..65535) (capture --selftest, sm_100 build)', () => {
    expect(hashWords(words)).toEqual([0x251d0074, 0xe099977b]);
  });

  it('changes when a single top bit changes, and two top-bit changes do not cancel', () => {
    const base = hashWords(words);
    const one = words.slice();
    one[100] = (one[100]! ^ 0x80000000) >>> 0;
    const two = one.slice();
    two[200] = (two[200]! ^ 0x80000000) >>> 0;
    expect(hashWords(one)).not.toEqual(base);
    expect(hashWords(two)).not.toEqual(base);
    expect(hashWords(two)).not.toEqual(hashWords(one));
  });
});
