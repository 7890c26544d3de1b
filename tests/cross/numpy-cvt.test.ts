/**
 * cvt against numpy's conversions between float16, float32 and float64 (numpy_cvt_ref.py): every
 * .f16 input, every boundary class plus random values of the .f32/.f64 ones, element by element.
 * Known differences, counted and never hidden: numpy keeps a NaN's payload and sign (cvt gives
 * the canonical NaN, decision cvt-nan), and numpy does not saturate (.satfinite gives MAX_NORM
 * where numpy gives infinity). Skips where python3 or numpy is missing.
 */
import { suiteNeeds } from '../support/tools.ts';
import { describeCvtCrossSuite, type CvtCase } from './cvt-suite.ts';
import { CROSS_SCALE, numpyCvtReference } from './reference-process.ts';

const hasNumpy = suiteNeeds('cvt ~ numpy', ['numpy']);
const RANDOM = 20_000 * CROSS_SCALE;

const CASES: CvtCase[] = [
  { form: 'cvt.rn.f16.f32', op: 'f32_to_f16' },
  { form: 'cvt.rn.satfinite.f16.f32', op: 'f32_to_f16' },
  { form: 'cvt.rn.f16.f64', op: 'f64_to_f16' },
  { form: 'cvt.rn.f32.f64', op: 'f64_to_f32' },
  { form: 'cvt.f32.f16', op: 'f16_to_f32' },
];

/** numpy keeps NaN payloads and signs, and does not saturate. */
function knownDifference(c: CvtCase, engine: number, host: number): string | null {
  const f16 = c.op.endsWith('f16');
  const nan = (x: number) => (f16 ? (x & 0x7fff) > 0x7c00 : (x & 0x7fffffff) > 0x7f800000);
  if (nan(engine) && nan(host)) return 'numpy keeps the NaN payload and sign (cvt: canonical NaN)';
  const inf = f16 ? 0x7c00 : 0x7f800000;
  const max = f16 ? 0x7bff : 0x7f7fffff;
  if (
    c.form.includes('satfinite') &&
    (host & ~(f16 ? 0x8000 : 0x80000000)) === inf &&
    (engine & ~(f16 ? 0x8000 : 0x80000000)) === max
  )
    return 'numpy does not saturate (.satfinite: MAX_NORM)';
  return null;
}

describeCvtCrossSuite({
  name: 'cvt ~ numpy',
  available: hasNumpy,
  startName: 'starts numpy',
  start: numpyCvtReference,
  random: RANDOM,
  cases: CASES,
  knownDifference,
});
