/**
 * The what-if on the new core (src/engine/what-if/comparison.ts, unfused-sequence.ts,
 * reference-values.ts, quick-variants.ts) against the independent reference
 * (tests/reference/what-if-ref.ts, slowfloat.ts, cvt-slowfloat.ts): both results, the values B
 * reads, each one's error against A's exact value and B − A — exactly, and in ulps of A's format
 * at A's result (decision compare-ulp) — for the unfused sequence of every fma, every cvt beside
 * its quick variants and across source formats, and random pairs of forms of every family; then
 * the numbers of the documented examples, the reference values, the quick variants, and a vector
 * for each what-if decision.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORMS, findForm } from '../src/catalog/all-forms.ts';
import type { Form } from '../src/catalog/instruction.ts';
import { matrixRegisters } from '../src/engine/matrix-registers.ts';
import { evaluate } from '../src/engine/pipeline.ts';
import {
  compareWith,
  parseVariant,
  variantText,
  type Comparison,
  type Measured,
} from '../src/engine/what-if/comparison.ts';
import { WHAT_IF_DECISIONS, type WhatIfDecisionId } from '../src/engine/decisions.ts';
import { matrixChains } from '../src/engine/what-if/matrix-chains.ts';
import { quickVariants } from '../src/engine/what-if/quick-variants.ts';
import { referenceValues } from '../src/engine/what-if/reference-values.ts';
import { evaluateUnfused, unfusedPlan } from '../src/engine/what-if/unfused-sequence.ts';
import { REF_CVT_FORMATS, type RefCvtFormat } from './reference/cvt-formats.ts';
import { boundaryVectors, seeded, type SourceFormat } from './reference/cvt-vectors.ts';
import { roundRational } from './reference/neighbour-round.ts';
import {
  add,
  compare,
  div,
  mul,
  ONE,
  pow2,
  rational,
  sub,
  type Rational,
} from './reference/rational.ts';
import { classOf, decode, isNegative, REF_FORMATS } from './reference/ref-formats.ts';
import { refEvaluate } from './reference/slowfloat.ts';
import {
  refCarry,
  refElement,
  refEvaluateForm,
  refExact,
  refFormat,
  refUlp,
  refValue,
  type RefRegisters,
} from './reference/what-if-ref.ts';

const form = (text: string): Form => {
  const f = findForm(text);
  if (!f) throw new Error(text);
  return f;
};

function compareText(a: string, registers: RefRegisters, vs: string): Comparison {
  const variant = parseVariant(vs);
  if ('error' in variant) throw new Error(variant.error.message);
  return compareWith(a, registers, variant);
}

/** "-3 × 2^-26" (an ExactValue's rational), read by the reference's own rationals. */
function rationalOf(text: string): Rational {
  if (text === '0' || text === '-0') return rational(0n);
  const m = /^(-?\d+) × 2\^(-?\d+)$/.exec(text);
  if (!m) throw new Error(`not a dyadic: ${text}`);
  return mul(rational(BigInt(m[1]!)), pow2(Number(m[2])));
}

/** A rational as a double, for any size of numerator and denominator. */
function toNumber(q: Rational): number {
  const bits = (n: bigint) => (n < 0n ? -n : n).toString(2).length;
  const shift = Math.max(0, Math.max(bits(q.num), bits(q.den)) - 60);
  const num = Number(q.num >> BigInt(shift));
  const den = Number(q.den >> BigInt(shift));
  return den === 0 ? Number(q.num) / Number(q.den) : num / den;
}

/** The engine's figure against the reference's: the same exact value, the same ratio in ulps. */
function expectMeasured(got: Measured | null, want: Rational, unit: Rational | null, at: string) {
  expect(got, at).not.toBeNull();
  expect(compare(rationalOf(got!.value.rational), want), at).toBe(0);
  if (unit === null) {
    expect(got!.ulps, at).toBeNull();
    return;
  }
  const ratio = toNumber(div(want, unit));
  // Past a double's range (an .f64 far from a tiny A) the figure is ±Infinity, as the ratio is.
  if (!Number.isFinite(ratio)) return void expect(got!.ulps, at).toBe(ratio);
  expect(Math.abs(got!.ulps! - ratio), at).toBeLessThanOrEqual(
    1e-12 * Math.max(1, Math.abs(ratio)),
  );
}

const hexed = (r: RefRegisters) =>
  JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? `0x${v.toString(16)}` : v));

/** The mixed sequence in exact rationals: the f32 product rounded in the mode, then the sum. */
function referenceMixedUnfused(f: Form, registers: RefRegisters): bigint | null {
  const src = REF_FORMATS[f.type.includes('bf16') ? 'bf16' : 'f16'];
  const f32 = REF_FORMATS.f32;
  const [a, b, c] = [registers.a, registers.b, registers.c].map((x) => Number(x ?? 0n)) as [
    number,
    number,
    number,
  ];
  const finite = (bits: number, fmt: typeof src) => {
    const cls = classOf(bits, fmt);
    return cls === 'normal' || cls === 'subnormal';
  };
  // Finite, nonzero operands only: the special values follow the same IEEE rules as the fused
  // forms, which the engine-vs-reference suites cover.
  if (!finite(a, src) || !finite(b, src) || !finite(c, f32)) return null;
  const mode = (f.rounding ?? 'rn') as 'rn' | 'rz' | 'rm' | 'rp';
  const t = roundRational(
    mul(decode(a, src), decode(b, src)),
    mode,
    f32,
    isNegative(a, src) !== isNegative(b, src),
  );
  if (classOf(t, f32) === 'inf') return null;
  let d = roundRational(add(decode(t, f32), decode(c, f32)), mode, f32, mode === 'rm');
  if (f.modifiers.includes('sat')) {
    if (isNegative(d, f32)) d = 0;
    else if (compare(decode(d, f32), ONE) > 0) d = 0x3f800000;
  }
  return BigInt(d);
}

