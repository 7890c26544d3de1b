import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORMAT_NAMES, type FormatName } from '../catalog/formats.ts';
import { classify, exactValueOfBits, FORMATS, toDouble, type Format } from './format.ts';
import { readValueText, shortestDecimal, type StoredValue } from './stored-value.ts';

const stored = (text: string, format: FormatName): StoredValue => {
  const r = readValueText(text, FORMATS[format]);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const bitsOf = (text: string, format: FormatName) => stored(text, format).bits;

/** Every pattern of a format narrower than 17 bits. */
const patterns = (f: Format) => Array.from({ length: 2 ** f.width }, (_, i) => BigInt(i));

/** Every finite value of a small format, by value, each once (the zeros as +0). */
function finiteValues(f: Format): { bits: bigint; value: number }[] {
  const out = new Map<number, bigint>();
  for (const bits of patterns(f)) {
    const value = toDouble(bits, f);
    if (!Number.isFinite(value) || Object.is(value, -0)) continue;
    if (!out.has(value)) out.set(value, bits);
  }
  return [...out].map(([value, bits]) => ({ bits, value })).sort((p, q) => p.value - q.value);
}

const SMALL: readonly FormatName[] = ['e4m3', 'e5m2', 'e2m3', 'e3m2', 'e2m1', 'ue8m0', 'ue4m3'];

describe('a typed value stored in each format', () => {
  it('reads FP8, FP6, FP4, UE8M0 and UE4M3 values', () => {
    expect(stored('448', 'e4m3')).toMatchObject({ bits: 0x7en, exact: true, outcome: 'exact' });
    // A tie between 4 (0x48) and 4.5 (0x49): the even pattern.
    expect(stored('4.25', 'e4m3')).toMatchObject({
      bits: 0x48n,
      exact: false,
      outcome: 'rounded',
      rounding: { reason: 'tie-to-even', lower: '0x48', upper: '0x49' },
      error: { num: -1n, den: 4n },
    });
    expect(bitsOf('-0', 'e4m3')).toBe(0x80n);
    expect(bitsOf('nan', 'e4m3')).toBe(0x7fn);
    expect(bitsOf('0x1p-9', 'e4m3')).toBe(0x01n);
    // 464 is halfway between 448 and the 480 e4m3 lacks: a tie to 448, not past the range.
    expect(stored('464', 'e4m3')).toMatchObject({ bits: 0x7en, outcome: 'rounded' });
    expect(bitsOf('57344', 'e5m2')).toBe(0x7bn);
    expect(bitsOf('inf', 'e5m2')).toBe(0x7cn);
    expect(stored('1e9', 'e5m2')).toMatchObject({ bits: 0x7cn, exact: false, outcome: 'overflow' });
    expect(bitsOf('6', 'e2m1')).toBe(0x7n);
    expect(bitsOf('-6', 'e2m1')).toBe(0xfn);
    expect(stored('0.25', 'e2m1')).toMatchObject({
      bits: 0x0n,
      exact: false,
      outcome: 'underflow',
    });
    expect(bitsOf('7.5', 'e2m3')).toBe(0x1fn);
    expect(bitsOf('28', 'e3m2')).toBe(0x1fn);
    expect(bitsOf('1', 'ue8m0')).toBe(0x7fn);
    // Powers of two only: 3 is a tie between 2 (0x80) and 4 (0x81), to the even pattern.
    expect(stored('3', 'ue8m0')).toMatchObject({ bits: 0x80n, exact: false });
    expect(bitsOf('nan', 'ue8m0')).toBe(0xffn);
    expect(bitsOf('-nan', 'ue8m0')).toBe(0xffn);
    expect(bitsOf('0x1p-127', 'ue8m0')).toBe(0x00n);
    // Above half of 2^-127, the least value, rounds up to it; so does half (a tie between the
    // zero ue8m0 lacks, counted odd, and the even pattern 0x00).
    expect(bitsOf('0x1.8p-128', 'ue8m0')).toBe(0x00n);
    expect(stored('0x1p-128', 'ue8m0')).toMatchObject({
      bits: 0x00n,
      outcome: 'rounded',
      rounding: { reason: 'tie-to-even' },
    });
    expect(bitsOf('448', 'ue4m3')).toBe(0x7en);
    expect(bitsOf('0', 'ue4m3')).toBe(0x00n);
    expect(bitsOf('nan', 'ue4m3')).toBe(0x7fn);
    expect(bitsOf('1', 'tf32')).toBe(0x1fc00n);
    expect(bitsOf('-inf', 'tf32')).toBe(0x7fc00n);
    expect(bitsOf('snan', 'f64')).toBe(0x7ff0000000000001n);
  });

  it('refuses what the format cannot hold, with the reason', () => {
    for (const [text, format, code, words] of [
      ['500', 'e4m3', 'beyond-range', "past e4m3's largest finite value 448"],
      ['-500', 'e4m3', 'beyond-range', '-448'],
      ['inf', 'e4m3', 'no-infinity', 'largest finite value is 448'],
      ['1e99', 'e2m1', 'beyond-range', 'no infinity'],
      ['1e999999', 'e2m1', 'beyond-range', 'no infinity'],
      ['1e300', 'ue8m0', 'beyond-range', 'no infinity'],
      ['nan', 'e2m1', 'no-nan', 'no NaN'],
      ['snan', 'e4m3', 'no-signaling-nan', 'no signaling NaN'],
      ['snan', 'e3m2', 'no-nan', 'no NaN'],
      ['0', 'ue8m0', 'no-zero', 'no zero'],
      ['1e-60', 'ue8m0', 'below-least', 'no zero'],
      ['1e-999999', 'ue8m0', 'below-least', 'no zero'],
      ['0x1.fp-129', 'ue8m0', 'below-least', '2^-127'],
      ['-1', 'ue8m0', 'unsigned', 'unsigned'],
      ['-0', 'ue4m3', 'unsigned', 'unsigned'],
      ['-inf', 'ue4m3', 'unsigned', 'unsigned'],
      ['abc', 'e4m3', 'not-a-number', 'not a number'],
    ] as const) {
      const r = readValueText(text, FORMATS[format]);
      expect(r.ok, `${text} in ${format}`).toBe(false);
      if (!r.ok) {
        expect(r.error.code, `${text} in ${format}`).toBe(code);
        expect(r.error.message).toContain(words);
      }
    }
  });

  it('rounds every value, midpoint and near-midpoint of the small formats to the nearest, ties to even (neighbour search)', () => {
    for (const format of SMALL) {
      const f = FORMATS[format];
      const values = finiteValues(f);
      // Exact text: a hex float (String() would give a shortest decimal).
      const text = (x: number) => `${x < 0 ? '-' : ''}0x${Math.abs(x).toString(16)}p0`;
      // Compared by value: a negative value that rounds to zero is -0, a positive one +0.
      const valueOf = (x: number) => toDouble(bitsOf(text(x), format), f) + 0;
      for (let i = 0; i < values.length; i++) {
        const { bits, value } = values[i]!;
        expect(stored(text(value), format)).toMatchObject({ bits, exact: true });
        const next = values[i + 1];
        if (!next) continue;
        const mid = (value + next.value) / 2;
        // ue8m0's least value has no neighbour below (no zero); the midpoint of ±least is 0.
        if (mid === 0) continue;
        // The even neighbour: the one whose last pattern bit is 0 (zero counts as even).
        const even = value === 0 || (bits & 1n) === 0n ? value : next.value;
        const eps = (next.value - value) / 1024;
        expect(valueOf(mid), `${format} midpoint ${mid}`).toBe(even);
        expect(valueOf(mid - eps), `${format} below ${mid}`).toBe(value);
        expect(valueOf(mid + eps), `${format} above ${mid}`).toBe(next.value);
      }
    }
  });

  it('reads f64 exactly: decimals as the platform rounds them, the subnormals, the overflow threshold', () => {
    const f64 = (x: number) => {
      const view = new DataView(new ArrayBuffer(8));
      view.setFloat64(0, x);
      return view.getBigUint64(0);
    };
    expect(bitsOf('0.1', 'f64')).toBe(0x3fb999999999999an);
    expect(bitsOf('-1e-320', 'f64')).toBe(f64(-1e-320));
    expect(bitsOf('4.9e-324', 'f64')).toBe(1n);
    expect(bitsOf('2e-324', 'f64')).toBe(0n); // below half the least subnormal
    expect(bitsOf('-0e-999999999', 'f64')).toBe(0x8000000000000000n);
    expect(bitsOf('1.7976931348623158e308', 'f64')).toBe(0x7fefffffffffffffn);
    expect(stored('1.7976931348623159e308', 'f64')).toMatchObject({
      bits: 0x7ff0000000000000n,
      exact: false,
      outcome: 'overflow',
    });
    expect(bitsOf('0x1.fffffffffffff8p0', 'f64')).toBe(0x4000000000000000n); // tie → even
    expect(bitsOf('nan', 'f64')).toBe(0x7fffffffffffffffn);
    // V8 reads decimals correctly rounded: a cross-check on long random decimals.
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        fc.integer({ min: -345, max: 310 }),
        fc.boolean(),
        (digits, e, negative) => {
          const text = `${negative ? '-' : ''}${digits}e${e}`;
          expect(bitsOf(text, 'f64')).toBe(f64(Number(text)));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('describes what was stored as data: outcome, neighbours, the tie, the error', () => {
    expect(stored('1.5', 'f16')).toMatchObject({
      text: '1.5',
      format: 'f16',
      bits: 0x3e00n,
      exact: true,
      outcome: 'exact',
      rounding: { reason: 'exact' },
    });
    expect(stored('1.5', 'f16').error).toBeUndefined();
    // 0.1 in f16: 0x2e66 = 0.0999755859375, 2.44e-5 below it (1/40960 exactly).
    const tenth = stored('0.1', 'f16');
    expect(tenth).toMatchObject({ bits: 0x2e66n, exact: false, outcome: 'rounded' });
    expect(exactValueOfBits(tenth.bits, FORMATS.f16).decimal).toBe('0.0999755859375');
    expect(tenth.error).toEqual({ num: -1n, den: 40960n });
    expect(tenth.rounding).toMatchObject({
      reason: 'below-half',
      lower: '0x2e66',
      upper: '0x2e67',
      exact: { decimal: '0.1', rational: '1/10' },
    });
    expect(tenth.typed).toEqual({ kind: 'finite', negative: false, num: 1n, den: 10n });
    // Past the largest f16 (65504): the infinity of the sign.
    expect(stored('70000', 'f16')).toMatchObject({
      bits: 0x7c00n,
      outcome: 'overflow',
      rounding: { reason: 'overflow-threshold', lower: '0x7bff', upper: '0x7c00', result: null },
    });
    expect(stored('-70000', 'f16')).toMatchObject({ bits: 0xfc00n, outcome: 'overflow' });
    // 65519 is nearer 65504 than the (virtual) next step 65536: the largest finite, not inf;
    // 65520 is the halfway point, and the tie goes to the even one, inf.
    expect(stored('65519', 'f16')).toMatchObject({
      bits: 0x7bffn,
      outcome: 'rounded',
      error: { num: -15n, den: 1n },
    });
    expect(stored('65520', 'f16')).toMatchObject({
      bits: 0x7c00n,
      outcome: 'overflow',
      rounding: { reason: 'tie-to-even' },
    });
    expect(stored('1e300', 'bf16')).toMatchObject({ bits: 0x7f80n, outcome: 'overflow' });
    expect(stored('1e39', 'f32')).toMatchObject({ bits: 0x7f800000n, outcome: 'overflow' });
    expect(stored('1e999999', 'f32')).toMatchObject({ bits: 0x7f800000n, outcome: 'overflow' });
    expect(stored('1e999999', 'f32').rounding).toBeUndefined();
    // At most half the smallest subnormal (2^-25): a zero of the sign.
    expect(stored('1e-8', 'f16')).toMatchObject({
      bits: 0x0000n,
      outcome: 'underflow',
      rounding: { reason: 'below-half' },
    });
    expect(stored('-1e-8', 'f16')).toMatchObject({ bits: 0x8000n, outcome: 'underflow' });
    // Exactly half: a tie, to the even neighbour 0 (2^-24 has an odd pattern).
    expect(stored('0x1p-25', 'f16')).toMatchObject({
      bits: 0n,
      outcome: 'underflow',
      rounding: { reason: 'tie-to-even' },
      error: { num: -1n, den: 2n ** 25n },
    });
    expect(stored('0x1.000002p-25', 'f16')).toMatchObject({ bits: 1n, outcome: 'rounded' });
    expect(stored('1e-300', 'f32')).toMatchObject({ bits: 0n, outcome: 'underflow' });
    // inf, nan and zeros are stored as typed, with no rounding.
    for (const text of ['inf', '-inf', 'nan', '-0', '0']) {
      const s = stored(text, 'f16');
      expect(s.exact && s.outcome === 'exact' && s.rounding === undefined, text).toBe(true);
    }
  });
});

describe('shortestDecimal', () => {
  it('reads back to the same pattern for every pattern of the 4-, 6- and 8-bit formats', () => {
    for (const format of SMALL) {
      const f = FORMATS[format];
      for (const bits of patterns(f)) {
        const text = shortestDecimal(bits, f);
        const cls = classify(bits, f);
        if (cls === 'qnan' || cls === 'snan') expect(text).toBe('NaN');
        else expect(bitsOf(text, format), `${format} ${text}`).toBe(bits);
      }
    }
  });

  it.each(['f16', 'bf16'] as const)(
    'reads back to the same pattern for every %s pattern',
    (name) => {
      const f = FORMATS[name];
      for (const bits of patterns(f)) {
        const text = shortestDecimal(bits, f);
        const cls = classify(bits, f);
        if (cls === 'qnan' || cls === 'snan') {
          if (text !== 'NaN') expect.fail(`${bits.toString(16)} → ${text}`);
          continue;
        }
        const back = readValueText(text, f);
        if (!back.ok || back.value.bits !== bits) expect.fail(`${bits.toString(16)} → ${text}`);
      }
    },
  );

  it.each(['tf32', 'f32', 'f64'] as const)(
    'reads back to the same pattern for random %s patterns, with no more digits than needed',
    (name) => {
      const f = FORMATS[name];
      fc.assert(
        fc.property(fc.bigInt({ min: 0n, max: (1n << BigInt(f.width)) - 1n }), (bits) => {
          const text = shortestDecimal(bits, f);
          const cls = classify(bits, f);
          if (cls === 'qnan' || cls === 'snan') {
            expect(text).toBe('NaN');
            return;
          }
          expect(bitsOf(text, name)).toBe(bits);
          // One digit fewer does not read back (the shortest; a single digit always is).
          const digits = text.replace(/^-/, '').replace(/e.*$/, '').replace('.', '');
          const significant = digits.replace(/^0+/, '').length;
          if (significant <= 1 || cls === 'infinity' || cls === 'zero') return;
          const v = toDouble(bits, f);
          const shorter = readValueText(v.toPrecision(significant - 1), f);
          expect(shorter.ok && shorter.value.bits === bits).toBe(false);
        }),
        { numRuns: 1500 },
      );
    },
  );

  it('gives short forms, f64 as short as JavaScript writes a double', () => {
    const { f16, f32, f64, e4m3 } = FORMATS;
    expect(shortestDecimal(0x3555n, f16)).toBe('0.3333');
    expect(shortestDecimal(0x3dcccccdn, f32)).toBe('0.1');
    expect(shortestDecimal(0x8000n, f16)).toBe('-0');
    expect(shortestDecimal(0x7c00n, f16)).toBe('inf');
    expect(shortestDecimal(0xfc00n, f16)).toBe('-inf');
    expect(shortestDecimal(0x3fb999999999999an, f64)).toBe('0.1');
    expect(shortestDecimal(0x7en, e4m3)).toBe('4.5e2'); // 450 reads back as 448
    expect(shortestDecimal(0x00n, FORMATS.ue8m0)).toBe('6e-39'); // 2^-127
    expect(() => shortestDecimal(0x100n, e4m3)).toThrow(RangeError);
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const view = new DataView(new ArrayBuffer(8));
        view.setFloat64(0, x);
        const text = shortestDecimal(view.getBigUint64(0), f64);
        // As many significant digits as ECMAScript's Number::toString, the shortest for doubles
        // (the digits themselves may differ in the last place where two candidates read back:
        // toPrecision rounds half up, Number::toString takes the nearer or the even one).
        const digitsOf = (s: string) =>
          s
            .replace(/^-/, '')
            .replace(/e.*$/, '')
            .replace('.', '')
            .replace(/^0+/, '')
            .replace(/0+$/, '');
        expect(digitsOf(text).length).toBe(digitsOf(String(x)).length);
        expect(Number(text)).toBe(x);
      }),
      { numRuns: 3000 },
    );
  });

  it('covers every format of the catalog', () => {
    for (const name of FORMAT_NAMES) {
      const f = FORMATS[name];
      expect(bitsOf(shortestDecimal(f.maxBits, f), name)).toBe(f.maxBits);
    }
  });
});
