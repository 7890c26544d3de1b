/**
 * One value in every format (src/engine/analysis/value-in-formats.ts), the number-formats tab's
 * table: the conversions chosen, the bits of a few values worked out by hand, and the errors
 * checked against the independent reference (tests/reference: exact rationals and the formats
 * written from PTX ISA 5.2.3) for many typed decimals.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findForm } from '../src/catalog/all-forms.ts';
import { EVERY_FORMAT, valueInFormats } from '../src/engine/analysis/value-in-formats.ts';
import { decodeCvt, REF_CVT_FORMATS } from './reference/cvt-formats.ts';
import { floorLog2 } from './reference/exact-text.ts';
import { div, floor, pow2, rational, sub, type Rational } from './reference/rational.ts';

function rows(text: string) {
  const r = valueInFormats(text);
  if (!r.ok) throw new Error(r.message);
  return Object.fromEntries(r.rows.map((row) => [row.format, row]));
}

const hex = (bits: bigint, width: number) =>
  `0x${bits.toString(16).padStart(Math.ceil(width / 4), '0')}`;

/** A decimal as an exact rational, written directly (no engine code): "-1.25e-3". */
function decimalRational(text: string): Rational {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e(-?\d+))?$/.exec(text)!;
  const digits = BigInt(`${m[2]}${m[3] ?? ''}`);
  const e10 = Number(m[4] ?? '0') - (m[3]?.length ?? 0);
  const q =
    e10 >= 0 ? rational(digits * 10n ** BigInt(e10)) : rational(digits, 10n ** BigInt(-e10));
  return m[1] === '-' ? rational(-q.num, q.den) : q;
}

/** q as a double, to 60 significant bits first (BigInts of any size). */
function asNumber(q: Rational): number {
  if (q.num === 0n) return 0;
  const e = floorLog2(q.num < 0n ? rational(-q.num, q.den) : q) - 60;
  return Number(floor(div(q, pow2(e)))) * 2 ** e;
}

