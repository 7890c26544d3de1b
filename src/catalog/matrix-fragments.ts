/**
 * Which matrix element each register slot of each thread holds: the fragment layouts of the PTX
 * ISA (9.7.14.5.1 m8n8k4 .f16, 9.7.14.5.2 m8n8k4 .f64, 9.7.14.5.6 m16n8k4, 9.7.14.5.7 m16n8k8,
 * 9.7.14.5.8 m16n8k16, 9.7.14.5.10 m16n8k32; the 8-bit m16n8k16 forms use the 8-bit layout of
 * 9.7.14.5.9, the m16n8k16 integer section). Element i of a fragment is slot i in "low to high"
 * order: a .b32 register holds two 16-bit or four 8-bit containers, lowest bits first; a .tf32,
 * .f32 or .f64 element is a register of its own. Verified on an H200 by hw/mma for the f16,
 * bf16, tf32 and FP8 mma forms (whose mma-capture.cu has the same functions,
 * `fragment_coordinate`; tests/hw/mma-harness.test.ts checks the two against each other
 * through the harness's self-test); the GPU program of one element
 * (src/present/matrix-kernel.ts) loads its fragments by them.
 *
 * One set of formulas covers every shape: the sections' formulas of one element per register
 * (.tf32, .f64), of two (.f16, .bf16) and of four 8-bit containers (.e4m3 … .e2m1) differ only in
 * how many slots a thread has. `.kind::f8f6f4`'s FP6 and FP4 elements sit in 8-bit containers
 * (9.7.14.5.14), so they take the 8-bit layout of m16n8k32.
 *
 * wgmma (9.7.15.5.1, register fragments): warp w of the warpgroup holds rows 16w … 16w + 15 of
 * A (when A is in registers) and of D, each warp's 16 rows laid out as mma's m16n8 fragments of
 * the same types (A: m16n8k16 .f16/.bf16, m16n8k8 .tf32, m16n8k32 8-bit; D: the m16n8
 * accumulator, repeated for every 8 columns: d[4j … 4j + 3] are columns 8j … 8j + 7). B is in
 * shared memory (matrix-shared-memory.ts).
 *
 * m8n8k4 with .f16: a warp computes four products (9.7.14.5.1); lanes 4p..4p+3 and
 * 16+4p..16+4p+3 hold product p, so a coordinate names its product.
 */
import type { Form } from './instruction.ts';

export type FragmentOperand = 'a' | 'b' | 'c' | 'd';

export interface ElementCoordinate {
  /** Which of the warp's products (0 except m8n8k4 .f16). */
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

/** Elements of the operand's fragment in each thread. */
export function fragmentElements(form: Form, operand: FragmentOperand): number {
  return form.matrix!.fragments[operand]!.elements;
}

/**
 * Bits of one element's slot in a register, as the form's places hold the element: 8 for the
 * 8-bit containers (FP8, FP6, FP4), 16 for f16/bf16, 32 for tf32 and f32, 64 for f64.
 */
export function slotBits(form: Form, operand: FragmentOperand): number {
  const element = form.elements[0]!;
  const place = operand === 'd' ? element.dest : element.inputs.find((p) => p.operand === operand)!;
  return place.slot.hi - place.slot.lo + 1;
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

/**
 * The element that slot `i` of `operand`'s fragment holds in thread `thread` (a lane of the warp;
 * for wgmma a thread of the warpgroup, 0 … 127).
 */
export function fragmentCoordinate(
  form: Form,
  operand: FragmentOperand,
  thread: number,
  i: number,
): ElementCoordinate {
  // m8n8k4 .f16: eight threads per product (fewerThreads in records/matrix.ts).
  if (form.matrix!.threads === 8) return m8n8k4(form, operand, thread, i);
  const lane = thread % 32;
  const g = lane >> 2;
  const t = lane % 4;
  // wgmma: warp w of the warpgroup holds rows 16w … 16w + 15 of A and D.
  const rows = 16 * (thread >> 5);
  const { k } = form.matrix!.shape;
  const bits = slotBits(form, operand);
  if (operand === 'c' || operand === 'd')
    return {
      product: 0,
      row: rows + g + 8 * ((i >> 1) & 1),
      col: 8 * (i >> 2) + 2 * t + (i & 1),
    };
  if (operand === 'a') {
    if (bits >= 32)
      // tf32, f64: rows alternate (g, g + 8), then the columns step by 4.
      return { product: 0, row: rows + g + 8 * (i & 1), col: t + 4 * (i >> 1) };
    if (bits === 16)
      // f16/bf16 m16n8k8 (i < 4) and m16n8k16.
      return {
        product: 0,
        row: rows + g + 8 * ((i >> 1) & 1),
        col: 2 * t + (i & 1) + 8 * (i >> 2),
      };
    // 8-bit containers: m16n8k16 (i < 8) and m16n8k32.
    return k === 16
      ? { product: 0, row: rows + g + 8 * (i >> 2), col: 4 * t + (i & 3) }
      : {
          product: 0,
          row: rows + g + 8 * ((i >> 2) & 1),
          col: 4 * t + (i & 3) + 16 * (i >> 3),
        };
  }
  // B
  if (bits >= 32) return { product: 0, row: t + 4 * i, col: g };
  if (bits === 16) return { product: 0, row: 2 * t + (i & 1) + 8 * (i >> 1), col: g };
  return k === 16
    ? { product: 0, row: 4 * t + i, col: g }
    : { product: 0, row: 4 * t + (i & 3) + 16 * (i >> 2), col: g };
}

/** The operands a form holds in registers, in fragment order: mma's A, B, C, D; wgmma's A and D. */
export function registerOperands(form: Form): FragmentOperand[] {
  const f = form.matrix!.fragments;
  return (['a', 'b', 'c', 'd'] as const).filter((o) => f[o] !== null);
}

/**
 * Why these formulas do not lay out `operand` of `form`, or null: every slot of every thread
 * must name an element of the operand's matrix (for each product), and every element exactly
 * one slot. What makes a form's layout unknown to them is a slot width or a shape that none of
 * the sections above has: it fails this check, so no program is written by a wrong layout.
 */
export function fragmentLayoutProblem(form: Form, operand: FragmentOperand): string | null {
  const m = form.matrix!;
  const bits = slotBits(form, operand);
  const fragment = m.fragments[operand]!;
  const slots = fragment.elements;
  if (
    ![8, 16, 32, 64].includes(bits) ||
    (fragment.count * (fragment.type === 'f64' ? 64 : 32)) / bits !== slots
  )
    return `${bits}-bit elements of ${operand.toUpperCase()} are not among the fragment layouts of 9.7.14.5`;
  const { rows, cols } = matrixDims(form, operand);
  const products = m.threads === 8 ? 4 : 1;
  const seen = new Uint8Array(products * rows * cols);
  const threads = m.threads === 8 ? 32 : m.threads;
  for (let thread = 0; thread < threads; thread++)
    for (let i = 0; i < slots; i++) {
      const at = fragmentCoordinate(form, operand, thread, i);
      if (at.row < 0 || at.row >= rows || at.col < 0 || at.col >= cols || at.product >= products)
        return `slot ${i} of thread ${thread} falls outside ${operand.toUpperCase()} (${rows} × ${cols})`;
      seen[(at.product * rows + at.row) * cols + at.col]! += 1;
    }
  const wrong = seen.findIndex((x) => x !== 1);
  return wrong === -1
    ? null
    : `element ${wrong} of ${operand.toUpperCase()} is held by ${seen[wrong]} slots, not one`;
}
