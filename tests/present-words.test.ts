/**
 * The words for people (src/present): the one number style, the one-sentence summary of a result
 * read off its steps (every kind of case, arithmetic and cvt), the unfused sequence in words, and
 * a comparison in words — verdicts, differences and errors in the one ulp, what the carry did,
 * why an fma and its sequence differ, and the one-click variants' labels.
 */
import { describe, expect, it } from 'vitest';
import { findForm } from '../src/catalog/all-forms.ts';
import { FORMAT_NAMES } from '../src/catalog/formats.ts';
import { bitsView, FORMATS } from '../src/engine/format.ts';
import { evaluate, type Registers } from '../src/engine/pipeline.ts';
import { exactValueOfDyadic } from '../src/engine/exact.ts';
import { compareWith, parseVariant, type Comparison } from '../src/engine/what-if/comparison.ts';
import { quickVariants } from '../src/engine/what-if/quick-variants.ts';
import { allowedText, approxSteps } from '../src/present/approx-text.ts';
import { bitCount, bitGroups } from '../src/present/bit-groups.ts';
import { carriedText, rbitsText } from '../src/present/carry-text.ts';
import {
  bErrorText,
  differenceText,
  errorText,
  quickVariantLabel,
  verdictText,
  whyText,
} from '../src/present/compare-text.ts';
import { doubleText, exactText, signedText, ulpsText } from '../src/present/numbers.ts';
import { ownErrorText, referenceLine } from '../src/present/reference-text.ts';
import { summaryOf, unfusedSummary } from '../src/present/summary.ts';
import { referenceValues } from '../src/engine/what-if/reference-values.ts';
import { valueText } from '../src/present/values.ts';

const compare = (a: string, registers: Registers, vs: string): Comparison => {
  const variant = parseVariant(vs);
  if ('error' in variant) throw new Error(variant.error.message);
  return compareWith(a, registers, variant);
};
const view = (bits: bigint, format: keyof typeof FORMATS) => bitsView(bits, FORMATS[format]);
const dyadic = (mant: bigint, exp: number, negative = false) =>
  exactValueOfDyadic({ negative, mant, exp });

describe('one number style', () => {
  it('ordinary magnitudes in plain digits, exact up to 17 significant digits', () => {
    expect(valueText(view(0x63d0n, 'f16'))).toBe('1000'); // not "1e3"
    expect(valueText(view(0x7en, 'e4m3'))).toBe('448'); // not "4.5e2"
    expect(valueText(view(0x7bffn, 'f16'))).toBe('65504');
    expect(valueText(view(0x2e66n, 'f16'))).toBe('0.0999755859375');
    expect(valueText(view(0x8800n, 'f16'))).toBe('-0.0001220703125');
    // 0.100000001490116119384765625: 17 digits, cut (the 17 digits tell every f32 and f64 apart).
    expect(valueText(view(0x3dcccccdn, 'f32'))).toBe('0.10000000149011611…');
  });
  it('scientific only far from 1, with the digits that identify the value', () => {
    expect(valueText(view(0x0001n, 'f16'))).toBe('5.9604644775390625e-8'); // not "6e-8"
    expect(valueText(view(0x0400n, 'f16'))).toBe('6.103515625e-5');
    expect(valueText(view(0x7f7fffffn, 'f32'))).toBe('3.4028234663852885…e38');
    expect(valueText(view(0x4e6e6b28n, 'f32'))).toBe('1e9'); // 10^9: past the positional range
    expect(exactText(dyadic(123456789n, 0))).toBe('123456789');
  });
  it('signs, zeros, infinities and NaN; hex as the trace writes it', () => {
    expect(valueText(view(0x8000n, 'f16'))).toBe('-0');
    expect(valueText(view(0x0000n, 'f16'))).toBe('+0');
    expect(valueText(view(0xfc00n, 'f16'))).toBe('-inf');
    expect(valueText(view(0x7c00n, 'f16'))).toBe('+inf');
    expect(valueText(view(0x7fffn, 'f16'))).toBe('NaN 0x7fff');
    expect(signedText(dyadic(3n, -2))).toBe('+0.75');
    expect(signedText(dyadic(3n, -2, true))).toBe('-0.75');
    expect(doubleText(0.5)).toBe('0.5');
    expect(doubleText(1e-7)).toBe('1e-7');
    expect(doubleText(-0)).toBe('0');
  });
  it('ulps: whole numbers whole, others to four significant digits, signed', () => {
    expect(ulpsText(-16)).toBe('-16 ulps');
    expect(ulpsText(-1024)).toBe('-1024 ulps');
    expect(ulpsText(0.25)).toBe('+0.25 ulp');
    expect(ulpsText(1)).toBe('+1 ulp');
    expect(ulpsText(0)).toBe('0 ulp');
    expect(ulpsText(2 / 3)).toBe('+0.6667 ulp');
    expect(ulpsText(-9.765625e-4)).toBe('-0.0009766 ulp');
  });
});

