/**
 * The wgmma.mma_async capture's cases: which forms, which rows. Every dense floating-point wgmma
 * form sm_90a runs, of each type combination at the narrowest and the widest N (m64n8 and m64n256:
 * the one element D[0][0] is computed alike at every N, and the two ends cover D's fragment of
 * one and of 32 column groups), each with A from a shared-memory descriptor and from registers;
 * at m64n8 the corner rows of the mma capture (../lib/corner-cases.ts) and seeded random rows, at
 * m64n256 the random rows (each case is a kernel of its own: nvcc takes about 0.2 s per case).
 */
import { MATRIX_FORMS } from '../../../src/catalog/all-forms.ts';
import { findTarget } from '../../../src/catalog/targets.ts';
import { verdictFor } from '../../../src/catalog/verdict.ts';
import type { MatrixASource } from '../../../src/present/matrix-kernel.ts';
import { cornerCasesOf } from '../lib/corner-cases.ts';
import {
  PATTERN_FORMATS,
  exponentRange,
  randomElement,
  type PatternFormat,
} from '../lib/element-patterns.ts';
import type { MmaForm } from '../lib/forms.ts';

export const WGMMA_TARGET = 'sm_90a';
const WGMMA_PTX = '8.7';
/** The widths of N captured. */
export const WGMMA_CAPTURE_N: readonly number[] = [8, 256];
export const A_SOURCES: readonly MatrixASource[] = ['descriptor', 'registers'];
/** Random rows per form (each run with A from a descriptor and from registers). */
export const RANDOM_ROWS = 6;
export const WGMMA_SEED = 0x5eed_90a;

export const WGMMA_CAPTURE_FORMS: readonly MmaForm[] = MATRIX_FORMS.filter(
  (f) =>
    f.matrix!.instruction === 'wgmma' &&
    WGMMA_CAPTURE_N.includes(f.matrix!.shape.n) &&
    verdictFor(f, findTarget(WGMMA_TARGET)!, WGMMA_PTX).valid,
);

export interface WgmmaCase {
  readonly form: string;
  readonly aSource: MatrixASource;
  /** The corner case's name, or `random N`. */
  readonly name: string;
  /** k patterns of A's row and of B's column (tf32: the .b32 register), C's element. */
  readonly a: readonly number[];
  readonly b: readonly number[];
  readonly c: number;
}

/** A small seeded generator (xorshift32): the same cases on every machine. */
function xorshift(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

/** A random finite element with its exponent in a window of ±8 around 0, within the format. */
function element(f: PatternFormat, next: () => number): number {
  const { lo, hi } = exponentRange(f);
  return randomElement(f, next(), next(), Math.max(lo, -8), Math.min(hi, 8));
}

/** Every case of the capture, in the order of the program and of its output lines. */
export function wgmmaCases(seed = WGMMA_SEED): WgmmaCase[] {
  const next = xorshift(seed);
  const out: WgmmaCase[] = [];
  for (const form of WGMMA_CAPTURE_FORMS) {
    const types = form.matrix!.types;
    const fa = PATTERN_FORMATS[types.a as 'f16'];
    const fb = PATTERN_FORMATS[types.b as 'f16'];
    const fc = PATTERN_FORMATS[types.c as 'f16'];
    const k = form.matrix!.shape.k;
    const rows = [
      ...(form.matrix!.shape.n === 8 ? cornerCasesOf(form) : []),
      ...Array.from({ length: RANDOM_ROWS }, (_, i) => ({
        name: `random ${i}`,
        a: Array.from({ length: k }, () => element(fa, next)),
        b: Array.from({ length: k }, () => element(fb, next)),
        c: element(fc, next),
      })),
    ];
    for (const aSource of A_SOURCES)
      for (const row of rows) out.push({ form: form.text, aSource, ...row });
  }
  return out;
}