/** The unfused sequence by the reference: its mul then its add, or the binary32 steps. */
function referenceUnfused(f: Form, registers: RefRegisters): bigint | null {
  const plan = unfusedPlan(f);
  if (!plan.ok) throw new Error(plan.refusal.kind);
  if (plan.precision === 'single') return referenceMixedUnfused(f, registers);
  const n = (x?: bigint) => Number(x ?? 0n);
  const mulText = plan.lines[0]!.split(' ')[0]!;
  const addText = plan.lines[1]!.split(' ')[0]!;
  const t = refEvaluate(mulText, n(registers.a), n(registers.b), 0);
  return BigInt(refEvaluate(addText, t, n(registers.c), 0));
}

/**
 * Every number of a comparison against the reference: A's and B's registers, the registers B
 * reads, each element's results, errors against A's exact value, B − A and the differing bits.
 */
function checkComparison(c: Comparison, registers: RefRegisters): number {
  const at = `${c.a.form.text} vs ${c.b.kind === 'form' ? c.b.form.text : c.b.kind} ${hexed(registers)}`;
  const A = c.a.form;
  const dA = refEvaluateForm(A, registers);
  expect(BigInt(c.a.result.d), at).toBe(dA);
  let dB: bigint | null;
  let B: Form;
  if (c.b.kind === 'form') {
    B = c.b.form;
    const carried = refCarry(A, B, registers);
    expect(c.b.carried.registers, at).toEqual(carried);
    dB = refEvaluateForm(B, carried);
    expect(BigInt(c.b.result.d), at).toBe(dB);
  } else if (c.b.kind === 'unfused') {
    B = A;
    dB = referenceUnfused(A, registers);
    if (dB !== null) expect(BigInt(c.b.sequence.d), at).toBe(dB);
  } else throw new Error('refused');
  const count = Math.max(A.elements.length, B.elements.length);
  expect(c.elements, at).toHaveLength(count);
  let measured = 0;
  for (const e of c.elements) {
    const paired = e.index < B.elements.length;
    const aIndex = paired ? Math.min(e.index, A.elements.length - 1) : e.index;
    expect(e.a.element, at).toBe(aIndex);
    const fa = A.elements[aIndex]!.dest.format;
    const aBits = refElement(A, dA, aIndex);
    expect(BigInt(e.a.result.bits), at).toBe(aBits);
    const aValue = refValue(aBits, fa);
    const unit = aValue === null ? null : refUlp(aValue, refFormat(fa));
    const exact = refExact(A, registers, aIndex);
    if (exact !== null) {
      if (aValue === null) expect(e.a.error, at).toBeNull();
      else expectMeasured(e.a.error, sub(aValue, exact), unit, `${at} A error ${e.index}`);
    }
    if (!paired) {
      expect(e.b, at).toBeNull();
      continue;
    }
    if (dB === null) continue;
    const fb = B.elements[e.index]!.dest.format;
    const bBits = refElement(B, dB, e.index);
    expect(BigInt(e.b!.result.bits), at).toBe(bBits);
    const bValue = refValue(bBits, fb);
    if (exact !== null) {
      if (!c.sameOperation || bValue === null) expect(e.b!.error, at).toBeNull();
      else expectMeasured(e.b!.error, sub(bValue, exact), unit, `${at} B error ${e.index}`);
    }
    if (aValue !== null && bValue !== null) {
      expectMeasured(e.difference, sub(bValue, aValue), unit, `${at} B − A ${e.index}`);
      measured++;
    } else expect(e.difference, at).toBeNull();
    const wa = refFormat(fa).totalBits;
    expect(e.differingBits === null ? null : BigInt(e.differingBits), at).toBe(
      wa === refFormat(fb).totalBits ? aBits ^ bBits : null,
    );
  }
  return measured;
}

// ---------------------------------------------------------------------------------------------
// Registers

/** Patterns where values change character, of a reference format: zeros, edges, ±1, MAX, specials. */
function edgePatterns(fmt: RefCvtFormat): bigint[] {
  const t = BigInt(fmt.fractionBits);
  const sign = fmt.signed ? 1n << BigInt(fmt.totalBits - 1) : 0n;
  const one = BigInt(2 ** (fmt.exponentBits - 1) - 1) << t;
  const base = [
    0n,
    1n,
    (1n << t) - 1n,
    1n << t,
    one,
    one + 1n,
    fmt.maxPattern - 1n,
    fmt.maxPattern,
  ];
  if (fmt.nanPattern !== null) base.push(fmt.nanPattern);
  if (fmt.specials === 'ieee') base.push(fmt.maxPattern + 1n);
  return [...base, ...base.map((b) => b | sign)].filter(
    (b) => b >= 0n && b < 1n << BigInt(fmt.totalBits),
  );
}

