import { describe, expect, it } from 'vitest';
import { FLOAT_FORMATS, toDouble, valueTable } from './formats.ts';

/** valueTable fills a binade at a time: it must still be toDouble of every pattern. */
describe('valueTable', () => {
  const narrow = Object.values(FLOAT_FORMATS).filter((f) => f.width <= 16);

  it('covers the formats of at most 16 bits', () => {
    expect(narrow.map((f) => f.name)).toEqual(
      expect.arrayContaining(['f16', 'bf16', 'e4m3', 'e5m2', 'e2m3', 'e3m2', 'e2m1', 'ue8m0']),
    );
  });

  it.each(narrow.map((f) => [f.name, f] as const))(
    '%s: every pattern is toDouble of it (NaN, infinity and -0 included)',
    (_, f) => {
      const table = valueTable(f);
      expect(table.length).toBe(2 ** f.width);
      const wrong: string[] = [];
      for (let i = 0; i < table.length; i++) {
        if (!Object.is(table[i], toDouble(i, f)))
          wrong.push(`0x${i.toString(16)}: ${table[i]} ≠ ${toDouble(i, f)}`);
      }
      expect(wrong.slice(0, 5)).toEqual([]);
    },
  );
});
