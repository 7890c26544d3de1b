/**
 * Every input of the cvt forms from .f16, .f16x2 and the 8-, 6- and 4-bit formats against the
 * reference (tests/reference/cvt-exhaustive.ts says how); cvt-vs-reference-exhaustive-bf16 has
 * those from .bf16 and .bf16x2.
 */
import { describe, expect, it } from 'vitest';
import { cvtTypes } from './reference/catalog-forms.ts';
import { exhaustiveSuite, NARROW_SOURCE_FORMS } from './reference/cvt-exhaustive.ts';

const fromBf16 = (atype: string) => atype === 'bf16' || atype === 'bf16x2';

describe('the forms with a narrow source', () => {
  it('are every form from f16, bf16 and every packed format', () => {
    expect(new Set(NARROW_SOURCE_FORMS.map((f) => cvtTypes(f).atype))).toEqual(
      new Set([
        'f16',
        'bf16',
        'f16x2',
        'bf16x2',
        'e4m3x2',
        'e5m2x2',
        'e2m3x2',
        'e3m2x2',
        'e2m1x2',
        'ue8m0x2',
      ]),
    );
  });
});

exhaustiveSuite(
  'cvt-vs-reference-exhaustive (f16, f16x2 and 8-bit sources)',
  NARROW_SOURCE_FORMS.filter((f) => !fromBf16(cvtTypes(f).atype)),
);
