/**
 * What-if for cvt (src/engine/what-if/cvt-compare.ts, cvt-carry.ts) against the independent
 * reference (tests/reference/): A and each of its quick variants B on boundary and random
 * source values, and on every pattern of the 8-bit sources. For each pair: A's and B's
 * registers are what the reference converts them to; each value B reads is the reference's
 * nearest value of B's source format to the value A read (exact where it fits; ties to even;
 * past the largest value: infinity where the format has one); each element's error is the
 * reference's result minus the exact source value, in units of the gap above the result (the
 * reference's own value order); B − A likewise.
 */
import { describe, expect, it } from 'vitest';
import { findCvtForm, type CvtForm } from '../src/catalog/cvt-forms.ts';
import { ELEMENT_FORMAT_NAMES, elementsOf } from '../src/catalog/cvt-types.ts';
import { carryCvtOperands } from '../src/engine/what-if/cvt-carry.ts';
import { elementBitGroups } from '../src/engine/what-if/cvt-describe.ts';
import {
  compareCvtWith,
  cvtQuickVariants,
  parseCvtVariant,
  type CvtComparison,
} from '../src/engine/what-if/cvt-compare.ts';
import {
  decodeCvt,
  floorIndex,
  pastMax,
  patternAt,
  REF_CVT_FORMATS,
  valueAt,
  type RefCvtFormat,
  type RefCvtFormatName,
} from './reference/cvt-formats.ts';
import { refCvtEvaluate } from './reference/cvt-slowfloat.ts';
import { boundaryVectors, seeded, type SourceFormat } from './reference/cvt-vectors.ts';
import {
  abs,
  add,
  compare,
  div,
  mul,
  neg,
  pow2,
  rational,
  sub,
  type Rational,
} from './reference/rational.ts';

const ref = (name: string) => REF_CVT_FORMATS[name as RefCvtFormatName];

/** The rational an ExactValue's `rational` text names ("-3 × 2^-26", "0", "-0"). */
function rationalOf(text: string): Rational {
  const m = /^(-?)(\d+) × 2\^(-?\d+)$/.exec(text);
  if (!m) return rational(0n);
  const q = mul(rational(BigInt(m[2]!)), pow2(Number(m[3])));
  return m[1] === '-' ? neg(q) : q;
}

/** The reference's nearest pattern of `fmt` to a decoded value (see the top). */
function refNearest(v: ReturnType<typeof decodeCvt>, fmt: RefCvtFormat): bigint | 'no-nan' {
  const sign = fmt.signed ? 1n << BigInt(fmt.totalBits - 1) : 0n;
  if (v.kind === 'nan') return fmt.nanPattern ?? 'no-nan';
  if (fmt.specials === 'ue8m0') {
    if (v.kind === 'inf') return v.negative ? 0n : fmt.maxPattern;
    if (compare(v.q, pow2(-127)) <= 0) return 0n;
  }
  const inf = ((1n << BigInt(fmt.exponentBits)) - 1n) << BigInt(fmt.fractionBits);
  const overflow = (negative: boolean) =>
    (negative ? sign : 0n) | (fmt.specials === 'ieee' ? inf : fmt.maxPattern);
  if (v.kind === 'inf') return overflow(v.negative);
  if (compare(v.q, rational(0n)) === 0) return v.negative ? sign : 0n;
  const max = valueAt(fmt.maxPattern, fmt);
  const half = div(add(max, pastMax(fmt)), rational(2n));
  if (compare(abs(v.q), half) >= 0) return overflow(v.negative);
  const lo = floorIndex(v.q, fmt);
  // Exact, or between MAX_NORM and the overflow midpoint: MAX_NORM.
  if (compare(valueAt(lo, fmt), v.q) === 0 || lo === fmt.maxPattern) return patternAt(lo, fmt);
  const hi = lo + 1n;
  const c = compare(sub(v.q, valueAt(lo, fmt)), sub(valueAt(hi, fmt), v.q));
  const even = (patternAt(lo, fmt) & 1n) === 0n ? lo : hi;
  const index = c < 0 ? lo : c > 0 ? hi : even;
  // A value that rounds to zero keeps its sign.
  return index === 0n && v.negative ? sign : patternAt(index, fmt);
}

/** The gap above |x| in the reference's value order (one ulp of the format at x). */
function refUlp(x: Rational, fmt: RefCvtFormat): Rational {
  const m = abs(x);
  const i = floorIndex(m, fmt);
  return i === fmt.maxPattern ? sub(pastMax(fmt), m) : sub(valueAt(i + 1n, fmt), m);
}

const mask = (n: number) => (1n << BigInt(n)) - 1n;

