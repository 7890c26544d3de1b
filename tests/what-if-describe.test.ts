import { describe, expect, it } from 'vitest';
import { findForm } from '../src/catalog/index.ts';
import { evaluate } from '../src/engine/evaluate.ts';
import { carryOperands } from '../src/engine/what-if/carry.ts';
import { compareWith, parseVariant } from '../src/engine/what-if/compare.ts';
import {
  allowedText,
  approxSteps,
  bitGroups,
  carriedText,
  differingBitCount,
  ulpsText,
  verdictText,
} from '../src/engine/what-if/describe.ts';

const compare = (form: string, input: { a: number; b?: number; c?: number }, vs: string) => {
  const variant = parseVariant(vs);
  if ('error' in variant) throw new Error(variant.error);
  return compareWith(form, input, variant);
};

describe('compare mode in words', () => {
  it('says how far apart the results are, in ulps of each format', () => {
    expect(verdictText(compare('fma.rn.f16', { a: 0x3c01, b: 0x3c01, c: 0xbc02 }, 'unfused'))).toBe(
      'B differs from A: B − A = −16 ulps of f16.',
    );
    // 0.1 + 0.1 in f16 and, carried, in bf16: 2 ulps of f16, a quarter of a bf16 ulp.
    expect(verdictText(compare('add.rn.f16', { a: 0x2e66, b: 0x2e66 }, 'add.rn.bf16'))).toBe(
      'B differs from A: B − A = +2 ulps of f16 = +0.25 ulp of bf16.',
    );
    expect(verdictText(compare('add.f16', { a: 0x3c00, b: 0x4000 }, 'add.rn.f16'))).toBe(
      'Same result: B gives the same bits as A.',
    );
    // 1 + 2 = 3 in both formats: the same value in other registers.
    expect(verdictText(compare('add.f16', { a: 0x3c00, b: 0x4000 }, 'add.rn.bf16'))).toBe(
      'Same value: B gives the value A gives, in its own format (bf16).',
    );
    // 65504 + 65504: +inf in f16; in f32 arithmetic (the mixed form) a finite 131008.
    expect(verdictText(compare('add.rn.f16', { a: 0x7bff, b: 0x7bff }, 'add.rn.f32.f16'))).toBe(
      'B differs from A: A is inf, B is 131008: no finite difference.',
    );
    expect(verdictText(compare('fma.rn.relu.f16', { a: 0, b: 0, c: 0 }, 'unfused'))).toMatch(
      /^No B: fma\.rn\.relu\.f16: \.relu has no unfused variant/,
    );
  });

  it('x2 registers: lane by lane', () => {
    const c = compare('add.rn.f16x2', { a: 0x2e663c00, b: 0x2e661000 }, 'add.rn.bf16x2');
    expect(verdictText(c)).toBe(
      'B differs from A: lane 0: the same value; lane 1: B − A = +2 ulps of f16 = +0.25 ulp of bf16.',
    );
  });

  it('marks the differing bits field by field', () => {
    const groups = bitGroups(0x0010, 'f16', 0x0000);
    expect(groups.map((g) => g.bits.map((b) => b.value).join(''))).toEqual([
      '0',
      '00000',
      '0000010000',
    ]);
    const marked = groups.flatMap((g) => g.bits.map((b) => b.differs));
    expect(marked.filter(Boolean)).toHaveLength(1);
    expect(marked.indexOf(true)).toBe(15 - 4); // bit 4, counted from the sign
    expect(bitGroups(0x3f80, 'bf16', null).every((g) => g.bits.every((b) => !b.differs))).toBe(
      true,
    );
    expect(differingBitCount(0xffff0001)).toBe(17);
    expect(differingBitCount(0)).toBe(0);
  });

  it('says what carrying an operand did', () => {
    const carried = carryOperands(findForm('add.rn.f16')!, findForm('add.rn.bf16')!, {
      a: 0x2e66,
      b: 0x3c00,
    });
    expect(carried.lanes.map((l) => carriedText(l, 1))).toEqual([
      'a: 0.0999755859375 (f16 0x2e66) is not a bf16 value: it becomes the nearest, 0.10009765625 (bf16 0x3dcd) (round to nearest even)',
      'b: 1 (f16 0x3c00) is exactly 1 (bf16 0x3f80)',
    ]);
    const nan = carryOperands(findForm('neg.f16')!, findForm('neg.bf16')!, { a: 0x7e01 });
    expect(carriedText(nan.lanes[0]!, 1)).toMatch(
      /is a NaN: B gets the canonical NaN .* \(bf16 0x7fff\)/,
    );
    const absent = carryOperands(findForm('add.f16')!, findForm('fma.rn.f16')!, { a: 0, b: 0 });
    expect(carriedText(absent.lanes[2]!, 1)).toBe(
      'c: A has no operand in this role; B gets 0 (f16 0x0000)',
    );
  });

  it('writes ulps with a true minus sign and four digits', () => {
    expect(ulpsText(-16)).toBe('−16 ulps');
    expect(ulpsText(0.25)).toBe('+0.25 ulp');
    expect(ulpsText(1)).toBe('+1 ulp');
    expect(ulpsText(0)).toBe('0 ulp');
    expect(ulpsText(2 / 3)).toBe('+0.6667 ulp');
  });

  it('an approximate result: the allowed set, as the summary says it', () => {
    const [step] = approxSteps(evaluate('tanh.approx.f16', { a: 0x3c00 }));
    expect(allowedText(step!)).toBe(
      'hardware may return any of 2 values from 0.76123046875 to 0.76171875',
    );
    expect(approxSteps(evaluate('add.f16', { a: 0, b: 0 }))).toEqual([undefined]);
  });
});