describe('one value, every format', () => {
  it('lists the eleven formats, each produced by a catalog cvt from .f64 or .f32', () => {
    const all = rows('1.5');
    expect(Object.keys(all)).toEqual([...EVERY_FORMAT]);
    expect(all.f64!.form).toBeNull();
    const forms = Object.fromEntries(EVERY_FORMAT.slice(1).map((f) => [f, all[f]!.form]));
    expect(forms).toEqual({
      f32: 'cvt.rn.f32.f64',
      tf32: 'cvt.rn.tf32.f32',
      f16: 'cvt.rn.f16.f64',
      bf16: 'cvt.rn.bf16.f64',
      e4m3: 'cvt.rn.satfinite.e4m3x2.f32',
      e5m2: 'cvt.rn.satfinite.e5m2x2.f32',
      e3m2: 'cvt.rn.satfinite.e3m2x2.f32',
      e2m3: 'cvt.rn.satfinite.e2m3x2.f32',
      e2m1: 'cvt.rn.satfinite.e2m1x2.f32',
      // ue8m0 has no .rn: .rz, the first of its roundings.
      ue8m0: 'cvt.rz.ue8m0x2.f32',
    });
    for (const format of EVERY_FORMAT.slice(1)) {
      const form = findForm(all[format]!.form!)!;
      expect(form.elements[0]!.dest.format).toBe(format);
      expect(all[format]!.source!.format).toBe(form.elements[0]!.inputs[0]!.format);
    }
  });

  it('stores 0.1, 1000 and 1e5 as worked out by hand', () => {
    const bitsOf = (text: string) =>
      Object.fromEntries(Object.values(rows(text)).map((r) => [r.format, hex(r.bits, r.width)]));
    // 0.1 = 1.6 × 2^-4: f16 keeps 10 fraction bits (0x2e66), e4m3 3 (1.625: 0x1d), e5m2 2
    // (1.5: 0x2e); e3m2's subnormal quantum is 2^-4 (2 × 2^-4: 0x02), e2m3's 2^-3 (0x01),
    // e2m1's 1/2 (0.1 rounds to 0); ue8m0 .rz: 2^-4 = 2^(123 − 127).
    expect(bitsOf('0.1')).toEqual({
      f64: '0x3fb999999999999a',
      f32: '0x3dcccccd',
      tf32: '0x3dccc000',
      f16: '0x2e66',
      bf16: '0x3dcd',
      e4m3: '0x1d',
      e5m2: '0x2e',
      e3m2: '0x02',
      e2m3: '0x01',
      e2m1: '0x0',
      ue8m0: '0x7b',
    });
    const thousand = rows('1000');
    expect(thousand.f16!.exact).toBe(true);
    // Past MAX_NORM: .satfinite clamps (448, 28, 7.5, 6); e5m2 rounds 1000 up to 1024.
    for (const [format, max] of [
      ['e4m3', '448'],
      ['e3m2', '28'],
      ['e2m3', '7.5'],
      ['e2m1', '6'],
    ] as const) {
      expect(thousand[format]!.value.decimal).toBe(max);
      expect(thousand[format]!.outcomes).toContain('clamp');
    }
    expect(thousand.e5m2!.value.decimal).toBe('1024');
    expect(thousand.ue8m0!.value.decimal).toBe('512');
    // 1e5 is past f16's 65504: .rn overflows to +inf; tf32 has a tie there (99968 or 100032).
    const big = rows('1e5');
    expect(big.f16!.value.decimal).toBe('+inf');
    expect(big.f16!.error).toBeNull();
    expect(big.f16!.outcomes).toContain('overflow');
    expect(big.tf32!.outcomes).toContain('tie');
  });

  it('names NaN and infinities as values, with no error, and refuses what is not a number', () => {
    const inf = rows('-inf');
    expect(inf.f32!.value.decimal).toBe('-inf');
    expect(inf.e4m3!.value.decimal).toBe('-448');
    expect(inf.f64!.error).toBeNull();
    expect(rows('nan').e2m1!.outcomes).toContain('nan-input');
    expect(valueInFormats('abc')).toMatchObject({ ok: false });
    expect(valueInFormats('1/3')).toMatchObject({
      ok: false,
      message: expect.stringContaining('a fraction is not read'),
    });
  });

  it('measures each stored value against the typed one exactly, as the reference does', () => {
    const decimal = fc
      .tuple(
        fc.boolean(),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.integer({ min: -12, max: 6 }),
      )
      .map(([negative, digits, e]) => `${negative ? '-' : ''}${digits}e${e}`);
    fc.assert(
      fc.property(decimal, (text) => {
        const typed = decimalRational(text);
        for (const row of Object.values(rows(text))) {
          const fmt = REF_CVT_FORMATS[row.format];
          // The value's bits within the slot (tf32 sits above 13 zero bits).
          const form = row.form ? findForm(row.form)! : null;
          const shift = form ? form.elements[0]!.dest.value.lo - form.elements[0]!.dest.slot.lo : 0;
          const v = decodeCvt(row.bits >> BigInt(shift), fmt);
          if (v.kind !== 'finite') {
            expect(row.error, `${text} in ${row.format}`).toBeNull();
            continue;
          }
          const diff = sub(v.q, typed);
          const bias = 2 ** (fmt.exponentBits - 1) - 1;
          const exponent = v.q.num === 0n ? 1 - bias : Math.max(floorLog2(v.q), 1 - bias);
          const ulps = div(diff, pow2(exponent - fmt.fractionBits));
          const close = (got: number, want: number) =>
            Math.abs(got - want) <= Math.abs(want) * 1e-12 + Number.MIN_VALUE;
          const error = row.error!;
          expect(close(error.absolute, asNumber(diff)), `${text} ${row.format} abs`).toBe(true);
          expect(close(error.ulps, asNumber(ulps)), `${text} ${row.format} ulps`).toBe(true);
          expect(
            close(error.relative!, asNumber(div(diff, typed))),
            `${text} ${row.format} relative`,
          ).toBe(true);
          expect(row.exact).toBe(diff.num === 0n);
          // Within one ulp of the typed value, except where a format saturates or rounds .rz.
          if (!row.outcomes.includes('clamp') && row.format !== 'ue8m0')
            expect(Math.abs(asNumber(ulps))).toBeLessThanOrEqual(1);
        }
        return true;
      }),
      { numRuns: 150, seed: 2323 },
    );
  });
});
