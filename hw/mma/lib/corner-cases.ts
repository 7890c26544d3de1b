/**
 * The corner rows of the mma capture: one output element d = c + Σ a_i·b_i each, for the cases
 * the tensor-core models single out (../shared/spec/beyond/tensor-cores.md): NaN in A, B or C,
 * ∞ × 0, +∞ and −∞ together, infinite c, exact cancellation and the sign of a zero sum,
 * subnormal inputs and products, small terms at and around the n fractional bits kept in
 * alignment, big terms that cancel and leave a cut small one, ties of the f16 result, the
 * direction of the f32 truncation, overflow of the sum, and tf32's ignored low bits.
 * A case a form's formats cannot write (∞ in e4m3, a power of two out of range) is left out
 * for that form. Unnamed elements are +0.
 */
import type { MmaForm } from './forms.ts';
import {
  PATTERN_FORMATS,
  maxFinite,
  minSubnormal,
  negate,
  powerOfTwo,
  compose,
  type PatternFormat,
} from './element-patterns.ts';

export interface CornerCase {
  readonly name: string;
  /** k patterns of A's row, k of B's column, C's element. */
  readonly a: readonly number[];
  readonly b: readonly number[];
  readonly c: number;
}

interface Formats {
  readonly a: PatternFormat;
  readonly b: PatternFormat;
  readonly c: PatternFormat;
  /** The result's fraction bits (10 for f16, 23 for f32). */
  readonly resultFraction: number;
  readonly k: number;
}

function one(f: PatternFormat): number {
  return powerOfTwo(f, 0)!;
}

/** a_i·b_i = (1 or 1.5)·2^te, split over A and B, or null when no split fits both formats. */
function splitProduct(fs: Formats, te: number, half: 0 | 1): [number, number] | null {
  const order = [0, ...Array.from({ length: 80 }, (_, i) => [-(i + 1), i + 1]).flat()];
  for (const ea of order.map((d) => Math.trunc(te / 2) + d)) {
    const a = powerOfTwo(fs.a, ea, half);
    const b = powerOfTwo(fs.b, te - ea);
    if (a !== null && b !== null) return [a, b];
  }
  return null;
}

type Build = (fs: Formats) => { a?: [number, number][]; b?: [number, number][]; c?: number } | null;

/** A product a_i·b_i that is infinite with the given sign, if A or B has an infinity. */
function infiniteProduct(fs: Formats, negative: boolean): [number, number] | null {
  const sign = (f: PatternFormat, p: number) => (negative ? negate(f, p) : p);
  if (fs.a.inf !== null) return [sign(fs.a, fs.a.inf), one(fs.b)];
  if (fs.b.inf !== null) return [one(fs.a), sign(fs.b, fs.b.inf)];
  return null;
}

const at = (
  i: number,
  p: [number, number] | null,
): { a: [number, number][]; b: [number, number][] } | null =>
  p ? { a: [[i, p[0]]], b: [[i, p[1]]] } : null;

function merge(...parts: ({ a: [number, number][]; b: [number, number][] } | null)[]) {
  if (parts.some((p) => p === null)) return null;
  return { a: parts.flatMap((p) => p!.a), b: parts.flatMap((p) => p!.b) };
}

function everyIndex(fs: Formats, p: [number, number] | null) {
  return p ? merge(...Array.from({ length: fs.k }, (_, i) => at(i, p))) : null;
}

