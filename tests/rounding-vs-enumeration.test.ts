/**
 * The one rounding routine (src/engine/rounding.ts) against a deliberately simple reference: the
 * format's values enumerated in order (every pattern decoded by its fields, by hand), and each
 * mode chosen by comparing exact rationals with the two neighbours. Checked at every value, every
 * midpoint, a quarter either side of each midpoint, past MAX_NORM and below the least value, for
 * every format of 8 bits or fewer and for f16, in every mode but .rs (tested with its bits in
 * tests/cvt-vs-reference*.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { FORMATS, type Format } from '../src/engine/format.ts';
import { roundDyadic } from '../src/engine/rounding.ts';
import type { Dyadic } from '../src/engine/value.ts';

/** A non-negative value as num / 2^SCALE (every value here is a multiple of 2^-SCALE). */
const SCALE = 200n;
type Fixed = bigint;

interface RefValue {
  readonly pattern: bigint;
  readonly value: Fixed;
}

/** Every non-negative finite value of f, by its fields, in increasing order. */
function enumerate(f: Format): RefValue[] {
  const values: RefValue[] = [];
  const bias = 2 ** (f.expBits - 1) - 1;
  for (let p = 0n; p < 1n << BigInt(f.expBits + f.manBits); p++) {
    const e = Number(p >> BigInt(f.manBits));
    const m = p & ((1n << BigInt(f.manBits)) - 1n);
    const allOnesExp = e === 2 ** f.expBits - 1;
    const allOnes = allOnesExp && m === (1n << BigInt(f.manBits)) - 1n;
    if (f.name === 'e2m1' || f.name === 'e2m3' || f.name === 'e3m2') {
      // no infinity, no NaN
    } else if (f.name === 'e4m3' || f.name === 'ue8m0' || f.name === 'ue4m3') {
      if (allOnes) continue; // the NaN
    } else if (allOnesExp) continue; // IEEE infinity and NaNs
    let value: Fixed;
    if (f.name === 'ue8m0') value = 1n << (SCALE + BigInt(e - 127));
    else if (e === 0) value = (m << SCALE) >> BigInt(bias - 1 + f.manBits);
    else value = (((1n << BigInt(f.manBits)) | m) << SCALE) >> BigInt(bias - e + f.manBits);
    values.push({ pattern: p, value });
  }
  return values;
}

type Outcome = { bits: bigint } | 'overflow' | 'below-least';

/** The reference rounding of the non-negative x (fixed point) to f's values in `mode`. */
function reference(
  values: RefValue[],
  f: Format,
  x: Fixed,
  negative: boolean,
  mode: string,
): Outcome {
  const top = values.at(-1)!;
  // Past MAX_NORM the values would go on with the top binade's spacing.
  const overflowValue = top.value + topQuantum(top.value, f);
  const sign = negative && f.signed ? f.signMask : 0n;
  // The last value at most x, by bisection over the increasing values.
  let below = -1;
  let above = values.length;
  while (above - below > 1) {
    const mid = (below + above) >> 1;
    if (values[mid]!.value <= x) below = mid;
    else above = mid;
  }
  const lo: RefValue | null = below >= 0 ? values[below]! : null;
  const hi: RefValue | 'overflow' =
    lo !== null && lo.value === x ? lo : above < values.length ? values[above]! : 'overflow';
  const loValue = lo === null ? 0n : lo.value;
  const hiValue = hi === 'overflow' ? overflowValue : hi.value;
  const asOutcome = (v: RefValue | 'overflow' | null): Outcome =>
    v === 'overflow' ? 'overflow' : v === null ? 'below-least' : { bits: v.pattern | sign };
  if (lo !== null && lo.value === x) return asOutcome(lo);
  if (x >= overflowValue) {
    const away =
      mode === 'rn' ||
      mode === 'rna' ||
      (mode === 'rp' && !negative) ||
      (mode === 'rm' && negative);
    return away ? 'overflow' : asOutcome(top);
  }
  const twice = 2n * x;
  const towardZero = lo;
  const away = hi;
  switch (mode) {
    case 'rz':
      return asOutcome(towardZero);
    case 'rp':
      return asOutcome(negative ? towardZero : away);
    case 'rm':
      return asOutcome(negative ? away : towardZero);
    case 'rna':
      return asOutcome(twice >= loValue + hiValue ? away : towardZero);
    case 'rn': {
      if (twice < loValue + hiValue) return asOutcome(towardZero);
      if (twice > loValue + hiValue) return asOutcome(away);
      // A tie: the neighbour whose pattern is even (past MAX_NORM, the next pattern up).
      const loPattern = lo === null ? -1n : lo.pattern;
      return asOutcome(loPattern % 2n === 0n ? towardZero : away);
    }
  }
  throw new Error(mode);
}

/**
 * The spacing of the top binade, past MAX_NORM too (the values would go on so): its leading
 * power of two divided by 2^manBits — 32 for e4m3 (448 + 32 = 480), 2^127 for ue8m0.
 */
