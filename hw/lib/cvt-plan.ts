import { FORMS, findForm } from '../../src/catalog/all-forms.ts';
import type { Form } from '../../src/catalog/instruction.ts';
import { findTarget } from '../../src/catalog/targets.ts';
import { EDGE_VALUES } from './edges.ts';
import { sampleWords } from './sample.ts';

/**
 * The capture plan of `cvt` between floating-point formats: which inputs the harness feeds each
 * cvt form and how the results are stored. The single definition of the cvt inputs, as plan.ts
 * is for the arithmetic; hw/gen-forms.ts writes the per-form facts and the f64 edge table into
 * hw/forms.generated.h, and hw/cvt-harness.cuh mirrors `cvtInputsAt` for the GPU.
 *
 * Captured: every catalog cvt form whose least target is a baseline one (sm_NN), i.e. what a
 * kernel compiled for sm_NN runs (the harness guards each form with __CUDA_ARCH__). The
 * family-specific forms (sm_100a…: `.rs`, the x4 forms, FP6, FP4, ue8m0) are not: a kernel for
 * the baseline architecture cannot hold them.
 */

/** Input generators of cvt forms (numbered after plan.ts's GENERATORS in the CUDA header). */
export const CVT_GENERATORS = ['words', 'words-xor', 'f64-sample'] as const;
export type CvtGeneratorName = (typeof CVT_GENERATORS)[number];

/**
 *  - all (plan.ts's name): a 16-bit source a = i for every 16-bit pattern; full results.
 *  - words:      a 32-bit source a (.f32, .f16x2) = index over all 2^32 patterns, index =
 *                row·65536 + col; one hash per row.
 *  - words-xor:  two .f32 sources (the x2 forms from a and b): a = index, b = index ^ B_XOR over
 *                all 2^32 a; one hash per row.
 *  - f64-sample: a 64-bit .f64 source: F64_EDGES first, then seeded samples (f64SampleBits);
 *                F64_SAMPLE_COUNT inputs, full results.
 */
export type CvtSectionName = 'all' | CvtGeneratorName;

export const B_XOR = 0x55555555;
export const F64_SAMPLE_COUNT = 65536;

export interface CvtSectionPlan {
  readonly name: CvtSectionName;
  readonly layout: 'full' | 'hashed-rows';
  /** Full: number of results. Hashed: number of rows (each of 65,536 results). */
  readonly size: number;
}

/** What the harness needs to know about a cvt form. */
export interface CvtShape {
  readonly form: Form;
  /** Width of register a (16, 32 or 64 bits) and whether a second .f32 source b exists. */
  readonly aBits: 16 | 32 | 64;
  readonly hasB: boolean;
  /** Width of d: 16, 32 or 64 bits. */
  readonly resultBits: 16 | 32 | 64;
  /** Values d holds: 1, or 2 for the x2 destinations. */
  readonly lanes: 1 | 2;
}

export function cvtShapeOf(form: Form): CvtShape {
  const sources = form.registers.slice(1);
  const names = sources.map((r) => r.name).join();
  if (names !== 'a' && names !== 'a,b')
    throw new Error(`${form.text}: the harness feeds a or a, b; this form reads ${names}`);
  const bits = (b: number): 16 | 32 | 64 => {
    if (b !== 16 && b !== 32 && b !== 64)
      throw new Error(`${form.text}: a ${b}-bit register; the harness handles 16, 32, 64`);
    return b;
  };
  const a = sources[0]!;
  if (names === 'a,b' && a.bits !== 32)
    throw new Error(`${form.text}: two sources of ${a.bits} bits; the harness pairs two .f32`);
  const d = form.registers[0]!;
  return {
    form,
    aBits: bits(a.bits),
    hasB: names === 'a,b',
    resultBits: bits(d.bits),
    lanes: form.elements.length === 2 ? 2 : 1,
  };
}

/** Whether a form's least target is a baseline architecture (not an a/f family target). */
function onBaselineTarget(form: Form): boolean {
  return findTarget(form.minTarget)?.variant === '';
}