/** fast-check registers for a form: each input element an edge pattern or random bits. */
function registersFor(f: Form): fc.Arbitrary<RefRegisters> {
  const places = f.elements.flatMap((e) => e.inputs);
  const element = (format: string) => {
    const fmt = refFormat(format);
    return fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...edgePatterns(fmt)) },
      { weight: 3, arbitrary: fc.bigInt({ min: 0n, max: (1n << BigInt(fmt.totalBits)) - 1n }) },
    );
  };
  return fc
    .tuple(
      fc.tuple(...places.map((p) => element(p.format))),
      fc.bigInt({ min: 0n, max: 0xffffffffn }),
    )
    .map(([values, rbits]) => {
      const registers: RefRegisters = {};
      for (const r of f.registers.slice(1)) registers[r.name as keyof RefRegisters] = 0n;
      places.forEach((p, i) => {
        const name = p.operand as keyof RefRegisters;
        registers[name] = registers[name]! | (values[i]! << BigInt(p.value.lo));
      });
      if (f.registers.some((r) => r.name === 'rbits')) registers.rbits = rbits;
      return registers;
    });
}

// ---------------------------------------------------------------------------------------------

const fmas = FORMS.filter((f) => f.operation === 'fma');

describe('the unfused sequence of an fma, against the reference', () => {
  for (const f of fmas) {
    const plan = unfusedPlan(f);
    if (!plan.ok) continue;
    it(`${f.text}: ${plan.lines.join(' ')}`, () => {
      fc.assert(
        fc.property(registersFor(f), (registers) => {
          checkComparison(compareWith(f, registers, { kind: 'unfused' }), registers);
        }),
        { numRuns: 150, seed: 20261124 },
      );
    });
  }

  it('is refused where PTX has none, with the reason as data', () => {
    expect(unfusedPlan('fma.rn.relu.f16')).toEqual({
      ok: false,
      refusal: { kind: 'modifier', form: 'fma.rn.relu.f16', modifier: 'relu' },
    });
    expect(unfusedPlan('fma.rn.oob.bf16')).toMatchObject({ refusal: { modifier: 'oob' } });
    expect(unfusedPlan('fma.rz.bf16')).toEqual({
      ok: false,
      refusal: { kind: 'no-such-form', form: 'fma.rz.bf16', missing: 'mul.rz.bf16' },
    });
    expect(unfusedPlan('add.rn.f16')).toMatchObject({ ok: false, refusal: { kind: 'not-fma' } });
    expect(quickVariants('fma.rn.relu.f16').some((v) => v.variant === 'unfused')).toBe(false);
    const refused = compareWith('fma.rn.relu.f16', { a: 0n, b: 0n, c: 0n }, { kind: 'unfused' });
    expect(refused).toMatchObject({ b: { kind: 'refused' }, elements: [], same: false });
  });

  it('writes the PTX it stands for', () => {
    expect(unfusedPlan('fma.rn.ftz.sat.f16x2')).toMatchObject({
      ok: true,
      lines: ['mul.rn.ftz.f16x2 t, a, b;', 'add.rn.ftz.sat.f16x2 d, t, c;'],
    });
    expect(unfusedPlan('fma.rz.sat.f32.bf16')).toMatchObject({
      ok: true,
      precision: 'single',
      lines: [
        'cvt.f32.bf16 ta, a;',
        'cvt.f32.bf16 tb, b;',
        'mul.rz.f32 t, ta, tb;',
        'add.rz.sat.f32 d, t, c;',
      ],
    });
  });

  it('mixed forms: the binary32 product and sum as data, and what .sat did', () => {
    // 1.5 × 2 = 3, + 1 = 4: exact in f32, then .sat clamps it to 1.
    const u = evaluateUnfused('fma.rn.sat.f32.bf16', { a: 0x3fc0n, b: 0x4000n, c: 0x3f800000n });
    if ('ok' in u) throw new Error('refused');
    expect(u.binary32).toMatchObject({
      product: { case: 'exact', result: { bits: '0x40400000' } },
      sum: { case: 'exact', result: { bits: '0x40800000' } },
      saturate: { after: { bits: '0x3f800000' } },
    });
    expect(u.d).toBe('0x3f800000');
    // A bf16 product can lie below binary32: (2^-133)^2 = 2^-266 rounds up to 2^-149 under .rp,
    // and t + c = 2^-149 − 2^-149 is an exact zero, +0; the fma rounds 2^-266 − 2^-149 to −0.
    const tiny = compareWith(
      'fma.rp.f32.bf16',
      { a: 0x0001n, b: 0x0001n, c: 0x80000001n },
      { kind: 'unfused' },
    );
    expect(tiny.a.result.d).toBe('0x80000000');
    if (tiny.b.kind !== 'unfused') throw new Error('refused');
    expect(tiny.b.sequence.d).toBe('0x00000000');
    expect(tiny.b.sequence.binary32).toMatchObject({
      product: { round: { direction: 'up', result: '0x00000001' } },
      sum: { case: 'exact-zero', result: { bits: '0x00000000' } },
    });
  });
});

