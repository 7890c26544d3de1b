/**
 * cvt from .f32 and .f64: the engine (fast path on every vector, the pipeline on every second)
 * against the independent reference (tests/reference/cvt-slowfloat.ts) on every boundary class
 * of each destination format (cvt-vectors.ts) plus seeded random values; .rs with random bits,
 * all-zero and all-one random bits. `PTXF_CVT_RANDOM` sets the random vectors per form.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { SourceName } from '../src/catalog/instruction.ts';
import { CONVERT_FORMS, cvtTypes } from './reference/catalog-forms.ts';
import type { RefCvtFormatName } from './reference/cvt-formats.ts';
import { compareCvt, type CvtRegisterSet } from './reference/cvt-compare.ts';
import {
  boundaryVectors,
  randomVectors,
  seeded,
  type SourceFormat,
} from './reference/cvt-vectors.ts';

const RANDOM = Number(process.env.PTXF_CVT_RANDOM ?? 400);
const TRACED_STRIDE = 2;
const wideSourceForms = CONVERT_FORMS.filter((f) => ['f32', 'f64'].includes(cvtTypes(f).atype));

let vectors = 0;
let traced = 0;
afterAll(() => {
  console.log(
    `cvt-vs-reference: ${vectors} register sets over ${wideSourceForms.length} forms with an .f32/.f64 source (${traced} through the pipeline), 0 mismatches expected`,
  );
});

describe('cvt from .f32 and .f64 against the reference', () => {
  it('covers every form with a wide source', () => {
    expect(wideSourceForms.length).toBeGreaterThan(150);
  });

  for (const form of wideSourceForms) {
    it(form.text, () => {
      const random = seeded(form.text.length * 7919 + form.text.charCodeAt(4));
      const dst = form.elements[0]!.dest.format as RefCvtFormatName;
      const src = cvtTypes(form).atype as SourceFormat;
      const values = [
        ...boundaryVectors(dst, src, random),
        ...randomVectors(dst, src, RANDOM, random),
      ];
      const sources = form.registers
        .slice(1)
        .map((o) => o.name as SourceName)
        .filter((n) => n !== 'rbits');
      const hasRbits = form.registers.some((o) => o.name === 'rbits');
      // Each value in each source operand (shifted), and random bits of every kind for .rs.
      const sets: CvtRegisterSet[] = values.map((_, i) => {
        const set: CvtRegisterSet = {};
        sources.forEach((name, k) => (set[name] = values[(i + k * 97) % values.length]!));
        if (hasRbits)
          set.rbits =
            i % 16 === 0 ? 0n : i % 16 === 1 ? 0xffffffffn : BigInt(Math.floor(random() * 2 ** 32));
        return set;
      });
      const result = compareCvt(form, sets, TRACED_STRIDE);
      vectors += sets.length;
      traced += result.traced;
      expect(result.mismatches).toEqual([]);
    });
  }
});
