/**
 * Operand vectors for the cross-checks: edge-value cross products, and seeded random vectors
 * biased towards the cases where rounding is decided (close exponents, cancellation, a small
 * addend beside a product). Every vector is a tuple of source-operand register patterns, in the
 * instruction's operand order (a, b for add; a, c for mixed add; a, b, c for fma).
 */
import { FORMATS as ENGINE_FORMATS } from '../../src/engine/format.ts';
import { interestingPatterns, type PatternFormat as FormatName } from '../support/patterns.ts';
import { EDGE_VALUES } from '../reference/edge-values.ts';
import { seededPick, type Pick } from '../reference/vectors.ts';

/** The formats' fields as numbers (every format here is at most 32 bits wide). */
const FORMATS = Object.fromEntries(
  (['f16', 'bf16', 'f32'] as const).map((name) => {
    const f = ENGINE_FORMATS[name];
    const { expBits, manBits, bias, emin, width } = f;
    return [name, { expBits, manBits, bias, emin, width, signMask: Number(f.signMask) }];
  }),
) as Record<
  FormatName,
  { expBits: number; manBits: number; bias: number; emin: number; width: number; signMask: number }
>;

/** Operand columns: columns[k][i] is operand k of vector i. */
export type Columns = Uint32Array[];

export interface VectorSet {
  readonly columns: Columns;
  /** How many leading vectors are edge-value cross products (the rest are random). */
  readonly edgeCount: number;
}

export function vectorCount(columns: Columns): number {
  return columns[0]?.length ?? 0;
}

function cross(valueLists: readonly (readonly number[])[]): number[][] {
  let tuples: number[][] = [[]];
  for (const values of valueLists) tuples = tuples.flatMap((t) => values.map((v) => [...t, v]));
  return tuples;
}

function toColumns(tuples: readonly (readonly number[])[], arity: number): Columns {
  return Array.from({ length: arity }, (_, k) => Uint32Array.from(tuples, (t) => t[k]!));
}

export function concatColumns(parts: readonly Columns[]): Columns {
  const arity = parts[0]!.length;
  return Array.from({ length: arity }, (_, k) => {
    const total = parts.reduce((n, p) => n + p[k]!.length, 0);
    const out = new Uint32Array(total);
    let at = 0;
    for (const p of parts) {
      out.set(p[k]!, at);
      at += p[k]!.length;
    }
    return out;
  });
}

/** Edge values of a format: the neighbourhoods of every special value (about 70 patterns). */
export function edgeValues(format: FormatName): number[] {
  return interestingPatterns(format);
}

/** A finite value whose exponent field is near `nearExp` (clamped to the finite range). */
function nearby(format: FormatName, nearExp: number, spread: number, pick: Pick): number {
  const f = FORMATS[format];
  const maxExp = 2 ** f.expBits - 2;
  const e = Math.min(maxExp, Math.max(0, nearExp + pick(2 * spread + 1) - spread));
  const sign = pick(2) * f.signMask;
  return sign + e * 2 ** f.manBits + pick(2 ** f.manBits);
}

const expField = (bits: number, format: FormatName): number => {
  const f = FORMATS[format];
  return Math.floor((bits % f.signMask) / 2 ** f.manBits);
};

const randomBits = (format: FormatName, pick: Pick): number =>
  format === 'f32' ? pick(2 ** 16) * 2 ** 16 + pick(2 ** 16) : pick(2 ** 16);

/** Vectors for a binary op on one 16-bit format: edge cross product, then `count` random. */
export function binaryVectors(format: FormatName, count: number, seed: number): VectorSet {
  const edges = edgeValues(format);
  const edgeColumns = toColumns(cross([edges, edges]), 2);
  const pick = seededPick(seed);
  const a = new Uint32Array(count);
  const b = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    a[i] = randomBits(format, pick);
    // Half uniform, half with b's exponent near a's: alignment shifts that round, and cancellation.
    b[i] = i % 2 ? randomBits(format, pick) : nearby(format, expField(a[i]!, format), 12, pick);
  }
  return { columns: concatColumns([edgeColumns, [a, b]]), edgeCount: edgeColumns[0]!.length };
}

