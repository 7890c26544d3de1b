/**
 * Operand vectors for the trace checker, grouped by what they make a trace say: ties, overflow
 * by a little and by a lot, tiny results (rounding to the smallest normal, to subnormals, to
 * zero), exact zeros, sticky-only sums, flushed inputs, special values, OOB-NaN, and random
 * registers. Each group builds exact values first (rational.ts) and turns them into bit patterns
 * only where they are representable, so a vector is what its group says. Packed forms take each
 * lane from a group drawn on its own, so the two lanes are in different situations.
 */
import type { Form } from '../../src/catalog/instruction.ts';
import type { LaneFormatName } from './catalog-forms.ts';
import { EDGE_VALUES } from './edge-values.ts';
import { roundRational } from './neighbour-round.ts';
import { compare, mul, neg, pow2, rational, type Rational } from './rational.ts';
import { decode, REF_FORMATS, type RefFormat } from './ref-formats.ts';
import { withOobMarks, type OobMarks } from './model-inputs.ts';
import type { TraceVector } from './trace-expect.ts';
import { randomRegisters, type Pick } from './vectors.ts';

export const GROUPS = [
  'tie',
  'overflow-little',
  'overflow-lot',
  'tiny-to-min-normal',
  'tiny-subnormal',
  'exact-zero',
  'sticky-only',
  'flush',
  'special',
  'oob',
  'random',
] as const;
export type Group = (typeof GROUPS)[number];

interface Lane {
  a: number;
  b: number;
  c: number;
}

/** The pattern of an exactly representable value (throws when it is not: a generator bug). */
function bitsOf(q: Rational, fmt: RefFormat, negativeZero = false): number {
  const bits = roundRational(q, 'rn', fmt, negativeZero);
  if (compare(decode(bits, fmt), q) !== 0) throw new Error(`not representable in ${fmt.name}`);
  return bits;
}

/** Like bitsOf, but null where the value is not representable (the caller draws again). */
function tryBits(q: Rational, fmt: RefFormat): number | null {
  const bits = roundRational(q, 'rn', fmt, q.num < 0n);
  const value = bits % fmt.signMask >= fmt.infBits ? null : decode(bits, fmt);
  return value !== null && compare(value, q) === 0 ? bits : null;
}

const signed = (q: Rational, negative: boolean) => (negative ? neg(q) : q);

/** sig × 2^e as a rational. */
const value = (sig: bigint, e: number) => mul(rational(sig), pow2(e));

interface Shape {
  readonly op: 'add' | 'sub' | 'mul' | 'fma';
  readonly mixed: boolean;
  /** a and b's format. */
  readonly half: RefFormat;
  /** c's format and the result's. */
  readonly out: RefFormat;
}

/** The format of one value of a register's type (`f16x2`: f16). */
function formatOf(form: Form, name: string): RefFormat | undefined {
  const type = form.registers.find((r) => r.name === name)?.type;
  return type === undefined ? undefined : REF_FORMATS[type.replace('x2', '') as LaneFormatName];
}

function shapeOf(form: Form): Shape {
  const half = formatOf(form, 'a')!;
  const out = formatOf(form, 'd')!;
  return { op: form.operation as Shape['op'], mixed: form.family === 'mixed', half, out };
}

const emin = (f: RefFormat) => 1 - f.bias;
const emax = (f: RefFormat) => f.bias;
const P = (f: RefFormat) => f.fractionBits;
const maxValue = (f: RefFormat) => decode(f.maxFiniteBits, f);

const minNormalValue = (f: RefFormat) => pow2(emin(f));

/** A random normal value of f with exponent in [lo, hi]: (1.fraction) × 2^e. */
function normal(f: RefFormat, lo: number, hi: number, pick: Pick): Rational {
  const e = lo + pick(hi - lo + 1);
  // Every fraction bit random (two draws for f32's 23).
  const fraction =
    P(f) <= 16
      ? BigInt(pick(2 ** P(f)))
      : (BigInt(pick(2 ** (P(f) - 16))) << 16n) + BigInt(pick(2 ** 16));
  const sig = (1n << BigInt(P(f))) + fraction;
  return signed(value(sig, e - P(f)), pick(2) === 1);
}

