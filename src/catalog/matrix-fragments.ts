/**
 * Which matrix element each register slot of each lane holds: the fragment layouts of the PTX
 * ISA (9.7.14.5.1 m8n8k4 .f16, 9.7.14.5.6 m16n8k4, 9.7.14.5.7 m16n8k8, 9.7.14.5.8 m16n8k16,
 * 9.7.14.5.10 m16n8k32; the FP8 m16n8k16 forms use the 8-bit layout of 9.7.14.5.9, the
 * m16n8k16 integer section). Element i of a fragment is slot i in "low to high" order: a .b32
 * register holds two 16-bit or four 8-bit elements, lowest bits first. Verified on an H200 by
 * hw/mma (whose mma-capture.cu has the same functions, `fragment_coordinate`;
 * tests/hw/mma-harness.test.ts checks the two against each other through the harness's
 * self-test); the GPU program of one element (src/state/reproduce-matrix.ts) loads its
 * fragments by them. The forms with f16, bf16, tf32, e4m3 and e5m2 inputs.
 *
 * m8n8k4 with .f16: a warp computes four products (9.7.14.5.1); lanes 4p..4p+3 and
 * 16+4p..16+4p+3 hold product p, so a coordinate names its product.
 */
import type { Form } from './instruction.ts';

export type FragmentOperand = 'a' | 'b' | 'c' | 'd';

export interface ElementCoordinate {
  /** Which of the warp's products (0 except m8n8k4). */
  readonly product: number;
  readonly row: number;
  readonly col: number;
}

/** A's rows and columns, B's, C/D's, per product. */
export function matrixDims(form: Form, operand: FragmentOperand): { rows: number; cols: number } {
  const { m, n, k } = form.matrix!.shape;
  if (operand === 'a') return { rows: m, cols: k };
  if (operand === 'b') return { rows: k, cols: n };
  return { rows: m, cols: n };
}

/** Elements of the operand's fragment in each lane. */
export function fragmentElements(form: Form, operand: FragmentOperand): number {
  return form.matrix!.fragments[operand]!.elements;
}

/** Bits of one element's slot in a register: 8 for FP8, 16 for f16/bf16, 32 for tf32 and f32. */
export function slotBits(form: Form, operand: FragmentOperand): 8 | 16 | 32 {
  const type =
    operand === 'a'
      ? form.matrix!.types.a
      : operand === 'b'
        ? form.matrix!.types.b
        : operand === 'c'
          ? form.matrix!.types.c
          : form.matrix!.types.d;
  if (type === 'f16' || type === 'bf16') return 16;
  if (type === 'e4m3' || type === 'e5m2') return 8;
  return 32;
}

function m8n8k4(form: Form, operand: FragmentOperand, lane: number, i: number): ElementCoordinate {
  const product = (lane >> 2) & 3;
  const high = lane >= 16 ? 1 : 0;
  const q = lane % 4;
  switch (operand) {
    case 'a':
      return form.matrix!.layouts!.a === 'row'
        ? { product, row: q + 4 * high, col: i }
        : { product, row: (i % 4) + 4 * high, col: q };
    case 'b':
      return form.matrix!.layouts!.b === 'row'
        ? { product, row: q, col: i + 4 * high }
        : { product, row: i, col: q + 4 * high };
    default: {
      const type = operand === 'c' ? form.matrix!.types.c : form.matrix!.types.d;
      if (type === 'f16') return { product, row: q + 4 * high, col: i };
      const x = (lane & 1) + (i & 2);
      return { product, row: x + 4 * high, col: (i & 4) + (lane & 2) + (i & 1) };
    }
  }
}

/** The element that slot `i` of `operand`'s fragment holds in lane `lane`. */
export function fragmentCoordinate(
  form: Form,
  operand: FragmentOperand,
  lane: number,
  i: number,
): ElementCoordinate {
  if (form.matrix!.shape.m === 8) return m8n8k4(form, operand, lane, i);
  const g = lane >> 2;
  const t = lane % 4;
  const { k } = form.matrix!.shape;
  const bits = slotBits(form, operand);
  if (operand === 'c' || operand === 'd')
    return { product: 0, row: g + 8 * (i >> 1), col: 2 * t + (i & 1) };
  if (operand === 'a') {
    if (bits === 32)
      // tf32: m16n8k4 a0, a1; m16n8k8 a0..a3 (rows alternate, then columns + 4).
      return { product: 0, row: g + 8 * (i & 1), col: t + 4 * (i >> 1) };
    if (bits === 16)
      // f16/bf16 m16n8k8 (i < 4) and m16n8k16.
      return { product: 0, row: g + 8 * ((i >> 1) & 1), col: 2 * t + (i & 1) + 8 * (i >> 2) };
    // FP8: m16n8k16 (i < 8) and m16n8k32.
    return k === 16
      ? { product: 0, row: g + 8 * (i >> 2), col: 4 * t + (i & 3) }
      : { product: 0, row: g + 8 * ((i >> 2) & 1), col: 4 * t + (i & 3) + 16 * (i >> 3) };
  }
  // B
  if (bits === 32) return { product: 0, row: t + 4 * i, col: g };
  if (bits === 16) return { product: 0, row: 2 * t + (i & 1) + 8 * (i >> 1), col: g };
  return k === 16
    ? { product: 0, row: 4 * t + i, col: g }
    : { product: 0, row: 4 * t + (i & 3) + 16 * (i >> 2), col: g };
}
