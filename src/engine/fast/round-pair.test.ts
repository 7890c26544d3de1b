/**
 * roundPair and pairIsTiny (the fast path's rounding of an exact value held as a pair of
 * doubles s + err) against roundToFormat (rounding.ts, the one rounding, on bigints), on the
 * values where rounding is hard: exact encodings, midpoints between neighbours, values a hair off
 * either, powers of two approached from below, the subnormal range, the overflow threshold. Past
 * MAX_NORM the one rounding leaves the result to nvidia-rules overflowResult, which gives what
 * roundPair packs: infinity or MAX_NORM by the direction.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dyadicOfDouble } from '../double.ts';
import { add, isZero, type Dyadic } from '../exact.ts';
import { toDouble } from '../format.ts';
import { overflowResult } from '../nvidia-rules.ts';
import { dyadicMagnitude, roundToFormat } from '../rounding.ts';
import { NUMERIC_FORMATS, type NumericFormat } from './numeric-format.ts';
import { modeCode, pairIsTiny, roundPair, type PairRounding } from './round-pair.ts';

const MODES: readonly PairRounding[] = ['rn', 'rz', 'rm', 'rp'];
const { f16, bf16, f32, tf32, e5m2 } = NUMERIC_FORMATS;
/** The formats with infinity the fast path rounds to (cvt's others round in their geometry). */
const IEEE: readonly NumericFormat[] = [f16, bf16, f32, tf32, e5m2];

/** The one rounding of s + err (exactly): the result's pattern as a number, and its tininess. */
function expected(s: number, err: number, f: NumericFormat, mode: PairRounding) {
  const exact: Dyadic = add(dyadicOfDouble(s), dyadicOfDouble(err));
  if (isZero(exact)) throw new Error('zero is not rounded here');
  const r = roundToFormat(dyadicMagnitude(exact), f.format, mode);
  const bits = r.bits ?? overflowResult(f.format, exact.negative, r.awayFromZero).bits;
  return { bits: Number(bits), tininess: r.tininess };
}

function toDoubleOf(pattern: number, f: NumericFormat): number {
  return toDouble(BigInt(pattern), f.format);
}

/** One unit in the last place of a double, as a double. */
function ulpOf(x: number): number {
  const e = Math.floor(Math.log2(Math.abs(x)));
  let u = 2 ** (e - 52);
  // log2 can be off by one near powers of two; settle it exactly.
  while (Math.abs(x) >= 2 ** (e + 1)) u *= 2;
  return u;
}

/** Representative values of a format: an encoding, a midpoint, either one nudged by a little. */
function valueArbitrary(f: NumericFormat) {
  const maxPattern = f.infBits - 1;
  return fc
    .record({
      pattern: fc.oneof(
        fc.integer({ min: 1, max: maxPattern }),
        fc.integer({ min: 1, max: 2 * (f.manMask + 1) }), // subnormals and the first binade
        fc.integer({ min: maxPattern - 4, max: maxPattern }), // near overflow
      ),
      shape: fc.constantFrom('exact', 'midpoint', 'above', 'below', 'far-below'),
      negative: fc.boolean(),
      nudge: fc.constantFrom(0, 1, 2, 30),
    })
    .map(({ pattern, shape, negative, nudge }) => {
      const v = toDoubleOf(pattern, f);
      const next = pattern + 1 <= f.infBits - 1 ? toDoubleOf(pattern + 1, f) : v * 2;
      let s: number;
      switch (shape) {
        case 'exact':
          s = v;
          break;
        case 'midpoint':
          s = (v + next) / 2;
          break;
        case 'above':
          s = v + (next - v) * 2 ** -(nudge + 1);
          break;
        case 'below':
          s = v - (next - v) * 2 ** -(nudge + 1);
          break;
        case 'far-below':
          s = v * 2 ** -(nudge + 1);
          break;
      }
      return negative ? -s : s;
    });
}

/** err within half an ulp of s (s = fl(s + err)), or zero. */
const errScale = fc.constantFrom(0, 0, 0.25, -0.25, 2 ** -20, -(2 ** -20), 0.5, -0.5);

describe('roundPair agrees with roundToFormat', () => {
  for (const f of IEEE) {
    it(`${f.name}: every mode, hard values (property)`, () => {
      fc.assert(
        fc.property(valueArbitrary(f), errScale, fc.constantFrom(...MODES), (s, scale, mode) => {
          if (s === 0 || !Number.isFinite(s)) return;
          let err = scale * ulpOf(s);
          // A half-ulp err is fl-consistent only when it does not change s (ties to even).
          if (s + err !== s) err = 0;
          const want = expected(s, err, f, mode);
          expect(roundPair(s, err, f, modeCode(mode)), `${s} + ${err} .${mode}`).toBe(want.bits);
          for (const reading of ['after-rounding', 'before-rounding'] as const) {
            const tiny = reading === 'after-rounding' ? want.tininess.after : want.tininess.before;
            expect(pairIsTiny(s, err, f, modeCode(mode), reading), `${reading} ${s} + ${err}`).toBe(
              tiny,
            );
          }
        }),
        { numRuns: 20_000 },
      );
    });
  }

  it('a hair below a power of two rounds in the binade below', () => {
    for (const f of IEEE) {
      for (const s of [1, 2 ** f.emin, 2 ** f.emax, 0.5, 1024]) {
        const err = -ulpOf(s) / 4;
        for (const mode of MODES) {
          expect(roundPair(s, err, f, modeCode(mode))).toBe(expected(s, err, f, mode).bits);
          expect(roundPair(-s, -err, f, modeCode(mode))).toBe(expected(-s, -err, f, mode).bits);
        }
      }
    }
  });

  it('overflow: infinity or the largest finite value by mode and sign', () => {
    for (const f of IEEE) {
      const big = 2 ** (f.emax + 3);
      for (const mode of MODES) {
        expect(roundPair(big, 0, f, modeCode(mode))).toBe(expected(big, 0, f, mode).bits);
        expect(roundPair(-big, 0, f, modeCode(mode))).toBe(expected(-big, 0, f, mode).bits);
      }
    }
  });
});

describe('roundPair of a double alone (err = 0), subnormal doubles included', () => {
  for (const f of IEEE) {
    it(`${f.name}: every mode, any finite nonzero double`, () => {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.double({ noNaN: true, noDefaultInfinity: true }),
            // The whole exponent range alike, subnormal doubles included.
            fc
              .tuple(fc.integer({ min: -1074, max: 1023 }), fc.double({ min: 1, max: 2 }))
              .map(([e, m]) => m * 2 ** e),
          ),
          fc.boolean(),
          fc.constantFrom(...MODES),
          (x, negative, mode) => {
            const v = negative ? -x : x;
            if (v === 0 || !Number.isFinite(v)) return;
            expect(roundPair(v, 0, f, modeCode(mode)), `${v} .${mode}`).toBe(
              expected(v, 0, f, mode).bits,
            );
          },
        ),
        { numRuns: 2_000 },
      );
    });
  }

  it('the smallest doubles round to zero or the smallest subnormal by mode and sign', () => {
    for (const f of IEEE) {
      for (const x of [2 ** -1074, 2 ** -1022, 2 ** -1001, 2 ** -999]) {
        for (const mode of MODES) {
          expect(roundPair(x, 0, f, modeCode(mode))).toBe(expected(x, 0, f, mode).bits);
          expect(roundPair(-x, 0, f, modeCode(mode))).toBe(expected(-x, 0, f, mode).bits);
        }
      }
    }
  });
});