/** Vectors for a 32-bit register holding two 16-bit lanes: each lane drawn as binaryVectors. */
export function packedVectors(format: FormatName, count: number, seed: number): VectorSet {
  const edges = edgeValues(format);
  const pairs = cross([edges, edges]);
  const pick = seededPick(seed);
  // Edge pairs in lane 0 and the same pairs reversed in lane 1, so each lane sees every pair.
  const edgeTuples = pairs.map(([x, y], i) => {
    const [u, v] = pairs[pairs.length - 1 - i]!;
    return [x! + u! * 65536, y! + v! * 65536];
  });
  const lanes = binaryVectors(format, 2 * count, seed + 1).columns.map((col) =>
    col.subarray(col.length - 2 * count),
  );
  const a = new Uint32Array(count);
  const b = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const j = pick(2 * count);
    a[i] = lanes[0]![i]! + lanes[0]![j]! * 65536;
    b[i] = lanes[1]![i]! + lanes[1]![j]! * 65536;
  }
  const edgeColumns = toColumns(edgeTuples, 2);
  return { columns: concatColumns([edgeColumns, [a, b]]), edgeCount: edgeTuples.length };
}

/** Every pattern of a 16-bit format, for unary ops. */
export function exhaustiveUnary(): VectorSet {
  return { columns: [Uint32Array.from({ length: 65536 }, (_, i) => i)], edgeCount: 65536 };
}

function product(a: number, b: number, format: FormatName): number {
  return toDouble16(a, format) * toDouble16(b, format);
}

function toDouble16(bits: number, format: FormatName): number {
  const f = FORMATS[format];
  const negative = bits >= f.signMask;
  const mag = bits % f.signMask;
  const e = Math.floor(mag / 2 ** f.manBits);
  const m = mag % 2 ** f.manBits;
  const v =
    e === 0 ? m * 2 ** (f.emin - f.manBits) : (2 ** f.manBits + m) * 2 ** (e - f.bias - f.manBits);
  return negative ? -v : v;
}

/** The exponent field that `value` would have in `format` (clamped to the finite range). */
function expFieldOfValue(value: number, format: FormatName): number {
  const f = FORMATS[format];
  if (value === 0 || !Number.isFinite(value)) return 0;
  const e = Math.floor(Math.log2(Math.abs(value))) + f.bias;
  return Math.min(2 ** f.expBits - 2, Math.max(0, e));
}

/**
 * Vectors for fma: edge values cubed (the addend from a smaller key set when the sources are
 * 16-bit), then random triples: a third uniform, a third with c near -(a*b) (cancellation,
 * exact zeros), a third with c far below a*b (sticky bits beside a rounding tie).
 */
export function fmaVectors(
  source: FormatName,
  addend: FormatName,
  count: number,
  seed: number,
): VectorSet {
  const edges = EDGE_VALUES[source];
  const addendEdges = EDGE_VALUES[addend];
  const edgeColumns = toColumns(cross([edges, edges, addendEdges]), 3);
  const pick = seededPick(seed);
  const a = new Uint32Array(count);
  const b = new Uint32Array(count);
  const c = new Uint32Array(count);
  const cf = FORMATS[addend];
  for (let i = 0; i < count; i++) {
    a[i] = randomBits(source, pick);
    b[i] = i % 3 === 2 ? nearby(source, FORMATS[source].bias, 3, pick) : randomBits(source, pick);
    const p = product(a[i]!, b[i]!, source);
    const pe = expFieldOfValue(p, addend);
    if (i % 3 === 0) c[i] = randomBits(addend, pick);
    else if (i % 3 === 1) {
      const near = nearby(addend, pe, 2, pick) % cf.signMask;
      c[i] = near + (p > 0 ? cf.signMask : 0);
    } else c[i] = nearby(addend, pe - FORMATS[addend].manBits - 3, 4, pick);
  }
  return { columns: concatColumns([edgeColumns, [a, b, c]]), edgeCount: edgeColumns[0]!.length };
}

/**
 * Vectors for mixed-precision add/sub: a 16-bit source, c an f32. Edge cross product, then random
 * pairs: half uniform, half with c close to ±a (cancellation and rounding in the f32 sum).
 */
export function mixedAddVectors(source: FormatName, count: number, seed: number): VectorSet {
  const edgeColumns = toColumns(cross([edgeValues(source), edgeValues('f32')]), 2);
  const pick = seededPick(seed);
  const a = new Uint32Array(count);
  const c = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    a[i] = randomBits(source, pick);
    if (i % 2) c[i] = randomBits('f32', pick);
    else {
      const v = toDouble16(a[i]!, source);
      c[i] = nearby('f32', expFieldOfValue(v, 'f32'), 26, pick);
    }
  }
  return { columns: concatColumns([edgeColumns, [a, c]]), edgeCount: edgeColumns[0]!.length };
}