describe('the summary sentence, read off the steps', () => {
  const summary = (form: string, registers: Registers) => summaryOf(evaluate(form, registers));
  it('a tie', () => {
    // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: to the even one, 1.
    expect(summary('add.rn.f16', { a: 0x3c00n, b: 0x1000n })).toBe(
      '1.00048828125 is halfway between 1 and 1.0009765625: the tie goes to the even one, 1; error -0.00048828125 = -0.5 ulp',
    );
  });
  it('an overflow', () => {
    expect(summary('add.rn.f16', { a: 0x7bffn, b: 0x5000n })).toBe(
      'the exact sum 65536 is above the largest f16 (65504): +inf under .rn',
    );
    // bf16's largest finite value doubled is past binary32's: .rz keeps the largest finite.
    expect(summary('fma.rz.f32.bf16', { a: 0x7f7fn, b: 0x4000n, c: 0n })).toMatch(
      /^the exact a × b \+ c .* is above the largest f32 \(.*\): the largest finite value .* under \.rz$/,
    );
    expect(summary('add.rn.f16', { a: 0xfbffn, b: 0xd000n })).toBe(
      'the exact sum -65536 is below the most negative f16 (-65504): -inf under .rn',
    );
  });
  it('an invalid operation', () => {
    expect(summary('add.f16', { a: 0x7c00n, b: 0xfc00n })).toBe(
      '∞ − ∞: invalid, canonical NaN 0x7fff',
    );
  });
  it('a flush', () => {
    expect(summary('mul.ftz.f16', { a: 0x8400n, b: 0x3800n })).toMatch(/\.ftz flushes it to -0$/);
  });
  it('an approximate op: the allowed set, not one answer', () => {
    expect(summary('tanh.approx.f16', { a: 0x3c00n })).toBe(
      'hardware may return any of 2 values from 0.76123046875 to 0.76171875; this model gives the correctly rounded 0.76171875',
    );
  });
  it('x2 lanes', () => {
    expect(summary('add.rn.f16x2', { a: 0x3c00_3c00n, b: 0x3c00_3c00n })).toBe(
      'both lanes: 2 is exact in f16: no rounding',
    );
  });
  it('min, neg, .oob', () => {
    expect(summary('min.f16', { a: 0x7e00n, b: 0x3c00n })).toBe(
      'min(NaN 0x7e00, 1): a is NaN, so the result is b = 1',
    );
    expect(summary('neg.f16', { a: 0x3c00n })).toBe('neg(1) = -1');
    expect(summary('fma.rn.oob.f16', { a: 0x3c00n, b: 0x7ff7n, c: 0x3c00n })).toBe(
      'b holds the OOB-NaN pattern 0x7ff7: .oob gives +0',
    );
  });
  it('cvt: .satfinite, a NaN into a format without one, .rs, ue8m0', () => {
    expect(summary('cvt.rn.satfinite.e4m3x2.f32', { a: 0x43fa0000n, b: 0x40880000n })).toBe(
      'element 0: the exact value 500 is above the largest e4m3 (448); .satfinite clamps it to 448. element 1: 4.25 is halfway between 4 and 4.5: the tie goes to the even one, 4; error -0.25 = -0.5 ulp',
    );
    expect(summary('cvt.rn.satfinite.e2m1x2.f32', { a: 0x7fc00000n, b: 0xbf000000n })).toBe(
      'element 0: a NaN, which e2m1 cannot hold; .satfinite gives 6 (e2m1 has no NaN). element 1: -0.5 is exact in e2m1: no rounding',
    );
    expect(
      summary('cvt.rs.satfinite.e2m1x4.f32', {
        a: 0x40880000n,
        b: 0x40880000n,
        e: 0x3e800000n,
        f: 0x3e800000n,
        rbits: 0x80ff7f01n,
      }),
    ).toMatch(
      /^element 0: 4\.25 rounds down to 4 \(\.rs: the random bits do not carry\).*element 2: 0\.25 rounds up to 0\.5 \(\.rs: the random bits carry into the kept bits\)/,
    );
    expect(summary('cvt.rz.ue8m0x2.f32', { a: 0xc0400000n, b: 0n })).toBe(
      'element 0: ue8m0 has no sign: the magnitude is converted; 3 rounds down to 2 (.rz: toward zero); error -1 = -0.5 ulp. element 1: ue8m0 has no zero: its least value 5.8774717541114375…e-39 (0x00)',
    );
    expect(summary('cvt.rp.ue8m0x2.f32', { a: 0x7f7fffffn, b: 0n })).toMatch(
      /^element 0: the exact value .* is above the largest ue8m0 \(.*\): NaN 0xff \(ue8m0 has no infinity\) under \.rp\./,
    );
  });
});

