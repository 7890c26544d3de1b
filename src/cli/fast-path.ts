/**
 * The engine's fast path as `ptxf batch` uses it (engine/fast/index.ts compileFast, the same
 * semantics as the pipeline, bit for bit): d of one set of source registers, and d of many sets
 * at once. tests/fast-vs-pipeline.test.ts checks the fast path against the pipeline on every form,
 * tests/cli/fast-path.test.ts this door and tests/cli/batch-quick.test.ts the batch's quick
 * answers against its full ones. This module is the only place the CLI reaches it.
 */
import type { Form, SourceName } from '../catalog/instruction.ts';
import { compileFast, type BatchRegisters } from '../engine/fast/index.ts';
import type { EngineOptions } from '../engine/options.ts';
import type { Registers } from '../engine/pipeline.ts';

/**
 * d of `count` sets of registers: registers[i][k] is source register i (the form's registers
 * after d, in order) of set k; out[k] receives d of set k.
 */
export type RegisterBatch = (
  registers: readonly Uint32Array[],
  out: Uint32Array,
  count: number,
) => void;

export interface FastPath {
  /** d of one set of source registers. */
  readonly one: (registers: Registers) => bigint;
  /** d of many sets; null where d or a source register is wider than 32 bits. */
  readonly batch: RegisterBatch | null;
}

/** The fast path of a form under these engine options. */
export function fastPath(form: Form, options: Partial<EngineOptions> = {}): FastPath {
  const fast = compileFast(form, options);
  const sources = form.registers.slice(1).map((r) => r.name as SourceName);
  const narrow = form.registers.every((r) => r.bits <= 32);
  return {
    one: fast.evaluate,
    batch: narrow
      ? (regs, out, count) => {
          const registers: Record<string, Uint32Array> = {};
          sources.forEach((name, i) => (registers[name] = regs[i]!));
          fast.batch(registers as BatchRegisters, out, count);
        }
      : null,
  };
}
