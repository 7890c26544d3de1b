/**
 * cvt engine vs reference: a batch of register sets through the reference (refCvtEvaluate),
 * the engine's fast path (compileFast(form).batch) and, on every `tracedStride`-th set, its
 * pipeline (src/engine/pipeline.ts); every disagreement is reported with the registers that
 * show it.
 */
import type { Form, SourceName } from '../../src/catalog/instruction.ts';
import { compileFast } from '../../src/engine/fast/index.ts';
import { evaluate } from '../../src/engine/pipeline.ts';
import { refCvtEvaluate } from './cvt-slowfloat.ts';

export type CvtRegisterSet = Partial<Record<SourceName, bigint>>;

export interface CvtMismatch {
  readonly form: string;
  readonly registers: string;
  readonly reference: string;
  readonly fast: string;
  readonly traced?: string;
}

const hex = (x: bigint) => `0x${x.toString(16)}`;

function registerArrays(form: Form, sets: readonly CvtRegisterSet[]) {
  const arrays: Partial<Record<SourceName, Uint32Array | Float64Array>> = {};
  for (const op of form.registers.slice(1)) {
    const name = op.name as SourceName;
    const values = sets.map((s) => s[name] ?? 0n);
    arrays[name] =
      op.bits === 64
        ? new Float64Array(BigUint64Array.from(values).buffer)
        : Uint32Array.from(values, (v) => Number(v));
  }
  return arrays;
}

/** Compares every set; returns the mismatches (at most `limit`) and how many were traced. */
export function compareCvt(
  form: Form,
  sets: readonly CvtRegisterSet[],
  tracedStride: number,
  limit = 8,
): { mismatches: CvtMismatch[]; traced: number } {
  const wide = form.registers[0]!.bits === 64;
  const out = wide ? new Float64Array(sets.length) : new Uint32Array(sets.length);
  compileFast(form.text).batch(registerArrays(form, sets), out, sets.length);
  const fastBits = wide
    ? [...new BigUint64Array(out.buffer)]
    : [...(out as Uint32Array)].map((x) => BigInt(x));
  const mismatches: CvtMismatch[] = [];
  let traced = 0;
  sets.forEach((set, i) => {
    const input = { a: 0n, ...set };
    const reference = refCvtEvaluate(form.text, input);
    const fast = fastBits[i]!;
    let tracedBits: bigint | undefined;
    if (i % tracedStride === 0) {
      tracedBits = BigInt(evaluate(form.text, input).d);
      traced++;
    }
    if (fast !== reference || (tracedBits !== undefined && tracedBits !== reference)) {
      if (mismatches.length < limit)
        mismatches.push({
          form: form.text,
          registers: Object.entries(set)
            .map(([k, v]) => `${k}=${hex(v!)}`)
            .join(' '),
          reference: hex(reference),
          fast: hex(fast),
          ...(tracedBits !== undefined ? { traced: hex(tracedBits) } : {}),
        });
    }
  });
  return { mismatches, traced };
}