describe('comparing with a variant: the documented examples', () => {
  it('fma against mul then add: the product rounding and the cancellation', () => {
    // (1 + 2^-10)^2 - (1 + 2^-9): the fma keeps 2^-20, the rounded product loses it.
    const c = compareText('fma.rn.f16', { a: 0x3c01n, b: 0x3c01n, c: 0xbc02n }, 'unfused');
    expect(c.a.result.d).toBe('0x0010');
    if (c.b.kind !== 'unfused') throw new Error('refused');
    expect(c.b.sequence.d).toBe('0x0000');
    expect(c.registerXor).toBe('0x0010');
    expect(c.b.sequence.why).toEqual([
      {
        kind: 'product-rounding',
        format: 'f16',
        lost: expect.objectContaining({ rational: '-1 × 2^-20' }),
        cancellation: true,
      },
    ]);
    const [e] = c.elements;
    expect(e).toMatchObject({
      relation: 'differ',
      unit: { format: 'f16', exponent: -24, at: '0x0010' },
    });
    expect(e!.difference).toMatchObject({ ulps: -16 });
    // The sequence computes the fma's a × b + c: measured against its exact value, 2^-20.
    expect(e!.exact.rational).toBe('1 × 2^-20');
    expect(e!.b!.error).toMatchObject({ ulps: -16 });
    expect(e!.a.error).toMatchObject({ ulps: 0 });
  });

  it('issue 23: one ulp for B − A and for B’s error (A’s format at A’s result)', () => {
    // fma.rn.f16 0.1 × 3 − 0.3: A is −2^-13 exactly; mul rounds 0.2999… to even, and the sum
    // is −2^-12. Counted in ulps of f16 at A (2^-23): B − A = −1024, and B's error, against
    // A's exact −2^-13, is the same −1024 (it was −512 in ulps of B's format at B's result).
    const c = compareText('fma.rn.f16', { a: 0x2e66n, b: 0x4200n, c: 0xb4cdn }, 'unfused');
    const [e] = c.elements;
    expect(c.a.result.d).toBe('0x8800');
    expect(e!.b!.result.bits).toBe('0x8c00');
    expect(e!.unit).toEqual({ format: 'f16', exponent: -23, at: '0x8800' });
    expect(e!.difference).toEqual({
      value: expect.objectContaining({ rational: '-1 × 2^-13' }),
      ulps: -1024,
    });
    expect(e!.b!.error).toEqual({
      value: expect.objectContaining({ rational: '-1 × 2^-13' }),
      ulps: -1024,
    });
    expect(e!.a.error!.ulps).toBe(0);
  });

  it('gives a reason only for the lanes that differ, and names an intermediate overflow', () => {
    // Lane 0: 1 × 1 − 1 = 0 both ways; lane 1 is the example above.
    const x2 = compareText(
      'fma.rn.f16x2',
      { a: 0x3c013c00n, b: 0x3c013c00n, c: 0xbc02bc00n },
      'unfused',
    );
    if (x2.b.kind !== 'unfused') throw new Error('refused');
    expect(x2.b.sequence.why.map((w) => w.kind)).toEqual(['same', 'product-rounding']);
    // 65504 × 2 overflows f16 on its own; − 65504 brings the fma back to 65504.
    const big = compareText('fma.rn.f16', { a: 0x7bffn, b: 0x4000n, c: 0xfbffn }, 'unfused');
    expect(big.a.result.d).toBe('0x7bff');
    if (big.b.kind !== 'unfused') throw new Error('refused');
    expect(big.b.sequence.d).toBe('0x7c00');
    expect(big.b.sequence.why).toEqual([{ kind: 'product-overflow' }]);
    expect(big.elements[0]).toMatchObject({ difference: null, b: { error: null } });
  });

  it('measures a variant of the same operation against A’s exact value; another operation not', () => {
    // 0.1 + 0.1 in f16, carried into bf16: each operand rounds to 0.10009765625, so bf16's sum
    // 0.2001953125 is 2^-12 above the exact f16 sum 0.199951171875: 2 ulps of f16 at A's
    // result 0.199951171875 (it was 0.25 in ulps of bf16 at B's result).
    const c = compareText('add.rn.f16', { a: 0x2e66n, b: 0x2e66n }, 'add.rn.bf16');
    expect(c.elements[0]!.b!.error).toMatchObject({ ulps: 2 });
    expect(c.elements[0]!.b!.error!.value.rational).toBe('1 × 2^-12');
    const other = compareText('add.rn.f16', { a: 0x2e66n, b: 0x2e66n }, 'mul.rn.f16');
    expect(other.sameOperation).toBe(false);
    expect(other.elements[0]!.b!.error).toBeNull();
    expect(other.b.kind === 'form' && other.b.reference[0]!.exact.rational).toBe('670761 × 2^-26');
  });

  it('carries operands by value into another format and measures in A’s format', () => {
    const c = compareText('add.rn.f16', { a: 0x2e66n, b: 0x2e66n }, 'add.rn.bf16');
    expect(c.b.kind === 'form' && c.b.result.d).toBe(
      evaluate('add.rn.bf16', { a: 0x3dcdn, b: 0x3dcdn }).d,
    );
    expect(c.registerXor).toBeNull(); // f16 and bf16 registers: bits are not comparable
    expect(c.elements[0]!.differingBits).toBe('0x0c2b'); // elements of one width: they are
    expect(c.elements[0]!.difference!.ulps).toBe(2);
  });

  it('gives B the OOB-NaN pattern where A’s register holds it', () => {
    // .oob reads b's lane 1 as OOB-NaN and gives +0; B (no .oob) reads the pattern: a NaN.
    const registers = { a: 0x3c003c00n, b: 0x7ff70000n, c: 0x3c003c00n };
    const c = compareText('fma.rn.oob.f16x2', registers, 'fma.rn.f16x2');
    expect(c.a.result.d).toBe('0x00003c00');
    if (c.b.kind !== 'form') throw new Error('not a form');
    expect(c.b.carried.registers.b).toBe(0x7ff70000n);
    expect(c.b.result.d).toBe('0x7fff3c00');
    expect(c.elements.map((e) => e.relation)).toEqual(['same-bits', 'differ']);
  });

  it('refuses a variant it cannot read, with the parser’s message; names any form of any family', () => {
    const bad = parseVariant('fma.rq.f16');
    expect(bad).toMatchObject({ error: { text: 'fma.rq.f16', message: expect.any(String) } });
    expect(parseVariant(' unfused ')).toEqual({ kind: 'unfused' });
    const cvt = parseVariant('cvt.rn.satfinite.e5m2x2.f32');
    expect('kind' in cvt && variantText(cvt)).toBe('cvt.rn.satfinite.e5m2x2.f32');
    expect(parseVariant('fma.rn.f16')).toMatchObject({
      kind: 'form',
      form: { text: 'fma.rn.f16' },
    });
  });
});

