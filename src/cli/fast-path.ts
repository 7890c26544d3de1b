/**
 * The engine's fast path as `ptxf batch` uses it, over the one instruction model
 * (catalog/instruction.ts): d of one set of source registers, and d of many sets at once. The
 * fast path is checked against the pipeline on every form (tests/fast-vs-traced.test.ts and the
 * batch's quick answers against its full ones, tests/cli/batch-quick.test.ts). This module is the
 * only place the CLI reaches it, so a change of the fast path's API is a change here alone.
 */
import { findCvtForm } from '../catalog/cvt-forms.ts';
import { findForm as findArithmeticForm } from '../catalog/forms.ts';
import type { Form, SourceName } from '../catalog/instruction.ts';
import { compileCvtFast, compileCvtFastBatch, type CvtRegisters } from '../engine/cvt-fast.ts';
import { compileFast, compileFastBatch } from '../engine/fast.ts';
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

/** Read only: the registers of a form's missing operands (the fast path reads a, b and c). */
const ZEROS = new Uint32Array(4096);

function sourcesOf(form: Form): SourceName[] {
  return form.registers.slice(1).map((r) => r.name as SourceName);
}

function arithmeticPath(form: Form, options: Partial<EngineOptions>): FastPath {
  const old = findArithmeticForm(form.text);
  if (!old) throw new Error(`the fast path has no form ${form.text}`);
  const fast = compileFast(old, options);
  const batch = compileFastBatch(old, options);
  const sources = sourcesOf(form);
  const ia = sources.indexOf('a');
  const ib = sources.indexOf('b');
  const ic = sources.indexOf('c');
  const word = (r: bigint | undefined) => Number(r ?? 0n);
  return {
    one: (r) => BigInt(fast(word(r.a), word(r.b), word(r.c))),
    batch: (regs, out, count) => {
      const reg = (i: number) => (i < 0 ? ZEROS : regs[i]!);
      if (count <= ZEROS.length) return batch(reg(ia), reg(ib), reg(ic), out, count);
      // More sets than ZEROS holds: a part at a time.
      for (let from = 0; from < count; from += ZEROS.length) {
        const n = Math.min(ZEROS.length, count - from);
        const part = (i: number) => (i < 0 ? ZEROS : regs[i]!.subarray(from, from + n));
        batch(part(ia), part(ib), part(ic), out.subarray(from, from + n), n);
      }
    },
  };
}

function convertPath(form: Form, options: Partial<EngineOptions>): FastPath {
  const old = findCvtForm(form.text);
  if (!old) throw new Error(`the fast path has no form ${form.text}`);
  const one = compileCvtFast(old, options);
  const sources = sourcesOf(form);
  const narrow = form.registers.every((r) => r.bits <= 32);
  const batch = narrow ? compileCvtFastBatch(old, options) : null;
  return {
    one: (r) => one(r),
    batch:
      batch &&
      ((regs, out, count) => {
        const registers: CvtRegisters = {};
        sources.forEach((name, i) => (registers[name as keyof CvtRegisters] = regs[i]));
        batch(registers, out, count);
      }),
  };
}

/** The fast path of a form under these engine options. */
export function fastPath(form: Form, options: Partial<EngineOptions> = {}): FastPath {
  return form.family === 'convert' ? convertPath(form, options) : arithmeticPath(form, options);
}
