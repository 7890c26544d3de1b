import { describe, expect, it } from 'vitest';
import { FORMAT_NAMES } from '../../catalog/formats.ts';
import { REF_CVT_FORMATS, decodeCvt } from '../../../tests/reference/cvt-formats.ts';
import { compare, pow2, rational, type Rational } from '../../../tests/reference/rational.ts';
import { classify, FORMATS, isNegative, nextDown, nextUp, toDouble } from '../format.ts';
import { NAMED_VALUE_IDS, namedValueBits, namedValues } from './named-values.ts';

const ids = (format: (typeof FORMAT_NAMES)[number]) => namedValues(format).map((v) => v.id);

describe('named special values', () => {
  it('f16, bf16 and f32 have all fifteen, with the bits the quick picks have always had', () => {
    for (const format of ['f16', 'bf16', 'f32'] as const)
      expect(ids(format)).toEqual([...NAMED_VALUE_IDS]);
    const bf16 = Object.fromEntries(namedValues('bf16').map((v) => [v.id, v.bits]));
    expect(bf16).toMatchObject({
      '+max-norm': 0x7f7fn,
      '-least-normal': 0x8080n,
      nan: 0x7fffn,
      snan: 0x7f81n,
    });
    expect(namedValues('f16').map((v) => v.bits)).toEqual(
      [
        0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x8400, 0x3c00, 0xbc00, 0x7bff, 0xfbff,
        0x7c00, 0xfc00, 0x7fff, 0x7c01,
      ].map(BigInt),
    );
  });

  it('each format has those it has', () => {
    // e4m3: no infinity, one NaN (quiet). e2m1: no NaN; its largest subnormal is its least (0.5)
    // and its least normal is 1.
    expect(ids('e4m3')).not.toContain('+inf');
    expect(ids('e4m3')).not.toContain('snan');
    expect(ids('e2m1')).toEqual([
      '+zero',
      '-zero',
      '+least-subnormal',
      '-least-subnormal',
      '+least-normal',
      '-least-normal',
      '+max-norm',
      '-max-norm',
    ]);
    // ue8m0: no sign, no zero, no subnormal; its least value 2^-127 is pattern 0x00.
    expect(namedValues('ue8m0')).toEqual([
      { id: '+least-normal', bits: 0x00n },
      { id: '+one', bits: 0x7fn },
      { id: '+max-norm', bits: 0xfen },
      { id: 'nan', bits: 0xffn },
    ]);
    expect(namedValues('ue4m3').map((v) => v.id)).toEqual([
      '+zero',
      '+least-subnormal',
      '+largest-subnormal',
      '+least-normal',
      '+one',
      '+max-norm',
      'nan',
    ]);
    expect(namedValueBits('nan', FORMATS.f64)).toBe(0x7fffffffffffffffn);
    expect(namedValueBits('-inf', FORMATS.e4m3)).toBeNull();
  });

  it('every named value of every format is what its id says', () => {
    for (const name of FORMAT_NAMES) {
      const f = FORMATS[name];
      for (const { id, bits } of namedValues(name)) {
        const what = `${name} ${id}`;
        const cls = classify(bits, f);
        const value = toDouble(bits, f);
        if (id !== 'nan' && id !== 'snan') expect(isNegative(bits, f), what).toBe(id[0] === '-');
        switch (id) {
          case '+zero':
          case '-zero':
            expect(cls, what).toBe('zero');
            break;
          case '+least-subnormal':
          case '-least-subnormal':
            expect(cls, what).toBe('subnormal');
            expect(classify(id[0] === '+' ? nextDown(bits, f) : nextUp(bits, f), f), what).toBe(
              'zero',
            );
            break;
          case '+largest-subnormal':
            expect(cls, what).toBe('subnormal');
            expect(classify(nextUp(bits, f), f), what).toBe('normal');
            break;
          case '+least-normal':
          case '-least-normal': {
            expect(cls, what).toBe('normal');
            const below = classify(id[0] === '+' ? nextDown(bits, f) : nextUp(bits, f), f);
            expect(
              below === 'subnormal' || below === 'zero' || nextDown(bits, f) === bits,
              what,
            ).toBe(true);
            break;
          }
          case '+one':
          case '-one':
            expect(value, what).toBe(id[0] === '+' ? 1 : -1);
            break;
          case '+max-norm':
          case '-max-norm': {
            const beyond = id[0] === '+' ? nextUp(bits, f) : nextDown(bits, f);
            expect(beyond === bits || classify(beyond, f) === 'infinity', what).toBe(true);
            break;
          }
          case '+inf':
          case '-inf':
            expect(cls, what).toBe('infinity');
            break;
          case 'nan':
            expect(cls, what).toBe('qnan');
            break;
          case 'snan':
            expect(cls, what).toBe('snan');
            break;
        }
      }
    }
  });

  it('their values agree with the reference formats (PTX ISA 5.2.3, by the textbook formula)', () => {
    const expected = (name: keyof typeof REF_CVT_FORMATS, id: string): Rational | null => {
      const ref = REF_CVT_FORMATS[name];
      const bias = 2 ** (ref.exponentBits - 1) - 1;
      const t = ref.fractionBits;
      const emin = ref.specials === 'ue8m0' ? -127 : 1 - bias;
      switch (id.slice(1)) {
        case 'zero':
          return rational(0n);
        case 'least-subnormal':
          return pow2(emin - t);
        case 'largest-subnormal':
          return rational(2n ** BigInt(t) - 1n, 2n ** BigInt(t - emin));
        case 'least-normal':
          return pow2(emin);
        case 'one':
          return rational(1n);
        default:
          return null;
      }
    };
    for (const name of Object.keys(REF_CVT_FORMATS) as (keyof typeof REF_CVT_FORMATS)[]) {
      const ref = REF_CVT_FORMATS[name];
      for (const { id, bits } of namedValues(name)) {
        const v = decodeCvt(bits, ref);
        const what = `${name} ${id}`;
        if (id === 'nan' || id === 'snan') expect(v.kind, what).toBe('nan');
        else if (id.endsWith('inf'))
          expect(v, what).toEqual({ kind: 'inf', negative: id[0] === '-' });
        else if (id.endsWith('max-norm')) {
          const sign = ref.signed ? 1n << BigInt(ref.totalBits - 1) : 0n;
          expect(bits & ~sign, what).toBe(ref.maxPattern);
        } else {
          expect(v.kind, what).toBe('finite');
          if (v.kind !== 'finite') continue;
          const magnitude = expected(name, id)!;
          const q = v.q.num < 0n ? rational(-v.q.num, v.q.den) : v.q;
          expect(compare(q, magnitude), what).toBe(0);
          expect(v.negative, what).toBe(id[0] === '-');
        }
      }
    }
  });
});
