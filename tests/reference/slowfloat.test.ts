/**
 * Tests of the reference model itself, on cases computed by hand from the spec text and
 * IEEE 754-2019 (each expectation says where it comes from), so that the reference is trusted
 * before it judges the engine.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ARITHMETIC_FORMS, operandsOf } from './catalog-forms.ts';
import { refEvaluate } from './slowfloat.ts';
import { roundRational } from './neighbour-round.ts';
import { decode, REF_FORMATS } from './ref-formats.ts';
import { pow2, rational } from './rational.ts';

const hex = (n: number): string => `0x${n.toString(16)}`;
const ref = (form: string, a: number, b = 0, c = 0, options = {}): string =>
  hex(refEvaluate(form, a, b, c, undefined, options));

// f16 patterns
const ONE = 0x3c00;
const TWO = 0x4000;
const HALF = 0x3800;
const MINUS_ONE = 0xbc00;
const MAX = 0x7bff; // 65504
const INF = 0x7c00;
const NEG_INF = 0xfc00;
const QNAN = 0x7e00;
const SNAN = 0x7c01;
const MIN_SUB = 0x0001; // 2^-24
const MIN_NORMAL = 0x0400; // 2^-14
const NEG_ZERO = 0x8000;

describe('decoding by the textbook formula', () => {
  it('gives the exact values of f16, bf16 and f32 landmarks', () => {
    const f16 = REF_FORMATS.f16;
    expect(decode(ONE, f16)).toEqual(rational(1n));
    expect(decode(MAX, f16)).toEqual(rational(65504n));
    expect(decode(MIN_SUB, f16)).toEqual(pow2(-24));
    expect(decode(0x03ff, f16)).toEqual(rational(1023n, 1n << 24n));
    expect(decode(0x0001, REF_FORMATS.bf16)).toEqual(pow2(-133));
    expect(decode(0x7f7f, REF_FORMATS.bf16)).toEqual(rational(255n << 120n));
    expect(decode(0x00000001, REF_FORMATS.f32)).toEqual(pow2(-149));
    expect(decode(0xbf800000, REF_FORMATS.f32)).toEqual(rational(-1n));
  });
});

describe('neighbour-search rounding', () => {
  const f16 = REF_FORMATS.f16;
  it('rounds ties to the even significand', () => {
    expect(hex(roundRational(rational(2049n, 2048n), 'rn', f16))).toBe('0x3c00'); // 1 + 2^-11
    expect(hex(roundRational(rational(2051n, 2048n), 'rn', f16))).toBe('0x3c02'); // 1 + 3·2^-11
  });
  it('applies the directed modes to the two neighbours', () => {
    const x = rational(4097n, 4096n); // 1 + 2^-12, between 0x3c00 and 0x3c01
    expect(hex(roundRational(x, 'rz', f16))).toBe('0x3c00');
    expect(hex(roundRational(x, 'rm', f16))).toBe('0x3c00');
    expect(hex(roundRational(x, 'rp', f16))).toBe('0x3c01');
    const y = rational(-4097n, 4096n);
    expect(hex(roundRational(y, 'rz', f16))).toBe('0xbc00');
    expect(hex(roundRational(y, 'rm', f16))).toBe('0xbc01');
    expect(hex(roundRational(y, 'rp', f16))).toBe('0xbc00');
  });
  it('overflows per IEEE 754 §7.4', () => {
    // maxFinite + ulp/2 = 65504 + 16 is the rn threshold.
    expect(hex(roundRational(rational(65520n), 'rn', f16))).toBe('0x7c00');
    expect(hex(roundRational(rational(65519n), 'rn', f16))).toBe('0x7bff');
    expect(hex(roundRational(rational(1n << 20n), 'rz', f16))).toBe('0x7bff');
    expect(hex(roundRational(rational(-(1n << 20n)), 'rp', f16))).toBe('0xfbff');
    expect(hex(roundRational(rational(-(1n << 20n)), 'rm', f16))).toBe('0xfc00');
  });
  it('keeps the sign of a nonzero value that rounds to zero', () => {
    expect(hex(roundRational(pow2(-25), 'rn', f16))).toBe('0x0'); // tie with 2^-24: even is 0
    expect(hex(roundRational(rational(-1n, 1n << 25n), 'rn', f16))).toBe('0x8000');
    expect(hex(roundRational(rational(-1n, 1n << 30n), 'rz', f16))).toBe('0x8000');
  });
});

describe('add, sub, mul, fma (half)', () => {
  it('computes 1 + 1 = 2 and lanes of x2 forms independently', () => {
    expect(ref('add.f16', ONE, ONE)).toBe('0x4000');
    // lane 0 = 2 + 1 = 3, lane 1 = 1 + 1 = 2
    expect(ref('add.f16x2', (ONE << 16) | TWO, (ONE << 16) | ONE)).toBe('0x40004200');
  });
  it('overflows at 65504 + 16 and not below', () => {
    expect(ref('add.f16', MAX, 0x4c00)).toBe('0x7c00'); // + 16
    expect(ref('add.f16', MAX, 0x4bff)).toBe('0x7bff'); // + 15.9921875
    expect(ref('add.bf16', 0x7f7f, 0x7b00)).toBe('0x7f80'); // bf16 max + 2^119 (half ulp)
    expect(ref('add.bf16', 0x7f7f, 0x7a80)).toBe('0x7f7f'); // + 2^118
  });
  it('rounds ties to even', () => {
    expect(ref('add.f16', ONE, 0x1000)).toBe('0x3c00'); // 1 + 2^-11
    expect(ref('add.f16', 0x3c01, 0x1000)).toBe('0x3c02');
    expect(ref('add.bf16', 0x3f80, 0x3b80)).toBe('0x3f80'); // 1 + 2^-8
    expect(ref('add.bf16', 0x3f81, 0x3b80)).toBe('0x3f82');
  });
  it('produces subnormal results with gradual underflow', () => {
    expect(ref('mul.f16', MIN_NORMAL, HALF)).toBe('0x200'); // 2^-15
    expect(ref('mul.f16', MIN_SUB, HALF)).toBe('0x0'); // 2^-25: tie, even is +0
    expect(ref('mul.f16', MIN_SUB, 0x3a00)).toBe('0x1'); // 0.75·2^-24
    expect(ref('mul.f16', 0x8001, HALF)).toBe('0x8000');
    expect(ref('add.f16', MIN_SUB, MIN_SUB)).toBe('0x2');
  });
  it('gives the IEEE signs of exact zeros', () => {
    expect(ref('sub.f16', ONE, ONE)).toBe('0x0');
    expect(ref('add.f16', NEG_ZERO, NEG_ZERO)).toBe('0x8000');
    expect(ref('sub.f16', NEG_ZERO, 0)).toBe('0x8000');
    expect(ref('add.f16', NEG_ZERO, 0)).toBe('0x0');
    expect(ref('mul.f16', MINUS_ONE, 0)).toBe('0x8000');
    expect(ref('fma.rn.f16', MINUS_ONE, 0, NEG_ZERO)).toBe('0x8000'); // (-0) + (-0)
    expect(ref('fma.rn.f16', MINUS_ONE, 0, 0)).toBe('0x0'); // (-0) + (+0)
  });
  it('fuses fma with one rounding', () => {
    // (1+2^-10)(1-2^-11) - 1 = 2^-11 - 2^-21 exactly = 0x0ffe; unfused it would be 0.
    expect(ref('fma.rn.f16', 0x3c01, 0x3bff, MINUS_ONE)).toBe('0xffe');
  });
  it('returns canonical NaN for NaN operands and invalid operations', () => {
    expect(ref('add.f16', QNAN, ONE)).toBe('0x7fff');
    expect(ref('mul.bf16', 0x7f81, 0x3f80)).toBe('0x7fff');
    expect(ref('sub.f16', INF, INF)).toBe('0x7fff');
    expect(ref('add.f16', INF, NEG_INF)).toBe('0x7fff');
    expect(ref('mul.f16', 0, INF)).toBe('0x7fff');
    expect(ref('fma.rn.f16', 0, INF, ONE)).toBe('0x7fff');
    expect(ref('fma.rn.f16', INF, ONE, NEG_INF)).toBe('0x7fff');
    expect(ref('fma.rn.f16', INF, MINUS_ONE, ONE)).toBe('0xfc00');
  });
});

describe('.ftz', () => {
  it('flushes subnormal inputs to sign-preserving zero', () => {
    expect(ref('add.ftz.f16', MIN_SUB, MIN_SUB)).toBe('0x0');
    expect(ref('add.ftz.f16', 0x8001, 0x8001)).toBe('0x8000');
    expect(ref('neg.ftz.f16', MIN_SUB)).toBe('0x8000');
    expect(ref('abs.ftz.f16', 0x8001)).toBe('0x0');
    expect(ref('neg.f16', MIN_SUB)).toBe('0x8001');
    expect(ref('min.ftz.f16', MIN_SUB, 0x8001)).toBe('0x8000'); // +0 vs -0
  });
  it('flushes tiny results, tininess judged after rounding (IEEE 754 §7.5) by default', () => {
    expect(ref('mul.ftz.f16', MIN_NORMAL, HALF)).toBe('0x0');
    expect(ref('mul.ftz.f16', 0x8400, HALF)).toBe('0x8000');
    // 2^-14·(1 - 2^-11) needs 11 significant bits: rounded with an unbounded exponent it stays
    // below 2^-14, so it is tiny and flushed (an H100 returns 0x0000), although rounding with
    // gradual underflow would give the normal 0x0400.
    expect(ref('mul.ftz.f16', 0x3bff, MIN_NORMAL)).toBe('0x0');
    expect(ref('mul.f16', 0x3bff, MIN_NORMAL)).toBe('0x400');
    // 2^-14 - 2^-28 rounds up to 2^-14 at 11 bits: not tiny after rounding, tiny before.
    expect(ref('fma.rn.ftz.f16', MIN_NORMAL, 0x8400, MIN_NORMAL)).toBe('0x400');
    expect(
      ref('fma.rn.ftz.f16', MIN_NORMAL, 0x8400, MIN_NORMAL, { ftzTininess: 'before-rounding' }),
    ).toBe('0x0');
    expect(ref('mul.f16', 0x3bff, 0x0200)).toBe('0x200'); // no ftz: subnormal kept
  });
});

describe('.sat and .relu', () => {
  it('clamps to [+0, 1] with NaN and -0 going to +0', () => {
    expect(ref('add.sat.f16', ONE, ONE)).toBe('0x3c00');
    expect(ref('add.sat.f16', MINUS_ONE, HALF)).toBe('0x0');
    expect(ref('add.sat.f16', QNAN, ONE)).toBe('0x0');
    expect(ref('add.sat.f16', NEG_ZERO, NEG_ZERO)).toBe('0x0');
    expect(ref('add.sat.f16', 0x3400, 0x3400)).toBe('0x3800'); // 0.25 + 0.25
    expect(ref('mul.sat.f16', INF, ONE)).toBe('0x3c00');
    expect(ref('add.sat.f32.f16', QNAN, 0x3f800000)).toBe('0x0');
    expect(ref('add.sat.f32.f16', ONE, 0x3f800000)).toBe('0x3f800000');
  });
  it('relu: negative and -0 → +0, NaN → canonical NaN', () => {
    expect(ref('fma.rn.relu.f16', MINUS_ONE, ONE, 0)).toBe('0x0');
    expect(ref('fma.rn.relu.f16', NEG_ZERO, ONE, NEG_ZERO)).toBe('0x0');
    expect(ref('fma.rn.relu.f16', QNAN, ONE, 0)).toBe('0x7fff');
    expect(ref('fma.rn.relu.bf16', 0x4000, 0x3f80, 0)).toBe('0x4000');
  });
});

describe('.oob', () => {
  it('forces a lane whose a or b holds the OOB-NaN pattern to +0, even under .relu', () => {
    expect(hex(refEvaluate('fma.rn.oob.f16', ONE, ONE, ONE, { a: true }))).toBe('0x0');
    expect(ref('fma.rn.oob.f16', 0xfff7, ONE, QNAN)).toBe('0x0'); // either sign; c ignored
    expect(ref('fma.rn.oob.bf16', 0x3f80, 0x7ff7, 0x3f80)).toBe('0x0');
    // lane 0: 1·2 + 1 = 3; lane 1: b is OOB-NaN → +0
    const a = (ONE << 16) | ONE;
    const b = (TWO << 16) | TWO;
    expect(hex(refEvaluate('fma.rn.oob.relu.f16x2', a, b, a, { b: [false, true] }))).toBe('0x4200');
  });
  it('does not test c: an OOB-NaN addend is an ordinary NaN', () => {
    expect(ref('fma.rn.oob.f16', ONE, ONE, 0x7ff7)).toBe('0x7fff');
    expect(hex(refEvaluate('fma.rn.oob.f16', ONE, ONE, ONE, { c: true }))).toBe('0x7fff');
  });
  it('without .oob a marked lane is just a NaN (oobNanBits)', () => {
    expect(hex(refEvaluate('fma.rn.f16', ONE, ONE, ONE, { b: true }))).toBe('0x7fff');
  });
});

describe('min and max (9.7.4.7, 9.7.4.8)', () => {
  it('orders -0 below +0', () => {
    expect(ref('min.f16', NEG_ZERO, 0)).toBe('0x8000');
    expect(ref('min.f16', 0, NEG_ZERO)).toBe('0x8000');
    expect(ref('max.f16', NEG_ZERO, 0)).toBe('0x0');
    expect(ref('max.bf16', 0x8000, 0)).toBe('0x0');
  });
  it('returns the other operand for one NaN, canonical NaN for two or with .NaN', () => {
    expect(ref('min.f16', QNAN, ONE)).toBe('0x3c00');
    expect(ref('max.f16', TWO, SNAN)).toBe('0x4000');
    expect(ref('min.f16', QNAN, SNAN)).toBe('0x7fff');
    expect(ref('min.NaN.f16', QNAN, ONE)).toBe('0x7fff');
    expect(ref('max.NaN.bf16', 0x3f80, 0xffc0)).toBe('0x7fff');
  });
  it('handles infinities', () => {
    expect(ref('max.f16', NEG_INF, INF)).toBe('0x7c00');
    expect(ref('min.f16', INF, MAX)).toBe('0x7bff');
  });
  it('xorsign.abs: magnitude of |a|,|b|, sign a^b, unless the result is NaN', () => {
    expect(ref('max.xorsign.abs.f16', 0xc000, 0x4200)).toBe('0xc200'); // -2, 3 → -3
    expect(ref('min.xorsign.abs.f16', 0xc000, 0xc200)).toBe('0x4000'); // -2, -3 → +2
    expect(ref('min.xorsign.abs.f16', QNAN, 0xc200)).toBe('0xc200'); // NaN, -3 → -3
    expect(ref('min.xorsign.abs.f16', QNAN, 0xfe00)).toBe('0x7fff');
    // x2: lane 0 (NaN, -3) → -3 (decision max-x2-xorsign-typo); lane 1 (+0, 1) → +1
    expect(ref('max.xorsign.abs.f16x2', QNAN, (ONE << 16) | 0xc200)).toBe('0x3c00c200');
  });
});

describe('neg and abs', () => {
  it('flip or clear the sign; NaN → canonical NaN', () => {
    expect(ref('neg.f16', ONE)).toBe('0xbc00');
    expect(ref('neg.bf16', 0)).toBe('0x8000');
    expect(ref('abs.f16', NEG_INF)).toBe('0x7c00');
    expect(ref('abs.f16', 0xfe00)).toBe('0x7fff');
    expect(ref('neg.bf16x2', 0x3f80ff80)).toBe('0xbf807f80');
  });
});

describe('mixed precision (9.7.5)', () => {
  const F32_ONE = 0x3f800000;
  const F32_2M24 = 0x33800000; // 2^-24: half an ulp of 1.0 in f32
  it('rounds 1 + 2^-24 per .rn/.rz/.rm/.rp', () => {
    expect(ref('add.rn.f32.f16', ONE, 0, F32_2M24)).toBe('0x3f800000');
    expect(ref('add.rz.f32.f16', ONE, 0, F32_2M24)).toBe('0x3f800000');
    expect(ref('add.rm.f32.f16', ONE, 0, F32_2M24)).toBe('0x3f800000');
    expect(ref('add.rp.f32.f16', ONE, 0, F32_2M24)).toBe('0x3f800001');
    expect(ref('add.rn.f32.f16', MINUS_ONE, 0, 0xb3800000)).toBe('0xbf800000');
    expect(ref('add.rz.f32.f16', MINUS_ONE, 0, 0xb3800000)).toBe('0xbf800000');
    expect(ref('add.rm.f32.f16', MINUS_ONE, 0, 0xb3800000)).toBe('0xbf800001');
    expect(ref('add.rp.f32.f16', MINUS_ONE, 0, 0xb3800000)).toBe('0xbf800000');
  });
  it('gives -0 for an exact zero sum only under .rm, and keeps (-0)+(-0)', () => {
    expect(ref('add.rn.f32.f16', ONE, 0, 0xbf800000)).toBe('0x0');
    expect(ref('add.rm.f32.f16', ONE, 0, 0xbf800000)).toBe('0x80000000');
    expect(ref('add.rn.f32.bf16', NEG_ZERO, 0, 0x80000000)).toBe('0x80000000');
    expect(ref('sub.rn.f32.f16', 0, 0, 0)).toBe('0x0');
    expect(ref('sub.rm.f32.f16', 0, 0, 0)).toBe('0x80000000');
  });
  it('overflows to infinity or max finite per mode', () => {
    const BF16_MAX = 0x7f7f;
    expect(ref('fma.rn.f32.bf16', BF16_MAX, 0x4000, 0)).toBe('0x7f800000');
    expect(ref('fma.rz.f32.bf16', BF16_MAX, 0x4000, 0)).toBe('0x7f7fffff');
    expect(ref('fma.rm.f32.bf16', BF16_MAX, 0x4000, 0)).toBe('0x7f7fffff');
    expect(ref('fma.rp.f32.bf16', BF16_MAX, 0x4000, 0)).toBe('0x7f800000');
    expect(ref('fma.rz.f32.bf16', 0xff7f, 0x4000, 0)).toBe('0xff7fffff');
    expect(ref('fma.rm.f32.bf16', 0xff7f, 0x4000, 0)).toBe('0xff800000');
    expect(ref('fma.rp.f32.bf16', 0xff7f, 0x4000, 0)).toBe('0xff7fffff');
  });
  it('converts exactly and underflows gradually in f32', () => {
    expect(ref('add.rn.f32.f16', MIN_SUB, 0, 0)).toBe('0x33800000'); // 2^-24
    expect(ref('fma.rn.f32.bf16', 0x0001, 0x3f00, 0)).toBe('0x8000'); // 2^-134
    expect(ref('fma.rn.f32.bf16', 0x0001, 0x0001, 0)).toBe('0x0'); // 2^-266
    expect(ref('fma.rp.f32.bf16', 0x0001, 0x0001, 0)).toBe('0x1');
    expect(ref('fma.rm.f32.bf16', 0x8001, 0x0001, 0)).toBe('0x80000001');
    expect(ref('fma.rz.f32.bf16', 0x8001, 0x0001, 0)).toBe('0x80000000');
  });
  it('returns canonical f32 NaN', () => {
    expect(ref('add.f32.f16', QNAN, 0, F32_ONE)).toBe('0x7fffffff');
    expect(ref('add.f32.f16', ONE, 0, 0x7f800001)).toBe('0x7fffffff');
    expect(ref('sub.f32.f16', INF, 0, 0x7f800000)).toBe('0x7fffffff');
    expect(ref('fma.rn.f32.f16', 0, INF, F32_ONE)).toBe('0x7fffffff');
  });
});

describe('tanh.approx and ex2.approx', () => {
  it('follow the corner-case tables', () => {
    expect(ref('tanh.approx.f16', NEG_ZERO)).toBe('0x8000');
    expect(ref('tanh.approx.f16', INF)).toBe('0x3c00');
    expect(ref('tanh.approx.bf16', 0xff80)).toBe('0xbf80');
    expect(ref('tanh.approx.f16', SNAN)).toBe('0x7fff');
    expect(ref('ex2.approx.f16', NEG_INF)).toBe('0x0');
    expect(ref('ex2.approx.f16', NEG_ZERO)).toBe('0x3c00');
    expect(ref('ex2.approx.f16', INF)).toBe('0x7c00');
    expect(ref('ex2.approx.ftz.bf16', 0x8001)).toBe('0x3f80'); // -subnormal → +1.0
    expect(ref('ex2.approx.ftz.bf16', 0x0001)).toBe('0x3f80');
    expect(ref('ex2.approx.ftz.bf16', 0x7fc0)).toBe('0x7fff');
  });
  it('otherwise return the correctly rounded value (values checked with numpy float16)', () => {
    expect(ref('tanh.approx.f16', ONE)).toBe('0x3a18'); // tanh 1 = 0.76159…
    expect(ref('tanh.approx.f16', 0x3800)).toBe('0x3765'); // tanh 0.5
    expect(ref('tanh.approx.bf16', 0x3f80)).toBe('0x3f43'); // 195/256
    expect(ref('tanh.approx.f16', 0x4500)).toBe('0x3c00'); // tanh 5 rounds to 1
    expect(ref('tanh.approx.f16', MIN_SUB)).toBe('0x1');
    expect(ref('ex2.approx.f16', HALF)).toBe('0x3da8'); // √2
    expect(ref('ex2.approx.f16', 0xb800)).toBe('0x39a8'); // 1/√2
    expect(ref('ex2.approx.f16', 0x4bff)).toBe('0x7bf5'); // 2^15.9921875 = 65181.7…
    expect(ref('ex2.approx.f16', 0xcb40)).toBe('0x2d4'); // 2^-14.5, subnormal
    expect(ref('ex2.approx.f16', MIN_SUB)).toBe('0x3c00');
  });
  it('rounds exact powers of two like any other value', () => {
    expect(ref('ex2.approx.f16', 0xce00)).toBe('0x1'); // 2^-24
    expect(ref('ex2.approx.f16', 0xce40)).toBe('0x0'); // 2^-25: tie, even is +0
    expect(ref('ex2.approx.f16', 0x4b80)).toBe('0x7800'); // 2^15
    expect(ref('ex2.approx.f16', 0x4c00)).toBe('0x7c00'); // 2^16 overflows
  });
  it('ex2.approx.ftz.bf16 flushes subnormal results to +0', () => {
    expect(ref('ex2.approx.ftz.bf16', 0xc2fc)).toBe('0x80'); // 2^-126, normal
    expect(ref('ex2.approx.ftz.bf16', 0xc2fe)).toBe('0x0'); // 2^-127, subnormal
    expect(ref('ex2.approx.ftz.bf16x2', 0xc2fe3f80)).toBe('0x4000'); // lanes: 2^1, 2^-127
  });
});

describe('every catalog form', () => {
  it('evaluates without throwing on ordinary operands', () => {
    for (const form of ARITHMETIC_FORMS) {
      const bits = { a: 0, b: 0, c: 0 };
      for (const o of operandsOf(form)) {
        if (o.name !== 'd')
          bits[o.name] = o.format === 'f32' ? 0x3f800000 : o.lanes === 2 ? 0x3c003c00 : 0x3c00;
      }
      const d = refEvaluate(form.text, bits.a, bits.b, bits.c);
      expect(Number.isInteger(d) && d >= 0 && d < 2 ** 32).toBe(true);
    }
  });
});

describe('agreement with numpy float16 (fixtures/make-numpy-f16.py)', () => {
  it('matches 6000 add/sub/mul.f16 vectors computed in exact float64 and rounded by numpy', () => {
    const lines = readFileSync(new URL('./fixtures/numpy-f16.txt', import.meta.url), 'utf8')
      .trim()
      .split('\n');
    expect(lines.length).toBe(6000);
    const mismatches = lines.filter((line) => {
      const [form, a, b, d] = line.split(' ') as [string, string, string, string];
      return refEvaluate(form, parseInt(a, 16), parseInt(b, 16), 0) !== parseInt(d, 16);
    });
    expect(mismatches).toEqual([]);
  });
});