function topQuantum(top: Fixed, f: Format): Fixed {
  const leading = 1n << BigInt(top.toString(2).length - 1);
  return leading >> BigInt(f.manBits);
}

/** x as a reduced dyadic (odd significand), as short as its value allows. */
function dyadicOfFixed(x: Fixed, negative: boolean): Dyadic {
  let mant = x;
  let exp = -Number(SCALE);
  while (mant > 0n && (mant & 1n) === 0n) {
    mant >>= 1n;
    exp++;
  }
  return { negative, mant, exp };
}

function engine(
  f: Format,
  x: Fixed,
  negative: boolean,
  mode: 'rn' | 'rz' | 'rm' | 'rp' | 'rna',
): Outcome {
  const r = roundDyadic(dyadicOfFixed(x, negative), f, mode);
  // Past MAX_NORM toward zero the overflow rule gives MAX_NORM (IEEE 754 §7.4).
  if (r.overflow)
    return r.awayFromZero
      ? 'overflow'
      : { bits: f.maxBits | (negative && f.signed ? f.signMask : 0n) };
  if (r.belowLeast) return 'below-least';
  return { bits: r.bits! };
}

/** Every value, midpoint and quarter point between neighbours, and points past both ends. */
function probePoints(values: RefValue[], f: Format): Fixed[] {
  // An array, sorted and deduplicated at the end: V8 hashes large BigInts into few buckets.
  const points: Fixed[] = [];
  const all = [0n, ...values.map((v) => v.value)];
  for (let i = 0; i + 1 < all.length; i++) {
    const [a, b] = [all[i]!, all[i + 1]!];
    for (const p of [
      a,
      b,
      (a + b) / 2n,
      (3n * a + b) / 4n,
      (a + 3n * b) / 4n,
      (a + b) / 2n + 1n,
      (a + b) / 2n - 1n,
    ])
      if (p > 0n) points.push(p);
  }
  const top = values.at(-1)!.value;
  const spacing = topQuantum(top, f);
  for (const k of [1n, 2n, 3n, 4n, 5n, 8n, 64n]) points.push(top + (spacing * k) / 4n);
  points.push(top + spacing / 2n - 1n);
  const least = values.find((v) => v.value > 0n)!.value;
  for (const k of [1n, 2n, 3n]) points.push((least * k) / 4n);
  points.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  return points.filter((p, i) => i === 0 || p !== points[i - 1]);
}

const MODES = ['rn', 'rz', 'rm', 'rp', 'rna'] as const;
const SMALL = ['e4m3', 'e5m2', 'e3m2', 'e2m3', 'e2m1', 'ue8m0', 'ue4m3', 'f16'] as const;

describe('roundToFormat against the enumerated values of each format', () => {
  for (const name of SMALL) {
    it(`${name}: every value, midpoint, quarter point and both ends, in every mode`, () => {
      const f = FORMATS[name];
      const values = enumerate(f);
      // f16 has 63,488 finite values: its subnormals, the binades around 1 and the top binade.
      const all = probePoints(values, f);
      const points =
        name === 'f16'
          ? all.filter((_, i) => i < 8000 || (i > 100000 && i < 108000) || i > all.length - 8000)
          : all;
      let checked = 0;
      for (const x of points)
        for (const negative of f.signed ? [false, true] : [false])
          for (const mode of MODES) {
            const want = reference(values, f, x, negative, mode);
            const got = engine(f, x, negative, mode);
            if (
              JSON.stringify(got, (_, v) => (typeof v === 'bigint' ? v.toString(16) : v)) !==
              JSON.stringify(want, (_, v) => (typeof v === 'bigint' ? v.toString(16) : v))
            )
              expect({ name, x: x.toString(), negative, mode, got, want }).toBe('equal');
            checked++;
          }
      expect(checked).toBeGreaterThan(points.length);
    });
  }

  it('ties go to the even pattern, also where the format has no mantissa bits (ue8m0)', () => {
    const ue8m0 = FORMATS.ue8m0;
    const three: Dyadic = { negative: false, mant: 3n, exp: 0 }; // between 2 (0x80) and 4 (0x81)
    const six: Dyadic = { negative: false, mant: 3n, exp: 1 }; // between 4 (0x81) and 8 (0x82)
    expect(roundDyadic(three, ue8m0, 'rn').bits).toBe(0x80n);
    expect(roundDyadic(six, ue8m0, 'rn').bits).toBe(0x82n);
    expect(roundDyadic(three, ue8m0, 'rn').step.reason).toBe('tie-to-even');
  });

  it('the step names the neighbours and the bits that decided', () => {
    // 1 + 2^-11 in f16: halfway between 0x3c00 and 0x3c01, kept even.
    const r = roundDyadic({ negative: false, mant: 2049n, exp: -11 }, FORMATS.f16, 'rn');
    expect(r.step).toMatchObject({
      lower: '0x3c00',
      upper: '0x3c01',
      result: '0x3c00',
      reason: 'tie-to-even',
      cut: { guard: 1, round: 0, sticky: 0, ulpExponent: -10 },
    });
  });
});
