/**
 * Exhaustive engine-vs-reference check of every unary form (neg, abs, tanh, ex2 on every type):
 * all 65,536 patterns of the 16-bit lane. In x2 forms lane 0 runs through every pattern and
 * lane 1 through a permutation of them, so both lanes see every value, paired differently.
 * The fast path is checked on every input, the pipeline on every TRACED_STRIDE-th.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { ARITHMETIC_FORMS, operandsOf } from './reference/catalog-forms.ts';
import { checkVector, describeMismatch, type Mismatch } from './reference/compare-engine.ts';
import { refEvaluate } from './reference/slowfloat.ts';

const TRACED_STRIDE = 16;
const unaryForms = ARITHMETIC_FORMS.filter((f) => f.registers.length === 2);

/** A bijection of 16-bit patterns (odd multiplier), so lane 1 also covers all of them. */
const permuted = (v: number): number => (v * 40503 + 12345) % 0x10000;

let vectorsChecked = 0;
afterAll(() => {
  console.log(
    `engine-vs-reference-unary: ${vectorsChecked} vectors over ${unaryForms.length} unary forms`,
  );
});

describe('every 16-bit input of every unary form', () => {
  it('covers neg, abs, tanh and ex2 on all their types', () => {
    expect(new Set(unaryForms.map((f) => f.opcode))).toEqual(
      new Set(['neg', 'abs', 'tanh', 'ex2']),
    );
    expect(unaryForms).toHaveLength(20);
  });

  for (const form of unaryForms) {
    it(form.text, () => {
      const packed = operandsOf(form)[1]!.lanes === 2;
      const mismatches: Mismatch[] = [];
      for (let v = 0; v < 0x10000; v++) {
        const a = packed ? v + permuted(v) * 0x10000 : v;
        const m = checkVector(form, { a, b: 0, c: 0 }, { traced: v % TRACED_STRIDE === 0 });
        if (m && mismatches.length < 8) mismatches.push(m);
        vectorsChecked++;
      }
      expect(mismatches.map(describeMismatch)).toEqual([]);
    });
  }
});

describe("the reference's own tanh/ex2 tables", () => {
  // fixtures/make-approx-hashes.py rounds Python's float64 tanh / 2**x for every input (after
  // checking that no value is close enough to a midpoint for float64 error to matter) and hashes
  // the 65,536 results. Run after the loop above, the reference's results are cached.
  const lines = readFileSync(
    new URL('./reference/fixtures/approx-hashes.txt', import.meta.url),
    'utf8',
  )
    .trim()
    .split('\n');
  for (const line of lines) {
    const [form, expected] = line.split(' ') as [string, string];
    it(`${form} matches the table computed independently in Python`, () => {
      const results = new Uint16Array(0x10000);
      for (let v = 0; v < 0x10000; v++) results[v] = refEvaluate(form, v, 0, 0);
      const bytes = Buffer.from(results.buffer); // little-endian on every platform Node runs on
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(expected);
    });
  }
});
