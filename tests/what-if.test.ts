/**
 * What-if (src/engine/what-if): the unfused sequence of every fma against the independent
 * reference (its mul then its add, or the single-precision steps in exact rationals), where the
 * variant is refused, the comparison's numbers, and the summary sentence on each kind of case.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORMS, findForm } from '../src/catalog/forms.ts';
import { evaluate } from '../src/engine/evaluate.ts';
import { compareWith, parseVariant, quickVariants } from '../src/engine/what-if/compare.ts';
import { referenceValues } from '../src/engine/what-if/reference.ts';
import { summaryOf } from '../src/engine/what-if/summary.ts';
import { evaluateUnfused, unfusedPlan } from '../src/engine/what-if/unfused.ts';
import { roundRational } from './reference/neighbour-round.ts';
import {
  abs,
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
import { interestingPatterns } from './support/patterns.ts';

const fmas = FORMS.filter((f) => f.opcode === 'fma');

/** "-3 × 2^-26" (the engine's ExactValue.rational), read by the reference's own rationals. */
function rationalOf(text: string): Rational {
  if (text === '0' || text === '-0') return rational(0n);
  const m = /^(-?\d+) × 2\^(-?\d+)$/.exec(text);
  if (!m) throw new Error(`not a dyadic: ${text}`);
  return mul(rational(BigInt(m[1]!)), pow2(Number(m[2])));
}

function lane16(format: 'f16' | 'bf16') {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...interestingPatterns(format)) },
    { weight: 3, arbitrary: fc.integer({ min: 0, max: 0xffff }) },
  );
}

/** The mixed sequence in exact rationals: f32 product rounded in the mode, then the sum. */
function referenceMixedUnfused(formText: string, a: number, b: number, c: number): number | null {
  const form = findForm(formText)!;
  const src = REF_FORMATS[form.type.includes('bf16') ? 'bf16' : 'f16'];
  const f32 = REF_FORMATS.f32;
  const finite = (bits: number, fmt: typeof src) => {
    const cls = classOf(bits, fmt);
    return cls === 'normal' || cls === 'subnormal';
  };
  // Finite, nonzero operands only: the special values follow the same IEEE rules as the fused
  // forms, which the engine-vs-reference suites cover.
  if (!finite(a, src) || !finite(b, src) || !finite(c, f32)) return null;
  const mode = form.rounding ?? 'rn';
  const t = roundRational(
    mul(decode(a, src), decode(b, src)),
    mode,
    f32,
    isNegative(a, src) !== isNegative(b, src),
  );
  if (classOf(t, f32) === 'inf') return null;
  const sum = add(decode(t, f32), decode(c, f32));
  let d = roundRational(sum, mode, f32, mode === 'rm');
  if (form.modifiers.includes('sat')) {
    if (isNegative(d, f32)) d = 0;
    else if (compare(decode(d, f32), ONE) > 0) d = 0x3f800000;
  }
  return d;
}