/**
 * A lane whose exact value is t + x: t a value of a and b's format, x of the result's. add:
 * a = t, second = x; sub: a = t, second = -x; fma: a = t, b = 1, c = x. (Not for mul.)
 */
function termsLane(s: Shape, t: Rational, x: Rational): Lane | null {
  const a = tryBits(t, s.half);
  if (a === null) return null;
  if (s.op === 'fma') {
    const c = tryBits(x, s.out);
    return c === null ? null : { a, b: bitsOf(rational(1n), s.half), c };
  }
  const second = tryBits(s.op === 'sub' ? neg(x) : x, s.mixed ? s.out : s.half);
  if (second === null) return null;
  return s.mixed ? { a, b: 0, c: second } : { a, b: second, c: 0 };
}

/** mul: a × b; fma: a × b + c (c ±0 unless given). */
function productLane(s: Shape, x: Rational, y: Rational, pick: Pick, c?: Rational): Lane | null {
  const a = tryBits(x, s.half);
  const b = tryBits(y, s.half);
  if (a === null || b === null) return null;
  if (s.op === 'mul') return { a, b, c: 0 };
  const addend = c === undefined ? bitsOf(rational(0n), s.out, pick(2) === 1) : tryBits(c, s.out);
  return addend === null ? null : { a, b, c: addend };
}

function floorLog2Of(q: Rational): number {
  const m = q.num < 0n ? neg(q) : q;
  let e = m.num.toString(2).length - m.den.toString(2).length;
  while (compare(pow2(e), m) > 0) e--;
  while (compare(pow2(e + 1), m) <= 0) e++;
  return e;
}

