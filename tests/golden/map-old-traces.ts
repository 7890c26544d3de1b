/**
 * Shows that the golden traces' move from the old arithmetic evaluator's format (bits as
 * numbers, `lanes`, `dFormat`) to the one step vocabulary (hex strings, views, `elements`,
 * `dType`) changed their representation and nothing else: each old case's result is mapped
 * field by field into the new vocabulary and compared with what the pipeline gives today.
 *
 *   git show af1a20d:tests/golden/traces.json > /tmp/old-traces.json
 *   node bin/run-ts.mjs tests/golden/map-old-traces.ts /tmp/old-traces.json
 *
 * The mapping, by field (the added fields follow from the form's layout or from other steps):
 * - a number of bits → lower-case hex of its format's width; a value `{format, before, after}`
 *   or `{format, result}` → views `{format, bits, class, value}` (class and value from the
 *   bits, by the reference's own decoding, tests/reference/trace-views.ts);
 * - `lanes[{lane, steps, result}]` → `elements[{index, steps, result}]`; `dFormat` → `dType`
 *   (`f16x2` for a two-lane form);
 * - inputs `{name, …}` → ElementRead `{operand, slot, valueBits, padding: null, …}` (lane i of
 *   an x2 register is bits 16i+15…16i, else the whole register);
 * - exact gains `representable`: true where the round step after it is exact or the value is
 *   zero, false where it is inexact;
 * - round: `result` is null where an overflow step follows (the overflow step gives it);
 * - overflow `to: 'max-finite'` → `'max-norm'`; convert `to` is the format of `after`;
 * - result `{format, bits, value}` → `{slot, valueBits, slotBits, result: view}`;
 * - approx: input, result, modelResult as views, allowed's ends as hex.
 * The old inputs' OOB-NaN marks become the pattern (0x7ff7) in the marked lane's bits.
 * Prints each case as "same" or its differences; exits 1 if any differs.
 */
// Every family's semantics, provided before anything evaluates (engine/family-semantics.ts).
import '../../src/engine/all-families.ts';
import { readFileSync } from 'node:fs';
import { evaluate } from '../../src/engine/pipeline.ts';
import type { RefCvtFormatName } from '../reference/cvt-formats.ts';
import { hexOf, viewIn } from '../reference/trace-views.ts';

type Json = Record<string, unknown>;
type OldInput = { a: number; b?: number; c?: number; oob?: Record<string, boolean | boolean[]> };

const WIDTH: Record<string, number> = { f16: 16, bf16: 16, f32: 32 };
const hex = (bits: number, format: string) => hexOf(BigInt(bits), WIDTH[format]!);
const view = (bits: number, format: string) => viewIn(bits, format as RefCvtFormatName);

/** The registers of an old input, OOB-NaN marks written into the marked lanes. */
function registersOf(form: string, input: OldInput): Record<string, bigint> {
  const packed = form.endsWith('x2');
  const out: Record<string, bigint> = {};
  for (const name of ['a', 'b', 'c'] as const) {
    const value = input[name];
    if (value === undefined) continue;
    let bits = BigInt(value);
    const mark = input.oob?.[name];
    if (mark !== undefined) {
      const lanes = typeof mark === 'boolean' ? [mark, mark] : mark;
      if (!packed && lanes[0]) bits = 0x7ff7n;
      if (packed)
        lanes.forEach((on, lane) => {
          if (on) bits = (bits & ~(0xffffn << BigInt(16 * lane))) | (0x7ff7n << BigInt(16 * lane));
        });
    }
    out[name] = bits;
  }
  return out;
}