function sourceOf(form: CvtForm, input: Record<string, bigint>, index: number) {
  const s = form.elements[index]!.source;
  return (input[s.operand]! >> BigInt(s.value.lo)) & mask(s.value.hi - s.value.lo + 1);
}

function check(c: CvtComparison, input: Record<string, bigint>) {
  const formA = c.a.form;
  expect(BigInt(c.a.result.d)).toBe(refCvtEvaluate(formA.text, input as never));
  if (c.b.kind !== 'form') throw new Error(c.b.reason);
  const formB = c.b.form;
  const carried = c.b.carried.input as unknown as Record<string, bigint>;
  expect(BigInt(c.b.result.d)).toBe(refCvtEvaluate(formB.text, carried as never));
  // Every value B reads: the reference's nearest to the value A read.
  for (const element of formB.elements) {
    const from = Math.min(element.index, formA.elements.length - 1);
    const fa = ref(formA.elements[from]!.source.format);
    const fb = ref(element.source.format);
    const read = decodeCvt(sourceOf(formA, input, from), fa);
    const expected = fa === fb ? sourceOf(formA, input, from) : refNearest(read, fb);
    const got = sourceOf(formB, carried, element.index);
    expect(got).toBe(expected === 'no-nan' ? 0n : expected);
    expect(c.b.carried.elements[element.index]!.how === 'no-nan').toBe(expected === 'no-nan');
  }
  // Errors and differences, element by element.
  for (const e of c.elements) {
    const from = Math.min(e.index, formA.elements.length - 1);
    const source = decodeCvt(
      sourceOf(formA, input, from),
      ref(formA.elements[from]!.source.format),
    );
    for (const s of [e.a, e.b]) {
      if (!s) continue;
      const fmt = ref(s.format);
      const v = decodeCvt(BigInt(s.bits), fmt);
      if (v.kind !== 'finite' || source.kind !== 'finite') {
        expect(s.error).toBeNull();
        continue;
      }
      const diff = sub(v.q, source.q);
      expect(compare(rationalOf(s.error!.value.rational), diff)).toBe(0);
      const ulps = div(diff, refUlp(v.q, fmt));
      expect(s.error!.ulps).toBeCloseTo(Number(ulps.num) / Number(ulps.den), 9);
    }
    if (e.a && e.b) {
      const va = decodeCvt(BigInt(e.a.bits), ref(e.a.format));
      const vb = decodeCvt(BigInt(e.b.bits), ref(e.b.format));
      if (va.kind === 'finite' && vb.kind === 'finite') {
        const d = sub(vb.q, va.q);
        const inA = div(d, refUlp(va.q, ref(e.a.format)));
        const inB = div(d, refUlp(vb.q, ref(e.b.format)));
        expect(e.ulpsOfA).toBeCloseTo(Number(inA.num) / Number(inA.den), 9);
        expect(e.ulpsOfB).toBeCloseTo(Number(inB.num) / Number(inB.den), 9);
      } else {
        expect(e.ulpsOfA).toBeNull();
        expect(e.ulpsOfB).toBeNull();
      }
      if (e.differingBits !== null)
        expect(BigInt(e.differingBits)).toBe(BigInt(e.a.bits) ^ BigInt(e.b.bits));
    }
  }
}

/** Register sets for a form: each source operand from `values`, shifted, random bits besides. */
function registerSets(form: CvtForm, values: readonly bigint[], random: () => number) {
  const sources = form.operands.slice(1).filter((o) => o.name !== 'rbits');
  return values.map((_, i) => {
    const set: Record<string, bigint> = {};
    sources.forEach((o, k) => (set[o.name] = values[(i + k * 7) % values.length]!));
    if (form.operands.some((o) => o.name === 'rbits'))
      set.rbits = BigInt(Math.floor(random() * 2 ** 32));
    return set;
  });
}

/** Packed registers of two 8-bit (or 4-bit, 6-bit) values: every pattern in each element. */
function packedSets(form: CvtForm): Record<string, bigint>[] {
  const { format } = elementsOf(form.atype);
  const width = ref(format).totalBits;
  const slot = format === 'e2m1' ? 4 : 8;
  const n = 2 ** width;
  return Array.from({ length: n }, (_, v) => ({
    a: (BigInt(v) << BigInt(slot)) | BigInt((v * 37 + 11) % n),
  }));
}