/** One lane of `group` for an arithmetic shape; null when the draw did not fit (draw again). */
function arithmeticLane(s: Shape, group: Group, pick: Pick): Lane | null {
  const { half, out } = s;
  const p = P(out);
  const sign = () => pick(2) === 1;
  // Exponents where a term of half's format can sit p+1 (and more) binades below x.
  const smallest = emin(half) - P(half);
  const xLow = Math.max(emin(out) + 1, smallest + p + 5);
  const xHigh = Math.min(emax(out) - 1, emax(half) + p + 1);
  switch (group) {
    case 'tie': {
      if (s.op === 'mul') {
        // An odd significand below 2^(p+2)/3 times 3: p+2 bits, the last one a lone 1.
        const base = 1n << BigInt(P(half));
        const top = (1n << BigInt(P(half) + 2)) / 3n;
        let sig = base + BigInt(pick(Number(top - base)));
        if (sig % 2n === 0n) sig += 1n;
        const ea = pick(9) - 4;
        const x = signed(value(sig, ea - P(half)), sign());
        const y = signed(value(3n, pick(9) - 5), sign());
        return productLane(s, x, y, pick);
      }
      // x ± half an ulp of x.
      const x = normal(out, xLow, xHigh, pick);
      return termsLane(s, signed(pow2(floorLog2Of(x) - p - 1), sign()), x);
    }
    case 'sticky-only': {
      // Only bits far below the round bit: G = R = 0, S = 1.
      if (s.op === 'mul') return null;
      const x = normal(out, xLow, xHigh, pick);
      return termsLane(s, signed(pow2(floorLog2Of(x) - p - 3 - pick(3)), sign()), x);
    }
    case 'overflow-little': {
      const negative = sign();
      const max = signed(maxValue(out), negative);
      if (s.op === 'mul') {
        // max × (1 + k 2^-p): past max by k ulps, or (k = 0 with 1 - 2^-(p+1)) just below.
        const k = BigInt(pick(3));
        const b =
          k === 0n
            ? rational((2n << BigInt(P(half))) - 1n, 2n << BigInt(P(half)))
            : rational((1n << BigInt(P(half))) + k, 1n << BigInt(P(half)));
        return productLane(s, max, b, pick);
      }
      // max plus a fraction of its ulp: 1/4 (stays), 1/2 (a tie to ∞ under .rn), 3/4, 1.
      const ulp = pow2(emax(out) - p);
      const fraction = [rational(1n, 4n), rational(1n, 2n), rational(3n, 4n), rational(1n)][
        pick(4)
      ]!;
      const lane = termsLane(s, signed(mul(ulp, fraction), negative), max);
      // Where half's format cannot hold a fraction of the result's ulp: a small whole term.
      return lane ?? termsLane(s, signed(rational(BigInt(1 + pick(4))), negative), max);
    }
    case 'overflow-lot': {
      const negative = sign();
      if (s.op === 'mul' || (s.op === 'fma' && pick(2) === 0))
        return productLane(
          s,
          signed(maxValue(half), negative),
          maxValue(half),
          pick,
          signed(maxValue(out), negative),
        );
      return termsLane(s, signed(maxValue(half), negative), signed(maxValue(out), negative));
    }
    case 'tiny-to-min-normal': {
      // Just below 2^emin: rounds to the smallest normal or to the largest subnormal.
      const negative = sign();
      const mn = minNormalValue(out);
      if (s.op === 'mul' || (s.op === 'fma' && !s.mixed && pick(2) === 0)) {
        const k = BigInt(1 + pick(3));
        const a = rational((1n << BigInt(p + 1)) - k, 1n << BigInt(p + 1));
        const scale =
          pick(2) === 0 ? rational(1n) : rational((1n << BigInt(p)) + 1n, 1n << BigInt(p));
        return productLane(s, a, signed(mul(mn, scale), negative), pick);
      }
      if (s.op === 'fma') {
        // c = ±2^emin, the product a small power of two of the other sign.
        const e = emin(out) - p - 1 - pick(3);
        const ea = Math.max(emin(half), Math.min(emax(half), Math.ceil(e / 2)));
        return productLane(
          s,
          pow2(ea),
          signed(pow2(e - ea), !negative),
          pick,
          signed(mn, negative),
        );
      }
      // Sums of values of these formats are multiples of the subnormal spacing: exact results.
      const step = pow2(Math.max(emin(out) - p, smallest));
      return termsLane(
        s,
        signed(mul(step, rational(BigInt(1 + pick(8)))), !negative),
        signed(mn, negative),
      );
    }
    case 'tiny-subnormal': {
      // Results in the subnormal range, or below half the smallest subnormal (to zero).
      const negative = sign();
      const e = emin(out) - 1 - pick(p + 3);
      if (s.op === 'mul' || s.op === 'fma') {
        const ea = Math.max(emin(half), Math.min(emax(half), Math.ceil(e / 2)));
        const x = normal(half, ea, ea, pick);
        const y = signed(pow2(e - ea), negative);
        return productLane(s, x, y, pick);
      }
      const step = pow2(Math.max(emin(out) - p, smallest));
      return termsLane(
        s,
        signed(mul(step, rational(BigInt(1 + pick(64)))), negative),
        neg(rational(0n)),
      );
    }
    case 'exact-zero': {
      const x = normal(half, emin(half), emax(half), pick);
      if (pick(3) === 0 || s.op === 'mul') {
        // Zero operands: ±0 × x (+ ±0), ±0 ± ±0.
        const za = bitsOf(rational(0n), half, sign());
        if (s.op === 'mul' || s.op === 'fma') {
          const b = pick(2) ? tryBits(x, half)! : bitsOf(rational(0n), half, sign());
          const c = s.op === 'fma' ? bitsOf(rational(0n), out, sign()) : 0;
          return pick(2) ? { a: za, b, c } : { a: b, b: za, c };
        }
        const zero = bitsOf(rational(0n), s.mixed ? out : half, sign());
        return s.mixed ? { a: za, b: 0, c: zero } : { a: za, b: zero, c: 0 };
      }
      if (s.op === 'fma') {
        // A short product, exact in the result format, cancelled by c.
        const a = signed(value(3n + 2n * BigInt(pick(4)), pick(16) - 8), sign());
        const b = signed(value(5n, pick(16) - 8), sign());
        return productLane(s, a, b, pick, neg(mul(a, b)));
      }
      return termsLane(s, x, neg(x));
    }
    default:
      return null;
  }
}