describe('the unfused sequence in words', () => {
  const words = (form: string, registers: Registers) => {
    const c = compareWith(form, registers, { kind: 'unfused' });
    if (c.b.kind !== 'unfused') throw new Error('refused');
    return { summary: unfusedSummary(c.b.sequence), why: whyText(c.b.sequence) };
  };
  it('half forms: the product t, then the sum d, each read off its own trace', () => {
    expect(words('fma.rn.f16', { a: 0x3c01n, b: 0x3c01n, c: 0xbc02n })).toEqual({
      summary:
        't: 1.0019540786743164… rounds down to 1.001953125 (.rn: below the halfway point); error -9.5367431640625e-7 = -0.0009766 ulp; d: the exact sum is 0, which is +0 by the sign rule',
      why: 'mul rounds a × b to f16 (t − a × b = -9.5367431640625e-7); c cancels most of the product, so that rounding error is a large part of what is left',
    });
  });
  it('mixed forms: the binary32 steps, and what .sat did', () => {
    expect(words('fma.rn.sat.f32.bf16', { a: 0x3fc0n, b: 0x4000n, c: 0x3f800000n }).summary).toBe(
      't: 3 is exact in f32: no rounding; d: 4 is exact in f32: no rounding; .sat clamps it to 1',
    );
    expect(words('fma.rz.f32.f16', { a: 0x7c00n, b: 0n, c: 0n }).summary).toBe(
      't: 0 × ∞: invalid, canonical NaN 0x7fffffff; d: a NaN operand gives the canonical NaN 0x7fffffff',
    );
    expect(words('fma.rn.f32.f16', { a: 0x3c01n, b: 0x3c01n, c: 0xbf802000n }).summary).toMatch(
      /^t: 1\.0019540786743164… is exact in f32: no rounding; d: /,
    );
    expect(words('fma.rp.f32.bf16', { a: 0x0001n, b: 0x0001n, c: 0x80000001n }).summary).toMatch(
      /^t: \S+ rounds up to \S+ \(\.rp: toward \+∞\); .*; d: the exact sum is 0, which is \+0 by the sign rule$/,
    );
  });
  it('why, lane by lane, and an intermediate overflow', () => {
    expect(words('fma.rn.f16x2', { a: 0x3c013c00n, b: 0x3c013c00n, c: 0xbc02bc00n }).why).toMatch(
      /^lane 1: mul rounds a × b to f16 \(t − a × b = -9\.5367431640625e-7\); c cancels/,
    );
    expect(words('fma.rn.f16', { a: 0x7bffn, b: 0x4000n, c: 0xfbffn }).why).toBe(
      'the product overflows on its own (t = ∞), though a × b + c fits',
    );
    expect(words('fma.rn.f16', { a: 0x3c00n, b: 0x3c00n, c: 0n }).why).toBe('');
  });
});