describe('cvt beside cvt: the examples', () => {
  const A = 'cvt.rn.satfinite.e4m3x2.f32';
  const input = { a: 0x43fa0000n, b: 0x40880000n }; // 500, 4.25

  it('e4m3 vs e5m2 on 500 and 4.25: 448 vs 512, 4 vs 4', () => {
    const c = compareText(A, input, 'cvt.rn.satfinite.e5m2x2.f32');
    expect(c.a.result.d).toBe('0x7e48');
    expect(c.b.kind === 'form' && c.b.result.d).toBe('0x6044');
    const [big, small] = c.elements;
    expect([big!.a.result.value.decimal, big!.b!.result.value.decimal]).toEqual(['448', '512']);
    expect([big!.a.error!.value.decimal, big!.b!.error!.value.decimal]).toEqual(['-52', '12']);
    // All in ulps of e4m3 at 448 (32): −52 is −1.625, +12 is +0.375 (it was 0.09375 in ulps of
    // e5m2 at 512), 512 − 448 is +2.
    expect([big!.a.error!.ulps, big!.b!.error!.ulps, big!.difference!.ulps]).toEqual([
      -1.625, 0.375, 2,
    ]);
    expect(small!.relation).toBe('same-value');
    expect(small!.differingBits).toBe('0x0c'); // 0x48 vs 0x44: another exponent field
    expect(c.registerXor).toBeNull();
  });

  it('e2m1: 500 saturates to 6, 4.25 rounds to 4; 8 bits against 4 do not compare bit by bit', () => {
    const c = compareText(A, input, 'cvt.rn.satfinite.e2m1x2.f32');
    expect(c.b.kind === 'form' && c.b.result.d).toBe('0x76');
    expect(c.elements.map((e) => e.b!.result.value.decimal)).toEqual(['6', '4']);
    expect(c.elements[0]!.differingBits).toBeNull();
  });

  it('B with more elements: its extra elements are compared with A’s last; A with more: unpaired', () => {
    const more = compareText(
      'cvt.rn.satfinite.e2m1x2.f32',
      { a: 0x3f800000n, b: 0x40000000n },
      'cvt.rs.satfinite.e2m1x4.f32',
    );
    expect(more.elements.map((e) => [e.index, e.a.element, e.repeated])).toEqual([
      [0, 0, false],
      [1, 1, false],
      [2, 1, true],
      [3, 1, true],
    ]);
    const fewer = compareText(
      'cvt.rs.satfinite.e2m1x4.f32',
      { a: 0n, b: 0n, e: 0x3f800000n, f: 0n, rbits: 0n },
      'cvt.rn.satfinite.e2m1x2.f32',
    );
    expect(fewer.elements.map((e) => [e.index, e.relation])).toEqual([
      [0, 'same-bits'],
      [1, 'same-bits'],
      [2, 'unpaired'],
      [3, 'unpaired'],
    ]);
  });

  it('a cvt beside an arithmetic form, element by element', () => {
    // 500 and 4.25 into add.f16x2 (lane i + 0): exact in f16, so B − A is 500 − 448 and 0.25.
    const c = compareText(A, input, 'add.rn.f16x2');
    expect(c.sameOperation).toBe(false);
    expect(c.elements.map((e) => [e.difference!.value.decimal, e.difference!.ulps])).toEqual([
      ['52', 1.625],
      ['0.25', 0.5],
    ]);
    expect(c.elements.every((e) => e.b!.error === null)).toBe(true);
  });
});

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

/** Register sets for a form: each source register from `values`, rbits random beside. */
function registerSets(f: Form, values: readonly bigint[], random: () => number): RefRegisters[] {
  const sources = f.registers.slice(1).filter((r) => r.name !== 'rbits');
  return values.map((_, i) => {
    const set: RefRegisters = {};
    sources.forEach(
      (r, k) => (set[r.name as keyof RefRegisters] = values[(i + k * 7) % values.length]!),
    );
    if (f.registers.some((r) => r.name === 'rbits'))
      set.rbits = BigInt(Math.floor(random() * 2 ** 32));
    return set;
  });
}

