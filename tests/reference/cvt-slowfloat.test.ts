/**
 * The cvt reference model on values worked out by hand from PTX ISA 5.2.3 and 9.7.9.21 (the
 * value tables of the small formats, ties to even, .satfinite, the decisions), so that when the
 * engine agrees with it, that agreement is with something known to be right.
 */
import { describe, expect, it } from 'vitest';
import { refCvtEvaluate } from './cvt-slowfloat.ts';

const f32 = (x: number): bigint => {
  const v = new DataView(new ArrayBuffer(4));
  v.setFloat32(0, x);
  return BigInt(v.getUint32(0));
};
const hex = (d: bigint) => `0x${d.toString(16)}`;
const one = (form: string, a: number) => hex(refCvtEvaluate(form, { a: f32(a) }));
const two = (form: string, a: number, b: number) =>
  hex(refCvtEvaluate(form, { a: f32(a), b: f32(b) }));

describe('the cvt reference on hand-computed values', () => {
  it('e4m3: 500 saturates to 448; 4.25 and 4.75 are ties that go to the even neighbour', () => {
    // e4m3 near 4: 4 (0x48), 4.5 (0x49), 5 (0x4A).
    expect(two('cvt.rn.satfinite.e4m3x2.f32', 500, 4.25)).toBe('0x7e48');
    expect(two('cvt.rn.satfinite.e4m3x2.f32', 4.75, -500)).toBe('0x4afe');
    // 464 lies half way between 448 and 480 (past MAX_NORM): the even neighbour, 448.
    expect(two('cvt.rn.satfinite.e4m3x2.f32', 464, 2 ** -10)).toBe('0x7e00');
    expect(two('cvt.rn.satfinite.e4m3x2.f32', NaN, 2 ** -9)).toBe('0x7f01');
  });

  it('e5m2 and the 6- and 4-bit formats', () => {
    expect(two('cvt.rn.satfinite.e5m2x2.f32', Infinity, 57344)).toBe('0x7b7b');
    // e2m1: 2.5 between 2 (0x4) and 3 (0x5) → 2; 5 between 4 (0x6) and 6 (0x7) → 4.
    expect(two('cvt.rn.satfinite.e2m1x2.f32', 2.5, 5)).toBe('0x46');
    expect(two('cvt.rn.satfinite.e2m1x2.f32', NaN, -7)).toBe('0x7f');
    // e2m3 MAX_NORM 7.5 = 0x1F, e3m2 28 = 0x1F; the two high bits of each byte stay zero.
    expect(two('cvt.rn.satfinite.e2m3x2.f32', 100, -0.125)).toBe('0x1f21');
    expect(two('cvt.rn.satfinite.e3m2x2.f32', 28, 0.0625)).toBe('0x1f01');
  });

  it('ue8m0: a power of two by .rz or .rp, no sign, no zero', () => {
    expect(two('cvt.rp.ue8m0x2.f32', 3, 0)).toBe('0x8100');
    expect(two('cvt.rz.ue8m0x2.f32', -3, 2 ** -140)).toBe('0x8000');
    expect(two('cvt.rp.satfinite.ue8m0x2.f32', 2 ** 127 * 1.5, Infinity)).toBe('0xfefe');
    expect(two('cvt.rp.ue8m0x2.f32', 2 ** 127 * 1.5, NaN)).toBe('0xffff');
  });

  it('f16, tf32 and the integer roundings', () => {
    expect(one('cvt.rn.f16.f32', 65520)).toBe('0x7c00');
    expect(one('cvt.rz.f16.f32', 65520)).toBe('0x7bff');
    expect(one('cvt.rna.tf32.f32', 1 + 2 ** -11)).toBe('0x3f802000');
    expect(one('cvt.rn.tf32.f32', 1 + 2 ** -11)).toBe('0x3f800000');
    expect(one('cvt.rni.f32.f32', 2.5)).toBe('0x40000000');
    expect(one('cvt.rni.f32.f32', 3.5)).toBe('0x40800000');
    expect(one('cvt.rmi.f32.f32', -0.5)).toBe('0xbf800000');
    expect(one('cvt.rzi.f32.f32', -0.5)).toBe('0x80000000');
  });

  it('.rs: the carry of the random bits added to the discarded ones', () => {
    // 1 + 2^-11 + 2^-13 to f16 discards 1010000000000 (13 bits); +0x1000 carries, +0x0bff not.
    const a = f32(1 + 2 ** -11 + 2 ** -13);
    expect(hex(refCvtEvaluate('cvt.rs.f16x2.f32', { a, b: a, rbits: 0x10000bffn }))).toBe(
      '0x3c013c00',
    );
  });
});