describe('compare mode in words', () => {
  it('says how far apart the results are, in ulps of A’s format at A’s result', () => {
    expect(
      verdictText(compare('fma.rn.f16', { a: 0x3c01n, b: 0x3c01n, c: 0xbc02n }, 'unfused')),
    ).toBe("B differs from A: B − A = -16 ulps of f16 at A's result.");
    // 0.1 + 0.1 in f16 and, carried, in bf16: 2 ulps of f16.
    expect(verdictText(compare('add.rn.f16', { a: 0x2e66n, b: 0x2e66n }, 'add.rn.bf16'))).toBe(
      "B differs from A: B − A = +2 ulps of f16 at A's result.",
    );
    expect(verdictText(compare('add.f16', { a: 0x3c00n, b: 0x4000n }, 'add.rn.f16'))).toBe(
      'Same result: B gives the same bits as A.',
    );
    expect(verdictText(compare('add.f16', { a: 0x3c00n, b: 0x4000n }, 'add.rn.bf16'))).toBe(
      'Same value: B gives the value A gives, in its own format (bf16).',
    );
    expect(verdictText(compare('add.rn.f16', { a: 0x7bffn, b: 0x7bffn }, 'add.rn.f32.f16'))).toBe(
      'B differs from A: A is +inf, B is 131008: no finite difference.',
    );
    expect(verdictText(compare('fma.rn.relu.f16', { a: 0n, b: 0n, c: 0n }, 'unfused'))).toMatch(
      /^No B: fma\.rn\.relu\.f16: \.relu has no unfused variant/,
    );
    expect(verdictText(compare('fma.rz.bf16', { a: 0n, b: 0n, c: 0n }, 'unfused'))).toBe(
      'No B: fma.rz.bf16 has no unfused variant: PTX has no mul.rz.bf16',
    );
    // 1 + −1: +0 under .rn, −0 under .rm.
    expect(verdictText(compare('add.rn.f32.f16', { a: 0n, c: 0n }, 'add.rm.f32.f16'))).toBe(
      'Same result: B gives the same bits as A.',
    );
    expect(
      verdictText(compare('add.rn.f32.f16', { a: 0x3c00n, c: 0xbf800000n }, 'add.rm.f32.f16')),
    ).toBe('Same value, other bits: B gives A’s value with the other sign of zero.');
  });

  it('issue 23: the headline and the errors count the same ulp', () => {
    const c = compare('fma.rn.f16', { a: 0x2e66n, b: 0x4200n, c: 0xb4cdn }, 'unfused');
    const [e] = c.elements;
    expect(verdictText(c)).toBe("B differs from A: B − A = -1024 ulps of f16 at A's result.");
    expect(errorText(e!.a.error, e!.unit)).toBe('exact');
    expect(bErrorText(c, e!)).toBe("-0.0001220703125 = -1024 ulps of f16 at A's result");
  });

  it('element by element: only those that differ; B’s error where it computes another operation', () => {
    expect(
      verdictText(compare('add.rn.f16x2', { a: 0x2e663c00n, b: 0x2e661000n }, 'add.rn.bf16x2')),
    ).toBe("B differs from A: lane 1: B − A = +2 ulps of f16 at A's result.");
    const cvt = compare(
      'cvt.rn.satfinite.e4m3x2.f32',
      { a: 0x43fa0000n, b: 0x40880000n },
      'cvt.rn.satfinite.e5m2x2.f32',
    );
    expect(verdictText(cvt)).toBe(
      "B differs from A: element 0: B − A = +2 ulps of e4m3 at A's result.",
    );
    expect(
      cvt.elements.map((e) => [
        errorText(e.a.error, e.unit),
        bErrorText(cvt, e),
        differenceText(e),
      ]),
    ).toEqual([
      [
        "-52 = -1.625 ulps of e4m3 at A's result",
        "+12 = +0.375 ulp of e4m3 at A's result",
        "B − A = +2 ulps of e4m3 at A's result",
      ],
      [
        "-0.25 = -0.5 ulp of e4m3 at A's result",
        "-0.25 = -0.5 ulp of e4m3 at A's result",
        'the same value',
      ],
    ]);
    const other = compare('add.rn.f16', { a: 0x3c00n, b: 0x3c00n }, 'mul.rn.f16');
    expect(bErrorText(other, other.elements[0]!)).toBe(
      'not measured: B computes another operation',
    );
    const fewer = compare(
      'cvt.rs.satfinite.e2m1x4.f32',
      { a: 0n, b: 0n, e: 0n, f: 0n, rbits: 0n },
      'cvt.rn.satfinite.e2m1x2.f32',
    );
    expect(differenceText(fewer.elements[3]!)).toBe('B has no element 3');
  });

  it('says what carrying an input did', () => {
    const words = (a: string, registers: Registers, b: string) => {
      const c = compare(a, registers, b);
      if (c.b.kind !== 'form') throw new Error('not a form');
      const bForm = c.b.form;
      return c.b.carried.inputs.map((i) => carriedText(i, bForm));
    };
    expect(words('add.rn.f16', { a: 0x2e66n, b: 0x3c00n }, 'add.rn.bf16')).toEqual([
      'a: 0.0999755859375 (f16 0x2e66) is not a bf16 value: it becomes the nearest, 0.10009765625 (bf16 0x3dcd) (round to nearest even)',
      'b: 1 (f16 0x3c00) is exactly 1 (bf16 0x3f80)',
    ]);
    expect(words('neg.f16', { a: 0x7e01n }, 'neg.bf16')[0]).toBe(
      'a: NaN (f16 0x7e01) is a NaN: B gets the canonical NaN NaN (bf16 0x7fff) (payloads do not carry)',
    );
    expect(words('add.f16', { a: 0n, b: 0n }, 'fma.rn.f16')[2]).toBe(
      'c: A has no operand in this role; B gets +0 (f16 0x0000)',
    );
    expect(words('cvt.rn.f16x2.e4m3x2', { a: 0x7e7fn }, 'cvt.rn.f16x2.e2m1x2')).toEqual([
      'a element 0: 448 (e4m3 0x7e) is past the largest e2m1 value, and e2m1 has no infinity: it becomes 6 (e2m1 0x7)',
      'a element 1: NaN (e4m3 0x7f) is a NaN and e2m1 has none: B gets +0 (e2m1 0x0)',
    ]);
    expect(words('add.rn.bf16', { a: 0x4789n, b: 0n }, 'add.rn.f16')[0]).toBe(
      'a: 70144 (bf16 0x4789) is past the largest f16 value: it becomes +inf (f16 0x7c00)',
    );
    expect(
      words('cvt.rn.satfinite.e2m1x2.f32', { a: 0xc0400000n, b: 0n }, 'cvt.rn.f16x2.e4m3x2')[0],
    ).toMatch(/^a element 0: -3 \(f32 0xc0400000\) is exactly -3 \(e4m3 0xc4\)$/);
    // One value into a form of two ue8m0 inputs: its second element reads A's only one again.
    expect(words('cvt.rn.f16.f32', { a: 0xc0400000n }, 'cvt.rn.bf16x2.ue8m0x2')[1]).toBe(
      'a element 1: -3 (f32 0xc0400000) is negative and ue8m0 has no sign: it becomes its least value, 5.8774717541114375…e-39 (ue8m0 0x00); A has fewer elements, so B reads its last one again',
    );
  });

  it('says what B’s random bits are', () => {
    const c = compare(
      'cvt.rn.satfinite.e2m1x2.f32',
      { a: 0n, b: 0n },
      'cvt.rs.satfinite.e2m1x4.f32',
    );
    expect(c.b.kind === 'form' && rbitsText(c.b.carried)).toBe(
      'rbits: A has no random bits; B reads 0x00000000 (no carry: an inexact value rounds toward zero)',
    );
    const both = compare(
      'cvt.rs.satfinite.e4m3x4.f32',
      { a: 0n, b: 0n, e: 0n, f: 0n, rbits: 0x80ff7f01n },
      'cvt.rs.satfinite.e2m1x4.f32',
    );
    expect(both.b.kind === 'form' && rbitsText(both.b.carried)).toBe(
      "rbits: A's random bits, carried as bits (0x80ff7f01)",
    );
  });

  it('labels the one-click variants', () => {
    expect(
      quickVariants('cvt.rn.satfinite.e4m3x2.f32').map((v) => quickVariantLabel(v.change)),
    ).toEqual(
      expect.arrayContaining([
        '.e5m2x2',
        '.e2m1x2',
        '.e2m3x2',
        '.e3m2x2',
        '.ue8m0x2 (.rz)',
        '.relu',
      ]),
    );
    expect(quickVariants('fma.rn.f16').map((v) => quickVariantLabel(v.change))).toEqual([
      '.ftz',
      '.bf16',
      '.f32.f16',
      'unfused (mul, then add)',
    ]);
    expect(quickVariants('fma.rn.ftz.f16').map((v) => quickVariantLabel(v.change))).toContain(
      'without .ftz',
    );
  });
});