const CASES: readonly [string, Build][] = [
  [
    'nan-a',
    (fs) => ({
      ...merge(at(0, [fs.a.nan, one(fs.b)]), at(1, [one(fs.a), one(fs.b)]))!,
      c: one(fs.c),
    }),
  ],
  [
    'nan-b',
    (fs) => ({
      ...merge(at(0, [one(fs.a), fs.b.nan]), at(1, [one(fs.a), one(fs.b)]))!,
      c: one(fs.c),
    }),
  ],
  ['nan-c', (fs) => ({ ...at(0, [one(fs.a), one(fs.b)])!, c: fs.c.nan })],
  ['nan-a-last-times-zero', (fs) => at(fs.k - 1, [fs.a.nan, 0])],
  ['inf-a-times-zero', (fs) => (fs.a.inf === null ? null : at(0, [fs.a.inf, 0]))],
  ['zero-times-inf-b', (fs) => (fs.b.inf === null ? null : at(fs.k - 1, [0, fs.b.inf]))],
  ['inf-product', (fs) => at(0, infiniteProduct(fs, false))],
  [
    'neg-inf-product-plus-finite',
    (fs) => {
      const r = merge(at(0, infiniteProduct(fs, true)), at(1, [maxFinite(fs.a), maxFinite(fs.b)]));
      return r && { ...r, c: maxFinite(fs.c) };
    },
  ],
  [
    'inf-minus-inf-products',
    (fs) => merge(at(0, infiniteProduct(fs, false)), at(fs.k - 1, infiniteProduct(fs, true))),
  ],
  [
    'inf-c-minus-inf-product',
    (fs) => {
      const r = at(1, infiniteProduct(fs, true));
      return r && fs.c.inf !== null ? { ...r, c: fs.c.inf } : null;
    },
  ],
  [
    'inf-c',
    (fs) => (fs.c.inf === null ? null : { ...at(0, [one(fs.a), one(fs.b)])!, c: fs.c.inf }),
  ],
  [
    'neg-inf-c-with-max-products',
    (fs) =>
      fs.c.inf === null
        ? null
        : { ...everyIndex(fs, [maxFinite(fs.a), maxFinite(fs.b)])!, c: negate(fs.c, fs.c.inf) },
  ],
  [
    'cancel-exact',
    (fs) => merge(at(0, [one(fs.a), one(fs.b)]), at(1, [negate(fs.a, one(fs.a)), one(fs.b)])),
  ],
  [
    'cancel-exact-neg-zero-c',
    (fs) => ({
      ...merge(at(0, [one(fs.a), one(fs.b)]), at(1, [negate(fs.a, one(fs.a)), one(fs.b)]))!,
      c: negate(fs.c, 0),
    }),
  ],
  [
    'all-neg-zero-terms',
    (fs) => ({ ...everyIndex(fs, [negate(fs.a, 0), one(fs.b)])!, c: negate(fs.c, 0) }),
  ],
  ['neg-zero-c-pos-zero-products', (fs) => ({ c: negate(fs.c, 0) })],
  ['neg-zero-products-pos-zero-c', (fs) => everyIndex(fs, [negate(fs.a, 0), one(fs.b)])],
  [
    'neg-zero-products-neg-zero-c-one-pos-zero',
    (fs) => ({
      ...merge(everyIndex(fs, [negate(fs.a, 0), one(fs.b)]), at(fs.k - 1, [0, one(fs.b)]))!,
      c: negate(fs.c, 0),
    }),
  ],
  ['subnormal-a', (fs) => at(0, [minSubnormal(fs.a), one(fs.b)])],
  ['subnormal-b', (fs) => at(0, [one(fs.a), minSubnormal(fs.b)])],
  ['subnormal-product', (fs) => at(0, [minSubnormal(fs.a), minSubnormal(fs.b)])],
  [
    'largest-subnormal-products',
    (fs) => everyIndex(fs, [compose(fs.a, 0, 0, fs.a.maxFraction), powerOfTwo(fs.b, 0, 1)!]),
  ],
  ['subnormal-c', (fs) => ({ c: minSubnormal(fs.c) })],
  ['subnormal-c-plus-one', (fs) => ({ ...at(0, [one(fs.a), one(fs.b)])!, c: minSubnormal(fs.c) })],
  ['ones', (fs) => ({ ...everyIndex(fs, [one(fs.a), one(fs.b)])!, c: one(fs.c) })],
  [
    'alternating-ones',
    (fs) =>
      merge(
        ...Array.from({ length: fs.k }, (_, i) =>
          at(i, [i % 2 ? negate(fs.a, one(fs.a)) : one(fs.a), one(fs.b)]),
        ),
      ),
  ],
  ['max-times-max', (fs) => at(0, [maxFinite(fs.a), maxFinite(fs.b)])],
  [
    'overflow-sum',
    (fs) => ({ ...everyIndex(fs, [maxFinite(fs.a), maxFinite(fs.b)])!, c: maxFinite(fs.c) }),
  ],
  [
    'overflow-sum-negative',
    (fs) => ({
      ...everyIndex(fs, [negate(fs.a, maxFinite(fs.a)), maxFinite(fs.b)])!,
      c: negate(fs.c, maxFinite(fs.c)),
    }),
  ],
  ['result-tie-to-even-down', (fs) => tie(fs, 0, false)],
  ['result-tie-to-even-up', (fs) => tie(fs, 1, false)],
  ['result-tie-negative', (fs) => tie(fs, 1, true)],
  [
    'result-tie-plus-tiny',
    (fs) => {
      const t = tie(fs, 0, false);
      const tiny = splitProduct(fs, -fs.resultFraction - 12, 0);
      return t && tiny ? { ...merge(t, at(fs.k - 1, tiny))!, c: t.c } : null;
    },
  ],
  [
    'truncation-negative',
    (fs) => {
      const p = splitProduct(fs, -fs.resultFraction - 2, 0);
      return p ? { ...at(0, [negate(fs.a, p[0]), p[1]])!, c: negate(fs.c, one(fs.c)) } : null;
    },
  ],
  ...[20, 22, 23, 24, 25, 26, 27, 30].map((s): [string, Build] => [
    `many-terms-1.5x2^-${s}-below-c`,
    (fs) => smallBelow(fs, s),
  ]),
  ...[12, 24, 30].map((s): [string, Build] => [
    `big-terms-cancel-small-2^-${s}-left`,
    (fs) => bigCancel(fs, s),
  ]),
  [
    'spread-exponents',
    (fs) => merge(...Array.from({ length: fs.k }, (_, i) => at(i, splitProduct(fs, -2 * i, 1)))),
  ],
  [
    'tf32-ignored-low-bits',
    (fs) => (fs.a.name !== 'tf32' ? null : { ...at(0, [0x3f801fff, 0x3f801fff])!, c: 0 }),
  ],
  [
    'tf32-ignored-low-bits-negative',
    (fs) =>
      fs.a.name !== 'tf32'
        ? null
        : { ...merge(at(0, [0xbfffffff, 0x3f801fff]), at(1, [0x3f800000, 0x40000000]))!, c: 0 },
  ],
];

