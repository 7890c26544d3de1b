/**
 * Every input of the cvt forms whose source elements are 16 bits or narrower: the engine's fast
 * path on each one and its pipeline on every TRACED_STRIDE-th, against the independent
 * reference (cvt-slowfloat.ts). A 16-bit source runs through all 65,536 patterns (in an x2
 * register the second element through a permutation of them, so both see every value); a
 * register of two 8-bit elements (e4m3x2, e2m3x2, ue8m0x2 …) through all 65,536 pairs; e2m1x2
 * through all 256. Two test files share the forms, so the two workers of a run split the work.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Form } from '../../src/catalog/instruction.ts';
import { CONVERT_FORMS, cvtTypes } from './catalog-forms.ts';
import { compareCvt, type CvtRegisterSet } from './cvt-compare.ts';

const TRACED_STRIDE = 64;

/** A bijection of 16-bit patterns (odd multiplier), so the second element sees them all too. */
const permuted = (v: number): number => (v * 40503 + 12345) % 0x10000;

/** The forms with a source of 16 bits or fewer per element. */
export const NARROW_SOURCE_FORMS = CONVERT_FORMS.filter(
  (f) => cvtTypes(f).atype !== 'f32' && cvtTypes(f).atype !== 'f64',
);

function registers(atype: string, bits: number): CvtRegisterSet[] {
  if (/^(f16|bf16)x2$/.test(atype))
    return Array.from({ length: 0x10000 }, (_, v) => ({ a: BigInt(v + permuted(v) * 0x10000) }));
  return Array.from({ length: 2 ** bits }, (_, v) => ({ a: BigInt(v) }));
}

export function exhaustiveSuite(title: string, forms: readonly Form[]): void {
  let vectors = 0;
  afterAll(() => {
    console.log(
      `${title}: ${vectors} registers over ${forms.length} forms (every input; the pipeline on every ${TRACED_STRIDE}th)`,
    );
  });
  describe(title, () => {
    for (const form of forms) {
      it(form.text, () => {
        const sets = registers(cvtTypes(form).atype, form.registers[1]!.bits);
        const result = compareCvt(form, sets, TRACED_STRIDE);
        vectors += sets.length;
        expect(result.mismatches).toEqual([]);
      });
    }
  });
}