/** Packed registers of two narrow values: every pattern in the first element. */
function packedSets(f: Form): RefRegisters[] {
  const [first, second] = f.elements.map((e) => e.inputs[0]!);
  const width = REF_CVT_FORMATS[first!.format as 'e4m3'].totalBits;
  const n = 2 ** width;
  return Array.from({ length: n }, (_, v) => ({
    a:
      (BigInt(v) << BigInt(first!.slot.lo)) |
      (BigInt((v * 37 + 11) % n) << BigInt(second!.slot.lo)),
  }));
}

describe('cvt beside cvt, against the reference', () => {
  for (const text of WIDE_A) {
    const f = form(text);
    const variants = quickVariants(f).filter((v) => v.variant !== 'unfused');
    it(`${text} beside each quick variant (${variants.length})`, () => {
      expect(variants.length).toBeGreaterThan(0);
      const random = seeded(text.length * 131);
      const src = f.elements[0]!.inputs[0]!.format as SourceFormat;
      const dst = f.elements[0]!.dest.format as 'e4m3';
      // Every fifth set: each variant meets every boundary class of A's destination somewhere.
      const sets = registerSets(f, boundaryVectors(dst, src, random), random).filter(
        (_, i) => i % 5 === 0,
      );
      for (const v of variants)
        for (const set of sets) checkComparison(compareText(text, set, v.variant), set);
    });
  }
  for (const text of PACKED_A) {
    it(`${text}: every source pattern, beside each quick variant`, () => {
      const f = form(text);
      for (const v of quickVariants(f))
        for (const set of packedSets(f)) checkComparison(compareText(text, set, v.variant), set);
    });
  }
  for (const [a, b] of ACROSS) {
    it(`${a} beside ${b}: values carried into another source format`, () => {
      const f = form(a);
      const random = seeded(a.length * 17 + b.length);
      const src = f.elements[0]!.inputs[0]!.format;
      const sets =
        src === 'f32' || src === 'f64'
          ? registerSets(
              f,
              boundaryVectors('e2m1', src, random).filter((_, i) => i % 2 === 0),
              random,
            )
          : src === 'f16'
            ? Array.from({ length: 600 }, (_, i) => {
                const x = BigInt((i * 2654435761) % 65536);
                const y = BigInt((i * 40503 + 0x7c00) % 65536);
                return { a: f.registers[1]!.bits === 16 ? x : (x << 16n) | y };
              })
            : packedSets(f);
      for (const set of sets) checkComparison(compareText(a, set, b), set);
    });
  }
});

/** The forms a what-if compares element by element: the arithmetic and cvt. */
const ELEMENTWISE = FORMS.filter((f) => f.family !== 'matrix');

describe('any two forms, against the reference', () => {
  it('random pairs of forms of every family on random registers', () => {
    let measured = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...ELEMENTWISE),
        fc.constantFrom(...ELEMENTWISE),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (A, B, seed) => {
          const registers = fc.sample(registersFor(A), { numRuns: 1, seed })[0]!;
          measured += checkComparison(
            compareWith(A, registers, { kind: 'form', form: B }),
            registers,
          );
        },
      ),
      { numRuns: 1500, seed: 5150 },
    );
    // The pairs reach finite differences, not only NaNs and infinities.
    expect(measured).toBeGreaterThan(500);
  });

  it('every form beside itself: the same bits, a difference of 0', () => {
    for (const f of ELEMENTWISE) {
      const registers = fc.sample(registersFor(f), { numRuns: 1, seed: f.text.length })[0]!;
      const c = compareWith(f, registers, { kind: 'form', form: f });
      expect(c.same, f.text).toBe(true);
      for (const e of c.elements) {
        expect(e.relation, f.text).toBe('same-bits');
        if (e.difference) expect(e.difference.ulps, f.text).toBe(0);
      }
    }
  });
});

