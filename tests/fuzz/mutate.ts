/**
 * Mutations of valid seed strings: what a user, a hand-edited link or a broken script might
 * produce — truncations, duplicated and shuffled modifiers, unicode look-alikes and controls,
 * huge numbers, NUL bytes, megabyte strings — plus splices of two seeds.
 */
import type { Rng } from './random.ts';

/** Characters that break naive parsers: NUL, controls, look-alikes, combining marks, lone surrogates. */
export const NASTY_CHARS: readonly string[] = [
  '\u0000',
  '\u0001',
  '\t',
  '\n',
  '\r',
  '\u000b',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u200b',
  '\u200d',
  '\u2028',
  '\u2029',
  '\u202e',
  '\ufeff',
  '\ufffd',
  '\uffff',
  '\ud800',
  '\udfff',
  '\ud83d\ude00',
  '\u0301',
  '\u0130',
  '\u0131',
  'ß',
  'ﬀ',
  '\uff0e',
  '\u3002',
  '\u2024', // full-width, ideographic and one-dot leaders: dot look-alikes
  '\uff41',
  '\u0430',
  '\u0435',
  '\u03bf', // full-width a, Cyrillic a/e, Greek o
  '％',
  '；',
  '，',
  '"',
  "'",
  '\\',
  '/',
  '{',
  '}',
  '[',
  ']',
  ':',
  ',',
  ';',
  '.',
  '%',
  '@',
  '!',
  '&',
  '=',
  '?',
  '#',
  '+',
  ' ',
  '<',
  '>',
  '`',
  '$',
  '*',
];

export const HUGE_NUMBERS: readonly string[] = [
  '9'.repeat(400),
  `1e${'9'.repeat(30)}`,
  '1e-999999999',
  '0x' + 'f'.repeat(300),
  '-0',
  '+0',
  '1e309',
  '4.9e-324',
  '9007199254740993',
  '-9007199254740993',
  '0.' + '0'.repeat(500) + '1',
  '1' + '0'.repeat(790) + 'e-790',
  '0x1p99999999999999999999',
  '0x1.fffffffffffffffffffffffp-1074',
  'Infinity',
  '-Infinity',
  'NaN',
  '1_000',
  '0b' + '1'.repeat(64),
  '0x' + '0'.repeat(1000) + '1',
  '340282366920938463463374607431768211456',
];

const MEGABYTE = 1024 * 1024;

function insertAt(s: string, i: number, text: string): string {
  return s.slice(0, i) + text + s.slice(i);
}

type Mutator = (s: string, rng: Rng, seeds: readonly string[]) => string;

const MUTATORS: readonly Mutator[] = [
  // Truncate.
  (s, rng) => s.slice(0, rng.int(s.length + 1)),
  (s, rng) => s.slice(rng.int(s.length + 1)),
  // Delete, duplicate or swap a span.
  (s, rng) => {
    const i = rng.int(s.length + 1);
    return s.slice(0, i) + s.slice(i + 1 + rng.int(4));
  },
  (s, rng) => {
    const i = rng.int(s.length + 1);
    const span = s.slice(i, i + 1 + rng.int(8));
    return insertAt(s, i, span.repeat(1 + rng.int(3)));
  },
  // Dot-separated tokens (modifiers): duplicate, shuffle, drop.
  (s, rng) => {
    const parts = s.split('.');
    const i = rng.int(parts.length);
    parts.splice(i, 0, parts[rng.int(parts.length)]!);
    return parts.join('.');
  },
  (s, rng) => {
    const parts = s.split('.');
    for (let i = parts.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [parts[i], parts[j]] = [parts[j]!, parts[i]!];
    }
    return parts.join('.');
  },
  (s, rng) => {
    const parts = s.split('.');
    parts.splice(rng.int(parts.length), 1);
    return parts.join('.');
  },
  // Unicode, controls, NUL.
  (s, rng) => insertAt(s, rng.int(s.length + 1), rng.pick(NASTY_CHARS)),
  (s, rng) => {
    const i = rng.int(s.length);
    return s.slice(0, i) + rng.pick(NASTY_CHARS) + s.slice(i + 1);
  },
  (s, rng) => insertAt(s, rng.int(s.length + 1), '\u0000'.repeat(1 + rng.int(5))),
  // Case.
  (s, rng) =>
    rng.chance(0.5)
      ? s.toUpperCase()
      : s.replace(/[a-z]/g, (c) => (rng.chance(0.3) ? c.toUpperCase() : c)),
  // Numbers: replace a hex or decimal token with a huge or odd one.
  (s, rng) => {
    const tokens = [...s.matchAll(/0x[0-9a-fA-F]+|\d+(\.\d+)?/g)];
    if (tokens.length === 0) return insertAt(s, rng.int(s.length + 1), rng.pick(HUGE_NUMBERS));
    const t = rng.pick(tokens);
    return s.slice(0, t.index) + rng.pick(HUGE_NUMBERS) + s.slice(t.index + t[0].length);
  },
  // Random printable ASCII.
  (s, rng) => insertAt(s, rng.int(s.length + 1), String.fromCharCode(32 + rng.int(95))),
  // Splice with another seed.
  (s, rng, seeds) => {
    const other = rng.pick(seeds);
    return s.slice(0, rng.int(s.length + 1)) + other.slice(rng.int(other.length + 1));
  },
  // Repeat the whole thing.
  (s, rng) => s.repeat(2 + rng.int(20)),
];

/** One fuzz input from the seeds: a seed with 0–4 mutations, rarely a 1 MB string. */
export function mutateSeed(rng: Rng, seeds: readonly string[]): string {
  if (rng.chance(1 / 20_000)) return megabyte(rng, seeds);
  let s = rng.pick(seeds);
  const rounds = rng.int(5);
  for (let i = 0; i < rounds; i++) s = rng.pick(MUTATORS)(s, rng, seeds);
  return s;
}

/** A 1 MB string: a seed repeated, padding, or NULs, so length limits are exercised. */
export function megabyte(rng: Rng, seeds: readonly string[]): string {
  switch (rng.int(3)) {
    case 0:
      return rng
        .pick(seeds)
        .repeat(Math.ceil(MEGABYTE / Math.max(1, rng.pick(seeds).length)))
        .slice(0, MEGABYTE);
    case 1:
      return rng.pick(seeds) + ' '.repeat(MEGABYTE);
    default:
      return '\u0000'.repeat(MEGABYTE);
  }
}

/** Random text with no relation to any seed. */
export function noise(rng: Rng, maxLength = 40): string {
  let s = '';
  const n = rng.int(maxLength + 1);
  for (let i = 0; i < n; i++)
    s += rng.chance(0.2) ? rng.pick(NASTY_CHARS) : String.fromCharCode(rng.int(0x80));
  return s;
}