/** c = 1 or 1 + ulp of the result, one product = half the result's ulp (negated with c when asked). */
function tie(fs: Formats, odd: 0 | 1, negative: boolean) {
  const c = odd ? powerOfTwo(fs.c, 0)! + 2 ** (fs.c.fractionBits - fs.resultFraction) : one(fs.c);
  if (fs.c.fractionBits < fs.resultFraction) return null;
  const p = splitProduct(fs, -fs.resultFraction - 1, 0);
  if (!p) return null;
  return {
    ...at(0, negative ? [negate(fs.a, p[0]), p[1]] : p)!,
    c: negative ? negate(fs.c, c) : c,
  };
}

/** c = 2^x and every product 1.5·2^(x−s): the cut of each small term shows in their sum. */
function smallBelow(fs: Formats, s: number) {
  for (let x = 0; x <= fs.c.maxField - fs.c.bias; x++) {
    const c = powerOfTwo(fs.c, x);
    const p = splitProduct(fs, x - s, 1);
    if (c !== null && p) return { ...everyIndex(fs, p)!, c };
  }
  return null;
}

/** Two equal big products of opposite sign and a 1.5·2^(h−s) one: E is the big one's. */
function bigCancel(fs: Formats, s: number) {
  for (let h = 8; h >= 0; h--) {
    const big = splitProduct(fs, h, 0);
    const small = splitProduct(fs, h - s, 1);
    if (big && small)
      return merge(at(0, big), at(1, [negate(fs.a, big[0]), big[1]]), at(2 % fs.k, small));
  }
  return null;
}

export function formatsOf(form: MmaForm): Formats {
  return {
    a: PATTERN_FORMATS[form.matrix!.types.a as 'f16'],
    b: PATTERN_FORMATS[form.matrix!.types.b as 'f16'],
    c: PATTERN_FORMATS[form.matrix!.types.c as 'f16'],
    resultFraction: form.matrix!.types.d === 'f16' ? 10 : 23,
    k: form.matrix!.shape.k,
  };
}

/** The corner cases a form's formats can write, in the table's order. */
export function cornerCasesOf(form: MmaForm): CornerCase[] {
  const fs = formatsOf(form);
  const out: CornerCase[] = [];
  for (const [name, build] of CASES) {
    const r = build(fs);
    if (!r) continue;
    const a = new Array<number>(fs.k).fill(0);
    const b = new Array<number>(fs.k).fill(0);
    for (const [i, p] of r.a ?? []) a[i] = p;
    for (const [i, p] of r.b ?? []) b[i] = p;
    out.push({ name, a, b, c: r.c ?? 0 });
  }
  return out;
}
