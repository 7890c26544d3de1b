/**
 * cvt against NVIDIA's own host conversions (cuda_fp8.h, cuda_fp6.h, cuda_fp4.h, cuda_bf16.h,
 * cuda_fp16.h; nv_cvt_host_ref.cpp, built by nvcc, run on the CPU). Every element of each form
 * is compared with the host function of the same conversion: all inputs of the 16-bit and
 * narrower sources, every boundary class plus random values of the .f32/.f64 ones. The known
 * differences are NaN payloads, where the host code and the GPU differ and the engine follows
 * the GPU (decision cvt-nan, measured on an H200): they are counted, not hidden, and every other
 * result is compared. Skips where nvcc is missing.
 */
import { suiteNeeds } from '../support/tools.ts';
import { describeCvtCrossSuite, type CvtCase } from './cvt-suite.ts';
import { CROSS_SCALE, nvCvtHostReference } from './reference-process.ts';

const hasNvcc = suiteNeeds('cvt ~ NVIDIA host conversions', ['nvcc']);
const RANDOM = 50_000 * CROSS_SCALE;

const CASES: CvtCase[] = [
  { form: 'cvt.rn.satfinite.e4m3x2.f32', op: 'fp8.e4m3.from_f32' },
  { form: 'cvt.rn.satfinite.e5m2x2.f32', op: 'fp8.e5m2.from_f32' },
  { form: 'cvt.rn.satfinite.e4m3x2.f16x2', op: 'fp8.e4m3.from_f16' },
  { form: 'cvt.rn.satfinite.e5m2x2.f16x2', op: 'fp8.e5m2.from_f16' },
  { form: 'cvt.rn.f16x2.e4m3x2', op: 'fp8.e4m3.to_f16' },
  { form: 'cvt.rn.f16x2.e5m2x2', op: 'fp8.e5m2.to_f16' },
  { form: 'cvt.rn.satfinite.e2m3x2.f32', op: 'fp6.e2m3.from_f32' },
  { form: 'cvt.rn.satfinite.e3m2x2.f32', op: 'fp6.e3m2.from_f32' },
  { form: 'cvt.rn.f16x2.e2m3x2', op: 'fp6.e2m3.to_f16' },
  { form: 'cvt.rn.f16x2.e3m2x2', op: 'fp6.e3m2.to_f16' },
  { form: 'cvt.rn.satfinite.e2m1x2.f32', op: 'fp4.e2m1.from_f32' },
  { form: 'cvt.rn.f16x2.e2m1x2', op: 'fp4.e2m1.to_f16' },
  ...(['rz', 'rp'] as const).flatMap((m) => [
    { form: `cvt.${m}.ue8m0x2.f32`, op: `e8m0.from_f32.${m}.nosat` },
    { form: `cvt.${m}.satfinite.ue8m0x2.f32`, op: `e8m0.from_f32.${m}.sat` },
    { form: `cvt.${m}.ue8m0x2.bf16x2`, op: `e8m0.from_bf16.${m}.nosat` },
    { form: `cvt.${m}.satfinite.ue8m0x2.bf16x2`, op: `e8m0.from_bf16.${m}.sat` },
  ]),
  { form: 'cvt.rn.bf16x2.ue8m0x2', op: 'e8m0.to_bf16' },
  ...(
    [
      ['rn', 'rn'],
      ['rz', 'rz'],
      ['rm', 'rd'],
      ['rp', 'ru'],
    ] as const
  ).flatMap(([ptx, host]) => [
    { form: `cvt.${ptx}.f16.f32`, op: `f16.from_f32.${host}` },
    { form: `cvt.${ptx}.bf16.f32`, op: `bf16.from_f32.${host}` },
  ]),
  { form: 'cvt.f32.f16', op: 'f16.to_f32' },
  { form: 'cvt.f32.bf16', op: 'bf16.to_f32' },
  { form: 'cvt.rn.f16.f64', op: 'f16.from_f64' },
  { form: 'cvt.rn.bf16.f64', op: 'bf16.from_f64' },
];

/**
 * The NaNs where cuda_fp16.h / cuda_bf16.h and the GPU differ (the engine gives the GPU's):
 * __half2float keeps a NaN's payload and sign, where the H200's cvt.f32.f16 gives the canonical
 * NaN; __double2half and __double2bfloat16 give the canonical NaN, where the H200's cvt.rn.f16.f64
 * and cvt.rn.bf16.f64 keep the sign and the payload's upper bits, quieted (0x7FF65D0282937F6B →
 * 0x7F97, 0x7FF2). (__bfloat162float keeps the payload as the H200's cvt.f32.bf16 does.)
 */
function knownDifference(c: CvtCase, engine: number, host: number): string | null {
  const nan32 = (x: number) => (x & 0x7fffffff) > 0x7f800000;
  const nan16 = (x: number) => (x & 0x7fff) > 0x7c00;
  const nanBf16 = (x: number) => (x & 0x7fff) > 0x7f80;
  if ((c.op === 'f16.to_f32' || c.op === 'bf16.to_f32') && nan32(engine) && nan32(host))
    return 'host widening keeps the NaN payload and sign (GPU cvt.f32.f16: canonical NaN)';
  if (
    (c.op === 'f16.from_f64' && nan16(engine) && nan16(host)) ||
    (c.op === 'bf16.from_f64' && nanBf16(engine) && nanBf16(host))
  )
    return 'host narrowing gives the canonical NaN (GPU: sign and payload kept, quieted)';
  return null;
}

describeCvtCrossSuite({
  name: 'cvt ~ NVIDIA host conversions',
  available: hasNvcc,
  startName: 'builds the host program',
  start: nvCvtHostReference,
  startTimeoutMs: 120_000,
  random: RANDOM,
  cases: CASES,
  knownDifference,
});
