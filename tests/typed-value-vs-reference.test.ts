/**
 * Typed values stored in each of the twelve formats (src/engine/stored-value.ts) against the
 * reference (tests/reference/typed-value-ref.ts: exact rationals from the text's digits, round
 * to nearest by neighbour search, no engine code): random decimals across each format's range,
 * every kind of neighbour midpoint and points just beside it, exact values written as decimals
 * and as hex floats, each with either sign.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORMAT_NAMES, type FormatName } from '../src/catalog/formats.ts';
import { FORMATS } from '../src/engine/format.ts';
import { readValueText } from '../src/engine/stored-value.ts';
import { pastMax, REF_CVT_FORMATS, valueAt, type RefCvtFormat } from './reference/cvt-formats.ts';
import { add, mul, pow2, rational, sub, type Rational } from './reference/rational.ts';
import {
  refFinite,
  refMidpoint,
  refStore,
  refValueOfText,
  type RefStored,
} from './reference/typed-value-ref.ts';

/** A dyadic rational (den a power of two) as an exact hex float. */
function hexFloat(negative: boolean, q: Rational): string {
  const k = q.den.toString(2).length - 1;
  return `${negative ? '-' : ''}0x${q.num.toString(16)}p-${k}`;
}

/** A dyadic rational as an exact decimal: num·5^k / 10^k. */
function exactDecimal(negative: boolean, q: Rational): string {
  const k = q.den.toString(2).length - 1;
  return `${negative ? '-' : ''}${q.num * 5n ** BigInt(k)}e-${k}`;
}

/** Decimal texts from below half the least subnormal to past the largest value. */
function decimals(fmt: RefCvtFormat): fc.Arbitrary<string> {
  const bias = 2 ** (fmt.exponentBits - 1) - 1;
  const low = Math.floor(Math.log10(2) * (1 - bias - fmt.fractionBits - 3)) - 1;
  const high = Math.ceil(Math.log10(2) * (2 ** fmt.exponentBits - bias + 1)) + 1;
  return fc
    .tuple(
      fc.integer({ min: 1, max: 20 }),
      fc.bigInt({ min: 1n, max: 10n ** 20n }),
      fc.integer({ min: low, max: high }),
      fc.boolean(),
    )
    .map(([n, digits, magnitude, negative]) => {
      const d = (digits % 10n ** BigInt(n)) + 1n;
      return `${negative ? '-' : ''}${d}e${magnitude - n}`;
    });
}

/** Values of the format, midpoints of neighbours, and points a hair either side, exactly. */
function neighbours(fmt: RefCvtFormat): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.bigInt({ min: 0n, max: fmt.maxPattern }),
      fc.constantFrom('value', 'midpoint', 'below', 'above', 'decimal'),
      fc.boolean(),
    )
    .map(([i, where, negative]) => {
      const v = valueAt(i, fmt);
      const next = i === fmt.maxPattern ? pastMax(fmt) : valueAt(i + 1n, fmt);
      const mid = refMidpoint(v, next);
      const hair = mul(sub(next, v), pow2(-40));
      switch (where) {
        case 'value':
          return hexFloat(negative, v);
        case 'decimal':
          return exactDecimal(negative, v);
        case 'midpoint':
          return hexFloat(negative, mid);
        case 'below':
          return hexFloat(negative, sub(mid, hair));
        case 'above':
          return hexFloat(negative, add(mid, hair));
      }
    });
}

const engineAnswer = (text: string, name: FormatName): RefStored => {
  const r = readValueText(text, FORMATS[name]);
  if (r.ok) return { bits: r.value.bits };
  return { refused: r.error.code as 'beyond-range' };
};

const WIDE = new Set<FormatName>(['f64', 'f32', 'tf32']);

describe('typed values against the reference', () => {
  it.each([...FORMAT_NAMES])(
    'stores decimals and hex floats in %s as the reference does',
    (name) => {
      const fmt = REF_CVT_FORMATS[name];
      fc.assert(
        fc.property(fc.oneof(decimals(fmt), neighbours(fmt)), (text) => {
          const exact = refValueOfText(text)!;
          const want = refStore(exact.negative, exact.q, fmt);
          expect(engineAnswer(text, name), `${text} in ${name}`).toEqual(want);
        }),
        { numRuns: WIDE.has(name) ? 600 : 3000 },
      );
    },
  );

  it.each([...FORMAT_NAMES])(
    'says in %s by how much the stored value differs from the typed one, exactly',
    (name) => {
      const fmt = REF_CVT_FORMATS[name];
      const signed = (x: { negative: boolean; q: Rational }) =>
        x.negative ? rational(-x.q.num, x.q.den) : x.q;
      fc.assert(
        fc.property(fc.oneof(decimals(fmt), neighbours(fmt)), (text) => {
          const r = readValueText(text, FORMATS[name]);
          if (!r.ok || r.value.outcome === 'overflow') return;
          const typed = signed(refValueOfText(text)!);
          const stored = signed(refFinite(r.value.bits, fmt));
          const difference = sub(stored, typed);
          if (r.value.exact) {
            expect(difference.num, text).toBe(0n);
            expect(r.value.error).toBeUndefined();
          } else {
            const error = r.value.error!;
            expect(rational(error.num, error.den), text).toEqual(difference);
            expect(difference.num).not.toBe(0n);
          }
        }),
        { numRuns: WIDE.has(name) ? 300 : 1000 },
      );
    },
  );

  it('stores the values, midpoints and points beside every midpoint of the 8-bit formats', () => {
    for (const name of ['e4m3', 'e5m2', 'e3m2', 'e2m3', 'e2m1', 'ue8m0', 'ue4m3'] as const) {
      const fmt = REF_CVT_FORMATS[name];
      for (let i = 0n; i <= fmt.maxPattern; i++) {
        const v = valueAt(i, fmt);
        const next = i === fmt.maxPattern ? pastMax(fmt) : valueAt(i + 1n, fmt);
        const mid = refMidpoint(v, next);
        const hair = mul(sub(next, v), rational(1n, 1024n));
        for (const q of [v, mid, sub(mid, hair), add(mid, hair)])
          for (const negative of [false, true]) {
            const text = hexFloat(negative, q);
            expect(engineAnswer(text, name), `${text} in ${name}`).toEqual(
              refStore(negative, q, fmt),
            );
          }
      }
    }
  });
});
