/**
 * Element 0 of a single-input form on the fast path, for sweeps: source elements in, the
 * destination element's pattern and value out, a chunk at a time. This module puts a sweep's
 * inputs into their registers, runs the form's batch (fast/index.ts, checked bit for bit against
 * the pipeline) and reads element 0 back out of d.
 */
import type { Form, SourceName } from '../../catalog/instruction.ts';
import { compileFast } from '../fast/index.ts';
import type { BatchRegisters } from '../fast/path.ts';
import { FORMATS, toDouble, type Format, type FormatName } from '../format.ts';
import type { EngineOptions } from '../options.ts';

/** Inputs per call of the fast path. */
export const BATCH_CHUNK = 65536;

export interface ElementBatch {
  /**
   * Fill `source[k]` for k < count, then call `run(count)`: each is a source element's pattern,
   * or for an .f64 source its value.
   */
  readonly source: Uint32Array | Float64Array;
  run(count: number): void;
  /** After `run`: the destination element's pattern (none for an .f64 destination)… */
  readonly resultBits: Uint32Array | null;
  /** … and its value (NaN for a NaN). */
  readonly resultValues: Float64Array;
}

const f32Word = new Uint32Array(1);
const f32Value = new Float32Array(f32Word.buffer);

// Every value of each format of 16 bits or fewer, as doubles: a memo of a pure function.
const valueTables = new Map<FormatName, Float64Array>();

/** The value of a pattern of a format of 32 bits or fewer, as a double. */
export function valueReader(f: Format): (bits: number) => number {
  if (f.width <= 16) {
    let table = valueTables.get(f.name);
    if (!table) {
      table = Float64Array.from({ length: 2 ** f.width }, (_, i) => toDouble(BigInt(i), f));
      valueTables.set(f.name, table);
    }
    const values = table;
    return (bits) => values[bits]!;
  }
  // .tf32 (1-8-10) is .f32 without its 13 low mantissa bits.
  const shift = f.name === 'tf32' ? 2 ** 13 : f.name === 'f32' ? 1 : null;
  if (shift === null) return (bits) => toDouble(BigInt(bits), f);
  return (bits) => {
    f32Word[0] = bits * shift;
    return f32Value[0]!;
  };
}

export function compileElementBatch(
  form: Form,
  options: Partial<EngineOptions> | undefined,
  rbits: bigint,
): ElementBatch {
  const element = form.elements[0]!;
  const source = element.inputs[0]!;
  const dest = FORMATS[element.dest.format];
  const wideSource = source.format === 'f64';
  const wideDest = dest.name === 'f64';
  const sourceWords = wideSource ? new Float64Array(BATCH_CHUNK) : new Uint32Array(BATCH_CHUNK);
  const placed = wideSource ? sourceWords : new Uint32Array(BATCH_CHUNK);
  const out = wideDest ? new Float64Array(BATCH_CHUNK) : new Uint32Array(BATCH_CHUNK);
  const resultBits = wideDest ? null : new Uint32Array(BATCH_CHUNK);
  const resultValues = new Float64Array(BATCH_CHUNK);
  const sourceScale = 2 ** source.value.lo;
  const destScale = 2 ** element.dest.value.lo;
  const destMask = 2 ** dest.width - 1;
  const destValue = wideDest ? null : valueReader(dest);

  // The source register holds the inputs; rbits holds the sweep's random bits, every other
  // register zero.
  const { batch } = compileFast(form, options);
  const zeros = new Uint32Array(BATCH_CHUNK);
  const registers: Partial<Record<SourceName, Uint32Array | Float64Array>> = {};
  for (const r of form.registers.slice(1)) {
    const name = r.name as SourceName;
    registers[name] = name === 'rbits' ? new Uint32Array(BATCH_CHUNK).fill(Number(rbits)) : zeros;
  }
  registers[source.operand as SourceName] = placed;
  const call = (count: number) => batch(registers as BatchRegisters, out, count);

  return {
    source: sourceWords,
    resultBits,
    resultValues,
    run(count) {
      if (!wideSource) for (let k = 0; k < count; k++) placed[k] = sourceWords[k]! * sourceScale;
      call(count);
      if (wideDest) {
        for (let k = 0; k < count; k++) resultValues[k] = out[k]!;
        return;
      }
      for (let k = 0; k < count; k++) {
        const bits = Math.floor(out[k]! / destScale) % (destMask + 1);
        resultBits![k] = bits;
        resultValues[k] = destValue!(bits);
      }
    },
  };
}
