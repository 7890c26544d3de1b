/**
 * Random operand registers biased towards the bit patterns where float code breaks: edge values,
 * extreme and near-1 exponents, fractions of all zeros or all ones, and operands that (nearly)
 * cancel. The generator draws from a `Pick` source so the same code serves fast-check (a tape of
 * numbers it can shrink) and the seeded million-vector run.
 */
import type { Form } from '../../src/catalog/instruction.ts';
import { operandsOf, type OperandName } from './catalog-forms.ts';
import { EDGE_VALUES } from './edge-values.ts';
import { REF_FORMATS, type RefFormatName } from './ref-formats.ts';
import { refEvaluate } from './slowfloat.ts';

/** A uniform integer in [0, n). */
export type Pick = (n: number) => number;

export interface Registers {
  a: number;
  b: number;
  c: number;
}

function structuredLane(format: RefFormatName, pick: Pick): number {
  const fmt = REF_FORMATS[format];
  const maxExponent = 2 ** fmt.exponentBits - 1;
  const exponents = [
    0,
    1,
    2,
    fmt.bias - 2,
    fmt.bias - 1,
    fmt.bias,
    fmt.bias + 1,
    maxExponent - 2,
    maxExponent - 1,
    maxExponent,
  ];
  const exponent = pick(3) === 0 ? pick(maxExponent + 1) : exponents[pick(exponents.length)]!;
  const fractionMax = 2 ** fmt.fractionBits - 1;
  const fractions = [
    0,
    1,
    2,
    fractionMax,
    fractionMax - 1,
    2 ** (fmt.fractionBits - 1),
    2 ** (fmt.fractionBits - 1) + 1,
  ];
  const fraction =
    pick(2) === 0 ? fractions[pick(fractions.length)]! : randomBits(fmt.fractionBits, pick);
  return pick(2) * fmt.signMask + exponent * 2 ** fmt.fractionBits + fraction;
}

function randomBits(width: number, pick: Pick): number {
  return width <= 16 ? pick(2 ** width) : pick(2 ** (width - 16)) * 0x10000 + pick(0x10000);
}

/** One lane value of `format`, from one of three strategies. */
export function interestingLane(format: RefFormatName, pick: Pick): number {
  switch (pick(4)) {
    case 0: {
      const edges = EDGE_VALUES[format];
      return edges[pick(edges.length)]!;
    }
    case 1:
      return randomBits(REF_FORMATS[format].totalBits, pick);
    default:
      return structuredLane(format, pick);
  }
}

/** `bits` with its sign flipped and moved by `delta` ulps (staying within the sign's patterns). */
function nearNegation(bits: number, format: RefFormatName, delta: number): number {
  const fmt = REF_FORMATS[format];
  const negated = bits >= fmt.signMask ? bits - fmt.signMask : bits + fmt.signMask;
  const base = negated >= fmt.signMask ? fmt.signMask : 0;
  const magnitude = Math.min(Math.max(negated - base + delta, 0), fmt.infBits);
  return base + magnitude;
}

function isFinite(bits: number, format: RefFormatName): boolean {
  const fmt = REF_FORMATS[format];
  return bits % fmt.signMask < fmt.infBits;
}

/**
 * For add/sub/fma, one operand in four is chosen to (nearly) cancel the rest: the negated exact
 * or rounded value of the other terms, moved by -2..2 ulps. This reaches exact zeros (and their
 * signs), massive cancellation and tiny results.
 */
function cancellingLane(form: Form, lane: Record<OperandName, number>, pick: Pick): number | null {
  const mixed = form.type.startsWith('f32.');
  const half = mixed
    ? (form.type.slice(4) as 'f16' | 'bf16')
    : (form.type.replace('x2', '') as 'f16' | 'bf16');
  const delta = pick(5) - 2;
  if (form.opcode === 'fma') {
    const product = mixed
      ? refEvaluate(`fma.rn.f32.${half}`, lane.a, lane.b, 0)
      : refEvaluate(`mul.rn.${half}`, lane.a, lane.b, 0);
    const format = mixed ? 'f32' : half;
    return isFinite(product, format) ? nearNegation(product, format, delta) : null;
  }
  if (form.opcode === 'add' || form.opcode === 'sub') {
    // The second operand is c in mixed forms (an f32), b in half forms.
    const asSecond = mixed ? refEvaluate(`add.rn.f32.${half}`, lane.a, 0, 0) : lane.a;
    const format = mixed ? 'f32' : half;
    if (!isFinite(asSecond, format)) return null;
    const negated = nearNegation(asSecond, format, delta);
    return form.opcode === 'add' ? negated : nearNegation(negated, format, 0);
  }
  return null;
}

/** Source registers for `form`: per lane, interesting values, sometimes cancelling ones. */
export function randomRegisters(form: Form, pick: Pick): Registers {
  const sources = operandsOf(form).filter((o) => o.name !== 'd');
  const lanes = Math.max(...sources.map((o) => o.lanes));
  const registers: Registers = { a: 0, b: 0, c: 0 };
  const last = sources[sources.length - 1]!;
  for (let lane = 0; lane < lanes; lane++) {
    const values: Record<OperandName, number> = { d: 0, a: 0, b: 0, c: 0 };
    for (const o of sources) values[o.name] = interestingLane(o.format, pick);
    if (pick(4) === 0) {
      const cancel = cancellingLane(form, values, pick);
      if (cancel !== null) values[last.name] = cancel;
    }
    for (const o of sources) {
      if (o.name === 'd') continue;
      registers[o.name] +=
        o.lanes === 2 ? values[o.name] * 2 ** (16 * lane) : lane === 0 ? values[o.name] : 0;
    }
  }
  return registers;
}

/** A seeded uniform source (mulberry32), for reproducible runs outside fast-check. */
export function seededPick(seed: number): Pick {
  let state = seed >>> 0;
  return (n) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const u = ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
    return Math.floor(u * n);
  };
}

/**
 * A Pick that reads a fast-check-generated tape of non-negative integers, cycling when it runs
 * out. Shrinking the tape towards zeros shrinks towards the first choice of every draw.
 */
export function tapePick(tape: readonly number[]): Pick {
  let i = 0;
  return (n) => (tape.length === 0 ? 0 : tape[i++ % tape.length]! % n);
}