describe('the unfused sequence of an fma', () => {
  for (const form of fmas) {
    const plan = unfusedPlan(form);
    if (!plan.ok) continue;
    it(`${form.text}: ${plan.lines.join(' ')} agrees with the reference`, () => {
      const t = form.type.includes('bf16') ? 'bf16' : 'f16';
      const packed = form.type.endsWith('x2');
      const reg = packed
        ? fc.tuple(lane16(t), lane16(t)).map(([lo, hi]) => lo + hi * 65536)
        : lane16(t);
      const mixed = form.type.startsWith('f32.');
      const cArb = mixed ? fc.integer({ min: 0, max: 0xffffffff }) : reg;
      fc.assert(
        fc.property(reg, reg, cArb, (a, b, c) => {
          const got = evaluateUnfused(form, { a, b, c });
          if ('ok' in got) throw new Error(got.reason);
          if (mixed) {
            const want = referenceMixedUnfused(form.text, a, b, c);
            if (want !== null) expect(got.d, `${a} ${b} ${c}`).toBe(want);
            return;
          }
          const mulText = plan.lines[0]!.split(' ')[0]!;
          const addText = plan.lines[1]!.split(' ')[0]!;
          const tRef = refEvaluate(mulText, a, b, 0);
          expect(got.d, `${a} ${b} ${c}`).toBe(refEvaluate(addText, tRef, c, 0));
        }),
        { numRuns: 300, seed: 20261124 },
      );
    });
  }

  it('is refused where PTX has none, with the reason', () => {
    expect(unfusedPlan('fma.rn.relu.f16')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/\.relu/),
    });
    expect(unfusedPlan('fma.rn.oob.bf16')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/\.oob/),
    });
    expect(unfusedPlan('fma.rz.bf16')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('PTX has no mul.rz.bf16'),
    });
    expect(unfusedPlan('add.rn.f16')).toMatchObject({ ok: false });
    expect(quickVariants('fma.rn.relu.f16').some((v) => v.variant === 'unfused')).toBe(false);
  });

  it('writes the PTX it stands for', () => {
    expect(unfusedPlan('fma.rn.ftz.sat.f16x2')).toMatchObject({
      ok: true,
      lines: ['mul.rn.ftz.f16x2 t, a, b;', 'add.rn.ftz.sat.f16x2 d, t, c;'],
    });
    expect(unfusedPlan('fma.rz.sat.f32.bf16')).toMatchObject({
      ok: true,
      lines: [
        'cvt.f32.bf16 ta, a;',
        'cvt.f32.bf16 tb, b;',
        'mul.rz.f32 t, ta, tb;',
        'add.rz.sat.f32 d, t, c;',
      ],
    });
  });
});