const WIDE_A = [
  'cvt.rn.satfinite.e4m3x2.f32',
  'cvt.rn.satfinite.e2m1x2.f32',
  'cvt.rz.satfinite.ue8m0x2.f32',
  'cvt.rn.f16.f32',
  'cvt.rs.satfinite.e4m3x4.f32',
  'cvt.rn.f32.f64',
];
const PACKED_A = ['cvt.rn.f16x2.e4m3x2', 'cvt.rn.f16x2.e2m1x2', 'cvt.rn.bf16x2.ue8m0x2'];
/** B forms with another source format than A's, so that values are rounded on the way. */
const ACROSS: [string, string][] = [
  ['cvt.rn.f16x2.e4m3x2', 'cvt.rn.f16x2.e2m1x2'],
  ['cvt.rn.f16x2.e5m2x2', 'cvt.rn.f16x2.e4m3x2'],
  ['cvt.rn.f16x2.e5m2x2', 'cvt.rn.f16x2.e3m2x2'],
  ['cvt.rn.f16x2.e2m3x2', 'cvt.rn.bf16x2.ue8m0x2'],
  ['cvt.rn.satfinite.e4m3x2.f16x2', 'cvt.rn.satfinite.e5m2x2.f32'],
  ['cvt.rn.f16.f32', 'cvt.rn.satfinite.e2m1x2.f16x2'],
  ['cvt.rn.f32.f64', 'cvt.rn.f16.f32'],
  ['cvt.rs.satfinite.e4m3x4.f32', 'cvt.rs.f16x2.f32'],
  ['cvt.rn.satfinite.e2m1x2.f32', 'cvt.rs.satfinite.e2m1x4.f32'],
];

describe('cvt what-if against the reference', () => {
  for (const text of WIDE_A) {
    const form = findCvtForm(text)!;
    const variants = cvtQuickVariants(form);
    it(`${text} beside each quick variant (${variants.length})`, () => {
      expect(variants.length).toBeGreaterThan(0);
      const random = seeded(text.length * 131);
      const src = form.atype as SourceFormat;
      const dst = form.elements[0]!.dest.format as RefCvtFormatName;
      const sets = registerSets(form, boundaryVectors(dst, src, random), random).filter(
        (_, i) => i % 3 === 0,
      );
      for (const v of variants)
        for (const set of sets) check(compareCvtWith(form, set as never, v.variant), set);
    });
  }
  for (const text of PACKED_A) {
    const form = findCvtForm(text)!;
    it(`${text}: every source pattern, beside each quick variant`, () => {
      for (const v of cvtQuickVariants(form))
        for (const set of packedSets(form))
          check(compareCvtWith(form, set as never, v.variant), set);
    });
  }
  for (const [a, b] of ACROSS) {
    it(`${a} beside ${b}: values carried into another source format`, () => {
      const form = findCvtForm(a)!;
      const random = seeded(a.length * 17 + b.length);
      const sets =
        form.atype === 'f32' || form.atype === 'f64'
          ? registerSets(
              form,
              boundaryVectors('e2m1', form.atype as SourceFormat, random).filter(
                (_, i) => i % 2 === 0,
              ),
              random,
            )
          : form.atype === 'f16x2' || form.atype === 'f16'
            ? Array.from({ length: 600 }, (_, i) => {
                const x = BigInt((i * 2654435761) % 65536);
                const y = BigInt((i * 40503 + 0x7c00) % 65536);
                return { a: form.atype === 'f16' ? x : (x << 16n) | y };
              })
            : packedSets(form);
      for (const set of sets) check(compareCvtWith(form, set as never, b), set);
    });
  }
});

