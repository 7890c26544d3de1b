/**
 * The roundings through binary32 (the fast path's .rn shortcut) against roundPair, the exact
 * pair rounding (itself checked against the one rounding in round-pair.test.ts):
 *
 * - every binary32 exponent, both signs, mantissas at and around every f16/bf16 rounding point:
 *   the bits are round-to-nearest-even of the binary32 value, NEAREST_TIE exactly at midpoints,
 *   NEAREST_ZERO for an exact zero, the canonical NaN for a NaN;
 * - doubles that are not binary32 values, with a hair of error either way: where no tie is
 *   flagged, the bits are the exact value's rounding (the argument in nearest-binary32.ts);
 * - sums of two binary32 values for nearestBinary32OfTwoTerms.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  binary32Rounding,
  NEAREST_TIE,
  NEAREST_ZERO,
  nearestBf16ViaBinary32,
  nearestBinary32OfTwoTerms,
  nearestF16ViaBinary32,
} from './nearest-binary32.ts';
import { NUMERIC_FORMATS, valueOfWord, type NumericFormat } from './numeric-format.ts';
import { modeCode, roundPair } from './round-pair.ts';

const FORMATS = NUMERIC_FORMATS;

const RN = modeCode('rn');
const w = binary32Rounding();
const f32 = new Float32Array(1);
const f32Bits = new Uint32Array(f32.buffer);
function binary32(bits: number): number {
  f32Bits[0] = bits;
  return f32[0]!;
}

const ROUNDINGS = [
  ['f16', FORMATS.f16, (s: number) => nearestF16ViaBinary32(s, 1, 0, w)],
  ['f16 (normal range first)', FORMATS.f16, (s: number) => nearestF16ViaBinary32(s, 1, 1, w)],
  ['bf16', FORMATS.bf16, (s: number) => nearestBf16ViaBinary32(s, 1, w)],
] as const;

/** A neighbour's value; infinity stands for 2^(emax+1), the far side of the overflow threshold. */
function neighbourValue(bits: number, f: NumericFormat): number {
  const negative = bits >= f.signMask;
  const mag = negative ? bits - f.signMask : bits;
  const v = mag === f.infBits ? 2 ** (f.emax + 1) : valueOfWord(mag, f);
  return negative ? -v : v;
}

/** Whether a finite nonzero double lies exactly half way between two neighbours in f. */
function isMidpoint(x: number, f: NumericFormat): boolean {
  const toward = roundPair(x, 0, f, modeCode('rz'));
  const away = roundPair(x, 0, f, modeCode(x > 0 ? 'rp' : 'rm'));
  if (toward === away) return false;
  return (neighbourValue(toward, f) + neighbourValue(away, f)) / 2 === x;
}

/** Mantissas (23 bits) at, beside and between the rounding points of every shift. */
function mantissas(): number[] {
  const out = new Set<number>([0, 1, 0x7fffff, 0x400000, 0x3fffff]);
  for (let shift = 1; shift <= 24; shift++) {
    const half = 2 ** (shift - 1);
    for (const base of [0, 2 ** shift, 3 * 2 ** shift, 0x7fffff - 2 ** (shift + 1)]) {
      for (const d of [-1, 0, 1]) {
        const m = base + half + d;
        if (m >= 0 && m <= 0x7fffff) out.add(m);
      }
    }
  }
  let x = 0x2545f491;
  for (let i = 0; i < 64; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.add((x >>> 0) & 0x7fffff);
  }
  return [...out];
}

describe('rounding a binary32 value to f16/bf16 through binary32', () => {
  const ms = mantissas();
  it.each(ROUNDINGS)(
    '%s: every exponent, both signs, mantissas at every rounding point',
    (_n, f, round) => {
      let checked = 0;
      for (let E = 0; E < 256; E++) {
        for (const sign of [0, 0x80000000]) {
          for (const m of ms) {
            const bits = (sign | (E << 23) | m) >>> 0;
            const r = binary32(bits);
            const d = round(r);
            const label = `binary32 0x${bits.toString(16)} (${r})`;
            if (r !== r) {
              expect(d, label).toBe(f.canonicalNaN);
            } else if (r === 0) {
              expect(d & ~0xffff, label).toBe(NEAREST_ZERO);
            } else {
              const want =
                Math.abs(r) === Infinity
                  ? f.infBits + (r < 0 ? f.signMask : 0)
                  : roundPair(r, 0, f, RN);
              expect(d & 0xffff, label).toBe(want);
              const tie = Math.abs(r) !== Infinity && isMidpoint(r, f);
              expect(d & ~0xffff, label).toBe(tie ? NEAREST_TIE : 0);
            }
            checked++;
          }
        }
      }
      expect(checked).toBe(256 * 2 * ms.length);
    },
  );

  it.each(ROUNDINGS)(
    '%s: a double beside a binary32 value rounds as the exact value',
    (_n, f, round) => {
      // s is any double; err a hair either way (the exact value s + err). Where the rounding does
      // not flag a tie, its bits must be the exact value's.
      const sArb = fc
        .tuple(
          fc.integer({ min: -160, max: 20 }),
          fc.double({ min: 1, max: 2, noNaN: true }),
          fc.boolean(),
        )
        .map(([e, m, neg]) => (neg ? -1 : 1) * m * 2 ** e);
      const errArb = fc.constantFrom(0, 1, -1, 2 ** -30, -(2 ** -30));
      fc.assert(
        fc.property(sArb, errArb, (s, e) => {
          const err = e === 0 ? 0 : e * Math.abs(s) * 2 ** -55;
          const d = round(s);
          if (d >= NEAREST_TIE) return;
          expect(d, `${s} + ${err}`).toBe(roundPair(s, err, f, RN));
        }),
        { numRuns: 20000, seed: 20261124 },
      );
    },
  );
});

describe('nearestBinary32OfTwoTerms', () => {
  it('fround of the double sum of two binary32 values is the exact sum rounded once', () => {
    const term = fc.oneof(
      fc.integer({ min: 0, max: 0xffffffff }).map(binary32),
      fc.integer({ min: 0, max: 0xffff }).map((h) => binary32(h << 16)),
    );
    fc.assert(
      fc.property(term, term, (u, v) => {
        if (!Number.isFinite(u) || !Number.isFinite(v)) return;
        const s = u + v;
        const d = nearestBinary32OfTwoTerms(s, w);
        if (s === 0 || !Number.isFinite(s)) return;
        const bp = s - u;
        const err = u - (s - bp) + (v - bp);
        expect(d, `${u} + ${v}`).toBe(roundPair(s, err, FORMATS.f32, RN));
      }),
      { numRuns: 20000, seed: 20261124 },
    );
  });

  it('a NaN or a zero is left to its rules', () => {
    expect(nearestBinary32OfTwoTerms(NaN, w)).toBe(-1);
    expect(nearestBinary32OfTwoTerms(0, w)).toBe(-1);
    expect(nearestBinary32OfTwoTerms(-0, w)).toBe(-1);
    expect(nearestBinary32OfTwoTerms(-Infinity, w)).toBe(0xff800000);
  });
});
