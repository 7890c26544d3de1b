/**
 * Inputs for a matrix form's one element, d = c + Σ a_i·b_i: A's row, B's column and C's element
 * as patterns of their formats (tf32 as its .b32 register, its low 13 bits random), drawn to
 * reach what the tensor-core models do — edges of each format, values near 1 whose terms line
 * up, carry and cancel, pairs that cancel exactly, now and then any pattern (a NaN or an
 * infinity decides the whole element, so most vectors are finite). Used by the dot-product
 * tests and the trace checker's matrix suite.
 */
import fc from 'fast-check';
import type { FormatName } from '../../src/catalog/formats.ts';
import type { Form } from '../../src/catalog/instruction.ts';
import { REF_CVT_FORMATS } from './cvt-formats.ts';
import { refValueOf } from './tensor-core-ref.ts';

/** The elements of A's row and B's column (k each) and C, as the engine's matrixRegisters takes them. */
export interface MatrixVector {
  readonly a: readonly bigint[];
  readonly b: readonly bigint[];
  readonly c: bigint;
}

type Name = FormatName;

/** Bits of a format's own pattern (tf32's value bits, not its register). */
const widthOf = (name: Name) => REF_CVT_FORMATS[name as keyof typeof REF_CVT_FORMATS].totalBits;

/** Patterns every format has a reason to be tested with: zeros, subnormal ends, 1, max, specials. */
function edgePatterns(name: Name): bigint[] {
  const f = REF_CVT_FORMATS[name as keyof typeof REF_CVT_FORMATS];
  const sign = 1n << BigInt(f.totalBits - 1);
  const minNormal = 1n << BigInt(f.fractionBits);
  const one = BigInt(2 ** (f.exponentBits - 1) - 1) << BigInt(f.fractionBits);
  const magnitudes = [0n, 1n, minNormal - 1n, minNormal, one, one + 1n, f.maxPattern];
  if (f.specials === 'ieee') magnitudes.push(f.maxPattern + 1n, f.maxPattern + 2n);
  if (f.specials === 'nan-all-ones') magnitudes.push(f.maxPattern + 1n);
  return magnitudes.flatMap((m) => [m, m | sign]);
}

/** A pattern near 1 (exponent within ±span): terms that line up, carry and cancel. */
function nearOne(name: Name, span: number): fc.Arbitrary<bigint> {
  const f = REF_CVT_FORMATS[name as keyof typeof REF_CVT_FORMATS];
  const bias = 2 ** (f.exponentBits - 1) - 1;
  const maxField = Number(f.maxPattern >> BigInt(f.fractionBits));
  return fc
    .tuple(
      fc.boolean(),
      fc.integer({ min: Math.max(1, bias - span), max: Math.min(maxField, bias + span) }),
      fc.bigInt({ min: 0n, max: (1n << BigInt(f.fractionBits)) - 1n }),
    )
    .map(([s, e, m]) => {
      const p = (BigInt(e) << BigInt(f.fractionBits)) | m;
      const bounded = p > f.maxPattern ? f.maxPattern : p;
      return s ? bounded | (1n << BigInt(f.totalBits - 1)) : bounded;
    });
}

/** Any pattern: uniform bits, an edge, or near 1; tf32 as its .b32 register (random low bits). */
function patternArb(name: Name): fc.Arbitrary<bigint> {
  const width = widthOf(name);
  const own = fc.oneof(
    { weight: 2, arbitrary: fc.bigInt({ min: 0n, max: (1n << BigInt(width)) - 1n }) },
    { weight: 1, arbitrary: fc.constantFrom(...edgePatterns(name)) },
    { weight: 3, arbitrary: nearOne(name, name === 'e2m1' ? 1 : 3) },
  );
  if (name !== 'tf32') return own;
  return fc.tuple(own, fc.bigInt({ min: 0n, max: 0x1fffn })).map(([p, low]) => (p << 13n) | low);
}

const isFinitePattern = (bits: bigint, name: Name) =>
  refValueOf(bits, name as Parameters<typeof refValueOf>[1]).kind === 'finite';

/**
 * Mostly finite elements (one special anywhere decides the whole element, and with k = 32 a few
 * percent of specials per element would decide most vectors), sometimes any pattern.
 */
export function vectorArb(form: Form): fc.Arbitrary<MatrixVector> {
  const c = { ...form.matrix!.types, k: form.matrix!.shape.k };
  const vector = (finite: boolean) => {
    const element = (name: Name) =>
      finite ? patternArb(name).filter((bits) => isFinitePattern(bits, name)) : patternArb(name);
    return fc.record({
      a: fc.array(element(c.a), { minLength: c.k, maxLength: c.k }),
      b: fc.array(element(c.b), { minLength: c.k, maxLength: c.k }),
      c: element(c.c),
    });
  };
  // Pairs that cancel: a = (x, −x, y, −y, …), b = (z, z, w, w, …), c = ±0: a zero sum.
  const signBit = (name: Name) => 1n << BigInt(widthOf(name) - 1 + (name === 'tf32' ? 13 : 0));
  const finiteElement = (name: Name) =>
    patternArb(name).filter((bits) => isFinitePattern(bits, name));
  const half = Math.floor(c.k / 2);
  const cancelling = fc
    .record({
      x: fc.array(finiteElement(c.a), { minLength: half, maxLength: half }),
      z: fc.array(finiteElement(c.b), { minLength: half, maxLength: half }),
      c: fc.constantFrom(0n, signBit(c.c)),
    })
    .map((v) => ({
      a: [...v.x.flatMap((x) => [x, x ^ signBit(c.a)]), ...(c.k % 2 ? [0n] : [])],
      b: [...v.z.flatMap((z) => [z, z]), ...(c.k % 2 ? [0n] : [])],
      c: v.c,
    }));
  return fc.oneof(
    { weight: 5, arbitrary: vector(true) },
    { weight: 1, arbitrary: vector(false) },
    { weight: 1, arbitrary: cancelling },
  );
}