describe('reference values beside a result', () => {
  it('the exact sum, what binary32 and binary64 give, and the error in ulps', () => {
    const [lane] = referenceValues(evaluate('add.f16', { a: 0x3c00n, b: 0x0001n }));
    expect(lane!.exact.decimal).toBe('1.000000059604644775390625');
    expect(lane!.f32.bits).toBe('0x3f800000'); // 1 + 2^-24 is a tie in binary32: to even, 1
    expect(lane!.f64.value.rational).toBe('16777217 × 2^-24');
    expect(lane!.error).toMatchObject({ ulps: -(2 ** -14) });
  });

  it('agrees with double arithmetic where the exact sum is a double (every f16 sum)', () => {
    const f32Bits = (x: number) => new Uint32Array(new Float32Array([x]).buffer)[0]!;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffff }),
        fc.integer({ min: 0, max: 0xffff }),
        (a, b) => {
          const [lane] = referenceValues(evaluate('add.f16', { a: BigInt(a), b: BigInt(b) }));
          if (lane!.exact.kind !== 'finite') return;
          const sum = Number(lane!.exact.decimal);
          expect(Number(lane!.f64.value.decimal)).toBe(sum);
          expect(BigInt(lane!.f32.bits)).toBe(BigInt(f32Bits(sum)));
        },
      ),
      { numRuns: 500, seed: 7 },
    );
  });

  it('an exact zero takes the sign binary64 arithmetic gives it (round to nearest), whatever the form rounds by', () => {
    // JavaScript's own double arithmetic is the independent reference: IEEE 754 binary64,
    // round to nearest, with its signed-zero rules. The operands are zeros and ±1 of f16/bf16.
    const zerosAndOnes = {
      f16: [0x0000, 0x8000, 0x3c00, 0xbc00],
      bf16: [0x0000, 0x8000, 0x3f80, 0xbf80],
    };
    const cases: [string, 'f16' | 'bf16', (a: number, b: number, c: number) => number][] = [
      ['mul.f16', 'f16', (a, b) => a * b],
      ['add.f16', 'f16', (a, b) => a + b],
      ['sub.f16', 'f16', (a, b) => a - b],
      ['fma.rn.bf16', 'bf16', (a, b, c) => a * b + c],
      ['fma.rm.bf16', 'bf16', (a, b, c) => a * b + c],
      ['fma.rz.bf16', 'bf16', (a, b, c) => a * b + c],
      ['sub.rm.f32.bf16', 'bf16', (a, b) => a - b],
    ];
    const value = (bits: number, t: 'f16' | 'bf16') => {
      const magnitude = (bits & 0x7fff) === (t === 'f16' ? 0x3c00 : 0x3f80) ? 1 : 0;
      return bits & 0x8000 ? -magnitude : magnitude;
    };
    let zeros = 0;
    for (const [text, t, math] of cases) {
      const f = form(text);
      for (const a of zerosAndOnes[t])
        for (const b of zerosAndOnes[t])
          for (const c of zerosAndOnes[t]) {
            // The mixed sub reads c (an f32) as its second term: ±0 and ±1 of f32.
            const second =
              f.family === 'mixed'
                ? {
                    c:
                      BigInt(b & 0x8000 ? 0x80000000 : 0) |
                      BigInt((b & 0x7fff) === 0x3f80 ? 0x3f800000 : 0),
                  }
                : { b: BigInt(b), c: BigInt(c) };
            const [lane] = referenceValues(evaluate(f, { a: BigInt(a), ...second }));
            const expected = math(value(a, t), value(b, t), value(c, t));
            if (expected !== 0) continue;
            zeros++;
            const at = `${text} ${a} ${b} ${c}`;
            expect(lane!.f64.value.negative, at).toBe(Object.is(expected, -0));
            expect(lane!.f32.value.negative, at).toBe(Object.is(expected, -0));
          }
    }
    expect(zeros).toBeGreaterThan(100);
  });

  it('approximate, chosen and converted values', () => {
    const [t] = referenceValues(evaluate('tanh.approx.f16', { a: 0x3c00n }));
    expect(t).toMatchObject({ approximate: true, f64: { bits: '0x3fe85efab514f394' } });
    // max.xorsign.abs: |−2| beside |1|, with the XOR of the signs: −2 is the exact answer.
    const [m] = referenceValues(evaluate('max.xorsign.abs.f16', { a: 0xc000n, b: 0x3c00n }));
    expect(m!.exact.decimal).toBe('-2');
    // cvt to ue8m0 drops the sign: its error is measured against the source, −3 (2 − −3 = 5).
    const [u] = referenceValues(evaluate('cvt.rz.ue8m0x2.f32', { a: 0xc0400000n, b: 0n }));
    expect([u!.exact.decimal, u!.error!.value.decimal]).toEqual(['-3', '5']);
  });
});

describe('quick variants', () => {
  it('arithmetic: roundings, .ftz, f16 ↔ bf16, the mixed form, unfused', () => {
    expect(quickVariants('fma.rn.f32.f16')).toEqual([
      { variant: 'fma.rz.f32.f16', change: { kind: 'rounding', rounding: 'rz' } },
      { variant: 'fma.rm.f32.f16', change: { kind: 'rounding', rounding: 'rm' } },
      { variant: 'fma.rp.f32.f16', change: { kind: 'rounding', rounding: 'rp' } },
      { variant: 'fma.rn.f32.bf16', change: { kind: 'type', type: 'f32.bf16' } },
      { variant: 'fma.rn.f16', change: { kind: 'type', type: 'f16' } },
      { variant: 'unfused', change: { kind: 'unfused' } },
    ]);
    expect(quickVariants('add.f16').map((v) => v.variant)).toEqual([
      'add.rn.ftz.f16',
      'add.rn.bf16',
      'add.rn.f32.f16',
    ]);
  });
  it('cvt: the other destination formats, roundings, .satfinite/.relu', () => {
    const A = 'cvt.rn.satfinite.e4m3x2.f32';
    const variants = quickVariants(A);
    expect(variants.map((v) => v.variant)).toEqual(
      expect.arrayContaining([
        'cvt.rn.satfinite.e5m2x2.f32',
        'cvt.rn.satfinite.e2m1x2.f32',
        'cvt.rn.satfinite.relu.e4m3x2.f32',
      ]),
    );
    expect(variants).toContainEqual({
      variant: 'cvt.rz.satfinite.ue8m0x2.f32',
      change: { kind: 'destination', format: 'ue8m0', type: 'ue8m0x2', adds: ['rz'] },
    });
    expect(quickVariants('cvt.rn.f16.f32').map((v) => v.variant)).toEqual(
      expect.arrayContaining(['cvt.rz.f16.f32', 'cvt.rn.satfinite.f16.f32', 'cvt.rn.bf16.f32']),
    );
    for (const v of variants) expect(findForm(v.variant)).toBeDefined();
  });
});

