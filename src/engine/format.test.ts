import { describe, expect, it } from 'vitest';
import {
  FORMATS,
  classify as classifyBits,
  dyadicOfBits,
  nextDown as nextDownBits,
  nextUp as nextUpBits,
  toDouble as toDoubleBits,
  type Format,
} from './format.ts';

/** PTX ISA 5.2.3's formats, checked against values stated independently of the field layout. */

const { e4m3, e5m2, e2m3, e3m2, e2m1, ue8m0, tf32 } = FORMATS;

// The patterns as numbers: these formats are at most 19 bits wide.
const toDouble = (bits: number | bigint, f: Format) => toDoubleBits(BigInt(bits), f);
const classify = (bits: number, f: Format) => classifyBits(BigInt(bits), f);
const nextUp = (bits: number, f: Format) => Number(nextUpBits(BigInt(bits), f));
const nextDown = (bits: number, f: Format) => Number(nextDownBits(BigInt(bits), f));

function patterns(f: Format): number[] {
  return Array.from({ length: 2 ** f.width }, (_, i) => i);
}

describe('the alternate formats as data', () => {
  it('e4m3: no infinity, NaN only at 0x7F and 0xFF, MAX_NORM 448', () => {
    const nans = patterns(e4m3).filter((b) => Number.isNaN(toDouble(b, e4m3)));
    expect(nans).toEqual([0x7f, 0xff]);
    expect(patterns(e4m3).some((b) => classify(b, e4m3) === 'infinity')).toBe(false);
    expect(toDouble(0x7e, e4m3)).toBe(448);
    expect(toDouble(0xfe, e4m3)).toBe(-448);
    expect(toDouble(0x78, e4m3)).toBe(256); // exponent field all ones is a normal binade
    expect(toDouble(0x01, e4m3)).toBe(2 ** -9);
    expect(toDouble(0x08, e4m3)).toBe(2 ** -6);
  });

  it('e5m2: IEEE-like, infinity 0x7C, MAX_NORM 57344', () => {
    expect(toDouble(0x7c, e5m2)).toBe(Infinity);
    expect(toDouble(0x7b, e5m2)).toBe(57344);
    expect(patterns(e5m2).filter((b) => Number.isNaN(toDouble(b, e5m2)))).toEqual([
      0x7d, 0x7e, 0x7f, 0xfd, 0xfe, 0xff,
    ]);
    expect(toDouble(0x01, e5m2)).toBe(2 ** -16);
  });

  it('e2m3, e3m2, e2m1: every pattern finite; MAX_NORM 7.5, 28, 6', () => {
    for (const f of [e2m3, e3m2, e2m1]) {
      for (const b of patterns(f))
        expect(Number.isFinite(toDouble(b, f)), `${f.name} ${b}`).toBe(true);
    }
    expect(toDouble(e2m3.maxBits, e2m3)).toBe(7.5);
    expect(toDouble(e3m2.maxBits, e3m2)).toBe(28);
    expect(toDouble(e2m1.maxBits, e2m1)).toBe(6);
    expect(toDouble(0x01, e2m3)).toBe(0.125);
    expect(toDouble(0x01, e3m2)).toBe(0.0625);
    expect(patterns(e2m1).map((b) => toDouble(b, e2m1))).toEqual([
      0, 0.5, 1, 1.5, 2, 3, 4, 6, -0, -0.5, -1, -1.5, -2, -3, -4, -6,
    ]);
  });

  it('ue8m0: unsigned powers of two 2^-127 … 2^127, NaN 0xFF, no zero', () => {
    for (let e = 0; e < 255; e++) {
      expect(toDouble(e, ue8m0)).toBe(2 ** (e - 127));
      expect(classify(e, ue8m0)).toBe('normal');
      const x = dyadicOfBits(BigInt(e), ue8m0);
      expect(x.mant === 1n && x.exp === e - 127 && !x.negative).toBe(true);
    }
    expect(Number.isNaN(toDouble(0xff, ue8m0))).toBe(true);
  });

  it('tf32: the range of f32 with 10 mantissa bits', () => {
    expect(toDouble(tf32.maxBits, tf32)).toBe((2 - 2 ** -10) * 2 ** 127);
    expect(toDouble(1, tf32)).toBe(2 ** -136);
    expect(toDouble(tf32.infBits!, tf32)).toBe(Infinity);
  });

  it('nextUp and nextDown walk every value of the 8-bit and smaller formats in order', () => {
    for (const f of [e4m3, e5m2, e2m3, e3m2, e2m1, ue8m0]) {
      const finite = patterns(f).filter((b) => Number.isFinite(toDouble(b, f)));
      const distinct = new Set(finite.map((b) => toDouble(b, f))).size;
      let bits = finite.reduce((lo, b) => (toDouble(b, f) < toDouble(lo, f) ? b : lo));
      const seen = [toDouble(bits, f)];
      for (;;) {
        const up = nextUp(bits, f);
        if (up === bits || !Number.isFinite(toDouble(up, f))) break;
        expect(toDouble(up, f) > toDouble(bits, f) || Object.is(toDouble(bits, f), -0)).toBe(true);
        expect(toDouble(nextDown(up, f), f)).toBe(toDouble(bits, f));
        bits = up;
        if (toDouble(bits, f) !== seen.at(-1)) seen.push(toDouble(bits, f));
      }
      expect(seen.length, f.name).toBe(distinct);
      expect(toDouble(bits, f), f.name).toBe(toDouble(f.maxBits, f));
    }
  });
});
