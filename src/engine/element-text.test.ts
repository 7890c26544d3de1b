import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ElementFormatName } from '../catalog/cvt-types.ts';
import { decodeElement, exactValueOfElement } from './element-format.ts';
import { parseElementValue, shortestElementDecimal } from './element-text.ts';

const bitsOf = (text: string, format: ElementFormatName) => {
  const r = parseElementValue(text, format);
  if (!r.ok) throw new Error(r.message);
  return r;
};

const SMALL: readonly ElementFormatName[] = ['e4m3', 'e5m2', 'e2m3', 'e3m2', 'e2m1', 'ue8m0'];
const WIDTH: Record<string, number> = { e4m3: 8, e5m2: 8, e2m3: 6, e3m2: 6, e2m1: 4, ue8m0: 8 };

/** Every finite value of a small format, by value, each once (the zeros as +0). */
function finiteValues(format: ElementFormatName): { bits: bigint; value: number }[] {
  const out = new Map<number, bigint>();
  for (let i = 0; i < 2 ** WIDTH[format]!; i++) {
    const v = decodeElement(BigInt(i), format);
    if (v.kind !== 'finite') continue;
    const value = (v.x.negative ? -1 : 1) * Number(v.x.mant) * 2 ** v.x.exp;
    if (value === 0 && v.x.negative) continue;
    if (!out.has(value)) out.set(value, BigInt(i));
  }
  return [...out].map(([value, bits]) => ({ bits, value })).sort((p, q) => p.value - q.value);
}

function numberOf(bits: bigint, format: ElementFormatName): number {
  const v = decodeElement(bits, format);
  if (v.kind !== 'finite') return NaN;
  return (v.x.negative ? -1 : 1) * Number(v.x.mant) * 2 ** v.x.exp;
}