/** A lane of any form for a group, or null when the group does not apply to it. */
function laneFor(form: Form, group: Group, pick: Pick): Lane | null {
  const fmt = (name: 'a' | 'b' | 'c') => formatOf(form, name) ?? REF_FORMATS.f16;
  const edge = (name: 'a' | 'b' | 'c') => {
    const list = EDGE_VALUES[fmt(name).name as LaneFormatName];
    return list[pick(list.length)]!;
  };
  const subnormal = (name: 'a' | 'b' | 'c') => {
    const f = fmt(name);
    return (pick(2) ? f.signMask : 0) + 1 + pick(2 ** f.fractionBits - 1);
  };
  const arithmetic = ['add', 'sub', 'mul', 'fma'].includes(form.operation);
  if (group === 'special') return { a: edge('a'), b: edge('b'), c: edge('c') };
  if (group === 'flush') {
    const lane = { a: edge('a'), b: edge('b'), c: edge('c') };
    const which = (['a', 'b', 'c'] as const)[pick(3)]!;
    lane[which] = subnormal(which);
    if (pick(2)) lane.a = subnormal('a');
    return lane;
  }
  if (group === 'oob') {
    const pattern = [0x7ff7, 0xfff7][pick(2)]!;
    const lane = { a: edge('a'), b: edge('b'), c: edge('c') };
    lane[(['a', 'b', 'c'] as const)[pick(3)]!] = pattern;
    return lane;
  }
  if (!arithmetic || group === 'random') return null;
  const s = shapeOf(form);
  for (let attempt = 0; attempt < 20; attempt++) {
    const lane = arithmeticLane(s, group, pick);
    if (lane) return lane;
  }
  return null;
}

/**
 * `perGroup` vectors of each group that applies to `form` (x2 forms: the lanes from two groups
 * drawn independently), plus `perGroup` random registers; .oob forms also with operands (or one
 * lane of them) holding the OOB-NaN pattern, and .ftz forms also under the other tininess reading.
 */
export function vectorsFor(form: Form, perGroup: number, pick: Pick): TraceVector[] {
  const out: TraceVector[] = [];
  const packed = form.registers[1]!.type.endsWith('x2');
  const has = (m: string) => (form.modifiers as readonly string[]).includes(m);
  const applies = GROUPS.filter((g) => g !== 'random' && (g !== 'oob' || has('oob')));
  const vector = (group: string, r: Lane, options?: TraceVector['options']): TraceVector => ({
    form: form.text,
    group,
    registers: registersOf(form, r),
    ...(options ? { options } : {}),
  });
  for (const group of applies) {
    for (let i = 0; i < perGroup; i++) {
      const lane0 = laneFor(form, group, pick);
      if (!lane0) break;
      let registers = lane0;
      let name: string = group;
      if (packed) {
        const other = applies[pick(applies.length)]!;
        const lane1 = laneFor(form, other, pick) ?? laneFor(form, group, pick)!;
        registers = {
          a: lane0.a + lane1.a * 0x10000,
          b: lane0.b + lane1.b * 0x10000,
          c: lane0.c + lane1.c * 0x10000,
        };
        name = `${group} | ${other}`;
      }
      out.push(vector(name, registers));
      if (
        has('ftz') &&
        (group === 'tiny-to-min-normal' || group === 'tiny-subnormal' || group === 'flush')
      )
        out.push(
          vector(`${name} (before-rounding)`, registers, { ftzTininess: 'before-rounding' }),
        );
    }
  }
  const random = () => randomRegisters(form, pick);
  for (let i = 0; i < perGroup; i++) out.push(vector('random', random()));
  if (has('oob')) {
    const marks: OobMarks[] = [
      { a: true },
      { b: true },
      { c: true },
      { a: [false, true] },
      { b: [true, false] },
    ];
    for (const oob of marks)
      out.push(
        vector(`oob-marked ${JSON.stringify(oob)}`, withOobMarks(random(), oob, 0x7ff7, packed)),
      );
    out.push(
      vector('oob-other-pattern', withOobMarks(random(), { a: true }, 0x7fff, packed), {
        oobNanBits: 0x7fff,
      }),
    );
  }
  return out;
}

/** The form's source registers as bigints (operands it lacks left out; mixed c stays 32-bit). */
function registersOf(form: Form, r: Lane): TraceVector['registers'] {
  const has = (n: string) => form.registers.some((x) => x.name === n);
  return {
    a: BigInt(r.a),
    ...(has('b') ? { b: BigInt(r.b) } : {}),
    ...(has('c') ? { c: BigInt(r.c) } : {}),
  };
}
