/**
 * Registers for the trace checker on cvt: for each element, values drawn from a pool that
 * reaches every situation a conversion's trace can describe — the boundary classes of the
 * destination (its values, the midpoints between neighbours, MAX_NORM and past it, the subnormal
 * boundaries, below ue8m0's least value) expressed in the source format with their neighbours
 * there, the source's own specials and subnormals, halves and near-integers for the integer
 * roundings, random patterns — each element drawn on its own, padding bits beside a 6-bit value
 * set at times, .rs random bits of every kind, and .ftz forms under both tininess readings.
 * Written from the reference formats (cvt-formats.ts, cvt-vectors.ts), not the engine.
 */
import type { Form } from '../../src/catalog/instruction.ts';
import { decodeCvt, pastMax, REF_CVT_FORMATS, valueAt, type RefCvtFormat } from './cvt-formats.ts';
import { exactPattern, formatOf, slotsOf } from './cvt-slowfloat.ts';
import { boundaryVectors, randomVectors, specialRegisters } from './cvt-vectors.ts';
import { add, mul, pow2, rational, sub, type Rational } from './rational.ts';
import type { TraceVector } from './trace-expect.ts';
import { cvtTypes } from './trace-model-cvt.ts';

function signBit(fmt: RefCvtFormat): bigint {
  return fmt.signed ? 1n << BigInt(fmt.totalBits - 1) : 0n;
}

/** A value as a pattern of fmt with the patterns either side of it, where it is one. */
function withNeighbours(q: Rational, fmt: RefCvtFormat, into: Set<bigint>): void {
  const p = exactPattern(q, fmt);
  if (p === null) return;
  into.add(p);
  const magnitude = p & ~signBit(fmt);
  if (magnitude > 0n) into.add(p - 1n);
  if (magnitude < fmt.maxPattern) into.add(p + 1n);
}

function randomPattern(fmt: RefCvtFormat, random: () => number): bigint {
  let v = 0n;
  for (let i = 0; i < fmt.totalBits; i += 16) v = (v << 16n) | BigInt(Math.floor(random() * 65536));
  return v & ((1n << BigInt(fmt.totalBits)) - 1n);
}

/** Halves and near-integers, small and at the end of the format's fractions, both signs. */
function integerProbes(fmt: RefCvtFormat): Rational[] {
  const out: Rational[] = [];
  const quarters = [0n, 1n, 2n, 3n].map((k) => rational(k, 4n));
  for (let n = 0n; n <= 5n; n++) for (const f of quarters) out.push(add(rational(n), f));
  const top = 1n << BigInt(fmt.fractionBits);
  for (const n of [top - 1n, top / 2n - 1n, top / 2n])
    for (const f of [rational(1n, 2n), rational(1n, 4n), rational(3n, 4n)])
      out.push(add(rational(n), f));
  return [...out, ...out.map((q) => mul(q, rational(-1n)))];
}

/**
 * Values a hair below the destination's smallest normal, both signs: those that round up to it
 * with the format's subnormals but not with an unbounded exponent, and those that do both (the
 * two readings of tininess disagree on the first).
 */
function belowSmallestNormal(dst: RefCvtFormat): Rational[] {
  const minNormal = valueAt(dst.specials === 'ue8m0' ? 0n : 1n << BigInt(dst.fractionBits), dst);
  const p = dst.fractionBits + 1;
  const out = [2, 3, 4].map((k) => mul(minNormal, sub(rational(1n), pow2(-(p + k)))));
  out.push(mul(minNormal, sub(rational(1n), mul(rational(3n), pow2(-(p + 2))))));
  return [...out, ...out.map((q) => mul(q, rational(-1n)))];
}

/** MAX_NORM, the midpoint past it, the value one step past it and twice that, both signs. */
function aroundMaxNorm(dst: RefCvtFormat): Rational[] {
  const max = valueAt(dst.maxPattern, dst);
  const past = pastMax(dst);
  const out = [max, mul(add(max, past), rational(1n, 2n)), past, mul(past, rational(2n))];
  return [...out, ...out.map((q) => mul(q, rational(-1n)))];
}

