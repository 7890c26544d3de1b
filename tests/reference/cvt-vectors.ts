/**
 * Inputs for the cvt checks: for a .f32 or .f64 source, every boundary class of the destination
 * format — each destination value (all of them for the formats of 8 bits or fewer, a spread
 * for the wider ones), the midpoints between neighbours, MAX_NORM, the value one step past it
 * and the midpoint between, the subnormal boundaries — each with its neighbours in the source
 * format, in both signs; NaN (quiet, signalling, with payloads, both signs), ±infinity, ±0 and
 * the source's own subnormals; then seeded random values near the destination's range and
 * random bit patterns. Written from the reference formats (cvt-formats.ts), not the engine.
 */
import {
  pastMax,
  patternAt,
  REF_CVT_FORMATS,
  valueAt,
  type RefCvtFormatName,
} from './cvt-formats.ts';
import type { Rational } from './rational.ts';

export type SourceFormat = 'f32' | 'f64';

/** A seeded generator (xorshift32), so a failing vector can be found again. */
export function seeded(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const view = new DataView(new ArrayBuffer(8));

/** The register bits of a double in the source format, or null when it is not a value of it. */
export function bitsIn(x: number, src: SourceFormat): bigint | null {
  if (src === 'f32') {
    if (Math.fround(x) !== x && !Number.isNaN(x)) return null;
    view.setFloat32(0, x);
    return BigInt(view.getUint32(0));
  }
  view.setFloat64(0, x);
  return view.getBigUint64(0);
}

/** The next pattern up and down in magnitude within the source (both signs handled alike). */
function neighbours(bits: bigint, src: SourceFormat): bigint[] {
  const top = src === 'f32' ? 0x7f800000n : 0x7ff0000000000000n;
  const sign = src === 'f32' ? 0x80000000n : 0x8000000000000000n;
  const magnitude = bits & (sign - 1n);
  const out: bigint[] = [];
  if (magnitude > 0n) out.push(bits - 1n);
  if (magnitude + 1n < top) out.push(bits + 1n);
  return out;
}

function toDouble(q: Rational): number {
  const k = q.den.toString(2).length - 1;
  return Number(q.num) * 2 ** -k;
}

/** The destination patterns (positive) whose values and gaps the boundary vectors probe. */
function probedPatterns(dst: RefCvtFormatName, random: () => number): bigint[] {
  const fmt = REF_CVT_FORMATS[dst];
  const max = fmt.maxPattern;
  if (fmt.totalBits <= 8) return Array.from({ length: Number(max) + 1 }, (_, i) => BigInt(i));
  const t = BigInt(fmt.fractionBits);
  const minNormal = 1n << t;
  const one = BigInt(2 ** (fmt.exponentBits - 1) - 1) << t;
  const picks = [0n, 1n, 2n, 3n, minNormal - 2n, minNormal - 1n, minNormal, minNormal + 1n];
  picks.push(one - 1n, one, one + 1n, max - 2n, max - 1n, max);
  for (let i = 0; i < 48; i++) picks.push(BigInt(Math.floor(random() * Number(max))));
  return picks;
}

/** Source registers probing every boundary class of `dst`, with both signs. */
export function boundaryVectors(
  dst: RefCvtFormatName,
  src: SourceFormat,
  random: () => number,
): bigint[] {
  const fmt = REF_CVT_FORMATS[dst];
  const values = new Set<number>();
  for (const p of probedPatterns(dst, random)) {
    const here = toDouble(valueAt(p, fmt));
    const next = toDouble(p === fmt.maxPattern ? pastMax(fmt) : valueAt(p + 1n, fmt));
    values.add(here);
    values.add((here + next) / 2);
    if (p === fmt.maxPattern) values.add(next);
  }
  // ue8m0 has no zero: the values below its least one, 2^-127.
  if (dst === 'ue8m0') for (const e of [-128, -140, -149]) values.add(2 ** e);
  const out = new Set<bigint>();
  for (const v of values) {
    for (const x of [v, -v]) {
      const bits = bitsIn(x, src);
      if (bits === null) continue;
      out.add(bits);
      for (const n of neighbours(bits, src)) out.add(n);
    }
  }
  for (const s of specialRegisters(src)) out.add(s);
  return [...out];
}

/** NaN with and without payloads, ±infinity, ±0, and the source format's own subnormals. */
export function specialRegisters(src: SourceFormat): bigint[] {
  return src === 'f32'
    ? [
        0x7fc00000n,
        0xffc00000n,
        0x7f800001n,
        0xff812345n,
        0x7fbfffffn,
        0x7f800000n,
        0xff800000n,
        0n,
        0x80000000n,
        1n,
        0x80000001n,
        0x007fffffn,
        0x807fffffn,
        0x00800000n,
        0x7f7fffffn,
        0xff7fffffn,
      ]
    : [
        0x7ff8000000000000n,
        0xfff8000000000001n,
        0x7ff0000000000001n,
        0x7ff0000000000000n,
        0xfff0000000000000n,
        0n,
        0x8000000000000000n,
        1n,
        0x800fffffffffffffn,
        0x0010000000000000n,
        0x7fefffffffffffffn,
        0xffefffffffffffffn,
        0x3810000000000000n, // 2^-126
        0x380fffffffffffffn,
        0x36a0000000000000n, // 2^-149
      ];
}

/**
 * Random registers: values in and around the destination's range (a random exponent from just
 * below its subnormals to just past MAX_NORM, random bits below), and raw random patterns.
 */
export function randomVectors(
  dst: RefCvtFormatName,
  src: SourceFormat,
  count: number,
  random: () => number,
): bigint[] {
  const fmt = REF_CVT_FORMATS[dst];
  const maxExp = Math.log2(toDouble(valueAt(fmt.maxPattern, fmt))) + 2;
  const minExp = fmt.name === 'ue8m0' ? -130 : Math.log2(toDouble(valueAt(1n, fmt))) - 3;
  const out: bigint[] = [];
  while (out.length < count) {
    if (random() < 0.2) {
      const bits =
        src === 'f32'
          ? BigInt(Math.floor(random() * 2 ** 32))
          : (BigInt(Math.floor(random() * 2 ** 32)) << 32n) |
            BigInt(Math.floor(random() * 2 ** 32));
      out.push(bits);
      continue;
    }
    const e = minExp + random() * (maxExp - minExp);
    const x = (random() < 0.5 ? -1 : 1) * 2 ** e;
    const bits = bitsIn(src === 'f32' ? Math.fround(x) : x, src);
    if (bits !== null) out.push(bits);
  }
  return out;
}

/** The pattern of MAX_NORM in a destination (for tests that name it). */
export function maxNormPattern(dst: RefCvtFormatName): bigint {
  return patternAt(REF_CVT_FORMATS[dst].maxPattern, REF_CVT_FORMATS[dst]);
}