/** Every cvt form the harness captures, in catalog order. */
export function cvtCapturedForms(): CvtShape[] {
  return FORMS.filter((f) => f.family === 'convert' && onBaselineTarget(f)).map(cvtShapeOf);
}

export function cvtShapeByName(text: string): CvtShape {
  const form = findForm(text);
  if (!form || form.family !== 'convert') throw new Error(`not a catalog cvt form: ${text}`);
  if (!onBaselineTarget(form))
    throw new Error(`${text} needs ${form.minTarget}: not in the capture plan`);
  return cvtShapeOf(form);
}

export function cvtMinSmOf(form: Form): number {
  return findTarget(form.minTarget)!.number;
}

export function cvtSectionsOf(shape: CvtShape): CvtSectionPlan[] {
  if (shape.aBits === 16) return [{ name: 'all', layout: 'full', size: 65536 }];
  if (shape.aBits === 64) return [{ name: 'f64-sample', layout: 'full', size: F64_SAMPLE_COUNT }];
  return [{ name: shape.hasB ? 'words-xor' : 'words', layout: 'hashed-rows', size: 65536 }];
}

/**
 * f64 values at the edges of the destinations: signed zeros, subnormals, ±1, max finite,
 * infinities, NaNs (quiet, signalling with a payload, all ones), and the overflow and
 * underflow boundaries of .f32, .f16 and .bf16, ties between neighbours included. As
 * [high word, low word] pairs.
 */
export const F64_EDGES: readonly (readonly [number, number])[] = [
  [0x00000000, 0x00000000], // +0
  [0x80000000, 0x00000000], // -0
  [0x00000000, 0x00000001], // smallest subnormal
  [0x800fffff, 0xffffffff], // -largest subnormal
  [0x00100000, 0x00000000], // smallest normal
  [0x3ff00000, 0x00000000], // 1
  [0xbff00000, 0x00000001], // -(1 + ulp)
  [0x3fe00000, 0x00000000], // 0.5
  [0x3ff80000, 0x00000000], // 1.5 (integer roundings: a tie)
  [0xc0040000, 0x00000000], // -2.5
  [0x7fefffff, 0xffffffff], // max finite
  [0xffefffff, 0xffffffff], // -max finite
  [0x7ff00000, 0x00000000], // +inf
  [0xfff00000, 0x00000000], // -inf
  [0x7ff80000, 0x00000000], // quiet NaN
  [0x7ff00000, 0x00000001], // signalling NaN
  [0xfff80000, 0x12345678], // negative quiet NaN with a payload
  [0xffffffff, 0xffffffff], // all-ones NaN
  [0x47efffff, 0xe0000000], // f32 max finite
  [0x47efffff, 0xf0000000], // f32 max + half an ulp: the overflow tie
  [0x47f00000, 0x00000000], // 2^128
  [0x36a00000, 0x00000000], // 2^-149: f32 smallest subnormal
  [0x36900000, 0x00000000], // 2^-150: half of it (tie to zero)
  [0x36980000, 0x00000000], // 1.5 · 2^-150
  [0x380fffff, 0xe0000000], // f32 largest subnormal
  [0x380fffff, 0xf0000000], // between f32's largest subnormal and smallest normal (tie)
  [0x40effc00, 0x00000000], // 65504: f16 max finite
  [0x40effe00, 0x00000000], // 65520: f16 overflow tie
  [0x3e700000, 0x00000000], // 2^-24: f16 smallest subnormal
  [0x3e600000, 0x00000000], // 2^-25: half of it
  [0x3f0ff800, 0x00000000], // f16 largest subnormal
  [0x47efe000, 0x00000000], // bf16 max finite
  [0x47eff000, 0x00000000], // bf16 overflow tie
  [0x3ff00000, 0x10000000], // 1 + 2^-24: f32 tie above 1
  [0x3ff00200, 0x00000000], // 1 + 2^-11: f16 tie above 1
  [0x3ff01000, 0x00000000], // 1 + 2^-8: bf16 tie above 1
];

