/**
 * wgmma's A and B in shared memory, and the 64-bit matrix descriptor that names them (PTX ISA
 * 9.7.15.5.1, "Shared Memory Matrix Layout" and "Matrix Descriptor Format"; 9.7.15.5.2: "Matrices
 * A and B are stored in row-major and column-major format respectively", so both are K-major:
 * each row of A and each column of B has its K elements contiguous).
 *
 * The canonical layout without swizzling is made of core matrices of 8 rows × 16 bytes (8 × 8
 * .f16/.bf16, 8 × 4 .tf32, 8 × 16 FP8 elements), each stored as 128 contiguous bytes, a row's
 * 16 bytes after the other. The descriptor's leading dimension byte offset (LBO) is the distance
 * between two core matrices adjacent in K, its stride dimension byte offset (SBO) between two
 * adjacent in M (A) or N (B). Every dense floating-point wgmma form has 32 bytes of K (k16 ×
 * 2 bytes, k8 × 4, k32 × 1): two core matrices side by side, stored one after the other (LBO =
 * 128), and the next 8 rows after them (SBO = 256).
 *
 * Descriptor bits: 0–13 the matrix start address in shared memory, (address & 0x3FFFF) >> 4;
 * 16–29 LBO >> 4; 32–45 SBO >> 4; 49–51 the base offset (0: no swizzling); 62–63 the swizzle mode
 * (0: none).
 */
import type { Form } from './instruction.ts';
import { slotBits } from './matrix-fragments.ts';

/** Bytes of one core matrix's row, and of the whole core matrix (8 rows). */
const CORE_ROW_BYTES = 16;
const CORE_BYTES = 8 * CORE_ROW_BYTES;

export interface SharedMatrixLayout {
  /** Rows of the K-major matrix: M for A, N for B. */
  readonly rows: number;
  /** Bytes of one element (its container). */
  readonly elementBytes: number;
  /** The matrix's bytes in shared memory. */
  readonly bytes: number;
  /** Between core matrices adjacent in K (LBO) and in M or N (SBO), in bytes. */
  readonly leadingByteOffset: number;
  readonly strideByteOffset: number;
}

/** How A (M × K) or B (K × N) of a wgmma form lies in shared memory. */
export function sharedMatrixLayout(form: Form, operand: 'a' | 'b'): SharedMatrixLayout {
  const { m, n, k } = form.matrix!.shape;
  const rows = operand === 'a' ? m : n;
  const elementBytes = slotBits(form, operand) / 8;
  const coresAlongK = Math.ceil((k * elementBytes) / CORE_ROW_BYTES);
  return {
    rows,
    elementBytes,
    bytes: (rows / 8) * coresAlongK * CORE_BYTES,
    leadingByteOffset: CORE_BYTES,
    strideByteOffset: coresAlongK * CORE_BYTES,
  };
}

/**
 * The byte offset of an element from the matrix's start: A's element (row, col) is row `row` of
 * the K-major matrix at K index `col`; B's element (row, col) is row `col` at K index `row`.
 */
export function sharedElementOffset(
  layout: SharedMatrixLayout,
  operand: 'a' | 'b',
  row: number,
  col: number,
): number {
  const [r, kIndex] = operand === 'a' ? [row, col] : [col, row];
  const kByte = kIndex * layout.elementBytes;
  return (
    Math.floor(r / 8) * layout.strideByteOffset +
    Math.floor(kByte / CORE_ROW_BYTES) * layout.leadingByteOffset +
    (r % 8) * CORE_ROW_BYTES +
    (kByte % CORE_ROW_BYTES)
  );
}

/** The descriptor's fields other than the start address (known only on the GPU), as bits. */
export function descriptorFieldBits(layout: SharedMatrixLayout): bigint {
  return (
    (BigInt(layout.leadingByteOffset >> 4) << 16n) | (BigInt(layout.strideByteOffset >> 4) << 32n)
  );
}
