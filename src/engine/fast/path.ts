/**
 * What the fast path of an operation gives (index.ts puts them together for a form): registers
 * in, the destination register out, untraced.
 */
import type { Registers } from '../pipeline.ts';

/** A register of at most 32 bits as a number; a wider one (.f64) as the bits of a double. */
export type RegisterArray = Uint32Array | Float64Array;

/**
 * Many sets of source registers, one array per register the form reads (`a`, `b`, `c`, `e`,
 * `f`, `rbits`): element i of each array is set i. A register of at most 32 bits is a
 * Uint32Array (any ArrayLike of numbers serves), a 64-bit one (.f64) a Float64Array whose bits
 * are the register, a wider one (a matrix form's row or column) a Uint32Array of its 32-bit
 * words, lowest first, bits / 32 words per set (dot-product.ts).
 */
export interface BatchRegisters {
  readonly a?: RegisterArray;
  readonly b?: RegisterArray;
  readonly c?: RegisterArray;
  readonly e?: RegisterArray;
  readonly f?: RegisterArray;
  readonly rbits?: RegisterArray;
  readonly scale_a?: RegisterArray;
  readonly scale_b?: RegisterArray;
}

/**
 * Where a batch writes d: an unsigned array of d's width or wider (Uint16Array, Uint32Array)
 * for a d of at most 32 bits, a Float64Array whose bits are the register for a 64-bit d.
 */
export type BatchOut = Uint16Array | Uint32Array | Float64Array;

/** out[i] = d of the registers' set i, for i < count. */
export type FastBatch = (registers: BatchRegisters, out: BatchOut, count: number) => void;

/** d of one set of registers a, b, c held as numbers (each read at its width, as the hardware does). */
export type WordEvaluator = (a: number, b: number, c: number) => number;

/** An operation's fast path for one form. */
export interface OperationPath {
  /** Null where a register of the form is wider than 32 bits or is not a, b or c. */
  readonly words: WordEvaluator | null;
  readonly batch: FastBatch;
  /** d of one set of bigint registers, where words cannot serve (cvt's wider forms). */
  readonly evaluate?: (registers: BigintRegisters) => bigint;
}

/** Source registers as the pipeline takes them. */
export type BigintRegisters = Registers;