/** Sample k's register bits: the exponent steered to the formats' ranges, ties planted. */
export function f64SampleBits(seed: number, index: number): [number, number] {
  const w = sampleWords(seed, index);
  let hi = w[0]!;
  let lo = w[1]!;
  const mode = w[3]! & 3;
  if (mode !== 0) {
    // Exponent -170 … 149: .f32's subnormals to beyond its overflow, and every f16/bf16 value.
    const field = 1023 - 170 + (w[2]! % 320);
    hi = ((hi & 0x800fffff) | (field << 20)) >>> 0;
  }
  if (mode >= 2) {
    // Cut the significand at bit p (1 … 52): below it a tie (mode 2) or nothing (mode 3), so
    // that halfway cases and exactly representable values of every precision occur.
    const p = 1 + ((w[2]! >>> 16) % 52);
    [hi, lo] = clearBelow(hi, lo, p);
    if (mode === 2) [hi, lo] = setBit(hi, lo, p - 1);
  }
  return [hi, lo];
}

function clearBelow(hi: number, lo: number, p: number): [number, number] {
  if (p >= 32) return [(hi & (-1 << (p - 32))) >>> 0, 0];
  return [hi, (lo & (-1 << p)) >>> 0];
}

function setBit(hi: number, lo: number, q: number): [number, number] {
  if (q >= 32) return [(hi | (1 << (q - 32))) >>> 0, lo];
  return [hi, (lo | (1 << q)) >>> 0];
}

/** The register bits the harness feeds a cvt form for input `index` (a as a bigint, b or 0). */
export interface CvtRegisterInputs {
  readonly a: bigint;
  readonly b: bigint;
}

export function cvtInputsAt(
  shape: CvtShape,
  generator: CvtSectionName,
  index: number,
  seed: number,
): CvtRegisterInputs {
  switch (generator) {
    case 'all':
    case 'words':
      return { a: BigInt(index), b: 0n };
    case 'words-xor':
      return { a: BigInt(index), b: BigInt((index ^ B_XOR) >>> 0) };
    case 'f64-sample': {
      const [hi, lo] = f64InputAt(index, seed);
      return { a: (BigInt(hi) << 32n) | BigInt(lo), b: 0n };
    }
  }
}

function f64InputAt(index: number, seed: number): readonly [number, number] {
  return index < F64_EDGES.length ? F64_EDGES[index]! : f64SampleBits(seed, index);
}

/**
 * Registers of inputs [first, first + count) as the fast path's batch reads them: a 32-bit
 * register in a Uint32Array, an .f64 one in a Float64Array whose bits are the register (built
 * through the Uint32Array `aWords`, low word first). `aWords` has room for 2 words an input.
 */
export interface CvtInputArrays {
  readonly aWords: Uint32Array;
  readonly aF64: Float64Array;
  readonly b: Uint32Array;
}

export function cvtInputArrays(length: number): CvtInputArrays {
  const aWords = new Uint32Array(2 * length);
  return { aWords, aF64: new Float64Array(aWords.buffer), b: new Uint32Array(length) };
}

export function fillCvtInputs(
  shape: CvtShape,
  generator: CvtSectionName,
  first: number,
  count: number,
  seed: number,
  into: CvtInputArrays,
): void {
  if (count > into.b.length)
    throw new Error(`fillCvtInputs: ${count} inputs, room for ${into.b.length}`);
  const { aWords, b } = into;
  switch (generator) {
    case 'all':
    case 'words':
      for (let i = 0; i < count; i++) aWords[i] = first + i;
      return;
    case 'words-xor':
      for (let i = 0; i < count; i++) {
        aWords[i] = first + i;
        b[i] = (first + i) ^ B_XOR;
      }
      return;
    case 'f64-sample':
      for (let i = 0; i < count; i++) {
        const [hi, lo] = f64InputAt(first + i, seed);
        aWords[2 * i] = lo;
        aWords[2 * i + 1] = hi;
      }
      return;
  }
}

/** Rows of a hashed section whose a holds an edge value in its upper half. */
export function cvtEdgeRows(shape: CvtShape): number[] {
  const lane = shape.form.elements[0]!.inputs[0]!.format;
  const values = lane === 'f16' ? EDGE_VALUES.f16 : EDGE_VALUES.f32.map((v) => v >>> 16);
  return [...new Set(values)].sort((x, y) => x - y);
}
