/**
 * Compares the engine (fast path on every vector, traced path on a sample and on every vector the
 * fast path disagreed on) with a reference's results, lane by lane, and tallies the outcome:
 * bit-exact, equal up to NaN payload (where the reference keeps payloads), a documented known
 * difference of the reference, or unexpected. Unexpected ones are kept with their exact vectors.
 */
import { findForm } from '../../src/catalog/all-forms.ts';
import { compileFast } from '../../src/engine/fast/index.ts';
import { evaluate } from '../../src/engine/pipeline.ts';
import { FORMATS } from '../../src/engine/format.ts';
import { canonicalNaN } from '../../src/engine/nvidia-rules.ts';
import { vectorCount, type Columns, type VectorSet } from './vectors.ts';

type Operands = readonly number[];

/** An engine evaluation other than one form: e.g. a device instruction sequence. */
export interface EngineRoute {
  readonly fast: (ops: Operands) => number;
  readonly traced: (ops: Operands) => number;
}

export interface CrossCase {
  /** Row label, e.g. 'add.rn.f16 ~ numpy f16.add'. */
  readonly name: string;
  /** The form whose result register (format, lanes) is compared; also what runs unless `route`. */
  readonly form: string;
  readonly refOp: string;
  readonly vectors: VectorSet;
  /** The operands the reference gets, where they differ from the instruction's (default: same). */
  readonly referenceOperands?: Columns;
  /** 'exact': NaN bits must match too; 'nan-ness': the reference keeps payloads or signs. */
  readonly nan: 'exact' | 'nan-ness';
  readonly route?: EngineRoute;
  /** Labels a lane disagreement that is a documented property of the reference, else null. */
  readonly known?: (laneOperands: Operands, engine: number, reference: number) => string | null;
  /** Vectors also run through the traced evaluator (default 400, spread over the set). */
  readonly tracedSample?: number;
}

export interface Example {
  readonly operands: string;
  readonly engine: string;
  readonly reference: string;
  readonly path: 'fast' | 'traced';
  readonly label?: string;
}

export interface CrossOutcome {
  readonly name: string;
  compared: number;
  exact: number;
  nanOnly: number;
  readonly known: Map<string, { count: number; example: Example }>;
  unexpectedCount: number;
  readonly unexpected: Example[];
  tracedCompared: number;
}

type Verdict = { kind: 'exact' | 'nan' | 'unexpected' } | { kind: 'known'; label: string };

function shape(form: string) {
  const f = findForm(form);
  if (!f) throw new Error(`not a catalog form: ${form}`);
  const lanesOf = (type: string) => (type.endsWith('x2') ? 2 : 1);
  const sources = f.registers.slice(1).map((r) => ({ ...r, lanes: lanesOf(r.type) }));
  const fmt = FORMATS[f.elements[0]!.dest.format];
  return { form: f, fmt, lanes: lanesOf(f.registers[0]!.type), sources };
}

/** A lane's pattern (at most 32 bits) is a NaN of f. */
const isNaNBits = (bits: number, f: (typeof FORMATS)[keyof typeof FORMATS]): boolean =>
  bits % Number(f.signMask) > Number(f.infBits);

/** Upper-case hex of `width` bits, as the reports print operands and results. */
const formatHex = (bits: number, width: number): string =>
  `0x${bits
    .toString(16)
    .toUpperCase()
    .padStart(width / 4, '0')}`;

function laneOf(value: number, lane: number, lanes: number): number {
  return lanes === 2 ? Math.floor(value / 2 ** (16 * lane)) % 65536 : value;
}