describe('comparing with a variant', () => {
  it('fma against mul then add: the product rounding and the cancellation, in words', () => {
    // (1 + 2^-10)^2 - (1 + 2^-9): the fma keeps 2^-20, the rounded product loses it.
    const c = compareWith('fma.rn.f16', { a: 0x3c01, b: 0x3c01, c: 0xbc02 }, { kind: 'unfused' });
    expect(c.a.d).toBe(0x0010);
    expect(c.b).toMatchObject({ kind: 'unfused', d: 0x0000 });
    expect(c.differingBits).toBe(0x0010);
    if (c.b.kind === 'unfused') expect(c.b.why).toMatch(/cancels/);
    expect(c.lanes[0]).toMatchObject({ lane: 0, ulpsOfA: -16, ulpsOfB: -16 });
    // The sequence computes the fma's a × b + c: measured against its exact value, 2^-20.
    expect(c.lanes[0]!.bAgainstExactA).toMatchObject({ ulps: -16 });
    if (c.b.kind === 'unfused') {
      expect(c.b.reference[0]!.exact.rational).toBe('1 × 2^-20');
      expect(c.b.reference[0]!.error).toMatchObject({ ulps: -16 });
    }
  });

  it('gives a reason only for the lanes that differ, and names an intermediate overflow', () => {
    // Lane 0: 1 × 1 − 1 = 0 both ways; lane 1 is the example above.
    const x2 = compareWith(
      'fma.rn.f16x2',
      { a: 0x3c013c00, b: 0x3c013c00, c: 0xbc02bc00 },
      { kind: 'unfused' },
    );
    if (x2.b.kind !== 'unfused') throw new Error('refused');
    expect(x2.b.why).toMatch(
      /^lane 1: mul rounds a × b to f16 \(t − a × b = −0\.00000095367431640625\); c cancels/,
    );
    expect(x2.b.why).not.toMatch(/lane 0/);
    // 65504 × 2 overflows f16 on its own; − 65504 brings the fma back to 65504.
    const big = compareWith('fma.rn.f16', { a: 0x7bff, b: 0x4000, c: 0xfbff }, { kind: 'unfused' });
    expect(big.a.d).toBe(0x7bff);
    expect(big.b).toMatchObject({ d: 0x7c00, why: expect.stringMatching(/overflows on its own/) });
  });

  it('measures the unfused result against the fma’s exact value, as the reference does', () => {
    // Finite operands only (an infinite or NaN exact value has no error to measure).
    for (const text of ['fma.rn.f16', 'fma.rn.bf16', 'fma.rz.f32.f16', 'fma.rn.sat.f32.bf16']) {
      const form = findForm(text)!;
      const src = REF_FORMATS[form.type.includes('bf16') ? 'bf16' : 'f16'];
      const dst = REF_FORMATS[form.type.startsWith('f32.') ? 'f32' : (src.name as 'f16' | 'bf16')];
      const finite = (fmt: typeof src) =>
        lane16(fmt.name === 'bf16' ? 'bf16' : 'f16').filter((x) => {
          const cls = classOf(x, fmt);
          return cls === 'normal' || cls === 'subnormal' || cls === 'zero';
        });
      const cArb =
        dst.name === 'f32'
          ? fc.integer({ min: 0, max: 0xffffffff }).filter((x) => {
              const cls = classOf(x, dst);
              return cls === 'normal' || cls === 'subnormal' || cls === 'zero';
            })
          : finite(src);
      fc.assert(
        fc.property(finite(src), finite(src), cArb, (a, b, c) => {
          const cmp = compareWith(form, { a, b, c }, { kind: 'unfused' });
          if (cmp.b.kind !== 'unfused') throw new Error('refused');
          const d = cmp.b.d;
          const exact = add(mul(decode(a, src), decode(b, src)), decode(c, dst));
          const got = cmp.lanes[0]!.bAgainstExactA;
          const dCls = classOf(d, dst);
          if (dCls === 'inf' || dCls === 'qnan' || dCls === 'snan') {
            expect(got).toBeNull();
            return;
          }
          const want = sub(decode(d, dst), exact);
          expect(got, `${a} ${b} ${c}`).not.toBeNull();
          expect(compare(rationalOf(got!.value.rational), want), `${a} ${b} ${c}`).toBe(0);
          // In ulps of the destination at the result: 2^(max(e, emin) - p + 1).
          const dv = decode(d, dst);
          const emin = 1 - dst.bias;
          let e = emin;
          while (compare(abs(dv), pow2(e + 1)) >= 0) e++;
          const ulps = div(want, pow2(e - dst.fractionBits));
          expect(got!.ulps).toBeCloseTo(Number(ulps.num) / Number(ulps.den), 9);
        }),
        { numRuns: 300, seed: 1515 },
      );
    }
  });

  it('measures a variant of the same operation against A’s exact value; another operation not', () => {
    // 0.1 + 0.1 in f16, carried into bf16: each operand rounds to 0.10009765625, so bf16's sum
    // 0.2001953125 is 2^-12 above the exact f16 sum 0.199951171875: a quarter of a bf16 ulp.
    const variant = parseVariant('add.rn.bf16');
    if ('error' in variant) throw new Error(variant.error);
    const c = compareWith('add.rn.f16', { a: 0x2e66, b: 0x2e66 }, variant);
    expect(c.lanes[0]!.bAgainstExactA).toMatchObject({ ulps: 0.25 });
    expect(c.lanes[0]!.bAgainstExactA!.value.rational).toBe('1 × 2^-12');
    const other = parseVariant('mul.rn.f16');
    if ('error' in other) throw new Error(other.error);
    expect(
      compareWith('add.rn.f16', { a: 0x2e66, b: 0x2e66 }, other).lanes[0]!.bAgainstExactA,
    ).toBeNull();
  });

  it('carries operands by value into another format and measures in each format', () => {
    const variant = parseVariant('add.rn.bf16');
    if ('error' in variant) throw new Error(variant.error);
    const c = compareWith('add.rn.f16', { a: 0x2e66, b: 0x2e66 }, variant);
    expect(c.b).toMatchObject({
      kind: 'form',
      d: evaluate('add.rn.bf16', { a: 0x3dcd, b: 0x3dcd }).d,
    });
    expect(c.differingBits).toBeNull(); // f16 and bf16 registers: bits are not comparable
    expect(c.lanes[0]!.ulpsOfA).toBe(2);
    expect(c.lanes[0]!.ulpsOfB).toBe(0.25);
  });

  it('gives B the OOB-NaN pattern where A has a lane marked OOB-NaN', () => {
    // .oob reads the marked b as OOB-NaN and gives +0; B (no .oob) sees the pattern: a NaN.
    const marked = { a: 0x3c003c00, b: 0, c: 0x3c003c00, oob: { b: [false, true] as const } };
    const variant = parseVariant('fma.rn.f16x2');
    if ('error' in variant) throw new Error(variant.error);
    const c = compareWith('fma.rn.oob.f16x2', marked, variant);
    expect(c.a.d).toBe(evaluate('fma.rn.oob.f16x2', marked).d);
    expect(c.a.d).toBe(0x00003c00);
    if (c.b.kind !== 'form') throw new Error('not a form');
    expect(c.b.carried.input.b).toBe(0x7ff70000);
    expect(c.b.d).toBe(0x7fff3c00);
  });

  it('refuses a variant it cannot read, with the parser’s message', () => {
    expect(parseVariant('fma.rq.f16')).toMatchObject({
      error: expect.stringContaining('fma.rq.f16'),
    });
  });
});