function mapStep(step: Json, next: Json | undefined, lane: number, packed: boolean, form: string) {
  const { kind, rule, decision, format, ...f } = step as Json & { format: string };
  const base = { kind, ...(decision ? { decision } : {}), rule };
  const laneSlot = (bits: number) =>
    packed ? { hi: 16 * lane + 15, lo: 16 * lane } : { hi: bits - 1, lo: 0 };
  const change = () => ({
    before: view(f.before as number, format),
    after: view(f.after as number, format),
  });
  switch (kind) {
    case 'inputs':
      return {
        ...base,
        operands: (f.operands as Json[]).map((o) => {
          const width = WIDTH[o.format as string]!;
          const slot = packed && width === 16 ? laneSlot(16) : laneSlot(width);
          return {
            operand: o.name,
            slot,
            valueBits: slot,
            padding: null,
            format: o.format,
            bits: hex(o.bits as number, o.format as string),
            class: o.class,
            value: o.value,
          };
        }),
      };
    case 'oob-check':
      return { ...base, ...f, pattern: hex(f.pattern as number, 'f16') };
    case 'flush-input':
    case 'abs-inputs':
      return { ...base, operand: f.operand, ...change() };
    case 'saturate':
    case 'relu':
    case 'negate':
    case 'absolute':
      return { ...base, ...change() };
    case 'xorsign':
      return { ...base, sign: f.sign, ...change() };
    case 'convert':
      return {
        ...base,
        operand: f.operand,
        before: view(f.before as number, format),
        after: view(f.after as number, f.to as string),
        exact: f.exact,
      };
    case 'special':
      return { ...base, ...f, result: view(f.result as number, format) };
    case 'exact': {
      const zero = (f.value as Json).decimal === '0';
      const representable = zero || (next?.kind === 'round' && next.inexact === false);
      return { ...base, ...f, representable };
    }
    case 'round':
      return {
        ...base,
        format,
        ...f,
        lower: hex(f.lower as number, format),
        upper: hex(f.upper as number, format),
        result: next?.kind === 'overflow' ? null : hex(f.result as number, format),
      };
    case 'overflow':
      return {
        ...base,
        mode: f.mode,
        to: f.to === 'max-finite' ? 'max-norm' : f.to,
        result: view(f.result as number, format),
      };
    case 'tininess':
      return { ...base, ...f, result: view(f.result as number, format) };
    case 'flush-result':
      return { ...base, ...f, ...change() };
    case 'minmax':
      return {
        ...base,
        ...f,
        a: view(f.a as number, format),
        b: view(f.b as number, format),
        result: view(f.result as number, format),
      };
    case 'approx': {
      const allowed = f.allowed as Json;
      return {
        ...base,
        ...f,
        input: view(f.input as number, format),
        result: view(f.result as number, format),
        ...(f.modelResult !== undefined
          ? { modelResult: view(f.modelResult as number, format) }
          : {}),
        allowed: {
          ...allowed,
          lowest: hex(allowed.lowest as number, format),
          highest: hex(allowed.highest as number, format),
        },
      };
    }
    case 'result': {
      const slot = laneSlot(WIDTH[format]! === 16 && packed ? 16 : WIDTH[format]!);
      return {
        ...base,
        slot,
        valueBits: slot,
        slotBits: hex(f.bits as number, format),
        result: view(f.bits as number, format),
      };
    }
    default:
      throw new Error(`${form}: no mapping for step kind ${String(kind)}`);
  }
}

/** The old result in the new vocabulary. */
function mapResult(old: Json): Json {
  const form = old.form as string;
  const packed = (old.lanes as unknown[]).length === 2;
  const format = old.dFormat as string;
  return {
    form,
    d: hexOf(BigInt(old.d as number), old.dBits as number),
    dBits: old.dBits,
    dType: packed ? `${format}x2` : format,
    elements: (old.lanes as Json[]).map((lane) => {
      const steps = lane.steps as Json[];
      const last = steps[steps.length - 1] as Json & { format: string };
      return {
        index: lane.lane,
        steps: steps.map((s, i) => mapStep(s, steps[i + 1], lane.lane as number, packed, form)),
        result: hex(lane.result as number, last.format),
      };
    }),
    decisions: old.decisions,
  };
}

/** Every path where two JSON values differ. */
function differences(a: unknown, b: unknown, path: string, out: string[]): void {
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)]))
      differences((a as Json)[k], (b as Json)[k], `${path}.${k}`, out);
  } else if (!Object.is(a, b))
    out.push(`${path}: mapped ${JSON.stringify(a)}, now ${JSON.stringify(b)}`);
}

function main(): number {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: map-old-traces.ts <old traces.json>');
    return 2;
  }
  const old = JSON.parse(readFileSync(file, 'utf8')) as Record<
    string,
    { instr: string; input: OldInput; result: Json }
  >;
  let differing = 0;
  for (const [name, entry] of Object.entries(old)) {
    const now = JSON.parse(
      JSON.stringify(evaluate(entry.instr, registersOf(entry.instr, entry.input))),
    ) as unknown;
    const out: string[] = [];
    differences(mapResult(entry.result), now, '', out);
    if (out.length > 0) differing++;
    console.log(out.length === 0 ? `same: ${name}` : `DIFFERS: ${name}\n  ${out.join('\n  ')}`);
  }
  console.log(`${Object.keys(old).length} cases, ${differing} differ`);
  return differing === 0 ? 0 : 1;
}

process.exitCode = main();