/** The pool of one element's source patterns for converting src to dst. */
export function sourcePool(
  src: RefCvtFormat,
  dst: RefCvtFormat,
  integer: boolean,
  random: () => number,
): bigint[] {
  const pool = new Set<bigint>();
  if (src.name === 'f32' || src.name === 'f64') {
    const boundary = boundaryVectors(dst.name, src.name, random);
    for (let i = 0; i < 96; i++) pool.add(boundary[Math.floor(random() * boundary.length)]!);
    for (const r of specialRegisters(src.name)) pool.add(r);
    for (const r of randomVectors(dst.name, src.name, 24, random)) pool.add(r);
  } else if (src.totalBits <= 8) {
    for (let p = 0n; p < 1n << BigInt(src.totalBits); p++) pool.add(p);
  } else {
    // The destination's boundaries as f32 values, where the source holds them.
    const boundary = boundaryVectors(dst.name === 'f64' ? 'f32' : dst.name, 'f32', random);
    for (let i = 0; i < 96; i++) {
      const v = decodeCvt(boundary[Math.floor(random() * boundary.length)]!, REF_CVT_FORMATS.f32);
      if (v.kind === 'finite') withNeighbours(v.q, src, pool);
    }
    const sign = signBit(src);
    const minNormal = 1n << BigInt(src.fractionBits);
    for (const p of [0n, 1n, minNormal - 1n, minNormal, src.maxPattern, src.maxPattern + 1n])
      for (const s of [0n, sign]) pool.add(p | s);
    // NaNs: signalling (the infinity + 1), quiet, and all ones with the sign.
    const infinity = src.maxPattern + 1n;
    pool.add(infinity + 1n);
    pool.add(infinity | (1n << BigInt(src.fractionBits - 1)));
    pool.add(sign | (sign - 1n));
    for (let i = 0; i < 24; i++) pool.add(randomPattern(src, random));
  }
  if (integer) for (const q of integerProbes(src)) withNeighbours(q, src, pool);
  else
    for (const q of [...belowSmallestNormal(dst), ...aroundMaxNorm(dst)])
      withNeighbours(q, src, pool);
  return [...pool].filter((p) => p < 1n << BigInt(src.totalBits));
}

/**
 * `count` vectors of a cvt form: each element's value from the pool, drawn on its own; a 6-bit
 * source's padding bits set in one draw of four; .rs with random bits all zero, all one or
 * random; .ftz forms again under tininess before rounding.
 */
export function cvtTraceVectors(form: Form, count: number, random: () => number): TraceVector[] {
  const { dtype, atype } = cvtTypes(form);
  const src = formatOf(atype);
  const dst = formatOf(dtype);
  const integer = form.rounding !== null && /i$/.test(form.rounding);
  const pool = sourcePool(src, dst, integer, random);
  const draw = () => pool[Math.floor(random() * pool.length)]!;
  const packed = /x2$/.test(atype);
  const sources = form.registers.slice(1).filter((r) => r.name !== 'rbits');
  const hasRbits = form.registers.some((r) => r.name === 'rbits');
  const out: TraceVector[] = [];
  for (let i = 0; i < count; i++) {
    const registers: Record<string, bigint> = {};
    for (const r of sources) {
      if (!packed) {
        registers[r.name] = draw();
        continue;
      }
      let reg = 0n;
      for (const [, lo] of slotsOf(atype)) {
        let slot = draw();
        if (src.totalBits === 6 && random() < 0.25)
          slot |= BigInt(1 + Math.floor(random() * 3)) << 6n;
        reg |= slot << BigInt(lo);
      }
      registers[r.name] = reg;
    }
    if (hasRbits)
      registers.rbits =
        i % 8 === 0 ? 0n : i % 8 === 1 ? 0xffffffffn : BigInt(Math.floor(random() * 2 ** 32));
    out.push({ form: form.text, group: 'cvt', registers });
    if (form.modifiers.includes('ftz') && i % 2 === 0)
      out.push({
        form: form.text,
        group: 'cvt (before-rounding)',
        registers,
        options: { ftzTininess: 'before-rounding' },
      });
  }
  return out;
}