describe('bits by field', () => {
  it('marks the differing bits, field by field', () => {
    const groups = bitGroups(view(0x0010n, 'f16'), '0x0000');
    expect(groups.map((g) => g.bits.map((b) => b.value).join(''))).toEqual([
      '0',
      '00000',
      '0000010000',
    ]);
    const marked = groups.flatMap((g) => g.bits.map((b) => b.differs));
    expect(marked.filter(Boolean)).toHaveLength(1);
    expect(marked.indexOf(true)).toBe(15 - 4); // bit 4, counted from the sign
    expect(
      bitGroups(view(0x3f80n, 'bf16'), null).every((g) => g.bits.every((b) => !b.differs)),
    ).toBe(true);
    expect(bitCount('0xffff0001')).toBe(17);
    expect(bitCount('0x0')).toBe(0);
  });

  it('every format: the whole width, the differing bits marked', () => {
    let seed = 99;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (const format of FORMAT_NAMES) {
      const f = FORMATS[format];
      for (let k = 0; k < 50; k++) {
        const pick = () =>
          BigInt.asUintN(
            f.width,
            (BigInt(next()) << 33n) | (BigInt(next()) << 2n) | BigInt(next() & 3),
          );
        const [x, y] = [pick(), pick()];
        const groups = bitGroups(view(x, format), `0x${y.toString(16)}`);
        const bits = groups.flatMap((g) => g.bits);
        expect(bits.map((b) => b.value).join('')).toBe(x.toString(2).padStart(f.width, '0'));
        expect(bits.filter((b) => b.differs)).toHaveLength(
          [...(x ^ y).toString(2)].filter((c) => c === '1').length,
        );
        // ue8m0 and ue4m3 have no sign; every other format's first field is its sign bit.
        expect(groups[0]!.field).toBe(f.signed ? 'sign' : 'exponent');
      }
    }
  });
});