describe('cvt what-if: the brief example and the rules the comparison states', () => {
  const A = 'cvt.rn.satfinite.e4m3x2.f32';
  const input = { a: 0x43fa0000n, b: 0x40880000n }; // 500, 4.25

  it('e4m3 vs e5m2 on 500 and 4.25: 448 vs 512, 4 vs 4', () => {
    const c = compareCvtWith(A, input, 'cvt.rn.satfinite.e5m2x2.f32');
    expect(c.a.result.d).toBe('0x7E48');
    expect(c.b.kind === 'form' && c.b.result.d).toBe('0x6044');
    const [big, small] = c.elements;
    expect([big!.a!.value.decimal, big!.b!.value.decimal]).toEqual(['448', '512']);
    expect([big!.a!.error!.value.decimal, big!.b!.error!.value.decimal]).toEqual(['-52', '12']);
    expect(big!.ulpsOfA).toBe(2); // (512 − 448) / 32
    expect(big!.ulpsOfB).toBe(0.5); // / 128 (the gap above 512 in e5m2)
    expect(small!.a!.value.decimal).toBe('4');
    expect(small!.b!.value.decimal).toBe('4');
    expect(small!.differingBits).toBe('0x0C'); // 0x48 vs 0x44: another exponent field
    expect(c.registerXor).toBeNull();
  });

  it('e2m1: 500 saturates to 6, 4.25 rounds to 4', () => {
    const c = compareCvtWith(A, input, 'cvt.rn.satfinite.e2m1x2.f32');
    expect(c.b.kind === 'form' && c.b.result.d).toBe('0x76');
    expect(c.elements.map((e) => e.b!.value.decimal)).toEqual(['6', '4']);
    expect(c.elements[0]!.differingBits).toBeNull(); // 8 bits against 4
  });

  it('a form with more elements reads A’s last element again; rbits carry as bits', () => {
    const carried = carryCvtOperands(
      findCvtForm('cvt.rn.satfinite.e2m1x2.f32')!,
      findCvtForm('cvt.rs.satfinite.e2m1x4.f32')!,
      { a: 0x3f800000n, b: 0x40000000n },
    );
    expect(carried.elements.map((e) => [e.operand, e.from.element, e.repeated])).toEqual([
      ['a', 0, false],
      ['b', 1, false],
      ['e', 1, true],
      ['f', 1, true],
    ]);
    expect(carried.rbits).toBe('absent');
    expect(carried.input.rbits).toBe(0n);
    const both = carryCvtOperands(
      findCvtForm('cvt.rs.satfinite.e4m3x4.f32')!,
      findCvtForm('cvt.rs.satfinite.e2m1x4.f32')!,
      { a: 0n, b: 0n, e: 0n, f: 0n, rbits: 0x80ff7f01n },
    );
    expect(both.rbits).toBe('bits');
    expect(both.input.rbits).toBe(0x80ff7f01n);
  });

  it('a value B’s source format cannot hold is rounded, a NaN into e2m1 is refused as +0', () => {
    const from = findCvtForm('cvt.rn.f16x2.e4m3x2')!;
    const to = findCvtForm('cvt.rn.f16x2.e2m1x2')!;
    // e4m3 0x7E = 448 (past e2m1's 6), 0x7F = NaN.
    const c = carryCvtOperands(from, to, { a: 0x7e7fn });
    expect(c.elements.map((e) => [e.bits, e.how])).toEqual([
      ['0x7', 'rounded'],
      ['0x0', 'no-nan'],
    ]);
  });

  it('a cvt compares only with a cvt form', () => {
    expect(parseCvtVariant('cvt.rn.satfinite.e5m2x2.f32')).toHaveProperty('form');
    expect(parseCvtVariant('fma.rn.f16')).toEqual({
      error: 'fma.rn.f16 is an arithmetic instruction; a cvt compares with another cvt form',
    });
    expect(parseCvtVariant('unfused')).toHaveProperty('error');
    expect(parseCvtVariant('cvt.rq.f16.f32')).toHaveProperty('error');
  });

  it('quick variants: the other destination formats, roundings, .satfinite/.relu', () => {
    const labels = cvtQuickVariants(A).map((v) => v.label);
    expect(labels).toEqual(
      expect.arrayContaining(['.e5m2x2', '.e2m1x2', '.e2m3x2', '.e3m2x2', '.relu']),
    );
    expect(cvtQuickVariants('cvt.rn.f16.f32').map((v) => v.variant)).toEqual(
      expect.arrayContaining(['cvt.rz.f16.f32', 'cvt.rn.satfinite.f16.f32', 'cvt.rn.bf16.f32']),
    );
    for (const v of cvtQuickVariants(A)) expect(findCvtForm(v.variant)).toBeDefined();
  });
  it('a quick variant that needs other modifiers than A says which', () => {
    expect(cvtQuickVariants(A)).toContainEqual({
      label: '.ue8m0x2 (.rz)',
      variant: 'cvt.rz.satfinite.ue8m0x2.f32',
    });
  });

  it('bits by field for every element format: the whole width, the differing bits marked', () => {
    const random = seeded(99);
    for (const format of ELEMENT_FORMAT_NAMES) {
      const width = format === 'f64' ? 64 : REF_CVT_FORMATS[format].totalBits;
      for (let k = 0; k < 50; k++) {
        const pick = () =>
          BigInt.asUintN(
            width,
            (BigInt(Math.floor(random() * 2 ** 32)) << 32n) |
              BigInt(Math.floor(random() * 2 ** 32)),
          );
        const [x, y] = [pick(), pick()];
        const groups = elementBitGroups(`0x${x.toString(16)}`, format, `0x${y.toString(16)}`);
        const bits = groups.flatMap((g) => g.bits);
        expect(bits.map((b) => b.value).join('')).toBe(x.toString(2).padStart(width, '0'));
        expect(bits.filter((b) => b.differs)).toHaveLength(
          [...(x ^ y).toString(2)].filter((c) => c === '1').length,
        );
        // ue8m0 has no sign; every other format's first field is its sign bit.
        expect(groups[0]!.field).toBe(format === 'ue8m0' ? 'exponent' : 'sign');
      }
    }
  });
});
