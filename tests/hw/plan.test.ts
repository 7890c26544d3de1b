/** The capture plan, the row hash and the generated CUDA header (no nvcc needed). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_HEADER, generateHeader } from '../../hw/gen-forms.ts';
import {
  BLOCK_ROWS,
  blockDigest,
  blockDigests,
  hashFinish,
  hashStep,
  hashWords,
  resultBlockDigests,
} from '../../hw/lib/hash.ts';
import { BIT_LAYOUTS, unbiasedExponent } from '../../hw/lib/bit-layout.ts';
import { mix32 } from '../../hw/lib/sample.ts';
import { FORMS } from '../../src/catalog/all-forms.ts';
import {
  DEFAULT_SAMPLE_SEED,
  capturedForms,
  edgeTupleCount,
  fillInputs,
  inputArrays,
  inputsAt,
  sampleTuple,
  sectionsOf,
} from '../../hw/lib/plan.ts';
import { shapeByName } from '../../hw/lib/expected.ts';
import { cvtCapturedForms, cvtMinSmOf } from '../../hw/lib/cvt-plan.ts';

describe('hw/forms.generated.h', () => {
  it('is what hw/gen-forms.ts generates from the current catalog (regenerate it if not)', () => {
    expect(readFileSync(GENERATED_HEADER, 'utf8') === generateHeader()).toBe(true);
  });

  it('has one inline-PTX function per catalog form', () => {
    const header = generateHeader();
    const arithmetic = FORMS.filter((f) => f.family !== 'convert');
    for (const form of arithmetic) expect(header).toContain(`asm("${form.text} %0, `);
    expect(capturedForms()).toHaveLength(arithmetic.length);
  });

  it('has one inline-PTX function per cvt form of the capture plan, guarded by its least sm', () => {
    const header = generateHeader();
    for (const shape of cvtCapturedForms()) {
      const at = header.indexOf(`asm("${shape.form.text} %0, %1`);
      expect([shape.form.text, at > 0]).toEqual([shape.form.text, true]);
      const guard = header.lastIndexOf('__CUDA_ARCH__ >= ', at);
      expect(header.slice(guard, header.indexOf('\n', guard))).toBe(
        `__CUDA_ARCH__ >= ${cvtMinSmOf(shape.form) * 10}`,
      );
    }
    // Family-specific forms (sm_100a: .rs, x4, FP6, FP4, ue8m0) cannot be in a baseline kernel.
    expect(header).not.toContain('asm("cvt.rs.');
    expect(header).not.toContain('e2m1x2');
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

describe('bulk inputs', () => {
  const cases: [string, Parameters<typeof inputsAt>[1], number, number][] = [
    ['add.rn.f16', 'pairs', 0x3bff * 65536 + 65000, 1000], // across a row boundary
    ['mul.rn.bf16x2', 'pairs', 0xffff * 65536 + 65530, 6], // the last inputs of 2^32
    ['tanh.approx.f16', 'all', 0, 65536],
    ['neg.bf16x2', 'x2-distinct', 100, 500],
    ['abs.f16x2', 'x2-same', 65000, 536],
    ['fma.rn.f16', 'edges', 0, 24 ** 3],
    ['fma.rn.bf16x2', 'edges', 5000, 300],
    ['fma.rn.f16', 'sample', 12345 * 65536, 2000],
    ['fma.rn.relu.bf16x2', 'sample', 7, 2000],
    ['fma.rn.f32.bf16', 'sample', 3, 2000],
    ['add.rz.f32.f16', 'sample', 0, 2000],
    ['fma.rn.oob.f16x2', 'nan-probe', 65000, 2000],
  ];
  it.each(cases)('fillInputs gives what inputsAt gives: %s %s', (form, generator, first, count) => {
    const shape = shapeByName(form);
    const into = inputArrays(count + 3);
    into.c.fill(0xdead); // stale values of an earlier fill must not survive
    fillInputs(shape, generator, first, count, DEFAULT_SAMPLE_SEED, into);
    for (let i = 0; i < count; i++) {
      const want = inputsAt(shape, generator, first + i, DEFAULT_SAMPLE_SEED);
      const got = { a: into.a[i]!, b: into.b[i]!, c: into.c[i]! };
      if (got.a !== want.a || got.b !== want.b || got.c !== want.c)
        expect({ index: first + i, ...got }).toEqual({ index: first + i, ...want });
    }
  });

  it('refuses more inputs than the arrays hold', () => {
    expect(() => fillInputs(shapeByName('add.rn.f16'), 'pairs', 0, 11, 0, inputArrays(10))).toThrow(
      /room for 10/,
    );
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

describe('block digests', () => {
  const rows = Array.from(
    { length: 130 },
    (_, i) => [mix32(i), mix32(i + 1000)] as [number, number],
  );

  it('hashWords is the two accumulators of hashStep, finished with the word count', () => {
    const words = rows.flat();
    let lo = 0;
    let hi = 0x9747b28c | 0;
    for (const w of words) {
      lo = hashStep(lo, w);
      hi = hashStep(hi, w);
    }
    expect(hashWords(words)).toEqual([hashFinish(lo, words.length), hashFinish(hi, words.length)]);
  });

  it('digests BLOCK_ROWS row hashes at a time, low word then high word, the last block shorter', () => {
    const digests = blockDigests(rows);
    expect(digests).toHaveLength(Math.ceil(130 / BLOCK_ROWS));
    expect(digests[0]).toEqual(hashWords(rows.slice(0, BLOCK_ROWS).flat()));
    expect(digests.at(-1)).toEqual(hashWords(rows.slice(2 * BLOCK_ROWS).flat()));
    expect(blockDigest(rows.slice(0, 1))).toEqual(hashWords(rows[0]!));
    // A swapped pair of rows changes the digest of their block.
    const swapped = rows.slice();
    [swapped[3], swapped[4]] = [swapped[4]!, swapped[3]!];
    expect(blockDigests(swapped)[0]).not.toEqual(digests[0]);
  });

  it('digests full results through the row hashes of 65,536 results each', () => {
    const results = new Uint16Array(65536 * 2 + 5).map((_, i) => mix32(i) & 0xffff);
    expect(resultBlockDigests(results)).toEqual([
      blockDigest([
        hashWords(results.subarray(0, 65536)),
        hashWords(results.subarray(65536, 131072)),
        hashWords(results.subarray(131072)),
      ]),
    ]);
  });
});
