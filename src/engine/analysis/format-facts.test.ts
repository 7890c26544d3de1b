import { describe, expect, it } from 'vitest';
import { FORMAT_NAMES } from '../../catalog/formats.ts';
import { REF_CVT_FORMATS, decodeCvt } from '../../../tests/reference/cvt-formats.ts';
import { compare, sub, type Rational } from '../../../tests/reference/rational.ts';
import { formatFacts, formatValues } from './format-facts.ts';

describe('format pages as data', () => {
  it('describe every format', () => {
    for (const name of FORMAT_NAMES) expect(formatFacts(name).name).toBe(name);
    expect(formatFacts('e4m3')).toMatchObject({
      width: 8,
      bias: 7,
      hasInfinity: false,
      nan: 'all-ones',
      nanPatterns: ['0x7f', '0xff'],
      canonicalNaN: '0x7f',
      infinity: null,
      maxNorm: { bits: '0x7e', value: { decimal: '448' } },
      lowest: { bits: '0xfe', value: { decimal: '-448' } },
      leastSubnormal: { bits: '0x01', value: { decimal: '0.001953125' } },
      largestSubnormal: { bits: '0x07', value: { decimal: '0.013671875' } },
      leastNormal: { bits: '0x08', value: { decimal: '0.015625' } },
      fields: [
        { name: 'sign', hi: 7, lo: 7 },
        { name: 'exponent', hi: 6, lo: 3 },
        { name: 'mantissa', hi: 2, lo: 0 },
      ],
    });
    expect(formatFacts('ue8m0')).toMatchObject({
      signed: false,
      hasZero: false,
      hasSubnormals: false,
      leastSubnormal: null,
      leastNormal: { bits: '0x00', value: { rational: '1 × 2^-127' } },
      nanPatterns: ['0xff'],
      fields: [{ name: 'exponent', hi: 7, lo: 0 }],
    });
    expect(formatFacts('e2m1')).toMatchObject({
      nan: 'none',
      nanPatterns: [],
      canonicalNaN: null,
      maxNorm: { value: { decimal: '6' } },
    });
    expect(formatFacts('f64')).toMatchObject({
      bias: 1023,
      emin: -1022,
      emax: 1023,
      nan: 'exponent-all-ones',
      maxNorm: { bits: '0x7fefffffffffffff' },
      infinity: '0x7ff0000000000000',
      canonicalNaN: '0x7fffffffffffffff',
    });
    // ue4m3: seven bits in a byte, no sign, NaN only 0x7f.
    expect(formatFacts('ue4m3')).toMatchObject({
      width: 7,
      slotBits: 8,
      signed: false,
      nanPatterns: ['0x7f'],
      maxNorm: { bits: '0x7e', value: { decimal: '448' } },
      lowest: { bits: '0x00' },
    });
    expect(formatFacts('tf32')).toMatchObject({ width: 19, slotBits: 32, manBits: 10 });
    expect(formatFacts('bf16').namedValues.map((v) => v.id)).toContain('snan');
  });

  it('list every value of the small formats with the gap to the next', () => {
    const e4m3 = formatValues('e4m3');
    expect(e4m3).toHaveLength(256);
    expect(e4m3[0x7e]).toMatchObject({ bits: '0x7e', class: 'normal', gapToNext: null });
    expect(e4m3[0x7e]!.value.decimal).toBe('448');
    expect(e4m3[0x7d]!.gapToNext!.decimal).toBe('32');
    expect(e4m3[0x7f]!.class).toBe('qnan');
    expect(e4m3[0x00]!.gapToNext!.decimal).toBe('0.001953125'); // +0 to the least subnormal
    expect(e4m3[0x80]!.gapToNext!.decimal).toBe('0.001953125'); // -0 too
    expect(e4m3[0x81]!.gapToNext!.decimal).toBe('0.001953125'); // -least subnormal to zero
    expect(formatValues('e2m1').map((r) => r.value.decimal)).toEqual([
      '0',
      '0.5',
      '1',
      '1.5',
      '2',
      '3',
      '4',
      '6',
      '-0',
      '-0.5',
      '-1',
      '-1.5',
      '-2',
      '-3',
      '-4',
      '-6',
    ]);
    expect(formatValues('ue8m0')[0xfe]!.gapToNext).toBeNull();
    expect(formatValues('ue4m3')).toHaveLength(128);
    expect(formatValues('e5m2')[0x7b]!.gapToNext).toBeNull(); // MAX_NORM: infinity is next
    expect(() => formatValues('f16')).toThrow(/8 or fewer/);
  });

  it('every value and gap of the formats of 8 bits or fewer agree with the reference formats', () => {
    const small = FORMAT_NAMES.filter((n) => n in REF_CVT_FORMATS && formatFacts(n).width <= 8);
    expect(small.sort()).toEqual(['e2m1', 'e2m3', 'e3m2', 'e4m3', 'e5m2', 'ue4m3', 'ue8m0'].sort());
    for (const name of small) {
      const ref = REF_CVT_FORMATS[name as keyof typeof REF_CVT_FORMATS];
      const rows = formatValues(name);
      const finite = rows
        .map((r, i) => ({ i, v: decodeCvt(BigInt(i), ref) }))
        .filter(
          (p): p is { i: number; v: { kind: 'finite'; q: Rational; negative: boolean } } =>
            p.v.kind === 'finite',
        );
      for (const [i, row] of rows.entries()) {
        const v = decodeCvt(BigInt(i), ref);
        const what = `${name} ${row.bits}`;
        if (v.kind !== 'finite') {
          expect(row.gapToNext, what).toBeNull();
          expect(row.value.kind, what).toBe(v.kind);
          continue;
        }
        expect(row.value.rational.replace(/^-0$/, '0'), what).toBe(dyadicText(v.q));
        // The next value up: the least finite value greater than this one.
        const above = finite.filter((p) => compare(p.v.q, v.q) > 0);
        const next = above.reduce<Rational | null>(
          (m, p) => (m === null || compare(p.v.q, m) < 0 ? p.v.q : m),
          null,
        );
        expect(row.gapToNext?.rational ?? null, what).toBe(
          next === null ? null : dyadicText(sub(next, v.q)),
        );
      }
    }
  });
});

/** "m × 2^e" (m odd) of a rational whose denominator is a power of two: an exact value's `rational`. */
function dyadicText(q: Rational): string {
  if (q.num === 0n) return '0';
  let e = 0;
  let den = q.den;
  while (den > 1n) {
    den >>= 1n;
    e--;
  }
  let num = q.num;
  while (num % 2n === 0n) {
    num /= 2n;
    e++;
  }
  return `${num} × 2^${e}`;
}