export function crossCheck(c: CrossCase, reference: Uint32Array): CrossOutcome {
  const { form, fmt, lanes, sources } = shape(c.form);
  const names = sources.map((s) => s.name);
  const compiled = compileFast(form.text).words!;
  const positional = (ops: Operands): [number, number, number] => {
    const r = { a: 0, b: 0, c: 0 } as Record<string, number>;
    names.forEach((n, k) => (r[n] = ops[k]!));
    return [r.a!, r.b!, r.c!];
  };
  const fast = c.route?.fast ?? ((ops: Operands) => compiled(...positional(ops)));
  const traced =
    c.route?.traced ??
    ((ops: Operands) => {
      const registers = Object.fromEntries(names.map((n, k) => [n, BigInt(ops[k]!)]));
      return Number(BigInt(evaluate(form.text, registers).d));
    });
  const sourceLanes = sources.map((s) => s.lanes);
  const nan = Number(canonicalNaN(fmt));

  const verdict = (ops: Operands, e: number, r: number): Verdict => {
    if (e === r) return { kind: 'exact' };
    let label: string | null = null;
    for (let lane = 0; lane < lanes; lane++) {
      const el = laneOf(e, lane, lanes);
      const rl = laneOf(r, lane, lanes);
      if (el === rl) continue;
      const engineNaN = isNaNBits(el, fmt);
      if (engineNaN && el !== nan) return { kind: 'unexpected' }; // decision 'canonical-nan'
      if (c.nan === 'nan-ness' && engineNaN && isNaNBits(rl, fmt)) continue;
      const laneOps = ops.map((v, k) => (sourceLanes[k] === 2 ? laneOf(v, lane, 2) : v));
      const k = c.known?.(laneOps, el, rl) ?? null;
      if (k === null) return { kind: 'unexpected' };
      label ??= k;
    }
    return label === null ? { kind: 'nan' } : { kind: 'known', label };
  };

  const out: CrossOutcome = {
    name: c.name,
    compared: 0,
    exact: 0,
    nanOnly: 0,
    known: new Map(),
    unexpectedCount: 0,
    unexpected: [],
    tracedCompared: 0,
  };
  const widths = sources.map((s) => s.bits);
  const example = (ops: Operands, e: number, r: number, path: 'fast' | 'traced'): Example => ({
    operands: ops.map((v, k) => `${names[k]}=${formatHex(v, widths[k]!)}`).join(' '),
    engine: formatHex(e, fmt.width * lanes),
    reference: formatHex(r, fmt.width * lanes),
    path,
  });
  // Tallies count the fast path (one per vector); traced results only add failures.
  const record = (ops: Operands, e: number, r: number, path: 'fast' | 'traced') => {
    const v = verdict(ops, e, r);
    if (v.kind === 'unexpected') {
      out.unexpectedCount++;
      if (out.unexpected.length < 20) out.unexpected.push(example(ops, e, r, path));
    } else if (path === 'fast') {
      if (v.kind === 'exact') out.exact++;
      else if (v.kind === 'nan') out.nanOnly++;
      else if (v.kind === 'known') {
        const entry = out.known.get(v.label);
        if (entry) entry.count++;
        else out.known.set(v.label, { count: 1, example: example(ops, e, r, path) });
      }
    }
    return v.kind;
  };

  const n = vectorCount(c.vectors.columns);
  const cols = c.vectors.columns;
  const operandsAt = (i: number) => cols.map((col) => col[i]!);
  const retrace: number[] = [];
  for (let i = 0; i < n; i++) {
    const ops = operandsAt(i);
    const kind = record(ops, fast(ops), reference[i]!, 'fast');
    out.compared++;
    if (kind === 'unexpected' && retrace.length < 50) retrace.push(i);
  }
  // The traced path: a spread sample over edge and random vectors, and the fast path's failures.
  const sample = c.tracedSample ?? 400;
  const step = Math.max(1, Math.floor(n / sample));
  const tracedAt = new Set<number>(retrace);
  for (let i = 0; i < n; i += step) tracedAt.add(i);
  for (const i of tracedAt) {
    const ops = operandsAt(i);
    record(ops, traced(ops), reference[i]!, 'traced');
    out.tracedCompared++;
  }
  return out;
}

export function describeOutcome(o: CrossOutcome): string {
  const known = [...o.known]
    .map(
      ([label, { count, example: x }]) =>
        `${label}: ${count}, e.g. ${x.operands} -> engine ${x.engine}, reference ${x.reference}`,
    )
    .join('; ');
  return (
    `${o.name}: ${o.compared} vectors (${o.tracedCompared} also traced), ${o.exact} bit-exact` +
    (o.nanOnly ? `, ${o.nanOnly} NaN-ness only` : '') +
    (known ? `, known differences [${known}]` : '') +
    `, unexpected ${o.unexpectedCount}`
  );
}

export function describeFailures(o: CrossOutcome): string {
  return o.unexpected
    .map((x) => `  ${x.operands} -> engine ${x.engine}, reference ${x.reference} (${x.path})`)
    .join('\n');
}