describe('parseElementValue', () => {
  it('reads FP8, FP6, FP4 and UE8M0 values, refusing what the format cannot hold', () => {
    expect(bitsOf('448', 'e4m3')).toEqual({ ok: true, bits: 0x7en, exact: true });
    expect(bitsOf('4.25', 'e4m3')).toEqual({ ok: true, bits: 0x48n, exact: false }); // tie → 4
    expect(bitsOf('-0', 'e4m3').bits).toBe(0x80n);
    expect(bitsOf('nan', 'e4m3').bits).toBe(0x7fn);
    expect(bitsOf('0x1p-9', 'e4m3').bits).toBe(0x01n);
    expect(bitsOf('57344', 'e5m2').bits).toBe(0x7bn);
    expect(bitsOf('inf', 'e5m2').bits).toBe(0x7cn);
    expect(bitsOf('1e9', 'e5m2')).toEqual({ ok: true, bits: 0x7cn, exact: false });
    expect(bitsOf('6', 'e2m1').bits).toBe(0x7n);
    expect(bitsOf('-6', 'e2m1').bits).toBe(0xfn);
    expect(bitsOf('0.25', 'e2m1')).toEqual({ ok: true, bits: 0x0n, exact: false }); // tie → 0
    expect(bitsOf('7.5', 'e2m3').bits).toBe(0x1fn);
    expect(bitsOf('28', 'e3m2').bits).toBe(0x1fn);
    expect(bitsOf('1', 'ue8m0').bits).toBe(0x7fn);
    expect(bitsOf('3', 'ue8m0')).toEqual({ ok: true, bits: 0x80n, exact: false }); // tie → 2
    expect(bitsOf('nan', 'ue8m0').bits).toBe(0xffn);
    expect(bitsOf('0x1p-127', 'ue8m0').bits).toBe(0x00n);
    for (const [text, format, words] of [
      ['500', 'e4m3', 'past .e4m3'],
      ['inf', 'e4m3', 'no infinity'],
      ['1e99', 'e2m1', 'no infinity'],
      ['nan', 'e2m1', 'no NaN'],
      ['snan', 'e4m3', 'no signaling NaN'],
      ['0', 'ue8m0', 'no zero'],
      ['1e-60', 'ue8m0', 'no zero'],
      ['-1', 'ue8m0', 'unsigned'],
      ['abc', 'e4m3', 'not a number'],
    ] as const) {
      const r = parseElementValue(text, format);
      expect(r.ok, `${text} in ${format}`).toBe(false);
      if (!r.ok) expect(r.message).toContain(words);
    }
  });

  it('rounds every value, midpoint and near-midpoint of the small formats to the nearest, ties to even (neighbour search)', () => {
    for (const format of SMALL) {
      const values = finiteValues(format);
      // Exact text: a hex float (String() would give a shortest decimal).
      const text = (x: number) => `${x < 0 ? '-' : ''}0x${Math.abs(x).toString(16)}p0`;
      for (let i = 0; i < values.length; i++) {
        const { bits, value } = values[i]!;
        expect(bitsOf(text(value), format)).toEqual({ ok: true, bits, exact: true });
        const next = values[i + 1];
        if (!next) continue;
        const mid = (value + next.value) / 2;
        const lowBits = BigInt(bits) & 1n;
        // The even neighbour: the one whose last pattern bit is 0 (zero counts as even).
        const even = value === 0 || lowBits === 0n ? bits : next.bits;
        const eps = (next.value - value) / 1024;
        if (format === 'ue8m0' && value === values[0]!.value) continue;
        if (mid === 0) continue;
        // Compared by value: a negative value that rounds to zero is -0, a positive one +0.
        const valueOf = (x: number) => numberOf(bitsOf(text(x), format).bits, format) + 0;
        const evenValue = even === bits ? value : next.value;
        expect(valueOf(mid), `${format} midpoint ${mid}`).toBe(evenValue);
        expect(valueOf(mid - eps), `${format} below ${mid}`).toBe(value);
        expect(valueOf(mid + eps), `${format} above ${mid}`).toBe(next.value);
      }
    }
  });

  it('reads .f64 exactly: decimals as the platform rounds them, the subnormals, the overflow threshold', () => {
    const f64 = (x: number) => {
      const view = new DataView(new ArrayBuffer(8));
      view.setFloat64(0, x);
      return view.getBigUint64(0);
    };
    expect(bitsOf('0.1', 'f64').bits).toBe(0x3fb999999999999an);
    expect(bitsOf('-1e-320', 'f64').bits).toBe(f64(-1e-320));
    expect(bitsOf('4.9e-324', 'f64').bits).toBe(1n);
    expect(bitsOf('2e-324', 'f64').bits).toBe(0n); // below half the least subnormal
    expect(bitsOf('1.7976931348623158e308', 'f64').bits).toBe(0x7fefffffffffffffn);
    expect(bitsOf('1.7976931348623159e308', 'f64')).toEqual({
      ok: true,
      bits: 0x7ff0000000000000n,
      exact: false,
    });
    expect(bitsOf('0x1.fffffffffffff8p0', 'f64').bits).toBe(0x4000000000000000n); // tie → even
    expect(bitsOf('nan', 'f64').bits).toBe(0x7fffffffffffffffn);
    // V8 reads decimals correctly rounded: a cross-check on long random decimals.
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        fc.integer({ min: -340, max: 300 }),
        fc.boolean(),
        (digits, e, negative) => {
          const text = `${negative ? '-' : ''}${digits}e${e}`;
          expect(bitsOf(text, 'f64').bits).toBe(f64(Number(text)));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('shortestElementDecimal', () => {
  it('reads back to the same bits for every pattern of the small formats', () => {
    for (const format of SMALL) {
      for (let i = 0; i < 2 ** WIDTH[format]!; i++) {
        const bits = BigInt(i);
        const text = shortestElementDecimal(bits, format);
        const v = exactValueOfElement(bits, format);
        if (v.kind === 'nan') expect(text).toBe('NaN');
        else expect(bitsOf(text, format).bits, `${format} ${text}`).toBe(bits);
      }
    }
    expect(shortestElementDecimal(0x3fb999999999999an, 'f64')).toBe('0.1');
    expect(shortestElementDecimal(0x7en, 'e4m3')).toBe('4.5e2'); // 450 reads back as 448
  });
});