describe('the summary sentence, read off the trace', () => {
  const summary = (form: string, input: { a: number; b?: number; c?: number }) =>
    summaryOf(evaluate(form, input));
  it('a tie', () => {
    // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: to the even one, 1.
    expect(summary('add.rn.f16', { a: 0x3c00, b: 0x1000 })).toBe(
      '1.00048828125 is halfway between 1 and 1.0009765625: the tie goes to the even one, 1; error −0.00048828125 = −0.5 ulp',
    );
  });
  it('an overflow', () => {
    expect(summary('add.rn.f16', { a: 0x7bff, b: 0x5000 })).toBe(
      'the exact sum 65536 is above the largest f16 (65504): +inf under .rn',
    );
    // bf16's largest finite value doubled is past binary32's: .rz keeps the largest finite.
    expect(summary('fma.rz.f32.bf16', { a: 0x7f7f, b: 0x4000, c: 0 })).toMatch(
      /^the exact a × b \+ c .* is above the largest f32 \(.*\): the largest finite value .* under \.rz$/,
    );
  });
  it('an invalid operation', () => {
    expect(summary('add.f16', { a: 0x7c00, b: 0xfc00 })).toBe(
      '∞ − ∞: invalid, canonical NaN 0x7FFF',
    );
  });
  it('a flush', () => {
    expect(summary('mul.ftz.f16', { a: 0x8400, b: 0x3800 })).toMatch(/\.ftz flushes it to −0$/);
  });
  it('an approximate op: the allowed set, not one answer', () => {
    expect(summary('tanh.approx.f16', { a: 0x3c00 })).toBe(
      'hardware may return any of 2 values from 0.76123046875 to 0.76171875; this model gives the correctly rounded 0.76171875',
    );
  });
  it('x2 lanes', () => {
    expect(summary('add.rn.f16x2', { a: 0x3c00_3c00, b: 0x3c00_3c00 })).toBe(
      'both lanes: 2 is exact in f16: no rounding',
    );
  });
});

