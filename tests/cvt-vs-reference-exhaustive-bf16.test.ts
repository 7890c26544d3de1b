/**
 * Every input of the cvt forms from .bf16 and .bf16x2 against the reference
 * (tests/reference/cvt-exhaustive.ts says how).
 */
import { cvtTypes } from './reference/catalog-forms.ts';
import { exhaustiveSuite, NARROW_SOURCE_FORMS } from './reference/cvt-exhaustive.ts';

exhaustiveSuite(
  'cvt-vs-reference-exhaustive (bf16 and bf16x2 sources)',
  NARROW_SOURCE_FORMS.filter((f) => ['bf16', 'bf16x2'].includes(cvtTypes(f).atype)),
);
