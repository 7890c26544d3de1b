/**
 * The PTX a block quantization is: its instructions as text, in order, each with the register
 * it writes and the bits it wrote there. Registers are named as PTX code names them (`%f` for
 * .f32, `%rs` for 16-bit, `%r` for 32-bit, `%p` for predicates), each written once, so that every
 * line's result stays readable beside it. Immediates are binary32 bit patterns (`0f43E00000`
 * is 448.0), as PTX writes exact float constants.
 */
import { FORMATS, exactValueOfBits } from '../format.ts';
import type { ExactValue } from '../value.ts';

/** Which part of the quantization a line belongs to. */
export type PtxPhase =
  /** amax: the largest |value| (abs.f32, then max.f32 pairwise). */
  | 'amax'
  /** NVFP4's per-tensor scale: tensorAmax / 2688, or 1.0 where that is zero. */
  | 'global-scale'
  /** The block's shared scale and what its elements are divided by. */
  | 'scale'
  /** Each value brought into the element format's range (× 2^-e, or ÷ the NVFP4 divisor). */
  | 'scale-values'
  /** The element conversions (cvt), two or four elements each. */
  | 'convert';

export interface PtxLine {
  /** The instruction as PTX writes it: `div.rn.f32 %f66, %f65, 0f43E00000;`. */
  readonly text: string;
  readonly phase: PtxPhase;
  /** The register the line writes. */
  readonly dest: string;
  /**
   * The bits written (hex, the register's width), or null for a predicated line whose guard was
   * false (the register keeps what the other line of the pair wrote).
   */
  readonly result: string | null;
  /** The value written, for an .f32 register; null otherwise. */
  readonly value: ExactValue | null;
  /** div.rn / mul.rn: whether rounding changed the exact result. */
  readonly inexact?: boolean;
  /** The block elements (indices) the line works on, where it works on some. */
  readonly elements?: readonly number[];
}

/** A register holding an input before the first line: a block value, tensorAmax or rbits. */
export interface PtxInput {
  readonly register: string;
  readonly role: 'value' | 'tensor-amax';
  /** The block element, for a value. */
  readonly index?: number;
  readonly bits: string;
}

export interface PtxProgram {
  readonly inputs: readonly PtxInput[];
  readonly lines: readonly PtxLine[];
}

/** `0x3dcccccd`: a binary32 pattern as the app writes bits. */
export function f32Hex(bits: number): string {
  return `0x${(bits >>> 0).toString(16).padStart(8, '0')}`;
}

/** `0f43E00000`: a binary32 immediate. */
export function f32Immediate(bits: number): string {
  return `0f${(bits >>> 0).toString(16).toUpperCase().padStart(8, '0')}`;
}

const hexOfWidth = (bits: number, width: number) =>
  `0x${(bits >>> 0).toString(16).padStart(width / 4, '0')}`;

/** Builds a program line by line, naming each register as it is first written. */
export class PtxProgramBuilder {
  private readonly counts = { f: 0, rs: 0, r: 0, p: 0 };
  readonly inputs: PtxInput[] = [];
  readonly lines: PtxLine[] = [];

  /** A fresh register of a kind. */
  register(kind: 'f' | 'rs' | 'r' | 'p'): string {
    return `%${kind}${++this.counts[kind]}`;
  }

  input(role: PtxInput['role'], bits: number, index?: number): string {
    const register = this.register('f');
    this.inputs.push({
      register,
      role,
      ...(index === undefined ? {} : { index }),
      bits: f32Hex(bits),
    });
    return register;
  }

  /** A line writing an .f32 register (bits null: a predicated line that did not run). */
  f32(
    phase: PtxPhase,
    text: string,
    dest: string,
    bits: number | null,
    extra: { inexact?: boolean; elements?: readonly number[] } = {},
  ): void {
    this.lines.push({
      text,
      phase,
      dest,
      result: bits === null ? null : f32Hex(bits),
      value: bits === null ? null : exactValueOfBits(BigInt(bits >>> 0), FORMATS.f32),
      ...extra,
    });
  }

  /** A line writing an integer register of `width` bits, or a predicate (width 1). */
  bits(
    phase: PtxPhase,
    text: string,
    dest: string,
    bits: number,
    width: 1 | 8 | 16 | 32,
    elements?: readonly number[],
  ): void {
    this.lines.push({
      text,
      phase,
      dest,
      result: width === 1 ? (bits ? '1' : '0') : hexOfWidth(bits, width),
      value: null,
      ...(elements ? { elements } : {}),
    });
  }

  /** A cvt line: its destination register's bits as the cvt gives them (hex of its width). */
  cvt(phase: PtxPhase, text: string, dest: string, d: string, elements?: readonly number[]): void {
    this.lines.push({
      text,
      phase,
      dest,
      result: `0x${d.slice(2).toLowerCase()}`,
      value: null,
      ...(elements ? { elements } : {}),
    });
  }

  build(): PtxProgram {
    return { inputs: this.inputs, lines: this.lines };
  }
}