describe('the unfused sequence in words', () => {
  const summary = (form: string, input: { a: number; b: number; c: number }) => {
    const c = compareWith(form, input, { kind: 'unfused' });
    if (c.b.kind !== 'unfused') throw new Error('refused');
    return c.b.summary;
  };
  it('half forms: the product t, then the sum d, each read off its own trace', () => {
    expect(summary('fma.rn.f16', { a: 0x3c01, b: 0x3c01, c: 0xbc02 })).toBe(
      't: 1.00195407867431640625 rounds down to 1.001953125 (.rn: below the halfway point); error −0.00000095367431640625 = −9.766e-4 ulp; d: the exact sum is 0, which is +0 by the sign rule',
    );
  });
  it('mixed forms: the binary32 steps, and what .sat did', () => {
    // 1.5 × 2 = 3, + 1 = 4: exact in f32, then .sat clamps it to 1.
    expect(summary('fma.rn.sat.f32.bf16', { a: 0x3fc0, b: 0x4000, c: 0x3f800000 })).toBe(
      't: 3 is exact in f32: no rounding; d: 4 is exact in f32: no rounding; .sat clamps it to 1',
    );
    expect(summary('fma.rz.f32.f16', { a: 0x7c00, b: 0, c: 0 })).toBe(
      't: 0 × ∞: invalid, canonical NaN 0x7FFFFFFF; d: a NaN operand gives the canonical NaN 0x7FFFFFFF',
    );
    // (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20 needs 21 bits: exact in f32, unlike in f16.
    expect(summary('fma.rn.f32.f16', { a: 0x3c01, b: 0x3c01, c: 0xbf802000 })).toMatch(
      /^t: 1\.00195407867431640625 is exact in f32: no rounding; d: /,
    );
    // A bf16 product can be beyond binary32: (2^-133)^2 = 2^-266 rounds up to 2^-149 under .rp,
    // and t + c = 2^-149 − 2^-149 is an exact zero, +0; the fma rounds 2^-266 − 2^-149 to −0.
    const tiny = compareWith(
      'fma.rp.f32.bf16',
      { a: 0x0001, b: 0x0001, c: 0x80000001 },
      { kind: 'unfused' },
    );
    expect(tiny.a.d).toBe(0x80000000);
    expect(tiny.b).toMatchObject({ d: 0 });
    if (tiny.b.kind === 'unfused')
      expect(tiny.b.summary).toMatch(
        /^t: \S+ rounds up to \S+ \(\.rp: toward \+∞\); .*; d: the exact sum is 0, which is \+0 by the sign rule$/,
      );
  });
});

describe('reference values beside a result', () => {
  it('the exact sum, what binary32 and binary64 give, and the error in ulps', () => {
    const [lane] = referenceValues(evaluate('add.f16', { a: 0x3c00, b: 0x0001 }));
    expect(lane!.exact.decimal).toBe('1.000000059604644775390625');
    expect(lane!.f32.bits).toBe(0x3f800000); // 1 + 2^-24 is a tie in binary32: to even, 1
    expect(lane!.f64.value).toBe(1 + 2 ** -24);
    expect(lane!.error).toMatchObject({ ulps: -(2 ** -14) });
  });
  it('agrees with double arithmetic where the exact sum is a double (every f16 sum)', () => {
    fc.assert(
      fc.property(lane16('f16'), lane16('f16'), (a, b) => {
        const r = evaluate('add.f16', { a, b });
        const [lane] = referenceValues(r);
        if (lane!.exact.kind === 'finite') {
          const sum = Number(lane!.exact.decimal);
          expect(lane!.f64.value).toBe(sum);
          expect(lane!.f32.bits).toBe(new Uint32Array(new Float32Array([sum]).buffer)[0]);
        }
      }),
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
    ];
    let zeros = 0;
    for (const [text, t, math] of cases) {
      const patterns = zerosAndOnes[t];
      const value = (bits: number) => decodeToNumber(bits, t);
      for (const a of patterns)
        for (const b of patterns)
          for (const c of patterns) {
            const r = evaluate(text, { a, b, c });
            const [lane] = referenceValues(r);
            const expected = math(value(a), value(b), value(c));
            if (expected !== 0) continue;
            zeros++;
            expect(Object.is(lane!.f64.value, -0), `${text} ${a} ${b} ${c}`).toBe(
              Object.is(expected, -0),
            );
            expect(lane!.f32.bits >>> 31, `${text} ${a} ${b} ${c}`).toBe(
              Object.is(expected, -0) ? 1 : 0,
            );
          }
    }
    expect(zeros).toBeGreaterThan(100);
  });
});

/** ±0 and ±1 of f16/bf16 as doubles. */
function decodeToNumber(bits: number, t: 'f16' | 'bf16'): number {
  const negative = (bits & 0x8000) !== 0;
  const one = t === 'f16' ? 0x3c00 : 0x3f80;
  const magnitude = (bits & 0x7fff) === one ? 1 : 0;
  return negative ? -magnitude : magnitude;
}
