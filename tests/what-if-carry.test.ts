/**
 * Carrying operands between forms by value (src/engine/what-if/carry.ts) against the
 * independent reference's rounding by neighbour search: every 16-bit pattern of each format into
 * each other format, and the role and lane correspondence between forms.
 */
import { describe, expect, it } from 'vitest';
import { findForm } from '../src/catalog/forms.ts';
import { FORMATS } from '../src/engine/formats.ts';
import { carryOperands, convertValue } from '../src/engine/what-if/carry.ts';
import { roundRational } from './reference/neighbour-round.ts';
import { classOf, decode, isNegative, REF_FORMATS } from './reference/ref-formats.ts';

function referenceConvert(bits: number, from: 'f16' | 'bf16', to: 'f16' | 'bf16' | 'f32'): number {
  const src = REF_FORMATS[from];
  const dst = REF_FORMATS[to];
  const cls = classOf(bits, src);
  if (cls === 'qnan' || cls === 'snan') return dst.canonicalNaN;
  if (cls === 'inf') return dst.infBits + (isNegative(bits, src) ? dst.signMask : 0);
  return roundRational(decode(bits, src), 'rn', dst, isNegative(bits, src));
}

const form = (text: string) => {
  const f = findForm(text);
  if (!f) throw new Error(text);
  return f;
};

describe('carrying a value into another format', () => {
  for (const [from, to] of [
    ['f16', 'bf16'],
    ['bf16', 'f16'],
    ['f16', 'f32'],
    ['bf16', 'f32'],
  ] as const) {
    it(`${from} → ${to}: all 65,536 patterns agree with the reference`, () => {
      for (let bits = 0; bits < 65536; bits++) {
        const got = convertValue(bits, FORMATS[from], FORMATS[to]);
        const want = referenceConvert(bits, from, to);
        if (got.bits !== want)
          expect.fail(
            `${from} 0x${bits.toString(16)} → ${to}: 0x${got.bits.toString(16)}, want 0x${want.toString(16)}`,
          );
      }
    });
  }

  it('says whether a value was kept, rounded or a NaN', () => {
    // 0.1 in f16 is 0x2E66 = 0.0999755859375; the nearest bf16 is 0x3DCD = 0.10009765625.
    expect(convertValue(0x2e66, FORMATS.f16, FORMATS.bf16)).toEqual({
      bits: 0x3dcd,
      how: 'rounded',
    });
    expect(convertValue(0x3c00, FORMATS.f16, FORMATS.bf16)).toEqual({ bits: 0x3f80, how: 'exact' });
    expect(convertValue(0x7e01, FORMATS.f16, FORMATS.bf16)).toEqual({ bits: 0x7fff, how: 'nan' });
    expect(convertValue(0x7e01, FORMATS.f16, FORMATS.f16)).toEqual({ bits: 0x7e01, how: 'same' });
    // 70000 is above the largest f16: a bf16 70,144 rounds to +inf in f16.
    expect(convertValue(0x4789, FORMATS.bf16, FORMATS.f16)).toEqual({
      bits: 0x7c00,
      how: 'rounded',
    });
  });
});

describe('carrying the operands of a form', () => {
  it('maps roles: the second term of add is c in the mixed form', () => {
    const carried = carryOperands(form('add.rn.f16'), form('add.rn.f32.f16'), {
      a: 0x3c00,
      b: 0x4000,
    });
    expect(carried.input).toEqual({ a: 0x3c00, b: undefined, c: 0x40000000 });
    expect(carried.lanes.map((l) => [l.operand, l.from?.operand, l.how])).toEqual([
      ['a', 'a', 'same'],
      ['c', 'b', 'exact'],
    ]);
  });

  it('carries lane by lane, and repeats lane 0 into a form with more lanes', () => {
    const packed = carryOperands(form('fma.rn.f16x2'), form('fma.rn.bf16x2'), {
      a: 0x3c00_4000,
      b: 0x3c00_3c00,
      c: 0,
    });
    expect(packed.input.a).toBe(0x3f80_4000);
    const widened = carryOperands(form('add.rn.f16'), form('add.rn.f16x2'), {
      a: 0x4000,
      b: 0x3c00,
    });
    expect(widened.input).toMatchObject({ a: 0x4000_4000, b: 0x3c00_3c00 });
    const narrowed = carryOperands(form('add.rn.f16x2'), form('add.rn.bf16'), {
      a: 0x3c00_4000,
      b: 0,
    });
    expect(narrowed.input.a).toBe(0x4000);
  });

  it('gives +0.0 to a role the first form lacks', () => {
    const carried = carryOperands(form('mul.rn.f16'), form('fma.rn.f16'), { a: 0x4000, b: 0x4000 });
    expect(carried.input.c).toBe(0);
    expect(carried.lanes.find((l) => l.operand === 'c')).toMatchObject({
      how: 'absent',
      from: null,
    });
  });
});
