/**
 * The fast path's view of the formats and of NVIDIA's rules on numbers (numeric-format.ts,
 * numeric-rules.ts) against the bigint originals (format.ts, nvidia-rules.ts): every pattern of
 * every format of at most 16 bits and of tf32 (19 bits), and for f32 its edges and a seeded
 * sample. A rule the fast path applies on numbers must decide exactly what nvidia-rules.ts
 * decides; this is where that is checked.
 */
import { describe, expect, it } from 'vitest';
import { isNaNBits, isSubnormalBits, toDouble } from '../format.ts';
import * as rules from '../nvidia-rules.ts';
import {
  isNaNWord,
  isSubnormalWord,
  NUMERIC_FORMATS,
  valueOfWord,
  valueTable,
  type NumericFormat,
  type NumericFormatName,
} from './numeric-format.ts';
import * as words from './numeric-rules.ts';

const NAMES = Object.keys(NUMERIC_FORMATS) as NumericFormatName[];
const EXHAUSTIVE = NAMES.filter((n) => NUMERIC_FORMATS[n].width <= 19);

/** Every pattern of a format, or for f32 its edges and a seeded sample of 2^16 patterns. */
function patterns(f: NumericFormat): number[] {
  if (f.width <= 19) return Array.from({ length: 2 ** f.width }, (_, i) => i);
  const edges = [0, 1, 2, 0x7fffff, 0x800000, 0x800001, 0x3f800000, 0x3f800001, 0x7f7fffff];
  const out = [...edges, 0x7f800000, 0x7f800001, 0x7fc00000, 0x7fffffff];
  out.push(...out.map((p) => (p | 0x80000000) >>> 0));
  let x = 0x9e3779b9;
  for (let i = 0; i < 65536; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.push(x >>> 0);
  }
  return out;
}

/** The OOB-NaN patterns tried: the measured 0x7ff7 (in the format's width), and others. */
function oobPatterns(f: NumericFormat): number[] {
  const mask = 2 ** f.width - 1;
  return [0x7ff7 % (mask + 1), f.maxBits, f.canonicalNaN ?? 0, 1];
}

describe('numeric formats and rules agree with format.ts and nvidia-rules.ts', () => {
  it('covers every format of at most 32 bits, exhaustively all but f32', () => {
    expect(NAMES).toHaveLength(11);
    expect(EXHAUSTIVE).toHaveLength(10);
  });

  it.each(NAMES)('%s: values, classes and unary rules on every pattern', (name) => {
    const f = NUMERIC_FORMATS[name];
    const big = f.format;
    if (big.canonicalNaN === null) expect(() => words.canonicalNaN(f)).toThrow();
    else expect(words.canonicalNaN(f)).toBe(Number(rules.canonicalNaN(big)));
    const wrong: string[] = [];
    const check = (what: string, p: number, got: unknown, want: unknown) => {
      if (!Object.is(got, want) && wrong.length < 10)
        wrong.push(`${what}(0x${p.toString(16)}): ${String(got)}, want ${String(want)}`);
    };
    for (const p of patterns(f)) {
      const b = BigInt(p);
      check('valueOfWord', p, valueOfWord(p, f), toDouble(b, big));
      check('isNaNWord', p, isNaNWord(p, f), isNaNBits(b, big));
      check('isSubnormalWord', p, isSubnormalWord(p, f), isSubnormalBits(b, big));
      check('flushSubnormal', p, words.flushSubnormal(p, f), Number(rules.flushSubnormal(b, big)));
      for (const tiny of [false, true])
        check(
          `flushTinyResult(${tiny})`,
          p,
          words.flushTinyResult(p, f, tiny),
          Number(rules.flushTinyResult(b, big, tiny)),
        );
      check('saturate', p, words.saturate(p, f), Number(rules.saturate(b, big)));
      if (big.canonicalNaN !== null) check('relu', p, words.relu(p, f), Number(rules.relu(b, big)));
      check('satfinite', p, words.satfinite(p, f), Number(rules.satfinite({ bits: b }, big).bits));
      for (const pattern of oobPatterns(f))
        check(
          `isOobNaN(${pattern})`,
          p,
          words.isOobNaN(p, f, pattern),
          rules.isOobNaN(b, big, BigInt(pattern)),
        );
    }
    expect(wrong).toEqual([]);
  });

  it.each(EXHAUSTIVE.filter((n) => NUMERIC_FORMATS[n].width === 16))(
    '%s: oobForcesZero on every a against the edges as b, both orders',
    (name) => {
      const f = NUMERIC_FORMATS[name];
      const pattern = 0x7ff7;
      const bs = [0, 0x8000, 1, pattern, pattern | 0x8000, 0x7fff, 0xfff7, 0x7ff6, f.maxBits];
      let wrong = 0;
      for (let a = 0; a < 65536; a++)
        for (const b of bs) {
          const want = rules.oobForcesZero(BigInt(a), BigInt(b), f.format, BigInt(pattern));
          if (words.oobForcesZero(a, b, f, pattern) !== want) wrong++;
          const swapped = rules.oobForcesZero(BigInt(b), BigInt(a), f.format, BigInt(pattern));
          if (words.oobForcesZero(b, a, f, pattern) !== swapped) wrong++;
        }
      expect(wrong).toBe(0);
    },
  );

  it.each(NAMES.filter((n) => NUMERIC_FORMATS[n].width <= 16))(
    '%s: valueTable (filled a binade at a time) holds valueOfWord of every pattern',
    (name) => {
      const f = NUMERIC_FORMATS[name];
      const table = valueTable(f);
      expect(table).toHaveLength(2 ** f.width);
      const wrong = [...table.keys()].filter((p) => !Object.is(table[p], valueOfWord(p, f)));
      expect(wrong).toEqual([]);
    },
  );

  it.each(NAMES)('%s: overflow results, .satfinite past MAX_NORM, MAX_NORM', (name) => {
    const f = NUMERIC_FORMATS[name];
    for (const negative of [false, true]) {
      expect(words.satfiniteBeyond(f, negative)).toBe(
        Number(rules.satfinite({ beyond: true, negative }, f.format).bits),
      );
      for (const away of [false, true]) {
        let want: number | 'throws';
        try {
          want = Number(rules.overflowResult(f.format, negative, away).bits);
        } catch {
          want = 'throws';
        }
        if (want === 'throws') expect(() => words.overflowResult(f, negative, away)).toThrow();
        else expect(words.overflowResult(f, negative, away)).toBe(want);
      }
    }
  });
});
