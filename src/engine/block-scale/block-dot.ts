/**
 * A quantized row and column into the block-scaled mma (issue 26, item 4): the block-scaled
 * mma element (semantics/block-scaled-dot.ts) of the quantized row and column, against the exact
 * dot product of the values they came from.
 *
 *   MX (32 elements, UE8M0): .kind::mxf8f6f4, .scale_vec::1X, k = 32: the row and column as
 *     they are, one scale each.
 *   NVFP4 (16 elements, UE4M3): .kind::mxf4nvf4, .scale_vec::4X, k = 64: the block is the first
 *     of the four chunks of 16; the other three hold +0 elements under a scale of 1.0 (0x38),
 *     adding nothing. The tensor scales are outside the mma: the result is d × global_A ×
 *     global_B, exact here (a kernel multiplies it in f32 afterwards).
 */
import {
  add,
  dyadicOfRational,
  exactValueOfDyadic,
  isZero,
  multiply,
  negate,
  ZERO,
  type Dyadic,
} from '../exact.ts';
import { doubleOfDyadic } from '../double.ts';
import { FORMATS, valueOfBits } from '../format.ts';
import {
  blockScaledDot,
  type BlockScaledDot,
  type BlockScaledDotError,
  type BlockScaledDotRequest,
} from '../semantics/block-scaled-dot.ts';
import type { ExactValue } from '../value.ts';
import type { BlockQuantization } from './index.ts';

export interface BlockDotHandOff {
  /** The mma form, as PTX writes it. */
  readonly form: string;
  readonly request: BlockScaledDotRequest;
  /** +0 elements added to fill k (NVFP4: 48). */
  readonly padding: number;
  readonly mma: BlockScaledDot | BlockScaledDotError;
  /** d, times the two tensor scales for NVFP4; null where d is not finite. */
  readonly result: ExactValue | null;
  /** Σ x_i·y_i of the original values, exact; null where a value is not finite. */
  readonly exact: ExactValue | null;
  /** result − exact, and |result − exact| / |exact| (null for an exact zero). */
  readonly error: ExactValue | null;
  readonly relative: number | null;
}

const NVFP4_PAD_SCALE = 0x38n; // UE4M3 1.0

const finiteOf = (bits: number): Dyadic | null => {
  const v = valueOfBits(BigInt(bits >>> 0), FORMATS.f32);
  return v.kind === 'finite' ? v.x : null;
};

const dyadicOf = (v: ExactValue): Dyadic | null =>
  v.kind === 'finite' ? dyadicOfRational(v.rational) : null;

export function blockDotHandOff(
  row: BlockQuantization,
  column: BlockQuantization,
  rowValues: readonly number[],
  columnValues: readonly number[],
): BlockDotHandOff {
  const nv = row.scheme === 'nvfp4';
  const k = nv ? 64 : 32;
  const bits = (q: BlockQuantization) => [
    ...q.elements.map((e) => BigInt(e.stored.bits)),
    ...Array<bigint>(k - q.elements.length).fill(0n),
  ];
  const scales = (q: BlockQuantization) =>
    nv
      ? [BigInt(q.scale.bits), NVFP4_PAD_SCALE, NVFP4_PAD_SCALE, NVFP4_PAD_SCALE]
      : [BigInt(q.scale.bits)];
  const request: BlockScaledDotRequest = {
    kind: nv ? 'mxf4nvf4' : 'mxf8f6f4',
    scaleVec: nv ? '4X' : '1X',
    atype: row.element,
    btype: column.element,
    stype: nv ? 'ue4m3' : 'ue8m0',
    a: bits(row),
    b: bits(column),
    c: 0n,
    scaleA: scales(row),
    scaleB: scales(column),
  };
  const form = nv
    ? 'mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3'
    : `mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.${row.element}.${column.element}.f32.ue8m0`;
  const mma = blockScaledDot(request);

  let result: Dyadic | null = mma.ok ? dyadicOf(mma.value) : null;
  if (result && nv) {
    const ga = row.globalScale ? dyadicOf(row.globalScale.value) : null;
    const gb = column.globalScale ? dyadicOf(column.globalScale.value) : null;
    result = ga && gb ? multiply(multiply(result, ga), gb) : null;
  }
  let exact: Dyadic | null = ZERO;
  for (let i = 0; i < rowValues.length && exact; i++) {
    const x = finiteOf(rowValues[i]!);
    const y = finiteOf(columnValues[i]!);
    exact = x && y ? add(exact, multiply(x, y)) : null;
  }
  const error = result && exact ? add(result, negate(exact)) : null;
  return {
    form,
    request,
    padding: k - row.elements.length,
    mma,
    result: result ? exactValueOfDyadic(result) : null,
    exact: exact ? exactValueOfDyadic(exact) : null,
    error: error ? exactValueOfDyadic(error) : null,
    relative:
      // A figure for people: the products of binary32 values stay far inside a double's range.
      error && exact && !isZero(exact)
        ? Math.abs(doubleOfDyadic(error) / doubleOfDyadic(exact))
        : null,
  };
}