describe('what-if decisions', () => {
  const cases: Record<WhatIfDecisionId, () => void> = {
    'compare-exact': () => {
      // add.ftz: the exact value is of the inputs after .ftz: 2^-24 (subnormal) + 1 flushes to 1.
      const c = compareText('add.ftz.f16', { a: 0x0001n, b: 0x3c00n }, 'add.rn.f16');
      expect(c.elements[0]!.exact.decimal).toBe('1');
      expect(c.elements[0]!.b!.error!.value.decimal).toBe('0');
      expect(c.decisions).toContain('compare-exact');
      // mma: c + Σ a_i·b_i with no cut. c = 1 and four products 2^-12 × 2^-13: Ampere cuts
      // each to 0 (d = 1), the exact value keeps them: 1 + 2^-23, one ulp above d.
      const mma = findForm('mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32')!;
      const row = (x: bigint, rest: bigint, n: number) => [
        ...Array<bigint>(n).fill(x),
        ...Array<bigint>(8 - n).fill(rest),
      ];
      const reference = (a: bigint[], b: bigint[], cBits: bigint, target = 'sm_80') => {
        const r = matrixRegisters(mma, { a, b, c: cBits });
        if (!r.ok) throw new Error(r.error.message);
        return referenceValues(evaluate(mma, r.registers, { target }))[0]!;
      };
      const cut = reference(row(0x0c00n, 0n, 4), row(0x0800n, 0n, 4), 0x3f800000n);
      expect(cut.exact.decimal).toBe('1.00000011920928955078125');
      expect(cut.error).toMatchObject({
        value: { decimal: '-0.00000011920928955078125' },
        ulps: -1,
      });
      // Every term a −0: −0; one +0 among them: +0; ∞ × 0: NaN.
      expect(reference(row(0x8000n, 0n, 8), row(0x3c00n, 0n, 8), 0x80000000n).exact.rational).toBe(
        '-0',
      );
      expect(reference(row(0x8000n, 0n, 7), row(0x3c00n, 0n, 8), 0x80000000n).exact.rational).toBe(
        '0',
      );
      expect(reference(row(0x7c00n, 0n, 1), row(0n, 0n, 8), 0n).exact.kind).toBe('nan');
    },
    'compare-ulp': () => {
      const c = compareText('fma.rn.f16', { a: 0x2e66n, b: 0x4200n, c: 0xb4cdn }, 'unfused');
      const e = c.elements[0]!;
      // One unit: B's error − A's error = B − A.
      expect(e.b!.error!.ulps! - e.a.error!.ulps!).toBe(e.difference!.ulps);
      // A not finite: no unit, no figure in ulps, the difference in value still.
      const inf = compareText('add.rn.f16', { a: 0x7bffn, b: 0x7bffn }, 'add.rn.f32.f16');
      expect(inf.elements[0]).toMatchObject({
        unit: null,
        difference: null,
        b: { error: { ulps: null } },
      });
      expect(c.decisions).toContain('compare-ulp');
    },
    'compare-carry': () => {
      const c = compareText('add.rn.f16', { a: 0x2e66n, b: 0x3c00n }, 'add.rn.bf16');
      expect(c.b.kind === 'form' && c.b.carried.inputs.map((i) => [i.bits, i.how])).toEqual([
        ['0x3dcd', 'rounded'],
        ['0x3f80', 'exact'],
      ]);
      expect(c.decisions).toContain('compare-carry');
    },
    'compare-unfused': () => {
      const c = compareText(
        'fma.rn.sat.f32.bf16',
        { a: 0x3fc0n, b: 0x4000n, c: 0x3f800000n },
        'unfused',
      );
      expect(c.b.kind === 'unfused' && c.b.sequence.precision).toBe('single');
      expect(c.decisions).toContain('compare-unfused');
    },
    'compare-cuda-core-chain': () => {
      // 1 + 2^-24 + 2^-24 + 2^-24 from c = 0: each fma.rn.f32 is a tie at 1 and keeps 1;
      // f64 keeps 1 + 3·2^-24; an f64 form has no f32 chain.
      const form = findForm('mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32')!;
      const r = matrixRegisters(form, {
        a: [0x3c00n, 0x0c00n, 0x0c00n, 0x0c00n],
        b: [0x3c00n, 0x0c00n, 0x0c00n, 0x0c00n],
        c: 0n,
      });
      if (!r.ok) throw new Error(r.error.message);
      const x = matrixChains(form, r.registers, 'sm_80');
      expect(x.f32.ok && x.f32.result.bits).toBe('0x3f800000');
      expect(x.f64.ok && x.f64.result.bits).toBe('0x3ff0000030000000');
      const f64 = findForm('mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64')!;
      const z = matrixRegisters(f64, { a: [0n, 0n, 0n, 0n], b: [0n, 0n, 0n, 0n], c: 0n });
      if (!z.ok) throw new Error(z.error.message);
      expect(matrixChains(f64, z.registers, 'sm_80').f32.ok).toBe(false);
    },
  };
  it('every decision has a pinning case here', () => {
    expect(WHAT_IF_DECISIONS.map((d) => d.id).sort()).toEqual(Object.keys(cases).sort());
  });
  it.each(WHAT_IF_DECISIONS.map((d) => [d.id] as const))('%s', (id) => cases[id]());
});