describe('reference values in words', () => {
  it('the exact value, f32 and f64 math, the error of d', () => {
    const [r] = referenceValues(evaluate('add.f16', { a: 0x3c00n, b: 0x0001n }));
    expect(referenceLine(r!)).toBe(
      'exact 1.0000000596046447…; f32 math gives 1 (0x3f800000); f64 math gives 1.0000000596046447… (0x3ff0000010000000)',
    );
    expect(ownErrorText(r!.error)).toBe('-5.9604644775390625e-8 = -6.104e-5 ulp');
    const [t] = referenceValues(evaluate('tanh.approx.f16', { a: 0x3c00n }));
    expect(referenceLine(t!)).toMatch(
      /^f32 math gives 0\.76159417629241943… \(0x3f42f7d6\); f64 math gives /,
    );
    const [inf] = referenceValues(evaluate('add.f16', { a: 0x7c00n, b: 0n }));
    expect(ownErrorText(inf!.error)).toBe('none to measure (a NaN or an infinity)');
    const [exact] = referenceValues(evaluate('add.f16', { a: 0x3c00n, b: 0x3c00n }));
    expect(ownErrorText(exact!.error)).toBe('exact');
  });
});

describe('an approximate result', () => {
  it('the allowed set, as the summary says it', () => {
    const [step] = approxSteps(evaluate('tanh.approx.f16', { a: 0x3c00n }));
    expect(allowedText(step!)).toBe(
      'hardware may return any of 2 values from 0.76123046875 to 0.76171875',
    );
    expect(approxSteps(evaluate('add.f16', { a: 0n, b: 0n }))).toEqual([undefined]);
    expect(findForm('tanh.approx.f16')).toBeDefined();
  });
});
