/**
 * The fast path of the matrix forms (mma, wgmma: one output element's dot product). It is the
 * pipeline's own untraced evaluation (pipeline.ts evaluateBits: semantics/dot-product.ts under
 * the target's tensor-core model, without its steps), so there is nothing to specialise and
 * nothing that could disagree: the fast path gives these forms a door, not a second model.
 *
 * Registers: A's row and B's column are k elements wide (64 to 256 bits), wider than a number.
 * In a batch a register of at most 32 bits is a Uint32Array, a 64-bit one a Float64Array whose
 * bits are the register (path.ts), and a wider one a Uint32Array of its 32-bit words, lowest
 * first, bits / 32 words per set: set i's words are [i × w, (i + 1) × w).
 */
import type { Form } from '../../catalog/instruction.ts';
import type { EngineOptions } from '../options.ts';
import { evaluateBits, type Registers } from '../pipeline.ts';
import type { BatchOut, BatchRegisters, OperationPath, RegisterArray } from './path.ts';

/** Register `bits` wide of set i from its batch array (path.ts and the layout above). */
export function registerOfSet(array: RegisterArray, bits: number, i: number): bigint {
  if (bits === 64) {
    const words = new Uint32Array(array.buffer, array.byteOffset, 2 * array.length);
    return (BigInt(words[2 * i + 1]!) << 32n) | BigInt(words[2 * i]!);
  }
  if (bits <= 32) return BigInt(array[i]!);
  const count = bits / 32;
  let value = 0n;
  for (let w = count - 1; w >= 0; w--) value = (value << 32n) | BigInt(array[i * count + w]!);
  return value;
}

/** Writes d of set i into a batch's out: a 64-bit d as the bits of a Float64Array. */
function writeResult(out: BatchOut, bits: number, i: number, d: bigint): void {
  if (bits !== 64) {
    out[i] = Number(d);
    return;
  }
  const words = new Uint32Array(out.buffer, out.byteOffset, 2 * out.length);
  words[2 * i] = Number(d & 0xffffffffn);
  words[2 * i + 1] = Number(d >> 32n);
}

export function dotProductPath(form: Form, options: EngineOptions): OperationPath {
  const evaluate = (registers: Registers) => BigInt(evaluateBits(form, registers, options));
  const sources = form.registers.slice(1);
  const dBits = form.registers[0]!.bits;
  return {
    words: null,
    evaluate,
    batch: (registers: BatchRegisters, out: BatchOut, count: number) => {
      for (let i = 0; i < count; i++) {
        const set: Record<string, bigint> = {};
        for (const r of sources) {
          const array = registers[r.name as keyof BatchRegisters];
          if (array) set[r.name] = registerOfSet(array, r.bits, i);
        }
        writeResult(out, dBits, i, evaluate(set));
      }
    },
  };
}
