/**
 * The cvt fast path's nearest kernels (.rn from .f32 into .f16/.bf16, convert.ts) against the
 * pipeline (pipeline.ts), for every form that uses them: every binary32 exponent, both signs,
 * and the mantissas at and beside every rounding point of that exponent (f16's quantum there
 * and bf16's), with the ends of each binade and a few others. All 2^32 inputs would take hours
 * traced; these are where the rounding can go wrong.
 */
import { describe, expect, it } from 'vitest';
import { FORMS } from '../../catalog/all-forms.ts';
import { resolveOptions } from '../options.ts';
import { evaluate } from '../pipeline.ts';
import { hasNearestKernel } from './convert.ts';
import { compileFast } from './index.ts';

/** The f16 quantum's position (bits of the binary32 significand below it) at exponent E. */
function f16Shift(E: number): number {
  return E >= 143 ? 31 : E >= 113 ? 13 : Math.min(126 - E, 31);
}

/** Mantissas (23 bits) at, beside and between the rounding points of these shifts. */
function mantissasFor(shifts: readonly number[]): number[] {
  const out = new Set<number>([0, 1, 2, 0x7fffff, 0x7ffffe, 0x400000, 0x3fffff]);
  for (const shift of shifts) {
    if (shift > 24) continue;
    const half = 2 ** (shift - 1);
    for (const base of [0, 2 ** shift, 3 * 2 ** shift, 0x800000 - 2 ** (shift + 1)]) {
      for (const d of [-1, 0, 1]) {
        const m = base + half + d;
        if (m >= 0 && m <= 0x7fffff) out.add(m);
      }
    }
  }
  return [...out];
}

/** Every exponent × both signs × the mantissas that matter there. */
function binary32Samples(): Uint32Array {
  const words: number[] = [];
  for (let E = 0; E < 256; E++) {
    for (const m of mantissasFor([f16Shift(E), 16, 24])) {
      const bits = (E << 23) | m;
      words.push(bits >>> 0, (bits | 0x80000000) >>> 0);
    }
  }
  return Uint32Array.from(words);
}

const kernelForms = FORMS.filter(
  (f) => f.family === 'convert' && hasNearestKernel(f, resolveOptions()),
);

describe('cvt nearest kernels against the pipeline', () => {
  const samples = binary32Samples();

  it('serve the .rn forms from .f32 into .f16/.bf16 and their x2 forms', () => {
    const texts = kernelForms.map((f) => f.text);
    expect(texts).toEqual(
      expect.arrayContaining([
        'cvt.rn.f16.f32',
        'cvt.rn.bf16.f32',
        'cvt.rn.relu.satfinite.f16x2.f32',
        'cvt.rn.satfinite.bf16x2.f32',
        'cvt.rn.sat.f16.f32',
      ]),
    );
    // .ftz, the directed roundings and .rs keep the converter.
    expect(texts.some((t) => /\.(ftz|rz|rm|rp|rs)\./.test(t))).toBe(false);
    expect(samples.length).toBeGreaterThan(10_000);
  });

  for (const form of kernelForms) {
    it(`${form.text}: every exponent, both signs, every rounding point`, () => {
      const sources = form.registers.slice(1).map((r) => r.name);
      const count = Math.ceil(samples.length / sources.length);
      // Source k of register i holds sample i * sources + k: every sample once.
      const registers = Object.fromEntries(
        sources.map((name, k) => [
          name,
          Uint32Array.from(
            { length: count },
            (_, i) => samples[(i * sources.length + k) % samples.length]!,
          ),
        ]),
      );
      const out = new Uint32Array(count);
      compileFast(form).batch(registers, out, count);
      const wrong: string[] = [];
      for (let i = 0; i < count && wrong.length < 5; i++) {
        const input = Object.fromEntries(sources.map((n) => [n, BigInt(registers[n]![i]!)]));
        const traced = Number(BigInt(evaluate(form, input).d));
        if (traced !== out[i])
          wrong.push(
            `${sources.map((n) => `${n}=0x${registers[n]![i]!.toString(16)}`).join(' ')}: fast 0x${out[i]!.toString(16)}, traced 0x${traced.toString(16)}`,
          );
      }
      expect(wrong).toEqual([]);
    });
  }
});
